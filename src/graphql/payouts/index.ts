import type { Core } from '../../domain/core';
import type { RequestContext } from '../../domain/shared/context';
import { PayoutPinResolver } from './payout-pin.resolver';
import { PayoutBatchResolver, PayoutRecipientResolver, PayoutResolver } from './payout.resolver';
import { PayoutScheduleResolver } from './schedule.resolver';
import { createPayoutLoaders } from './payout.loaders';
import { createScheduleLoaders } from './schedule.loaders';

/** The payouts area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [
  PayoutPinResolver,
  PayoutRecipientResolver,
  PayoutResolver,
  PayoutBatchResolver,
  PayoutScheduleResolver,
];

/** Its per-request DataLoaders. */
export const loaders = (core: Core, ctx: RequestContext) => ({
  ...createPayoutLoaders(core, ctx),
  ...createScheduleLoaders(core, ctx),
});
