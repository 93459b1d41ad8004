import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Dispute as DisputeRow, DisputeStatus, Payment as PaymentRow, PaymentStatus, Refund as RefundRow } from '../../domain/payments/payment.entities';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { Money } from '../shared/money.type';
import { IdInput } from '../shared/payload';

registerEnumType(PaymentStatus, { name: 'PaymentStatus', description: 'PENDING, REQUIRES_ACTION (3-D Secure), COMPLETED (captured), SETTLED, FAILED, REFUNDED (in full)' });
registerEnumType(DisputeStatus, { name: 'DisputeStatus' });

@ObjectType({ description: 'What is kept of the card: never the number' })
export class PaymentCard {
  @Field() brand: string;
  @Field() last4: string;
  @Field(() => Int) expiryMonth: number;
  @Field(() => Int) expiryYear: number;
  @Field({ description: 'Issuing country (ISO 3166-1 alpha-2)' }) country: string;
  @Field({ description: 'The same card has the same fingerprint (usable in the fraud block list)' }) fingerprint: string;
}

@ObjectType({ description: 'A card payment', implements: Node })
export class Payment extends Node {
  @Field(() => PaymentStatus) status: PaymentStatus;
  @Field(() => Money) amount: Money;
  @Field() email: string;
  @Field(() => ID, { nullable: true }) customerId: string | null;
  @Field(() => PaymentCard) card: PaymentCard;
  @Field(() => String, { nullable: true, description: 'One of card_declined, insufficient_funds, authentication_failed, blocked or processing_error' })
  failureReason: string | null;
  @Field(() => String, { nullable: true }) failureMessage: string | null;
  @Field(() => String, { nullable: true, description: 'When 3-D Secure was required: pending, succeeded or failed' }) threeDSecure: string | null;
  @Field({ description: 'Where the payment came from: api, checkout_session, payment_link, invoice or recurring_gift' }) source: string;
  @Field(() => ID, { nullable: true }) sourceId: string | null;
  @Field(() => Money) amountRefunded: Money;
  @Field(() => Money) amountDisputed: Money;
  @Field(() => Money, { description: 'Fee kept at settlement' }) fee: Money;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata: Record<string, unknown> | null;
  @Field(() => Date, { nullable: true }) capturedAt: Date | null;
  @Field(() => Date, { nullable: true }) settledAt: Date | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: PaymentRow): Payment {
    return Object.assign(new Payment(), {
      id: row.id,
      status: row.status,
      amount: Money.of(row.amount, row.currency),
      email: row.email,
      customerId: row.customerId,
      card: Object.assign(new PaymentCard(), {
        brand: row.cardBrand, last4: row.cardLast4, expiryMonth: row.cardExpiryMonth, expiryYear: row.cardExpiryYear,
        country: row.cardCountry, fingerprint: row.cardFingerprint,
      }),
      failureReason: row.failureReason,
      failureMessage: row.failureMessage,
      threeDSecure: row.threeDSecure,
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

@ObjectType()
export class PaymentConnection extends Connection(Payment, 'Payment') {}

@ObjectType({ description: 'Money given back on a captured payment', implements: Node })
export class Refund extends Node {
  @Field(() => ID) paymentId: string;
  @Field(() => Money) amount: Money;
  @Field(() => String, { nullable: true }) reason: string | null;
  @Field() status: string;
  @Field() createdAt: Date;

  static from(row: RefundRow): Refund {
    return Object.assign(new Refund(), { ...row, amount: Money.of(row.amount, row.currency) });
  }
}

@ObjectType({ description: 'A chargeback: OPEN debits the amount and a non-refundable fee; WON re-credits the amount', implements: Node })
export class Dispute extends Node {
  @Field(() => ID) paymentId: string;
  @Field(() => DisputeStatus) status: DisputeStatus;
  @Field(() => Money) amount: Money;
  @Field(() => Money) fee: Money;
  @Field() reason: string;
  @Field(() => Date, { nullable: true }) resolvedAt: Date | null;
  @Field() createdAt: Date;

  static from(row: DisputeRow): Dispute {
    return Object.assign(new Dispute(), { ...row, amount: Money.of(row.amount, row.currency), fee: Money.of(row.fee, row.currency) });
  }
}

@ObjectType()
export class DisputeConnection extends Connection(Dispute, 'Dispute') {}

@InputType({ description: 'Card details as the payer typed them; never stored' })
export class CardInput {
  @Field() number: string;
  @Field(() => Int) expiryMonth: number;
  @Field(() => Int) expiryYear: number;
  @Field() cvv: string;
}

@InputType({ description: 'The server-to-server charge (POST /business/payment/charge): exactly one of card, token or paymentMethodId' })
export class ChargeCardInput {
  @Field({ description: 'Decimal amount in major units, e.g. "25.00"' }) amount: string;
  @Field({ description: 'Currency code, e.g. usd' }) currency: string;
  @Field(() => CardInput, { nullable: true }) card?: CardInput;
  @Field({ nullable: true, description: 'A card token (tok_…) made in the browser with the publishable key' }) token?: string;
  @Field({ nullable: true, description: "A customer's saved card" }) paymentMethodId?: string;
  @Field({ nullable: true, description: "Payer's email; defaults to the customer's with paymentMethodId" }) email?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

@InputType({ description: 'POST /business/payment/{id}/refund: all (amount omitted) or part of what is refundable' })
export class RefundPaymentInput {
  @Field(() => ID) paymentId: string;
  @Field({ nullable: true, description: 'Decimal major units; the whole refundable amount when omitted' }) amount?: string;
  @Field({ nullable: true }) reason?: string;
}

@InputType({ description: 'Sandbox only: the cardholder disputes the payment' })
export class SandboxOpenDisputeInput {
  @Field(() => ID) paymentId: string;
  @Field({ nullable: true }) reason?: string;
}

@InputType({ description: 'Sandbox only: how an OPEN dispute ends' })
export class SandboxResolveDisputeInput {
  @Field(() => ID) disputeId: string;
  @Field({ description: 'True when the merchant won (the amount comes back), false when lost' }) won: boolean;
}

@InputType({ description: 'Test mode only: server-to-server charging on or off' })
export class SetServerToServerChargingInput {
  @Field() enabled: boolean;
}

export const CompleteThreeDSecureInput = IdInput('CompleteThreeDSecure', 'The REQUIRES_ACTION payment to finish');
export type CompleteThreeDSecureInput = InstanceType<typeof CompleteThreeDSecureInput>;
export const SandboxSettlePaymentInput = IdInput('SandboxSettlePayment', 'The COMPLETED payment to settle now');
export type SandboxSettlePaymentInput = InstanceType<typeof SandboxSettlePaymentInput>;

@InputType()
export class PaymentFilter {
  @Field(() => PaymentStatus, { nullable: true }) status?: PaymentStatus;
  @Field({ nullable: true, description: "The short reference on the payer's receipt (12 hex digits such as 3F9AC21B-7E04: the start of the id)" }) reference?: string;
  @Field({ nullable: true, description: "Payer's email" }) email?: string;
  @Field(() => ID, { nullable: true }) customerId?: string;
  @Field(() => Date, { nullable: true, description: 'Created at or after' }) from?: Date;
  @Field(() => Date, { nullable: true, description: 'Created at or before' }) to?: Date;
}

/** The Payment field each entity property (or list) of a change shows in; properties the type does not show are left out. */
const PAYMENT_FIELD_OF: Readonly<Record<string, string>> = {
  id: 'id', status: 'status', amount: 'amount', currency: 'amount', email: 'email', customerId: 'customerId',
  cardBrand: 'card', cardLast4: 'card', cardExpiryMonth: 'card', cardExpiryYear: 'card', cardCountry: 'card', cardFingerprint: 'card',
  failureReason: 'failureReason', failureMessage: 'failureMessage', threeDSecure: 'threeDSecure', source: 'source', sourceId: 'sourceId',
  amountRefunded: 'amountRefunded', amountDisputed: 'amountDisputed', feeAmount: 'fee', metadata: 'metadata', capturedAt: 'capturedAt',
  settledAt: 'settledAt', createdAt: 'createdAt', refunds: 'refunds', disputes: 'disputes',
};
const PAYMENT_FIELDS = [...new Set(Object.values(PAYMENT_FIELD_OF))];

@ObjectType({ description: 'One change of a payment: the payment as it is now, its status before the change and the fields the change set' })
export class PaymentUpdate {
  @Field(() => Payment, { description: 'The payment as it is when the message is sent (a later change may already show)' }) payment: Payment;
  @Field(() => PaymentStatus, { nullable: true, description: 'The status before this change (the same as now when the change left it); null when the payment was created' })
  previousStatus: PaymentStatus | null;
  @Field(() => [String], { description: "The payment's fields this change set, in the type's order (updatedAt, which every change sets, is not listed)" })
  changedFields: string[];

  static from(payment: PaymentRow, previousStatus: string | null, changed: readonly string[]): PaymentUpdate {
    const fields = new Set(changed.map((property) => PAYMENT_FIELD_OF[property]).filter(Boolean));
    return Object.assign(new PaymentUpdate(), {
      payment: Payment.from(payment), previousStatus: (previousStatus as PaymentStatus | null) ?? null,
      changedFields: PAYMENT_FIELDS.filter((field) => fields.has(field)),
    });
  }
}
