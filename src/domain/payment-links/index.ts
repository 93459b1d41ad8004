import { defineArea } from '../shared/area';
import { PaymentLink } from './payment-link.entity';

/** The payment-links area: what the registries gather from it (src/areas.ts lists it). */
export const paymentLinksArea = defineArea({
  name: 'payment-links',
  entities: [PaymentLink],
});
