import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { Payout, Recipient } from '../../domain/payouts';
import { RequestContext } from '../../domain/shared/context';
import { ListPage } from '../../domain/shared/pagination';
import { alignTo } from '../shared/keyed';

/** One page of one batch's payouts, as `PayoutBatch.payouts(first, after)` asks for it. */
export interface BatchPayoutsKey {
  batchId: string;
  first: number | null;
  after: string | null;
}

/** The payouts area's per-request DataLoaders. */
export interface PayoutLoaders {
  /** Recipients of the caller's business and mode (null for any other id): `Payout.recipient` for a whole page in one query. */
  recipientById: DataLoader<string, Recipient | null>;
  /** Payouts of the caller's business and mode (null for any other id); the subscription's re-read. */
  payoutById: DataLoader<string, Payout | null>;
  /** A page of each batch's payouts: every batch of a list in one statement (one per distinct `first`). */
  payoutsOfBatch: DataLoader<BatchPayoutsKey, ListPage<Payout>, string>;
}

declare module '../shared/loaders' {
  interface Loaders extends PayoutLoaders {}
}

export function createPayoutLoaders(core: Core, ctx: RequestContext): PayoutLoaders {
  return {
    recipientById: new DataLoader(async (ids) =>
      alignTo(ids, await core.recipients.byIds(ctx, [...ids]), (recipient) => recipient.id),
    ),
    payoutById: new DataLoader(async (ids) =>
      alignTo(ids, await core.payouts.byIds(ctx, [...ids]), (payout) => payout.id),
    ),
    payoutsOfBatch: new DataLoader(
      async (keys) => {
        const pages = new Array<ListPage<Payout>>(keys.length);
        await Promise.all(
          [...new Set(keys.map((key) => key.first))].map(async (first) => {
            const slots = keys.flatMap((key, slot) => (key.first === first ? [slot] : []));
            const found = await core.payouts.ofBatches(ctx, {
              pages: slots.map((slot) => ({ batchId: keys[slot].batchId, after: keys[slot].after })),
              first,
            });
            slots.forEach((slot, index) => {
              pages[slot] = found[index];
            });
          }),
        );
        return pages;
      },
      { cacheKeyFn: (key) => `${key.batchId}|${key.first ?? ''}|${key.after ?? ''}` },
    ),
  };
}
