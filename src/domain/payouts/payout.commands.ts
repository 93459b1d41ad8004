import type { PayoutDestination } from '../../providers/payout-rail/port';
import { PayoutRailKind, PayoutStatus } from './payout.entities';

/** A destination's account details, one shape per rail (normalised by the recipient service). */
export type RecipientDetails = PayoutDestination;

export interface CreateRecipientCommand {
  label: string;
  details: RecipientDetails;
}

export interface RecipientFilters {
  rail?: PayoutRailKind;
  /** Archived recipients are listed only when asked. */
  includeArchived?: boolean;
  /** Only recipients whose label contains this text, case-insensitively (up to MAX_LABEL_LENGTH characters). */
  search?: string;
}

export interface CreateQuoteCommand {
  /** In minor units of `currency` (the source wallet's currency). */
  amount: bigint;
  currency: string;
  destinationCurrency: string;
  /** ISO 3166-1 alpha-2; null for crypto. */
  country: string | null;
  rail: PayoutRailKind;
}

export interface CreatePayoutCommand {
  recipientId: string;
  /** Minor units of `currency`, the wallet debited. */
  amount: bigint;
  currency: string;
  quoteId: string | null;
  reference: string | null;
  metadata: Record<string, unknown> | null;
  /** The payout PIN, when the caller confirms with it (optional: docs/decisions.md). */
  pin?: string | null;
}

export interface PayoutFilters {
  status?: PayoutStatus;
  recipientId?: string;
  batchId?: string;
}

/**
 * The first page of several batches' payouts at once (one statement for a whole list of batches);
 * `after` is a cursor of that batch's own payouts, as `list` with the batch filter makes them.
 */
export interface BatchPayoutsQuery {
  pages: Array<{ batchId: string; after: string | null }>;
  first: number | null;
}

export interface RejectPayoutCommand {
  payoutId: string;
  reason: string;
}

/** Sandbox helper: one legal transition of a payout (repeating its current status is a no-op). */
export interface AdvancePayoutCommand {
  payoutId: string;
  status: PayoutStatus.SUBMITTED | PayoutStatus.SETTLED | PayoutStatus.FAILED;
  reason: string | null;
}

export interface BatchItem {
  recipientId: string;
  amount: bigint;
  currency: string;
  reference: string | null;
}

export interface CreateBatchCommand {
  name: string | null;
  items: BatchItem[];
}

/** The rate of a conversion now, on a rail's fee schedule (`GET /v1/rates`). */
export interface RateQuery {
  from: string;
  to: string;
  rail: PayoutRailKind;
}
