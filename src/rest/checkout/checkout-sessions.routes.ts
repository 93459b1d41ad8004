import { ErrorCode } from '../../domain/shared/errors';
import { Core } from '../../domain/core';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import type { RestApp } from '../surface';
import {
  checkoutSessionJson,
  checkoutSessionListSchema,
  declaredResponses,
  checkoutSessionSchema,
  createSessionBodySchema,
  createSessionCommand,
  idParamsSchema,
  listSessionsQuerySchema,
  offsetListOf,
  offsetPageOf,
  sessionFiltersOf,
} from './checkout.validators';

export { checkoutSessionJson };

/** Hosted checkout sessions; both documented creation paths are the same operation. */
export function checkoutSessionRoutes(app: RestApp, core: Core) {
  for (const path of ['/api/v1/business/checkout/session', '/api/v1/business/payment/session']) {
    app.post(
      path,
      {
        schema: {
          body: createSessionBodySchema,
          response: declaredResponses({ 201: checkoutSessionSchema }, [ErrorCode.UNSUPPORTED_CURRENCY]),
        },
      },
      async (request, reply) => {
        const session = await core.checkout.create(authenticated(request), createSessionCommand(request.body));
        return reply.status(201).send(success(checkoutSessionJson(core, session)));
      },
    );
  }

  app.get(
    '/api/v1/business/checkout/sessions',
    {
      schema: { querystring: listSessionsQuerySchema, response: declaredResponses({ 200: checkoutSessionListSchema }) },
    },
    async (request) => {
      const page = offsetPageOf(request.query);
      const sessions = await core.checkout.list(authenticated(request), sessionFiltersOf(request.query), page);
      return success(offsetListOf(sessions, page, (session) => checkoutSessionJson(core, session)));
    },
  );

  app.get(
    '/api/v1/business/checkout/sessions/:id',
    { schema: { params: idParamsSchema, response: declaredResponses({ 200: checkoutSessionSchema }) } },
    async (request) =>
      success(checkoutSessionJson(core, await core.checkout.get(authenticated(request), request.params.id))),
  );
}
