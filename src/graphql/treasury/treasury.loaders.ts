import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';
import { requireTreasuryPartner } from '../../domain/identity';
import { TreasuryEndUser, TreasuryKycCheck, TreasuryPayout, TreasuryWalletView } from '../../domain/treasury';
import { alignTo, groupBy } from '../shared/keyed';

/**
 * The treasury area's per-request DataLoaders. Each reads
 * the caller's partner and mode only (null or empty for any other id), one statement per batch.
 */
export interface TreasuryLoaders {
  /** `TreasuryPayout.endUser`, `TreasuryKycCheck.endUser`, `TreasuryWallet.endUser`. */
  treasuryEndUserById: DataLoader<string, TreasuryEndUser | null>;
  /** `TreasuryEndUser.kyc`: each end-user's latest check (null before the first). */
  treasuryKycOfEndUser: DataLoader<string, TreasuryKycCheck | null>;
  /** `TreasuryEndUser.wallets`, oldest first, with balances. */
  treasuryWalletsOfEndUser: DataLoader<string, TreasuryWalletView[]>;
  /** `TreasuryPayout.wallet`, with balances. */
  treasuryWalletById: DataLoader<string, TreasuryWalletView | null>;
  /** The treasuryPayoutUpdated subscription's re-read. */
  treasuryPayoutById: DataLoader<string, TreasuryPayout | null>;
  /** The treasuryKycUpdated subscription's re-read. */
  treasuryKycCheckById: DataLoader<string, TreasuryKycCheck | null>;
  /**
   * Whether the context's business has the treasury product now (key: its id): the subscriptions
   * ask on every change, as a socket outlives the product's switch. One read per publication.
   */
  treasuryProductEnabled: DataLoader<string, boolean>;
}

declare module '../shared/loaders' {
  interface Loaders extends TreasuryLoaders {}
}

export function createTreasuryLoaders(core: Core, ctx: RequestContext): TreasuryLoaders {
  return {
    treasuryEndUserById: new DataLoader(async (ids) =>
      alignTo(ids, await core.treasuryEndUsers.byIds(ctx, ids), (user) => user.id),
    ),
    treasuryKycOfEndUser: new DataLoader(async (ids) =>
      alignTo(ids, await core.treasuryKyc.latestOfEndUsers(ctx, ids), (check) => check.endUserId),
    ),
    treasuryWalletsOfEndUser: new DataLoader(async (ids) =>
      groupBy(ids, await core.treasuryWallets.ofEndUsers(ctx, ids), (view) => view.wallet.endUserId),
    ),
    treasuryWalletById: new DataLoader(async (ids) =>
      alignTo(ids, await core.treasuryWallets.byIds(ctx, ids), (view) => view.wallet.id),
    ),
    treasuryPayoutById: new DataLoader(async (ids) =>
      alignTo(ids, await core.treasuryPayouts.byIds(ctx, ids), (payout) => payout.id),
    ),
    treasuryKycCheckById: new DataLoader(async (ids) =>
      alignTo(ids, await core.treasuryKyc.byIds(ctx, ids), (check) => check.id),
    ),
    treasuryProductEnabled: new DataLoader(async (businessIds) => {
      const enabled = await requireTreasuryPartner(ctx).then(
        () => true,
        () => false,
      );
      return businessIds.map((businessId) => enabled && businessId === ctx.businessId);
    }),
  };
}
