import { ErrorCode } from '../../domain/shared/errors';
import { Core } from '../../domain/core';
import { authenticated } from '../../http/request-context';
import { declaredResponses, idParamsSchema, offsetListOf, offsetPageOf } from '../checkout/checkout.validators';
import { success } from '../shared/envelope';
import type { RestApp } from '../surface';
import {
  createLinkBodySchema,
  createLinkCommand,
  linkFiltersOf,
  listLinksQuerySchema,
  paymentLinkJson,
  paymentLinkListSchema,
  paymentLinkSchema,
} from './payment-links.validators';

export { paymentLinkJson };

const one = { params: idParamsSchema, response: declaredResponses({ 200: paymentLinkSchema }) };

/** Payment links: create, list, read, deactivate. */
export function paymentLinkRoutes(app: RestApp, core: Core) {
  app.post(
    '/api/v1/business/payment-links',
    {
      schema: {
        body: createLinkBodySchema,
        response: declaredResponses({ 201: paymentLinkSchema }, [ErrorCode.UNSUPPORTED_CURRENCY]),
      },
    },
    async (request, reply) => {
      const link = await core.paymentLinks.create(authenticated(request), createLinkCommand(request.body));
      return reply.status(201).send(success(paymentLinkJson(core, link)));
    },
  );

  app.get(
    '/api/v1/business/payment-links',
    { schema: { querystring: listLinksQuerySchema, response: declaredResponses({ 200: paymentLinkListSchema }) } },
    async (request) => {
      const page = offsetPageOf(request.query);
      const links = await core.paymentLinks.list(authenticated(request), linkFiltersOf(request.query), page);
      return success(offsetListOf(links, page, (link) => paymentLinkJson(core, link)));
    },
  );

  app.get('/api/v1/business/payment-links/:id', { schema: one }, async (request) =>
    success(paymentLinkJson(core, await core.paymentLinks.get(authenticated(request), request.params.id))),
  );

  app.post('/api/v1/business/payment-links/:id/deactivate', { schema: one }, async (request) =>
    success(paymentLinkJson(core, await core.paymentLinks.deactivate(authenticated(request), request.params.id))),
  );
}
