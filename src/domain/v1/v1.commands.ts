import { Mode } from '../shared/modes';

/** Issue (or reissue) the `/v1` secret key of a business's mode; the previous key is revoked at once. */
export interface IssueV1KeyCommand {
  mode: Mode;
}

/** The lowercase statuses of a `/v1` payment (its checkout session's, in `/v1` words). */
export enum V1PaymentStatus {
  PENDING = 'pending',
  COMPLETED = 'completed',
  FAILED = 'failed',
  EXPIRED = 'expired',
}

/** `POST /v1/payments`: an amount in minor units to be paid once on the hosted payment page. */
export interface CreateV1PaymentCommand {
  amount: bigint;
  /** As sent (three letters); the domain normalizes and judges it. */
  currency: string;
  /** Null: the settlement currency (the payment's own currency). */
  settleIn: string | null;
  description: string | null;
  /** Where the payer goes once paid; null: Tessera's receipt page. */
  redirectUrl: string | null;
  /** Receives this payment's events besides the business's webhook URL. */
  webhookUrl: string | null;
  metadata: Record<string, unknown> | null;
}

export interface V1PaymentFilters {
  status?: V1PaymentStatus;
}

/** `limit` (1 to 100) payments after the payment `after` (an id), newest first. */
export interface V1PageQuery {
  limit: number;
  after: string | null;
}

/** The lowercase statuses of a `/v1` transfer (its payout's, in `/v1` words; docs/alt-v1.md). */
export enum V1TransferStatus {
  PENDING = 'pending',
  PROCESSING = 'processing',
  COMPLETED = 'completed',
  FAILED = 'failed',
  CANCELLED = 'cancelled',
}

/** `POST /v1/transfers`: money from the business's wallet in `sourceCurrency` to a bank account. */
export interface CreateV1TransferCommand {
  /** Minor units of `sourceCurrency`, debited from its wallet (the fee is added on top). */
  sourceAmount: bigint;
  sourceCurrency: string;
  destinationCurrency: string;
  recipient: {
    name: string;
    /** The bank's code (sort code, bank code): the payout recipient's `bankCode` on the LOCAL_BANK rail. */
    sortCode: string;
    accountNumber: string;
    /** ISO 3166-1 alpha-2. */
    country: string;
  };
}
