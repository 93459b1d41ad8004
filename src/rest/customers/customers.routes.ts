import { z } from 'zod';
import { Core } from '../../domain/core';
import { Customer, CustomerView, PaymentMethod } from '../../domain/customers';
import { Payment } from '../../domain/payments';
import { toMajor } from '../../domain/shared/money';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import { offsetPageQuery } from '../shared/pagination';
import {
  attachPaymentMethodBodySchema,
  createCustomerBodySchema,
  toAttachPaymentMethodCommand,
  toCreateCustomerCommand,
  toUpdateCustomerCommand,
  updateCustomerBodySchema,
} from '../../wire/customers';
import {
  attachedPaymentMethodSchema,
  customerPageSchema,
  customerParamsSchema,
  customerQuerySchema,
  customerSchema,
  detachedPaymentMethodSchema,
  paymentMethodParamsSchema,
  paymentMethodSchema,
  recentPaymentSchema,
  toCustomerFilters,
  toPaymentMethodRef,
} from './customers.validators';

/** The documented saved-card item: `{ id, brand, last4, expiryMonth, expiryYear }`. */
export const paymentMethodJson = (method: PaymentMethod): z.input<typeof paymentMethodSchema> => ({
  id: method.id,
  brand: method.brand,
  last4: method.last4,
  expiryMonth: method.expiryMonth,
  expiryYear: method.expiryYear,
});

const attachedPaymentMethodJson = ({
  customer,
  paymentMethod,
}: {
  customer: Customer;
  paymentMethod: PaymentMethod;
}): z.input<typeof attachedPaymentMethodSchema> => ({
  ...paymentMethodJson(paymentMethod),
  object: 'payment_method',
  customerId: customer.id,
  country: paymentMethod.country,
  isDefault: customer.defaultPaymentMethodId === paymentMethod.id,
  createdAt: paymentMethod.createdAt.toISOString(),
});

export const recentPaymentJson = (payment: Payment): z.input<typeof recentPaymentSchema> => ({
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

export const customerJson = ({
  customer,
  paymentMethods,
  recentPayments,
}: CustomerView): z.input<typeof customerSchema> => {
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

const byCustomer = { params: customerParamsSchema };
const byMethod = { params: paymentMethodParamsSchema };

/** Customers and their saved cards (interface document, Retrieve a customer). */
export function customerRoutes(app: RestApp, core: Core) {
  const { customers } = core;

  app.post(
    '/api/v1/business/customers',
    { schema: { body: createCustomerBodySchema, response: responses({ 201: customerSchema }) } },
    async (request, reply) => {
      const view = await customers.create(authenticated(request), toCreateCustomerCommand(request.body));
      reply.status(201);
      return success(customerJson(view));
    },
  );

  app.get(
    '/api/v1/business/customers',
    { schema: { querystring: customerQuerySchema, response: responses({ 200: customerPageSchema }) } },
    async (request) => {
      const page = offsetPageQuery(request.query);
      const list = await customers.list(authenticated(request), toCustomerFilters(request.query), page);
      return success({ items: list.items.map(customerJson), total: list.total!, page: page.page, limit: page.limit });
    },
  );

  app.get(
    '/api/v1/business/customers/:customerId',
    { schema: { ...byCustomer, response: responses({ 200: customerSchema }) } },
    async (request) => success(customerJson(await customers.get(authenticated(request), request.params.customerId))),
  );

  app.patch(
    '/api/v1/business/customers/:customerId',
    {
      schema: { ...byCustomer, body: updateCustomerBodySchema, response: responses({ 200: customerSchema }) },
    },
    async (request) =>
      success(
        customerJson(
          await customers.update(
            authenticated(request),
            toUpdateCustomerCommand(request.params.customerId, request.body),
          ),
        ),
      ),
  );

  app.post(
    '/api/v1/business/customers/:customerId/payment-methods',
    {
      schema: {
        ...byCustomer,
        body: attachPaymentMethodBodySchema,
        response: responses({ 201: attachedPaymentMethodSchema }),
      },
    },
    async (request, reply) => {
      const attached = await customers.attachPaymentMethod(
        authenticated(request),
        toAttachPaymentMethodCommand(request.params.customerId, request.body),
      );
      reply.status(201);
      return success(attachedPaymentMethodJson(attached));
    },
  );

  app.delete(
    '/api/v1/business/customers/:customerId/payment-methods/:paymentMethodId',
    {
      schema: { ...byMethod, response: responses({ 200: detachedPaymentMethodSchema }) },
    },
    async (request) => {
      const { customer, paymentMethod } = await customers.detachPaymentMethod(
        authenticated(request),
        toPaymentMethodRef(request.params),
      );
      return success({
        id: paymentMethod.id,
        object: 'payment_method' as const,
        customerId: customer.id,
        deleted: true as const,
      });
    },
  );

  app.post(
    '/api/v1/business/customers/:customerId/payment-methods/:paymentMethodId/default',
    {
      schema: { ...byMethod, response: responses({ 200: customerSchema }) },
    },
    async (request) =>
      success(
        customerJson(
          await customers.setDefaultPaymentMethod(authenticated(request), toPaymentMethodRef(request.params)),
        ),
      ),
  );
}
