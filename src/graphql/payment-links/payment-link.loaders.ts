import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';
import { PaymentLink } from '../../domain/payment-links';
import { alignTo } from '../shared/keyed';

/** The payment links area's per-request DataLoaders. */
export interface PaymentLinkLoaders {
  paymentLinkById: DataLoader<string, PaymentLink | null>;
}

declare module '../shared/loaders' {
  interface Loaders extends PaymentLinkLoaders {}
}

export function createPaymentLinkLoaders(core: Core, ctx: RequestContext): PaymentLinkLoaders {
  return {
    paymentLinkById: new DataLoader(async (ids) =>
      alignTo(ids, await core.paymentLinks.byIds(ctx, [...ids]), (link) => link.id),
    ),
  };
}
