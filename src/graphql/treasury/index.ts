import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import {
  TreasuryEndUserResolver,
  TreasuryKycResolver,
  TreasuryPayoutResolver,
  TreasuryWalletResolver,
} from './treasury.resolver';
import { createTreasuryLoaders } from './treasury.loaders';

/** The treasury area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [TreasuryEndUserResolver, TreasuryKycResolver, TreasuryWalletResolver, TreasuryPayoutResolver];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => createTreasuryLoaders(core, ctx);
