import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { Customer, PaymentMethod } from '../../domain/customers/customer.entities';
import { CustomerView } from '../../domain/customers/customer.service';
import { Payment } from '../../domain/payments/payment.entities';
import { toMajor } from '../../domain/shared/money';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';

/** The documented saved-card item: `{ id, brand, last4, expiryMonth, expiryYear }`. */
export const paymentMethodJson = (method: PaymentMethod) => ({
  id: method.id, brand: method.brand, last4: method.last4, expiryMonth: method.expiryMonth, expiryYear: method.expiryYear,
});

/** A saved card as the attach operation returns it: the documented item plus its customer and whether it is the default. */
const attachedPaymentMethodJson = (customer: Customer, method: PaymentMethod) => ({
  ...paymentMethodJson(method),
  object: 'payment_method',
  customerId: customer.id,
  country: method.country,
  isDefault: customer.defaultPaymentMethodId === method.id,
  createdAt: method.createdAt.toISOString(),
});

/** An item of `recentPayments` (the interface document leaves its fields open). */
export const recentPaymentJson = (payment: Payment) => ({
  paymentId: payment.id,
  amount: toMajor(payment.amount, payment.currency),
  amountMinor: payment.amount.toString(),
  currency: payment.currency.toLowerCase(),
  status: payment.status,
  failureReason: payment.failureReason,
  amountRefunded: toMajor(payment.amountRefunded, payment.currency),
  email: payment.email,
  card: { brand: payment.cardBrand, last4: payment.cardLast4 },
  paymentMethodId: payment.paymentMethodId,
  createdAt: payment.createdAt.toISOString(),
});

/** The documented Customer resource (plus createdAt and updatedAt). */
export const customerJson = ({ customer, paymentMethods, recentPayments }: CustomerView) => {
  const defaultMethod = paymentMethods.find((method) => method.id === customer.defaultPaymentMethodId);
  return {
    customerId: customer.id,
    email: customer.email,
    paymentMethods: paymentMethods.map(paymentMethodJson),
    recentPayments: recentPayments.map(recentPaymentJson),
    userId: customer.userId,
    firstName: customer.firstName,
    lastName: customer.lastName,
    phoneNumber: customer.phoneNumber,
    defaultPaymentMethod: defaultMethod ? paymentMethodJson(defaultMethod) : null,
    createdAt: customer.createdAt.toISOString(),
    updatedAt: customer.updatedAt.toISOString(),
  };
};

type ById = { Params: { customerId: string } };
type ByMethod = { Params: { customerId: string; paymentMethodId: string } };

/** Customers and their saved cards (interface document, Retrieve a customer). */
export function customerRoutes(app: FastifyInstance, core: Core) {
  const customers = core.customers;

  app.post('/api/v1/business/customers', async (request, reply) => {
    const view = await customers.create(authenticated(request), request.body);
    reply.status(201);
    return success(customerJson(view));
  });

  app.get<{ Querystring: Record<string, string> }>('/api/v1/business/customers', async (request) => {
    const page = await customers.listPage(authenticated(request), request.query);
    return success({ items: page.items.map(customerJson), total: page.total, page: page.page, limit: page.limit });
  });

  app.get<ById>('/api/v1/business/customers/:customerId', async (request) =>
    success(customerJson(await customers.get(authenticated(request), request.params.customerId))));

  app.patch<ById>('/api/v1/business/customers/:customerId', async (request) =>
    success(customerJson(await customers.update(authenticated(request), request.params.customerId, request.body))));

  app.post<ById>('/api/v1/business/customers/:customerId/payment-methods', async (request, reply) => {
    const { customer, paymentMethod } = await customers.attachPaymentMethod(authenticated(request), request.params.customerId, request.body);
    reply.status(201);
    return success(attachedPaymentMethodJson(customer, paymentMethod));
  });

  app.delete<ByMethod>('/api/v1/business/customers/:customerId/payment-methods/:paymentMethodId', async (request) => {
    const { customer, paymentMethod } = await customers.detachPaymentMethod(
      authenticated(request), request.params.customerId, request.params.paymentMethodId);
    return success({ id: paymentMethod.id, object: 'payment_method', customerId: customer.id, deleted: true });
  });

  app.post<ByMethod>('/api/v1/business/customers/:customerId/payment-methods/:paymentMethodId/default', async (request) =>
    success(customerJson(await customers.setDefaultPaymentMethod(
      authenticated(request), request.params.customerId, request.params.paymentMethodId))));
}
