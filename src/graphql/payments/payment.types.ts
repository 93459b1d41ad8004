import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Dispute as DisputeRow, DisputeStatus, Payment as PaymentRow, PaymentStatus, Refund as RefundRow } from '../../domain/payments/payment.entities';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';

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

@ObjectType({ description: 'A card payment' })
export class Payment {
  @Field(() => ID) id: string;
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

@ObjectType()
export class Refund {
  @Field(() => ID) id: string;
  @Field(() => ID) paymentId: string;
  @Field(() => Money) amount: Money;
  @Field(() => String, { nullable: true }) reason: string | null;
  @Field() status: string;
  @Field() createdAt: Date;

  static from(row: RefundRow): Refund {
    return Object.assign(new Refund(), { ...row, amount: Money.of(row.amount, row.currency) });
  }
}

@ObjectType({ description: 'A chargeback: OPEN debits the amount and a non-refundable fee; WON re-credits the amount' })
export class Dispute {
  @Field(() => ID) id: string;
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

@ObjectType({ description: 'A refund and the payment after it' })
export class RefundResult {
  @Field(() => Refund) refund: Refund;
  @Field(() => Payment) payment: Payment;
}

@ObjectType({ description: 'A dispute and the payment after it' })
export class DisputeResult {
  @Field(() => Dispute) dispute: Dispute;
  @Field(() => Payment) payment: Payment;
}

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

@InputType()
export class PaymentFilter {
  @Field(() => PaymentStatus, { nullable: true }) status?: PaymentStatus;
  @Field({ nullable: true, description: "The short reference on the payer's receipt (12 hex digits such as 3F9AC21B-7E04: the start of the id)" }) reference?: string;
  @Field({ nullable: true, description: "Payer's email" }) email?: string;
  @Field(() => ID, { nullable: true }) customerId?: string;
  @Field(() => Date, { nullable: true, description: 'Created at or after' }) from?: Date;
  @Field(() => Date, { nullable: true, description: 'Created at or before' }) to?: Date;
}
