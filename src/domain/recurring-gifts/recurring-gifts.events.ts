import { DomainEvent, EventNameOf } from '../events/catalog';
import { toMajor } from '../shared/money';
import { RecurringGift } from './recurring-gift.entity';

/** The events recurring gifts record (docs/webhooks.md). */
export const RecurringGiftEvents = {
  CHARGE_SUCCEEDED: 'recurring_gift.charge.succeeded',
  CHARGE_FAILED: 'recurring_gift.charge.failed',
} as const;
export type RecurringGiftEventType = EventNameOf<typeof RecurringGiftEvents>;

export type RecurringGiftEvent = DomainEvent<RecurringGiftEventType>;

export const chargeSucceeded = (gift: RecurringGift, paymentId: string): RecurringGiftEvent => ({
  type: RecurringGiftEvents.CHARGE_SUCCEEDED,
  data: {
    recurringGiftId: gift.id,
    paymentLinkId: gift.paymentLinkId,
    amount: toMajor(gift.amount, gift.currency),
    currency: gift.currency.toLowerCase(),
    chargeCount: gift.chargeCount,
    paymentIntentId: paymentId,
  },
});

export const chargeFailed = (
  gift: RecurringGift,
  error: { code: string; message: string },
  paymentId: string | null,
): RecurringGiftEvent => ({
  type: RecurringGiftEvents.CHARGE_FAILED,
  data: {
    recurringGiftId: gift.id,
    paymentLinkId: gift.paymentLinkId,
    error: error.code,
    message: error.message,
    failureCount: gift.failureCount,
    paymentIntentId: paymentId,
    status: gift.status,
  },
});
