import { defineArea } from '../shared/area';
import { Customer, PaymentMethod } from './customer.entities';

/** The customers area: what the registries gather from it (src/areas.ts lists it). */
export const customersArea = defineArea({
  name: 'customers',
  entities: [Customer, PaymentMethod],
});
