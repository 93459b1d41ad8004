import { CardInput } from '../payments/payment.types';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Customer as CustomerRow, PaymentMethod as PaymentMethodRow } from '../../domain/customers';
import { Payment as PaymentRow } from '../../domain/payments';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';

@ObjectType({ description: 'A card saved for a customer; the number stays with the acquirer', implements: Node })
export class PaymentMethod extends Node {
  @Field({ description: 'One of visa, mastercard, amex, discover or unknown' }) brand: string;
  @Field({ description: 'The last four digits of the card number' }) last4: string;
  @Field(() => Int, { description: 'Expiry month, 1 to 12' }) expiryMonth: number;
  @Field(() => Int, { description: 'Expiry year, four digits' }) expiryYear: number;
  @Field({ description: 'Issuing country (ISO 3166-1 alpha-2)' }) country: string;
  @Field({ description: 'When the card was saved (ISO 8601, UTC)' }) createdAt: Date;
  customerId: string;

  static from(row: PaymentMethodRow): PaymentMethod {
    return Object.assign(new PaymentMethod(), {
      id: row.id,
      brand: row.brand,
      last4: row.last4,
      expiryMonth: row.expiryMonth,
      expiryYear: row.expiryYear,
      country: row.country,
      createdAt: row.createdAt,
      customerId: row.customerId,
    });
  }
}

@ObjectType({ description: "One of a customer's recent payments to the business" })
export class CustomerPayment {
  @Field(() => ID, { description: 'The payment (a Payment node: read it with payment or node for more)' })
  paymentId: string;
  @Field(() => Money, { description: 'The amount charged' }) amount: Money;
  @Field({ description: 'PENDING, REQUIRES_ACTION, COMPLETED, SETTLED, FAILED or REFUNDED' }) status: string;
  @Field(() => String, { nullable: true, description: 'Why a FAILED payment failed (card_declined, blocked, …)' })
  failureReason: string | null;
  @Field(() => Money, { description: 'Refunded so far (zero when never refunded)' }) amountRefunded: Money;
  @Field({ description: 'The payer email used for this payment, lower case' }) email: string;
  @Field({ description: 'Card brand in lower case: visa, mastercard, amex, discover or unknown' }) cardBrand: string;
  @Field({ description: 'The last four digits of the card charged' }) cardLast4: string;
  @Field(() => ID, { nullable: true, description: 'The saved card charged; null when the card was typed or tokenized' })
  paymentMethodId: string | null;
  @Field({ description: 'When the payment was created (ISO 8601, UTC)' }) createdAt: Date;

  static from(row: PaymentRow): CustomerPayment {
    return Object.assign(new CustomerPayment(), {
      paymentId: row.id,
      amount: Money.of(row.amount, row.currency),
      status: row.status,
      failureReason: row.failureReason,
      amountRefunded: Money.of(row.amountRefunded, row.currency),
      email: row.email,
      cardBrand: row.cardBrand,
      cardLast4: row.cardLast4,
      paymentMethodId: row.paymentMethodId,
      createdAt: row.createdAt,
    });
  }
}

@ObjectType({
  description: 'A customer profile of the business in one mode, with saved cards and recent payments',
  implements: Node,
})
export class Customer extends Node {
  @Field({ description: 'Lower case; unique per business and mode' }) email: string;
  @Field(() => String, { nullable: true, description: "The merchant's own id for the customer" }) userId: string | null;
  @Field(() => String, { nullable: true, description: 'Null when not given' }) firstName: string | null;
  @Field(() => String, { nullable: true, description: 'Null when not given' }) lastName: string | null;
  @Field(() => String, { nullable: true, description: 'As given (+, digits, spaces and ()-.); null when not given' })
  phoneNumber: string | null;
  @Field({ description: 'When the profile was created (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the profile last changed (ISO 8601, UTC)' }) updatedAt: Date;
  defaultPaymentMethodId: string | null;

  static from(row: CustomerRow): Customer {
    return Object.assign(new Customer(), {
      id: row.id,
      email: row.email,
      userId: row.userId,
      firstName: row.firstName,
      lastName: row.lastName,
      phoneNumber: row.phoneNumber,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      defaultPaymentMethodId: row.defaultPaymentMethodId,
    });
  }
}

@ObjectType({ description: 'A page of customer profiles, newest first' })
export class CustomerConnection extends Connection(Customer, 'Customer') {}

@InputType({ description: 'A new customer profile (REST: POST /business/customers)' })
export class CreateCustomerInput {
  @Field({ description: 'Unique per business and mode, any case (CONFLICT when it has a profile)' }) email: string;
  @Field({ nullable: true, description: 'Your own id for the customer' }) userId?: string;
  @Field({ nullable: true, description: "The customer's first name" }) firstName?: string;
  @Field({ nullable: true, description: "The customer's last name" }) lastName?: string;
  @Field({ nullable: true, description: '+, digits, spaces and ()-. only' }) phoneNumber?: string;
}

@InputType({ description: 'Fields to change; null clears an optional field' })
export class UpdateCustomerInput {
  @Field(() => ID, { description: 'The customer to change' }) id: string;
  @Field({
    nullable: true,
    description: "A new email, free in this business and mode; links that email's unlinked payments",
  })
  email?: string;
  @Field(() => String, { nullable: true, description: 'Your own id for the customer; null clears it' }) userId?:
    string | null;
  @Field(() => String, { nullable: true, description: 'Null clears it' }) firstName?: string | null;
  @Field(() => String, { nullable: true, description: 'Null clears it' }) lastName?: string | null;
  @Field(() => String, { nullable: true, description: '+, digits, spaces and ()-. only; null clears it' })
  phoneNumber?: string | null;
}

@InputType({ description: 'Exactly one of card or token' })
export class AttachPaymentMethodInput {
  @Field(() => ID, { description: 'The customer to save the card for' }) customerId: string;
  @Field(() => CardInput, { nullable: true, description: 'The card details; vaulted with the acquirer, never stored' })
  card?: CardInput;
  @Field({ nullable: true, description: 'A card token (tok_…) made with the publishable key; consumed' })
  token?: string;
}

@InputType({ description: 'A saved card of a customer' })
export class DetachPaymentMethodInput {
  @Field(() => ID, { description: 'The customer the card belongs to' }) customerId: string;
  @Field(() => ID, { description: 'The saved card to remove' }) paymentMethodId: string;
}

@InputType({ description: 'A saved card of the customer, to charge by default' })
export class SetDefaultPaymentMethodInput {
  @Field(() => ID, { description: 'The customer the card belongs to' }) customerId: string;
  @Field(() => ID, { description: 'The saved card to make the default' }) paymentMethodId: string;
}

/** GraphQL input objects as plain data: fields the client left out are absent, not undefined. */
export function definedFields<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(input)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [
        key,
        value !== null && typeof value === 'object' && !Array.isArray(value) ? definedFields(value) : value,
      ]),
  ) as Partial<T>;
}
