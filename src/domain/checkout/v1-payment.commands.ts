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
