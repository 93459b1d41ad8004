import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { PaymentLink } from './payment-link.entity';
import { PaymentLinkService } from './payment-link.service';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export type { CreatePaymentLinkCommand, PaymentLinkFilters } from './payment-link.commands';
export { PaymentLink } from './payment-link.entity';

declare module '../core' {
  interface Core {
    paymentLinks: PaymentLinkService;
  }
}

/** The payment-links area: what the registries gather from it (src/areas.ts lists it). */
export const paymentLinksArea = defineArea<Core>({
  name: 'payment-links',
  entities: [PaymentLink],
  services: {
    paymentLinks: (core) => new PaymentLinkService(core.config.publicBaseUrl, core.checkout),
  },
});
