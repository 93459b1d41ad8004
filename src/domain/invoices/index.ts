import { defineArea } from '../shared/area';
import { Invoice, InvoiceCounter } from './invoice.entity';

/** The invoices area: what the registries gather from it (src/areas.ts lists it). */
export const invoicesArea = defineArea({
  name: 'invoices',
  entities: [Invoice, InvoiceCounter],
});
