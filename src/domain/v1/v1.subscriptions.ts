import { CheckoutSessionSource } from '../checkout/checkout-session.entity';
import { AnySubscription } from '../shared/domain-events';
import { V1EventService } from './v1-event.service';
import { lowBalanceOnV1 } from './v1-low-balance.events';
import { V1PaymentService } from './v1-payment.service';
import { V1TransferService } from './v1-transfer.service';

/** What `/v1` hears, each recorded as its own `/v1` event in the change's transaction. */
export const v1Subscriptions = ({
  v1Events,
  v1Payments,
  v1Transfers,
}: {
  v1Events: V1EventService;
  v1Payments: V1PaymentService;
  v1Transfers: V1TransferService;
}): AnySubscription[] => [
  {
    event: 'checkout.session-ended',
    phase: 'in-transaction',
    name: 'v1.payment-events',
    handle: async (tx, { session }) => {
      if (session.source === CheckoutSessionSource.V1) await v1Payments.announce(tx, session);
    },
  },
  {
    event: 'payout.moved',
    phase: 'in-transaction',
    name: 'v1.transfer-events',
    handle: (tx, { payout }) => v1Transfers.announce(tx, payout),
  },
  lowBalanceOnV1(v1Events),
];
