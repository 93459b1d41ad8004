/**
 * The events of the alternate surface `/v1` (design section 11), as its receivers read them:
 * `{ event, timestamp, data }` with `Service-Signature`. Recorded in the events table as `v1.<name>`
 * (so the main surface's event names keep their meaning), delivered only to `/v1` targets.
 */
export const V1Events = {
  PAYMENT_COMPLETED: 'payment.completed',
  PAYMENT_FAILED: 'payment.failed',
  PAYMENT_EXPIRED: 'payment.expired',
  TRANSFER_COMPLETED: 'transfer.completed',
  TRANSFER_FAILED: 'transfer.failed',
  WALLET_LOW_BALANCE: 'wallet.low_balance',
} as const;
export type V1EventName = (typeof V1Events)[keyof typeof V1Events];

/** The name of a `/v1` event's row in the events table. */
export const v1EventRowType = (name: string) => `v1.${name}`;
