import { CheckoutSessionSource } from '../checkout';
import { AnySubscription } from '../shared/domain-events';
import { RecurringGiftService } from './recurring-gift.service';

/** What recurring gifts hear: a payment link's session was paid (the payer may have opted in to give every interval). */
export const recurringGiftsSubscriptions = ({
  recurringGifts,
}: {
  recurringGifts: RecurringGiftService;
}): AnySubscription[] => [
  {
    event: 'checkout.session-completed',
    phase: 'in-transaction',
    name: 'recurring-gifts.start-from-session',
    handle: async (tx, completed) => {
      if (completed.session.source === CheckoutSessionSource.PAYMENT_LINK)
        await recurringGifts.startFromSession(tx, completed);
    },
  },
];
