import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';
import { Customer, PaymentMethod } from '../../domain/customers';
import { Payment } from '../../domain/payments';
import { alignTo, groupBy } from '../shared/keyed';

/** The customers area's per-request DataLoaders. */
export interface CustomerLoaders {
  /** Customers of the caller's business and mode (null for any other id); also for Payment.customer. */
  customerById: DataLoader<string, Customer | null>;
  /** Saved cards of a customer, newest first. */
  paymentMethodsByCustomerId: DataLoader<string, PaymentMethod[]>;
  /** A customer's 20 most recent payments, newest first (keyed by id; the email finds payments not linked yet). */
  recentPaymentsByCustomer: DataLoader<Pick<Customer, 'id' | 'email'>, Payment[], string>;
}

declare module '../shared/loaders' {
  interface Loaders extends CustomerLoaders {}
}

export function createCustomerLoaders(core: Core, ctx: RequestContext): CustomerLoaders {
  return {
    customerById: new DataLoader(async (ids) =>
      alignTo(ids, await core.customers.customersByIds(ctx, [...ids]), (customer) => customer.id),
    ),
    paymentMethodsByCustomerId: new DataLoader(async (customerIds) =>
      groupBy(customerIds, await core.customers.paymentMethodsOf(ctx, [...customerIds]), (method) => method.customerId),
    ),
    recentPaymentsByCustomer: new DataLoader(
      async (customers) => {
        const recent = await core.customers.recentPaymentsOf(ctx, [...customers]);
        return customers.map((customer) => recent.get(customer.id) ?? []);
      },
      { cacheKeyFn: (customer) => customer.id },
    ),
  };
}
