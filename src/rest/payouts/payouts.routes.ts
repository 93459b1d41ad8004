import { ErrorCode } from '../../domain/shared/errors';
import { LedgerErrorCode } from '../../domain/ledger';
import { payoutObject, PayoutsErrorCode } from '../../domain/payouts';
import { Core } from '../../domain/core';
import { ListPage } from '../../domain/shared/pagination';
import { authenticated } from '../../http/request-context';
import {
  advancePayoutBodySchema,
  createBatchBodySchema,
  createPayoutBodySchema,
  createQuoteBodySchema,
  createRecipientBodySchema,
  rejectPayoutBodySchema,
  toAdvancePayoutCommand,
  toCreateBatchCommand,
  toCreatePayoutCommand,
  toCreateQuoteCommand,
  toCreateRecipientCommand,
} from '../../wire/payouts';
import { success } from '../shared/envelope';
import { idParamsSchema, responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import {
  batchJson,
  batchSchema,
  payoutJson,
  payoutSchema,
  payoutsQuerySchema,
  quoteJson,
  quoteSchema,
  recipientJson,
  recipientSchema,
  recipientsQuerySchema,
  skipTakeListSchema,
  skipTakeOf,
  skipTakeQuerySchema,
  toPayoutFilters,
  toRecipientFilters,
} from './payouts.validators';

const PAYOUTS = '/api/v1/business/payouts';
const byId = { params: idParamsSchema };

/** `{ items, total, skip, take }` of a page. */
const listOf = <T, J>(page: ListPage<T>, query: { skip: number; take: number }, json: (item: T) => J) => ({
  items: page.items.map(json),
  total: page.total ?? page.items.length,
  skip: query.skip,
  take: query.take,
});

const payoutOut = (payout: Parameters<typeof payoutObject>[0]) => payoutJson(payoutObject(payout));

/** Payouts (design section 8): recipients, quotes, payouts, review, batches and the sandbox advance helper. */
export function payoutRoutes(app: RestApp, core: Core) {
  const { recipients, quotes, payouts, payoutBatches } = core;

  app.post(
    `${PAYOUTS}/recipients`,
    {
      schema: {
        body: createRecipientBodySchema,
        response: responses({ 200: recipientSchema, 201: recipientSchema }, [
          PayoutsErrorCode.SANCTIONS_MATCH,
          ErrorCode.UNSUPPORTED_CURRENCY,
        ]),
      },
    },
    async (request, reply) => {
      const { recipient, created } = await recipients.create(
        authenticated(request),
        toCreateRecipientCommand(request.body),
      );
      reply.status(created ? 201 : 200);
      return success(recipientJson(recipient));
    },
  );

  app.get(
    `${PAYOUTS}/recipients`,
    {
      schema: { querystring: recipientsQuerySchema, response: responses({ 200: skipTakeListSchema(recipientSchema) }) },
    },
    async (request) => {
      const page = skipTakeOf(request.query);
      return success(
        listOf(
          await recipients.list(authenticated(request), toRecipientFilters(request.query), page),
          page,
          recipientJson,
        ),
      );
    },
  );

  app.get(
    `${PAYOUTS}/recipients/:id`,
    { schema: { ...byId, response: responses({ 200: recipientSchema }) } },
    async (request) => success(recipientJson(await recipients.get(authenticated(request), request.params.id))),
  );

  app.delete(
    `${PAYOUTS}/recipients/:id`,
    { schema: { ...byId, response: responses({ 200: recipientSchema }) } },
    async (request) => success(recipientJson(await recipients.archive(authenticated(request), request.params.id))),
  );

  app.post(
    `${PAYOUTS}/quote`,
    {
      schema: {
        body: createQuoteBodySchema,
        response: responses({ 201: quoteSchema }, [ErrorCode.UNSUPPORTED_CURRENCY]),
      },
    },
    async (request, reply) => {
      const quote = await quotes.create(authenticated(request), toCreateQuoteCommand(request.body));
      reply.status(201);
      return success(quoteJson(quote));
    },
  );

  app.post(
    PAYOUTS,
    {
      schema: {
        body: createPayoutBodySchema,
        response: responses({ 201: payoutSchema }, [
          LedgerErrorCode.INSUFFICIENT_FUNDS,
          ErrorCode.UNSUPPORTED_CURRENCY,
          PayoutsErrorCode.INVALID_PIN,
          PayoutsErrorCode.PIN_LOCKED,
          PayoutsErrorCode.PIN_NOT_SET,
        ]),
      },
    },
    async (request, reply) => {
      const payout = await payouts.create(authenticated(request), toCreatePayoutCommand(request.body));
      reply.status(201);
      return success(payoutOut(payout));
    },
  );

  app.get(
    PAYOUTS,
    { schema: { querystring: payoutsQuerySchema, response: responses({ 200: skipTakeListSchema(payoutSchema) }) } },
    async (request) => {
      const page = skipTakeOf(request.query);
      return success(
        listOf(await payouts.list(authenticated(request), toPayoutFilters(request.query), page), page, payoutOut),
      );
    },
  );

  app.get(`${PAYOUTS}/:id`, { schema: { ...byId, response: responses({ 200: payoutSchema }) } }, async (request) =>
    success(payoutOut(await payouts.get(authenticated(request), request.params.id))),
  );

  app.post(
    `${PAYOUTS}/:id/cancel`,
    { schema: { ...byId, response: responses({ 200: payoutSchema }) } },
    async (request) => success(payoutOut(await payouts.cancel(authenticated(request), request.params.id))),
  );

  app.post(
    `${PAYOUTS}/:id/approve`,
    { schema: { ...byId, response: responses({ 200: payoutSchema }) } },
    async (request) => success(payoutOut(await payouts.approve(authenticated(request), request.params.id))),
  );

  app.post(
    `${PAYOUTS}/:id/reject`,
    { schema: { ...byId, body: rejectPayoutBodySchema, response: responses({ 200: payoutSchema }) } },
    async (request) =>
      success(
        payoutOut(
          await payouts.reject(authenticated(request), { payoutId: request.params.id, reason: request.body.reason }),
        ),
      ),
  );

  app.post(
    `${PAYOUTS}/batches`,
    {
      schema: {
        body: createBatchBodySchema,
        response: responses({ 201: batchSchema }, [LedgerErrorCode.INSUFFICIENT_FUNDS, ErrorCode.UNSUPPORTED_CURRENCY]),
      },
    },
    async (request, reply) => {
      const batch = await payoutBatches.create(authenticated(request), toCreateBatchCommand(request.body));
      reply.status(201);
      return success(batchJson(batch));
    },
  );

  app.get(
    `${PAYOUTS}/batches`,
    { schema: { querystring: skipTakeQuerySchema, response: responses({ 200: skipTakeListSchema(batchSchema) }) } },
    async (request) => {
      const page = skipTakeOf(request.query);
      return success(listOf(await payoutBatches.list(authenticated(request), page), page, batchJson));
    },
  );

  app.get(
    `${PAYOUTS}/batches/:id`,
    { schema: { ...byId, response: responses({ 200: batchSchema }) } },
    async (request) => success(batchJson(await payoutBatches.get(authenticated(request), request.params.id))),
  );

  app.get(
    `${PAYOUTS}/batches/:id/payouts`,
    {
      schema: {
        ...byId,
        querystring: payoutsQuerySchema,
        response: responses({ 200: skipTakeListSchema(payoutSchema) }),
      },
    },
    async (request) => {
      const page = skipTakeOf(request.query);
      return success(
        listOf(
          await payoutBatches.payouts(authenticated(request), request.params.id, toPayoutFilters(request.query), page),
          page,
          payoutOut,
        ),
      );
    },
  );

  app.post(
    '/api/v1/business/sandbox/payouts/:id/advance',
    {
      schema: {
        ...byId,
        body: advancePayoutBodySchema,
        response: responses({ 200: payoutSchema }, [ErrorCode.SANDBOX_ONLY]),
      },
    },
    async (request) =>
      success(
        payoutOut(
          await payouts.sandboxAdvance(authenticated(request), toAdvancePayoutCommand(request.params.id, request.body)),
        ),
      ),
  );
}
