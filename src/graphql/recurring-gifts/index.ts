import { RecurringGiftResolver } from './recurring-gift.resolver';

/** The recurring-gifts area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [RecurringGiftResolver];
