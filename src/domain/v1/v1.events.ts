import { V1PaymentView } from './v1-payment.service';

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

/** A `/v1` payment as its receivers and readers see it: snake_case, `amount` in the smallest unit. */
export type V1PaymentObject = {
  id: string;
  status: V1PaymentView['status'];
  amount: number;
  currency: string;
  payment_url: string;
  expires_at: string;
  settle_in: string;
  description: string | null;
  redirect_url: string | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
};

/**
 * The payment as `GET /v1/payments/:id` answers it and as the `data` of a `payment.*` event carries
 * it at the moment of the change (docs/alt-v1.md, Events): one mapping for both.
 */
export function v1PaymentData(payment: V1PaymentView): V1PaymentObject {
  return {
    id: payment.id,
    status: payment.status,
    amount: Number(payment.amount),
    currency: payment.currency,
    payment_url: payment.paymentUrl,
    expires_at: payment.expiresAt.toISOString(),
    settle_in: payment.settleIn,
    description: payment.description,
    redirect_url: payment.redirectUrl,
    metadata: payment.metadata,
    created_at: payment.createdAt.toISOString(),
  };
}
