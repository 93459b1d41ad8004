import { ErrorCode } from '../../domain/shared/errors';
import { Core } from '../../domain/core';
import { authenticated } from '../../http/request-context';
import { declaredResponses, idParamsSchema, offsetListOf, offsetPageOf } from '../checkout/checkout.validators';
import { success } from '../shared/envelope';
import type { RestApp } from '../surface';
import {
  createInvoiceBodySchema,
  createInvoiceCommand,
  invoiceFiltersOf,
  invoiceJson,
  invoiceListSchema,
  invoiceSchema,
  listInvoicesQuerySchema,
} from './invoices.validators';

export { invoiceJson };

const one = { params: idParamsSchema, response: declaredResponses({ 200: invoiceSchema }) };

/** Invoices: create (DRAFT), list, read, finalize/send (OPEN, with a checkout session), void. */
export function invoiceRoutes(app: RestApp, core: Core) {
  app.post(
    '/api/v1/business/invoices',
    {
      schema: {
        body: createInvoiceBodySchema,
        response: declaredResponses({ 201: invoiceSchema }, [ErrorCode.UNSUPPORTED_CURRENCY]),
      },
    },
    async (request, reply) => {
      const invoice = await core.invoices.create(authenticated(request), createInvoiceCommand(request.body));
      return reply.status(201).send(success(invoiceJson(invoice)));
    },
  );

  app.get(
    '/api/v1/business/invoices',
    { schema: { querystring: listInvoicesQuerySchema, response: declaredResponses({ 200: invoiceListSchema }) } },
    async (request) => {
      const page = offsetPageOf(request.query);
      return success(
        offsetListOf(
          await core.invoices.list(authenticated(request), invoiceFiltersOf(request.query), page),
          page,
          invoiceJson,
        ),
      );
    },
  );

  app.get('/api/v1/business/invoices/:id', { schema: one }, async (request) =>
    success(invoiceJson(await core.invoices.get(authenticated(request), request.params.id))),
  );

  // `send` is the documented synonym of `finalize`: one operation.
  for (const action of ['finalize', 'send']) {
    app.post(`/api/v1/business/invoices/:id/${action}`, { schema: one }, async (request) =>
      success(invoiceJson(await core.invoices.finalize(authenticated(request), request.params.id))),
    );
  }

  app.post('/api/v1/business/invoices/:id/void', { schema: one }, async (request) =>
    success(invoiceJson(await core.invoices.void(authenticated(request), request.params.id))),
  );
}
