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
