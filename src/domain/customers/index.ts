import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { Customer, PaymentMethod } from './customer.entities';
import { CustomerService, cardKeeper, savedCardToCharge } from './customer.service';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export type {
  AttachPaymentMethodCommand,
  CreateCustomerCommand,
  CustomerFilters,
  PaymentMethodRef,
  UpdateCustomerCommand,
} from './customer.commands';
export { Customer, PaymentMethod } from './customer.entities';
export { CustomerService, vaultedCardOf } from './customer.service';
export type { CustomerView } from './customer.service';

declare module '../core' {
  interface Core {
    customers: CustomerService;
  }
}

/** The customers area: what the registries gather from it (src/areas.ts lists it). */
export const customersArea = defineArea<Core>({
  name: 'customers',
  entities: [Customer, PaymentMethod],
  savedCardOf: savedCardToCharge,
  cardKeeper,
  services: {
    customers: (core) =>
      new CustomerService(
        (ctx, card) => core.payments.vaultCard(ctx, card),
        (ctx, request) => core.payments.saveCardForCustomer(ctx, request),
      ),
  },
});
