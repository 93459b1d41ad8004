import { SandboxClockResolver } from './clock.resolver';

/** The sandbox area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [SandboxClockResolver];
