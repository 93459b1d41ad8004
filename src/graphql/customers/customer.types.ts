import { CardInput } from '../payments/payment.types';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Customer as CustomerRow, PaymentMethod as PaymentMethodRow } from '../../domain/customers/customer.entities';
import { Payment as PaymentRow } from '../../domain/payments/payment.entities';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';

@ObjectType({ description: "A card saved for a customer; the number stays with the acquirer", implements: Node })
export class PaymentMethod extends Node {
  @Field({ description: 'One of visa, mastercard, amex, discover or unknown' }) brand: string;
  @Field() last4: string;
  @Field(() => Int) expiryMonth: number;
  @Field(() => Int) expiryYear: number;
  @Field({ description: 'Issuing country (ISO 3166-1 alpha-2)' }) country: string;
  @Field() createdAt: Date;
  customerId: string;

  static from(row: PaymentMethodRow): PaymentMethod {
    return Object.assign(new PaymentMethod(), {
      id: row.id, brand: row.brand, last4: row.last4, expiryMonth: row.expiryMonth, expiryYear: row.expiryYear,
      country: row.country, createdAt: row.createdAt, customerId: row.customerId,
    });
  }
}

@ObjectType({ description: "One of a customer's recent payments to the business" })
export class CustomerPayment {
  @Field(() => ID) paymentId: string;
  @Field(() => Money) amount: Money;
  @Field({ description: 'PENDING, REQUIRES_ACTION, COMPLETED, SETTLED, FAILED or REFUNDED' }) status: string;
  @Field(() => String, { nullable: true, description: 'Why a FAILED payment failed (card_declined, blocked, …)' }) failureReason: string | null;
  @Field(() => Money) amountRefunded: Money;
  @Field() email: string;
  @Field() cardBrand: string;
  @Field() cardLast4: string;
  @Field(() => ID, { nullable: true }) paymentMethodId: string | null;
  @Field() createdAt: Date;

  static from(row: PaymentRow): CustomerPayment {
    return Object.assign(new CustomerPayment(), {
      paymentId: row.id, amount: Money.of(row.amount, row.currency), status: row.status, failureReason: row.failureReason,
      amountRefunded: Money.of(row.amountRefunded, row.currency), email: row.email, cardBrand: row.cardBrand, cardLast4: row.cardLast4,
      paymentMethodId: row.paymentMethodId, createdAt: row.createdAt,
    });
  }
}

@ObjectType({ description: 'A customer profile of the business in one mode, with saved cards and recent payments', implements: Node })
export class Customer extends Node {
  @Field() email: string;
  @Field(() => String, { nullable: true, description: "The merchant's own id for the customer" }) userId: string | null;
  @Field(() => String, { nullable: true }) firstName: string | null;
  @Field(() => String, { nullable: true }) lastName: string | null;
  @Field(() => String, { nullable: true }) phoneNumber: string | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;
  defaultPaymentMethodId: string | null;

  static from(row: CustomerRow): Customer {
    return Object.assign(new Customer(), {
      id: row.id, email: row.email, userId: row.userId, firstName: row.firstName, lastName: row.lastName, phoneNumber: row.phoneNumber,
      createdAt: row.createdAt, updatedAt: row.updatedAt, defaultPaymentMethodId: row.defaultPaymentMethodId,
    });
  }
}

@ObjectType()
export class CustomerConnection extends Connection(Customer, 'Customer') {}

@InputType()
export class CreateCustomerInput {
  @Field() email: string;
  @Field({ nullable: true }) userId?: string;
  @Field({ nullable: true }) firstName?: string;
  @Field({ nullable: true }) lastName?: string;
  @Field({ nullable: true }) phoneNumber?: string;
}

@InputType({ description: 'Fields to change; null clears an optional field' })
export class UpdateCustomerInput {
  @Field(() => ID, { description: 'The customer to change' }) id: string;
  @Field({ nullable: true }) email?: string;
  @Field(() => String, { nullable: true }) userId?: string | null;
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => String, { nullable: true }) phoneNumber?: string | null;
}

@InputType({ description: 'Exactly one of card or token' })
export class AttachPaymentMethodInput {
  @Field(() => ID) customerId: string;
  @Field(() => CardInput, { nullable: true }) card?: CardInput;
  @Field({ nullable: true, description: 'A card token (tok_…) made with the publishable key; consumed' }) token?: string;
}

@InputType({ description: 'A saved card of a customer' })
export class DetachPaymentMethodInput {
  @Field(() => ID) customerId: string;
  @Field(() => ID) paymentMethodId: string;
}

@InputType({ description: 'A saved card of the customer, to charge by default' })
export class SetDefaultPaymentMethodInput {
  @Field(() => ID) customerId: string;
  @Field(() => ID) paymentMethodId: string;
}

/** GraphQL input objects as plain data: fields the client left out are absent, not undefined. */
export function definedFields<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)
    .map(([key, value]) => [key, value !== null && typeof value === 'object' && !Array.isArray(value) ? definedFields(value) : value])) as Partial<T>;
}
