import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { Dispute, Payment, PaymentStatus, Refund } from '../../domain/payments/payment.entities';
import { toMajor } from '../../domain/shared/money';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const major = (minor: bigint, currency: string) => toMajor(minor, currency);

/** The payment resource of the REST face (the document leaves its fields open; docs/rest-api.md lists them). */
export const paymentJson = (payment: Payment) => ({
  id: payment.id,
  paymentId: payment.id,
  object: 'payment',
  status: payment.status,
  amount: major(payment.amount, payment.currency),
  currency: payment.currency.toLowerCase(),
  email: payment.email,
  customerId: payment.customerId,
  card: {
    brand: payment.cardBrand,
    last4: payment.cardLast4,
    expiryMonth: payment.cardExpiryMonth,
    expiryYear: payment.cardExpiryYear,
    country: payment.cardCountry,
    fingerprint: payment.cardFingerprint,
  },
  failureReason: payment.failureReason,
  failureMessage: payment.failureMessage,
  threeDSecure: payment.threeDSecure,
  nextAction: payment.status === PaymentStatus.REQUIRES_ACTION
    ? { type: 'three_d_secure', complete: `POST /api/v1/business/payments/${payment.id}/3ds/complete` }
    : null,
  source: payment.source,
  sourceId: payment.sourceId,
  amountRefunded: major(payment.amountRefunded, payment.currency),
  amountDisputed: major(payment.amountDisputed, payment.currency),
  fee: major(payment.feeAmount, payment.currency),
  metadata: payment.metadata,
  livemode: payment.livemode,
  capturedAt: iso(payment.capturedAt),
  settledAt: iso(payment.settledAt),
  createdAt: payment.createdAt.toISOString(),
  updatedAt: payment.updatedAt.toISOString(),
});

export const refundJson = (refund: Refund) => ({
  id: refund.id,
  refundId: refund.id,
  object: 'refund',
  paymentId: refund.paymentId,
  amount: major(refund.amount, refund.currency),
  currency: refund.currency.toLowerCase(),
  reason: refund.reason,
  status: refund.status,
  livemode: refund.livemode,
  createdAt: refund.createdAt.toISOString(),
});

export const disputeJson = (dispute: Dispute) => ({
  id: dispute.id,
  disputeId: dispute.id,
  object: 'dispute',
  paymentId: dispute.paymentId,
  status: dispute.status,
  amount: major(dispute.amount, dispute.currency),
  fee: major(dispute.fee, dispute.currency),
  currency: dispute.currency.toLowerCase(),
  reason: dispute.reason,
  livemode: dispute.livemode,
  resolvedAt: iso(dispute.resolvedAt),
  createdAt: dispute.createdAt.toISOString(),
  updatedAt: dispute.updatedAt.toISOString(),
});

type ById = { Params: { id: string } };

/** Charges, payments, refunds, 3-D Secure completion, and the sandbox's settlement and dispute helpers. */
export function paymentRoutes(app: FastifyInstance, core: Core) {
  const payments = core.payments;
  const withDetail = async (ctx: ReturnType<typeof authenticated>, payment: Payment) => ({
    ...paymentJson(payment),
    refunds: (await payments.refundsOf(ctx, [payment.id])).map(refundJson),
    disputes: (await payments.disputesOf(ctx, [payment.id])).map(disputeJson),
  });

  app.post('/api/v1/business/payment/charge', async (request, reply) => {
    const payment = await payments.charge(authenticated(request), request.body);
    reply.status(201);
    return success(paymentJson(payment));
  });

  app.get<{ Querystring: Record<string, string> }>('/api/v1/business/payments', async (request) => {
    const page = await payments.listPage(authenticated(request), request.query);
    return success({ items: page.items.map(paymentJson), total: page.total, page: page.page, limit: page.limit });
  });

  app.get<ById>('/api/v1/business/payments/:id', async (request) => {
    const ctx = authenticated(request);
    return success(await withDetail(ctx, await payments.get(ctx, request.params.id)));
  });

  app.post<ById>('/api/v1/business/payments/:id/3ds/complete', async (request) =>
    success(paymentJson(await payments.completeThreeDSecure(authenticated(request), request.params.id))));

  app.post<ById>('/api/v1/business/payments/:id/refunds', async (request, reply) => {
    const { refund, payment } = await payments.refund(authenticated(request), request.params.id, request.body);
    reply.status(201);
    return success({ ...refundJson(refund), payment: paymentJson(payment) });
  });

  app.get<ById>('/api/v1/business/payments/:id/refunds', async (request) => {
    const ctx = authenticated(request);
    const payment = await payments.get(ctx, request.params.id);
    const refunds = await payments.refundsOf(ctx, [payment.id]);
    return success({ items: refunds.map(refundJson), total: refunds.length });
  });

  app.get<{ Querystring: Record<string, string> }>('/api/v1/business/disputes', async (request) => {
    const page = await payments.disputePage(authenticated(request), request.query);
    return success({ items: page.items.map(disputeJson), total: page.total, page: page.page, limit: page.limit });
  });

  app.get<ById>('/api/v1/business/disputes/:id', async (request) =>
    success(disputeJson(await payments.dispute(authenticated(request), request.params.id))));

  app.post<ById>('/api/v1/business/sandbox/payments/:id/settle', async (request) =>
    success(paymentJson(await payments.sandboxSettle(authenticated(request), request.params.id))));

  app.post<ById>('/api/v1/business/sandbox/payments/:id/dispute', async (request, reply) => {
    const { dispute, payment } = await payments.sandboxOpenDispute(authenticated(request), request.params.id, request.body);
    reply.status(201);
    return success({ ...disputeJson(dispute), payment: paymentJson(payment) });
  });

  app.post<ById>('/api/v1/business/sandbox/disputes/:id/resolve', async (request) => {
    const { dispute, payment } = await payments.sandboxResolveDispute(authenticated(request), request.params.id, request.body);
    return success({ ...disputeJson(dispute), payment: paymentJson(payment) });
  });
}
