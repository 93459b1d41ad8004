import type { TreasuryDestination } from '../../providers/treasury-rail/port';
import { EndUserStatus, KycLevel, TreasuryPayoutStatus } from './treasury.entities';

/** A treasury payout's destination, one shape per `destinationType` (design section 10). */
export type TreasuryPayoutDestination = TreasuryDestination;

export interface CreateEndUserCommand {
  /** The partner's own id of the person: unique per partner and mode. */
  externalId: string;
  email: string;
  name: string | null;
  phone: string | null;
  metadata: Record<string, unknown> | null;
}

export interface EndUserFilters {
  status?: EndUserStatus;
  externalId?: string;
}

export interface StartKycCommand {
  endUserId: string;
  /** Default basic. */
  level: KycLevel | null;
}

/** The KYC checks of one end-user (its history, newest first). */
export interface KycCheckFilters {
  endUserId: string;
}

export interface RejectKycCommand {
  endUserId: string;
  /** Why the check failed (1 to 10 reasons, each 1 to 200 characters). */
  reasons: string[];
}

/** A decision taken on the sandbox's hosted KYC page: the page's token is the capability. */
export interface DecideKycOnPageCommand {
  token: string;
  decision: 'approve' | 'reject';
  /** Reject only; none given means `["rejected_on_sandbox_page"]`. */
  reasons: string[];
}

export interface CreateTreasuryWalletCommand {
  endUserId: string;
  currency: string;
}

/** A wallet named through its end-user (`/users/{id}/wallets/{walletId}`): both must match, else 404. */
export interface TreasuryWalletRef {
  endUserId: string;
  walletId: string;
}

export interface TreasuryWalletFilters {
  endUserId: string;
}

/**
 * Sandbox only: money arrives on the wallet's deposit account. `amount` is a decimal in major units
 * of the wallet's currency ("100.50"): the face checks the digits, the domain the decimals the
 * wallet's currency allows (only it knows the currency).
 */
export interface SandboxDepositCommand extends TreasuryWalletRef {
  amount: string;
}

export interface CreateTreasuryPayoutCommand {
  endUserId: string;
  walletId: string;
  /** Decimal in major units of the wallet's currency, as sent ("25.00"); converted by the domain with the wallet's exponent. */
  amount: string;
  destination: TreasuryPayoutDestination;
  /** Stored in metadata (`idempotencyKey`) only; the Idempotency-Key header is what de-duplicates. */
  idempotencyKey: string | null;
  /** `test_outcome` (success | failed | pending) drives the sandbox rail. */
  metadata: Record<string, unknown> | null;
}

export interface TreasuryPayoutFilters {
  status?: TreasuryPayoutStatus;
  endUserId?: string;
  walletId?: string;
}
