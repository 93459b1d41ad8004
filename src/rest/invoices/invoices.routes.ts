import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { Invoice } from '../../domain/invoices/invoice.entity';
import { toMajor } from '../../domain/shared/money';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const invoiceJson = (invoice: Invoice) => ({
  id: invoice.id,
  object: 'invoice',
  invoiceNumber: invoice.invoiceNumber,
  status: invoice.status,
  customerEmail: invoice.customerEmail,
  currency: invoice.currency.toLowerCase(),
  items: invoice.items.map((item) => ({
    description: item.description,
    quantity: item.quantity,
    unitAmount: toMajor(BigInt(item.unitAmountMinor), invoice.currency),
    amount: toMajor(BigInt(item.amountMinor), invoice.currency),
  })),
  totalAmount: toMajor(invoice.totalAmount, invoice.currency),
  totalAmountMinor: invoice.totalAmount.toString(),
  description: invoice.description,
  dueDate: invoice.dueDate,
  successUrl: invoice.successUrl,
  checkoutSessionId: invoice.checkoutSessionId,
  checkoutUrl: invoice.checkoutUrl,
  paymentId: invoice.paymentId,
  metadata: invoice.metadata,
  finalizedAt: iso(invoice.finalizedAt),
  paidAt: iso(invoice.paidAt),
  voidedAt: iso(invoice.voidedAt),
  livemode: invoice.livemode,
  createdAt: invoice.createdAt.toISOString(),
  updatedAt: invoice.updatedAt.toISOString(),
});

type ById = { Params: { id: string } };

/** Invoices: create (DRAFT), list, read, finalize/send (OPEN, with a checkout session), void. */
export function invoiceRoutes(app: FastifyInstance, core: Core) {
  app.post('/api/v1/business/invoices', async (request, reply) => {
    const invoice = await core.invoices.create(authenticated(request), request.body);
    reply.status(201);
    return success(invoiceJson(invoice));
  });

  app.get<{ Querystring: Record<string, string> }>('/api/v1/business/invoices', async (request) => {
    const page = await core.invoices.listPage(authenticated(request), request.query);
    return success({ items: page.items.map(invoiceJson), total: page.total, page: page.page, limit: page.limit });
  });

  app.get<ById>('/api/v1/business/invoices/:id', async (request) =>
    success(invoiceJson(await core.invoices.get(authenticated(request), request.params.id))));

  for (const action of ['finalize', 'send']) {
    app.post<ById>(`/api/v1/business/invoices/:id/${action}`, async (request) =>
      success(invoiceJson(await core.invoices.finalize(authenticated(request), request.params.id))));
  }

  app.post<ById>('/api/v1/business/invoices/:id/void', async (request) =>
    success(invoiceJson(await core.invoices.void(authenticated(request), request.params.id))));
}
