import { ErrorCode } from '../../domain/shared/errors';
import { LedgerErrorCode } from '../../domain/ledger';
import { Payment, PaymentsErrorCode } from '../../domain/payments';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { idParamsSchema, responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import {
  chargeBodySchema,
  chargeCommandOf,
  disputeBodySchema,
  disputeFiltersOf,
  disputeJson,
  disputeListQuerySchema,
  disputeListSchema,
  disputeResultSchema,
  disputeSchema,
  offsetPageOf,
  openDisputeCommandOf,
  paymentDetailSchema,
  paymentFiltersOf,
  paymentJson,
  paymentListQuerySchema,
  paymentListSchema,
  paymentSchema,
  refundBodySchema,
  refundCommandOf,
  refundJson,
  refundListSchema,
  refundResultSchema,
  resolveDisputeBodySchema,
  resolveDisputeCommandOf,
} from './payments.validators';

/** Charges, payments, refunds, 3-D Secure completion, disputes, and the sandbox's settlement and dispute helpers. */
export function paymentRoutes(app: RestApp, core: Core) {
  const { payments, charges, settlements, refunds, disputes } = core;
  const withDetail = async (ctx: RequestContext, payment: Payment) => ({
    ...paymentJson(payment),
    refunds: (await payments.refundsOf(ctx, [payment.id])).map(refundJson),
    disputes: (await payments.disputesOf(ctx, [payment.id])).map(disputeJson),
  });

  app.post(
    '/api/v1/business/payment/charge',
    {
      schema: {
        body: chargeBodySchema,
        response: responses({ 201: paymentSchema }, [ErrorCode.UNSUPPORTED_CURRENCY, PaymentsErrorCode.CARD_DECLINED]),
      },
    },
    async (request, reply) => {
      const payment = await charges.charge(authenticated(request), chargeCommandOf(request.body));
      reply.status(201);
      return success(paymentJson(payment));
    },
  );

  app.get(
    '/api/v1/business/payments',
    { schema: { querystring: paymentListQuerySchema, response: responses({ 200: paymentListSchema }) } },
    async (request) => {
      const page = offsetPageOf(request.query);
      const list = await payments.list(authenticated(request), paymentFiltersOf(request.query), page);
      return success({ items: list.items.map(paymentJson), total: list.total!, page: page.page, limit: page.limit });
    },
  );

  app.get(
    '/api/v1/business/payments/:id',
    { schema: { params: idParamsSchema, response: responses({ 200: paymentDetailSchema }) } },
    async (request) => {
      const ctx = authenticated(request);
      return success(await withDetail(ctx, await payments.get(ctx, request.params.id)));
    },
  );

  app.post(
    '/api/v1/business/payments/:id/3ds/complete',
    { schema: { params: idParamsSchema, response: responses({ 200: paymentSchema }) } },
    async (request) =>
      success(paymentJson(await charges.completeThreeDSecure(authenticated(request), request.params.id))),
  );

  app.post(
    '/api/v1/business/payments/:id/refunds',
    {
      schema: {
        params: idParamsSchema,
        body: refundBodySchema,
        response: responses({ 201: refundResultSchema }, [LedgerErrorCode.INSUFFICIENT_FUNDS]),
      },
    },
    async (request, reply) => {
      const { refund, payment } = await refunds.refund(
        authenticated(request),
        refundCommandOf(request.params.id, request.body),
      );
      reply.status(201);
      return success({ ...refundJson(refund), payment: paymentJson(payment) });
    },
  );

  app.get(
    '/api/v1/business/payments/:id/refunds',
    { schema: { params: idParamsSchema, response: responses({ 200: refundListSchema }) } },
    async (request) => {
      const ctx = authenticated(request);
      const refunds = await payments.refundsOf(ctx, [(await payments.get(ctx, request.params.id)).id]);
      return success({ items: refunds.map(refundJson), total: refunds.length });
    },
  );

  app.get(
    '/api/v1/business/disputes',
    { schema: { querystring: disputeListQuerySchema, response: responses({ 200: disputeListSchema }) } },
    async (request) => {
      const page = offsetPageOf(request.query);
      const list = await disputes.list(authenticated(request), disputeFiltersOf(request.query), page);
      return success({ items: list.items.map(disputeJson), total: list.total!, page: page.page, limit: page.limit });
    },
  );

  app.get(
    '/api/v1/business/disputes/:id',
    { schema: { params: idParamsSchema, response: responses({ 200: disputeSchema }) } },
    async (request) => success(disputeJson(await disputes.get(authenticated(request), request.params.id))),
  );

  app.post(
    '/api/v1/business/sandbox/payments/:id/settle',
    {
      schema: {
        params: idParamsSchema,
        response: responses({ 200: paymentSchema }, [ErrorCode.SANDBOX_ONLY, LedgerErrorCode.INSUFFICIENT_FUNDS]),
      },
    },
    async (request) => success(paymentJson(await settlements.sandboxSettle(authenticated(request), request.params.id))),
  );

  app.post(
    '/api/v1/business/sandbox/payments/:id/dispute',
    {
      schema: {
        params: idParamsSchema,
        body: disputeBodySchema,
        response: responses({ 201: disputeResultSchema }, [ErrorCode.SANDBOX_ONLY, LedgerErrorCode.INSUFFICIENT_FUNDS]),
      },
    },
    async (request, reply) => {
      const { dispute, payment } = await disputes.open(
        authenticated(request),
        openDisputeCommandOf(request.params.id, request.body),
      );
      reply.status(201);
      return success({ ...disputeJson(dispute), payment: paymentJson(payment) });
    },
  );

  app.post(
    '/api/v1/business/sandbox/disputes/:id/resolve',
    {
      schema: {
        params: idParamsSchema,
        body: resolveDisputeBodySchema,
        response: responses({ 200: disputeResultSchema }, [ErrorCode.SANDBOX_ONLY, LedgerErrorCode.INSUFFICIENT_FUNDS]),
      },
    },
    async (request) => {
      const { dispute, payment } = await disputes.resolve(
        authenticated(request),
        resolveDisputeCommandOf(request.params.id, request.body),
      );
      return success({ ...disputeJson(dispute), payment: paymentJson(payment) });
    },
  );
}
