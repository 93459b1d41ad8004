import { InvoiceResolver } from './invoice.resolver';

/** The invoices area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [InvoiceResolver];
