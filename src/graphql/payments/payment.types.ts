import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import {
  Dispute as DisputeRow,
  DisputeStatus,
  Payment as PaymentRow,
  PaymentStatus,
  Refund as RefundRow,
} from '../../domain/payments';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { Money } from '../shared/money.type';
import { IdInput } from '../shared/payload';

registerEnumType(PaymentStatus, {
  name: 'PaymentStatus',
  description: 'PENDING, REQUIRES_ACTION (3-D Secure), COMPLETED (captured), SETTLED, FAILED, REFUNDED (in full)',
  valuesConfig: {
    PENDING: { description: 'Created; the acquirer has not answered yet (a job asks it again after two minutes)' },
    REQUIRES_ACTION: {
      description:
        'Waiting for 3-D Secure authentication; completeThreeDSecure (or the sandbox, by itself) finishes it',
    },
    COMPLETED: { description: 'Captured, not yet settled into the wallet' },
    SETTLED: { description: 'Credited to the merchant wallet minus the fee' },
    FAILED: { description: 'Not captured; failureReason says why' },
    REFUNDED: {
      description: 'Refunded in full (a partial refund keeps COMPLETED or SETTLED and raises amountRefunded)',
    },
  },
});
registerEnumType(DisputeStatus, {
  name: 'DisputeStatus',
  description: 'Where a dispute stands: OPEN, then WON or LOST (both final)',
  valuesConfig: {
    OPEN: {
      description: 'Opened by the cardholder: the amount and the non-refundable fee were debited from the wallet',
    },
    WON: { description: 'Won by the merchant: the amount was re-credited to the wallet (the fee was not); final' },
    LOST: { description: 'Lost by the merchant: the amount stays with the cardholder, nothing further moves; final' },
  },
});

@ObjectType({ description: 'What is kept of the card: never the number' })
export class PaymentCard {
  @Field({ description: 'Card brand in lower case: visa, mastercard, amex, discover or unknown' }) brand: string;
  @Field({ description: 'The last four digits of the card number' }) last4: string;
  @Field(() => Int, { description: 'Expiry month, 1 to 12' }) expiryMonth: number;
  @Field(() => Int, { description: 'Expiry year, four digits' }) expiryYear: number;
  @Field({ description: 'Issuing country (ISO 3166-1 alpha-2)' }) country: string;
  @Field({ description: 'The same card has the same fingerprint (usable in the fraud block list)' })
  fingerprint: string;
}

@ObjectType({ description: 'What a REQUIRES_ACTION payment waits for: 3-D Secure, and where the payer authenticates' })
export class PaymentNextAction {
  @Field({ description: 'What the payer must do: three_d_secure (the only one)' }) type: string;
  @Field(() => String, {
    nullable: true,
    description:
      "Where to send the payer to authenticate: the acquirer's page (live), which brings the payer back to Tessera, which completes the payment; null in the sandbox, whose challenge completes by itself (or by completeThreeDSecure)",
  })
  redirectUrl: string | null;
}

