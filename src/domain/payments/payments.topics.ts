/**
 * A payment changed (its status, its refunds or its disputes); subscribers read its current state.
 * The change says what it was: the status before it (null when the payment was created) and the
 * payment's fields it set (entity property names, `refunds` and `disputes` for those lists).
 */
export interface PaymentChange {
  businessId: string;
  livemode: boolean;
  paymentId: string;
  previousStatus: string | null;
  changedFields: string[];
}

/** The payments area's topic, as named on the wire: a payment changed. */
export const PaymentTopic = { PAYMENT: 'PAYMENT' } as const;

declare module '../events/pubsub' {
  interface TopicPayloads {
    [PaymentTopic.PAYMENT]: [PaymentChange];
  }
}
