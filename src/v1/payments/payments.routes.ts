import { ErrorCode } from '../../domain/shared/errors';
import { Core } from '../../domain/core';
import { v1Caller } from '../guards';
import { v1Responses } from '../schemas';
import type { V1App } from '../surface';
import { z } from 'zod';
import {
  createPaymentBodySchema,
  listPaymentsQuerySchema,
  paymentJson,
  paymentListJson,
  paymentListSchema,
  paymentSchema,
  toCreatePaymentCommand,
  toPageQuery,
  toPaymentFilters,
} from './payments.validators';

const byId = { params: z.object({ id: z.string() }) };

/** `/v1/payments`: create (spends the `create` budget), read, list. */
export function paymentRoutes(app: V1App, core: Core) {
  const { v1Payments } = core;

  app.post(
    '/payments',
    {
      schema: {
        body: createPaymentBodySchema,
        response: v1Responses({ 201: paymentSchema }, [ErrorCode.UNSUPPORTED_CURRENCY]),
      },
      config: { v1Budget: 'create' },
    },
    async (request, reply) => {
      const payment = await v1Payments.create(v1Caller(request), toCreatePaymentCommand(request.body));
      reply.status(201);
      return paymentJson(payment);
    },
  );

  app.get('/payments/:id', { schema: { ...byId, response: v1Responses({ 200: paymentSchema }) } }, async (request) =>
    paymentJson(await v1Payments.get(v1Caller(request), request.params.id)),
  );

  app.get(
    '/payments',
    { schema: { querystring: listPaymentsQuerySchema, response: v1Responses({ 200: paymentListSchema }) } },
    async (request) =>
      paymentListJson(
        await v1Payments.list(v1Caller(request), toPaymentFilters(request.query), toPageQuery(request.query)),
      ),
  );
}
