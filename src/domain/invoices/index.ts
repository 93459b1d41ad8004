import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { Invoice, InvoiceCounter } from './invoice.entity';
import { InvoiceService } from './invoice.service';
import { invoicesSubscriptions } from './invoices.subscriptions';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export type { CreateInvoiceCommand, InvoiceFilters, InvoiceLineCommand } from './invoice.commands';
export { Invoice, InvoiceStatus } from './invoice.entity';

declare module '../core' {
  interface Core {
    invoices: InvoiceService;
  }
}

/** The invoices area: what the registries gather from it (src/areas.ts lists it). */
export const invoicesArea = defineArea<Core>({
  name: 'invoices',
  entities: [Invoice, InvoiceCounter],
  services: {
    invoices: (core) => new InvoiceService(core.checkout, core.events),
  },
  subscriptions: invoicesSubscriptions,
});
