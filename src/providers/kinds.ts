import type { AnyProviderKindModule } from './kind';
import { cardAcquirerKind } from './card-acquirer';
import { mailKind } from './mail';
import { payoutRailKind } from './payout-rail';
import { collectionRailKind } from './collection-rail';
import { fxKind } from './fx';
import { screeningKind } from './screening';
import { kycKind } from './kyc';
import { treasuryRailKind } from './treasury-rail';

/** Every kind of outside party, one line each (src/providers/<kind>/index.ts): src/providers/registry.ts loops over it. */
export const PROVIDER_KINDS: ReadonlyArray<AnyProviderKindModule> = [
  cardAcquirerKind,
  mailKind,
  payoutRailKind,
  collectionRailKind,
  fxKind,
  screeningKind,
  kycKind,
  treasuryRailKind,
];