@ObjectType({ description: 'A card payment', implements: Node })
export class Payment extends Node {
  @Field(() => PaymentStatus, {
    description: 'Where the payment is in its lifecycle (disputes do not change it: see amountDisputed)',
  })
  status: PaymentStatus;
  @Field(() => Money, { description: 'The amount charged' }) amount: Money;
  @Field({ description: "The payer's email, lower case" }) email: string;
  @Field(() => ID, {
    nullable: true,
    description: "The payer's customer profile (by email, or the saved card's owner); null when there is none",
  })
  customerId: string | null;
  @Field(() => PaymentCard, { description: 'The card charged, as kept (never the number)' }) card: PaymentCard;
  @Field(() => String, {
    nullable: true,
    description: 'One of card_declined, insufficient_funds, authentication_failed, blocked or processing_error',
  })
  failureReason: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'Why the payment failed, in words (for blocked: the fraud rule or block list entry that blocked it); null unless FAILED',
  })
  failureMessage: string | null;
  @Field(() => String, { nullable: true, description: 'When 3-D Secure was required: pending, succeeded or failed' })
  threeDSecure: string | null;
  @Field(() => PaymentNextAction, {
    nullable: true,
    description: 'What the payment waits for: set while REQUIRES_ACTION, null otherwise',
  })
  nextAction: PaymentNextAction | null;
  @Field({
    description:
      'Where the payment came from: api (chargeCard), checkout_session (the hosted page, also for payment links and invoices) or recurring_gift',
  })
  source: string;
  @Field(() => ID, {
    nullable: true,
    description:
      'The checkout session (source checkout_session) or recurring gift (source recurring_gift) that made the payment; null for api',
  })
  sourceId: string | null;
  @Field(() => Money, { description: 'Refunded so far (zero when never refunded)' }) amountRefunded: Money;
  @Field(() => Money, {
    description: 'The charge amount taken back by an open or lost dispute (zero when undisputed or won)',
  })
  amountDisputed: Money;
  @Field(() => Money, { description: 'Fee kept at settlement (zero before)' }) fee: Money;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Your key-value data as sent with the charge (or copied from its checkout session); null when none',
  })
  metadata: Record<string, unknown> | null;
  @Field(() => Date, {
    nullable: true,
    description: 'When the acquirer captured the payment (ISO 8601, UTC); null until captured',
  })
  capturedAt: Date | null;
  @Field(() => Date, {
    nullable: true,
    description: 'When the payment was credited to the wallet (ISO 8601, UTC); null until SETTLED',
  })
  settledAt: Date | null;
  @Field({ description: 'When the payment was created (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the payment last changed (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: PaymentRow): Payment {
    return Object.assign(new Payment(), {
      id: row.id,
      status: row.status,
      amount: Money.of(row.amount, row.currency),
      email: row.email,
      customerId: row.customerId,
      card: Object.assign(new PaymentCard(), {
        brand: row.cardBrand,
        last4: row.cardLast4,
        expiryMonth: row.cardExpiryMonth,
        expiryYear: row.cardExpiryYear,
        country: row.cardCountry,
        fingerprint: row.cardFingerprint,
      }),
      failureReason: row.failureReason,
      failureMessage: row.failureMessage,
      threeDSecure: row.threeDSecure,
      nextAction:
        row.status === PaymentStatus.REQUIRES_ACTION
          ? Object.assign(new PaymentNextAction(), { type: 'three_d_secure', redirectUrl: row.authenticationUrl })
          : null,
      source: row.source,
      sourceId: row.sourceId,
      amountRefunded: Money.of(row.amountRefunded, row.currency),
      amountDisputed: Money.of(row.amountDisputed, row.currency),
      fee: Money.of(row.feeAmount, row.currency),
      metadata: row.metadata,
      capturedAt: row.capturedAt,
      settledAt: row.settledAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'A page of payments, newest first' })
export class PaymentConnection extends Connection(Payment, 'Payment') {}

@ObjectType({ description: 'Money given back on a captured payment', implements: Node })
export class Refund extends Node {
  @Field(() => ID, { description: 'The refunded payment' }) paymentId: string;
  @Field(() => Money, { description: 'The amount given back' }) amount: Money;
  @Field(() => String, { nullable: true, description: 'The reason sent with the refund; null when none was given' })
  reason: string | null;
  @Field({
    description:
      "Succeeded: booked; failed: the card acquirer refused it (nothing was booked) or failed it after it succeeded (reversed in the ledger, the amount back on the payment). A refund still waiting for the acquirer's answer is not shown. The sandbox books its refunds at once: always succeeded",
  })
  status: string;
  @Field({ description: 'When the refund was created (ISO 8601, UTC)' }) createdAt: Date;

  static from(row: RefundRow): Refund {
    return Object.assign(new Refund(), { ...row, amount: Money.of(row.amount, row.currency) });
  }
}

@ObjectType({
  description: 'A chargeback: OPEN debits the amount and a non-refundable fee; WON re-credits the amount',
  implements: Node,
})
export class Dispute extends Node {
  @Field(() => ID, { description: 'The disputed payment' }) paymentId: string;
  @Field(() => DisputeStatus, { description: 'OPEN, WON or LOST' }) status: DisputeStatus;
  @Field(() => Money, { description: 'The charge amount taken back: the captured amount less refunds' }) amount: Money;
  @Field(() => Money, { description: 'The dispute fee, debited when the dispute opened and never refunded' })
  fee: Money;
  @Field({ description: "The cardholder's reason, e.g. fraudulent" }) reason: string;
  @Field(() => Date, {
    nullable: true,
    description: 'When the dispute was won or lost (ISO 8601, UTC); null while OPEN',
  })
  resolvedAt: Date | null;
  @Field({ description: 'When the dispute was opened (ISO 8601, UTC)' }) createdAt: Date;

  static from(row: DisputeRow): Dispute {
    return Object.assign(new Dispute(), {
      ...row,
      amount: Money.of(row.amount, row.currency),
      fee: Money.of(row.fee, row.currency),
    });
  }
}

@ObjectType({ description: 'A page of disputes, newest first' })
export class DisputeConnection extends Connection(Dispute, 'Dispute') {}

@InputType({ description: 'Card details as the payer typed them; never stored' })
export class CardInput {
  @Field({ description: 'The card number: 12 to 19 digits passing the Luhn check (spaces and dashes ignored)' })
  number: string;
  @Field(() => Int, { description: 'Expiry month, 1 to 12' }) expiryMonth: number;
  @Field(() => Int, { description: 'Expiry year, four digits; an expired card is refused' }) expiryYear: number;
  @Field({ description: '3 digits (4 for American Express)' }) cvv: string;
}

@InputType({
  description:
    'The server-to-server charge (POST /business/payment/charge): exactly one of card, token or paymentMethodId',
})
export class ChargeCardInput {
  @Field({ description: 'Decimal amount in major units, e.g. "25.00"' }) amount: string;
  @Field({ description: 'Currency code, e.g. usd' }) currency: string;
  @Field(() => CardInput, { nullable: true, description: 'The card as the payer typed it' }) card?: CardInput;
  @Field({ nullable: true, description: 'A card token (tok_…) made in the browser with the publishable key' })
  token?: string;
  @Field({ nullable: true, description: "A customer's saved card" }) paymentMethodId?: string;
  @Field({ nullable: true, description: "Payer's email; defaults to the customer's with paymentMethodId" })
  email?: string;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Your key-value data, a JSON object of at most 8 KB, kept on the payment',
  })
  metadata?: Record<string, unknown>;
}

