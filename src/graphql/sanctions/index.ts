import { SanctionsResolver } from './sanctions.resolver';

/** Sanctions screening's GraphQL resolvers (src/areas.ts): the operator's fields. */
export const resolvers = [SanctionsResolver];
