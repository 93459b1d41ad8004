import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { RecurringGift } from '../../domain/recurring-gifts/recurring-gift.entity';
import { toMajor } from '../../domain/shared/money';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const recurringGiftJson = (gift: RecurringGift) => ({
  id: gift.id,
  object: 'recurring_gift',
  status: gift.status,
  paymentLinkId: gift.paymentLinkId,
  checkoutSessionId: gift.checkoutSessionId,
  customerId: gift.customerId,
  paymentMethodId: gift.paymentMethodId,
  email: gift.email,
  amount: toMajor(gift.amount, gift.currency),
  amountMinor: gift.amount.toString(),
  currency: gift.currency.toLowerCase(),
  interval: gift.interval,
  nextChargeAt: iso(gift.nextChargeAt),
  chargeCount: gift.chargeCount,
  failureCount: gift.failureCount,
  lastChargeAt: iso(gift.lastChargeAt),
  lastPaymentId: gift.lastPaymentId,
  lastError: gift.lastError,
  pausedAt: iso(gift.pausedAt),
  cancelledAt: iso(gift.cancelledAt),
  livemode: gift.livemode,
  createdAt: gift.createdAt.toISOString(),
  updatedAt: gift.updatedAt.toISOString(),
});

type ById = { Params: { id: string } };

/** Recurring gifts: list, read, cancel, resume, and the sandbox's charge-now. */
export function recurringGiftRoutes(app: FastifyInstance, core: Core) {
  app.get<{ Querystring: Record<string, string> }>('/api/v1/business/recurring-gifts', async (request) => {
    const page = await core.recurringGifts.listPage(authenticated(request), request.query);
    return success({ items: page.items.map(recurringGiftJson), total: page.total, page: page.page, limit: page.limit });
  });

  app.get<ById>('/api/v1/business/recurring-gifts/:id', async (request) =>
    success(recurringGiftJson(await core.recurringGifts.get(authenticated(request), request.params.id))));

  app.post<ById>('/api/v1/business/recurring-gifts/:id/cancel', async (request) =>
    success(recurringGiftJson(await core.recurringGifts.cancel(authenticated(request), request.params.id))));

  app.post<ById>('/api/v1/business/recurring-gifts/:id/resume', async (request) =>
    success(recurringGiftJson(await core.recurringGifts.resume(authenticated(request), request.params.id))));

  app.post<ById>('/api/v1/business/sandbox/recurring-gifts/:id/charge-now', async (request) =>
    success(recurringGiftJson(await core.recurringGifts.sandboxChargeNow(authenticated(request), request.params.id))));
}
