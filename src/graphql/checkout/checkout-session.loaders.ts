import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';
import { CheckoutSession } from '../../domain/checkout';
import { alignTo } from '../shared/keyed';

/** The checkout area's per-request DataLoaders. */
export interface CheckoutLoaders {
  checkoutSessionById: DataLoader<string, CheckoutSession | null>;
}

declare module '../shared/loaders' {
  interface Loaders extends CheckoutLoaders {}
}

export function createCheckoutLoaders(core: Core, ctx: RequestContext): CheckoutLoaders {
  return {
    checkoutSessionById: new DataLoader(async (ids) =>
      alignTo(ids, await core.checkout.byIds(ctx, [...ids]), (session) => session.id),
    ),
  };
}
