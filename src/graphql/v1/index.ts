import { V1KeyResolver } from './v1-key.resolver';

/** The v1 area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [V1KeyResolver];