@InputType({ description: 'POST /business/payment/{id}/refund: all (amount omitted) or part of what is refundable' })
export class RefundPaymentInput {
  @Field(() => ID, { description: 'The COMPLETED or SETTLED payment to refund' }) paymentId: string;
  @Field({ nullable: true, description: 'Decimal major units; the whole refundable amount when omitted' })
  amount?: string;
  @Field({ nullable: true, description: 'Why, kept on the refund (at most 500 characters)' }) reason?: string;
}

@InputType({ description: 'Sandbox only: the cardholder disputes the payment' })
export class SandboxOpenDisputeInput {
  @Field(() => ID, {
    description: 'The captured payment to dispute (a payment is disputed at most once; an unsettled one settles first)',
  })
  paymentId: string;
  @Field({ nullable: true, description: "The cardholder's reason (1 to 200 characters; fraudulent when omitted)" })
  reason?: string;
}

@InputType({ description: 'Sandbox only: how an OPEN dispute ends' })
export class SandboxResolveDisputeInput {
  @Field(() => ID, { description: 'The OPEN dispute to resolve' }) disputeId: string;
  @Field({ description: 'True when the merchant won (the amount comes back), false when lost' }) won: boolean;
}

@InputType({ description: 'Test mode only: server-to-server charging on or off' })
export class SetServerToServerChargingInput {
  @Field({ description: 'True turns chargeCard on for the business in test mode, false turns it off' })
  enabled: boolean;
}

