import { FraudResolver } from './fraud.resolver';

/** The fraud area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [FraudResolver];
