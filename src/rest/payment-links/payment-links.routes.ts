import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { PaymentLink } from '../../domain/payment-links/payment-link.entity';
import { toMajor } from '../../domain/shared/money';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';

export const paymentLinkJson = (core: Core, link: PaymentLink) => ({
  id: link.id,
  object: 'payment_link',
  url: core.paymentLinks.urlOf(link),
  name: link.name,
  description: link.description,
  amount: toMajor(link.amount, link.currency),
  amountMinor: link.amount.toString(),
  currency: link.currency.toLowerCase(),
  active: link.active,
  allowRecurring: link.allowRecurring,
  recurringInterval: link.recurringInterval,
  successUrl: link.successUrl,
  metadata: link.metadata,
  deactivatedAt: link.deactivatedAt ? link.deactivatedAt.toISOString() : null,
  livemode: link.livemode,
  createdAt: link.createdAt.toISOString(),
  updatedAt: link.updatedAt.toISOString(),
});

type ById = { Params: { id: string } };

/** Payment links: create, list, read, deactivate. */
export function paymentLinkRoutes(app: FastifyInstance, core: Core) {
  app.post('/api/v1/business/payment-links', async (request, reply) => {
    const link = await core.paymentLinks.create(authenticated(request), request.body);
    reply.status(201);
    return success(paymentLinkJson(core, link));
  });

  app.get<{ Querystring: Record<string, string> }>('/api/v1/business/payment-links', async (request) => {
    const page = await core.paymentLinks.listPage(authenticated(request), request.query);
    return success({ items: page.items.map((link) => paymentLinkJson(core, link)), total: page.total, page: page.page, limit: page.limit });
  });

  app.get<ById>('/api/v1/business/payment-links/:id', async (request) =>
    success(paymentLinkJson(core, await core.paymentLinks.get(authenticated(request), request.params.id))));

  app.post<ById>('/api/v1/business/payment-links/:id/deactivate', async (request) =>
    success(paymentLinkJson(core, await core.paymentLinks.deactivate(authenticated(request), request.params.id))));
}