export const CompleteThreeDSecureInput = IdInput('CompleteThreeDSecure', 'The REQUIRES_ACTION payment to finish');
export type CompleteThreeDSecureInput = InstanceType<typeof CompleteThreeDSecureInput>;
export const SandboxSettlePaymentInput = IdInput('SandboxSettlePayment', 'The COMPLETED payment to settle now');
export type SandboxSettlePaymentInput = InstanceType<typeof SandboxSettlePaymentInput>;

@InputType({ description: 'Narrows the payments list: every filter given must match (cursors carry them)' })
export class PaymentFilter {
  @Field(() => PaymentStatus, { nullable: true, description: 'Only payments in this status' }) status?: PaymentStatus;
  @Field({
    nullable: true,
    description:
      "The short reference on the payer's receipt (12 hex digits such as 3F9AC21B-7E04: the start of the id)",
  })
  reference?: string;
  @Field({ nullable: true, description: "Payer's email" }) email?: string;
  @Field(() => ID, { nullable: true, description: 'Only payments linked to this customer profile' })
  customerId?: string;
  @Field(() => Date, { nullable: true, description: 'Created at or after' }) from?: Date;
  @Field(() => Date, { nullable: true, description: 'Created at or before' }) to?: Date;
}

/** The Payment field each entity property (or list) of a change shows in; properties the type does not show are left out. */
const PAYMENT_FIELD_OF: Readonly<Record<string, string>> = {
  id: 'id',
  status: 'status',
  amount: 'amount',
  currency: 'amount',
  email: 'email',
  customerId: 'customerId',
  cardBrand: 'card',
  cardLast4: 'card',
  cardExpiryMonth: 'card',
  cardExpiryYear: 'card',
  cardCountry: 'card',
  cardFingerprint: 'card',
  failureReason: 'failureReason',
  failureMessage: 'failureMessage',
  threeDSecure: 'threeDSecure',
  authenticationUrl: 'nextAction',
  source: 'source',
  sourceId: 'sourceId',
  amountRefunded: 'amountRefunded',
  amountDisputed: 'amountDisputed',
  feeAmount: 'fee',
  metadata: 'metadata',
  capturedAt: 'capturedAt',
  settledAt: 'settledAt',
  createdAt: 'createdAt',
  refunds: 'refunds',
  disputes: 'disputes',
};
const PAYMENT_FIELDS = [...new Set(Object.values(PAYMENT_FIELD_OF))];

@ObjectType({
  description:
    'One change of a payment: the payment as it is now, its status before the change and the fields the change set',
})
export class PaymentUpdate {
  @Field(() => Payment, {
    description: 'The payment as it is when the message is sent (a later change may already show)',
  })
  payment: Payment;
  @Field(() => PaymentStatus, {
    nullable: true,
    description:
      'The status before this change (the same as now when the change left it); null when the payment was created',
  })
  previousStatus: PaymentStatus | null;
  @Field(() => [String], {
    description:
      "The payment's fields this change set, in the type's order (updatedAt, which every change sets, is not listed)",
  })
  changedFields: string[];

  static from(payment: PaymentRow, previousStatus: string | null, changed: readonly string[]): PaymentUpdate {
    const fields = new Set(changed.map((property) => PAYMENT_FIELD_OF[property]).filter(Boolean));
    return Object.assign(new PaymentUpdate(), {
      payment: Payment.from(payment),
      previousStatus: (previousStatus as PaymentStatus | null) ?? null,
      changedFields: PAYMENT_FIELDS.filter((field) => fields.has(field)),
    });
  }
}
