import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { CheckoutSession } from '../../domain/checkout/checkout-session.entity';
import { toMajor } from '../../domain/shared/money';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const checkoutSessionJson = (core: Core, session: CheckoutSession) => ({
  id: session.id,
  object: 'checkout_session',
  status: session.status,
  amount: toMajor(session.amount, session.currency),
  amountMinor: session.amount.toString(),
  currency: session.currency.toLowerCase(),
  customerEmail: session.customerEmail,
  description: session.description,
  successUrl: core.checkout.successUrlOf(session),
  cancelUrl: session.cancelUrl,
  checkoutUrl: core.checkout.urlOf(session),
  source: session.source,
  sourceId: session.sourceId,
  paymentId: session.paymentId,
  metadata: session.metadata,
  expiresAt: session.expiresAt.toISOString(),
  completedAt: iso(session.completedAt),
  livemode: session.livemode,
  createdAt: session.createdAt.toISOString(),
  updatedAt: session.updatedAt.toISOString(),
});

type ById = { Params: { id: string } };

/** Hosted checkout sessions; both documented creation paths are the same operation. */
export function checkoutSessionRoutes(app: FastifyInstance, core: Core) {
  for (const path of ['/api/v1/business/checkout/session', '/api/v1/business/payment/session']) {
    app.post(path, async (request, reply) => {
      const session = await core.checkout.create(authenticated(request), request.body);
      reply.status(201);
      return success(checkoutSessionJson(core, session));
    });
  }

  app.get<{ Querystring: Record<string, string> }>('/api/v1/business/checkout/sessions', async (request) => {
    const page = await core.checkout.listPage(authenticated(request), request.query);
    return success({ items: page.items.map((session) => checkoutSessionJson(core, session)), total: page.total, page: page.page, limit: page.limit });
  });

  app.get<ById>('/api/v1/business/checkout/sessions/:id', async (request) =>
    success(checkoutSessionJson(core, await core.checkout.get(authenticated(request), request.params.id))));
}
