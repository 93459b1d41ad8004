import type { CheckoutSessionStatus } from './checkout-session.entity';

/** The checkout area's topic, as named on the wire: a checkout session was opened or its status changed. */
export const CheckoutTopic = { CHECKOUT_SESSION: 'CHECKOUT_SESSION' } as const;

/** A session was opened (previousStatus null) or left OPEN; subscribers read its current state. */
export interface CheckoutSessionChange {
  businessId: string;
  livemode: boolean;
  sessionId: string;
  previousStatus: CheckoutSessionStatus | null;
}

declare module '../events/pubsub' {
  interface TopicPayloads {
    [CheckoutTopic.CHECKOUT_SESSION]: [CheckoutSessionChange];
  }
}
