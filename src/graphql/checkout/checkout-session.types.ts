import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { Core } from '../../domain/core';
import { CheckoutPaymentMethod, CheckoutSession as CheckoutSessionRow, CheckoutSessionSource, CheckoutSessionStatus } from '../../domain/checkout/checkout-session.entity';
import { Mode } from '../../domain/identity/identity.entities';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';

registerEnumType(CheckoutSessionStatus, { name: 'CheckoutSessionStatus', description: 'OPEN (payable), COMPLETED (paid once), EXPIRED, or LOCKED (too many failed payment attempts)' });
registerEnumType(CheckoutPaymentMethod, { name: 'CheckoutPaymentMethod', description: 'card, or a local rail of collections (bank, momo, eft)' });
registerEnumType(CheckoutSessionSource, { name: 'CheckoutSessionSource', description: 'What opened the session: the API, a payment link or an invoice' });

/** The GraphQL spelling of a recurring interval. */
export enum RecurringIntervalValue {
  WEEKLY = 'weekly',
  MONTHLY = 'monthly',
}
registerEnumType(RecurringIntervalValue, { name: 'RecurringInterval' });

@ObjectType({ description: 'A hosted checkout session: one amount, paid once on the hosted page at checkoutUrl', implements: Node })
export class CheckoutSession extends Node {
  @Field(() => CheckoutSessionStatus) status: CheckoutSessionStatus;
  @Field(() => Money) amount: Money;
  @Field(() => String, { nullable: true, description: 'Null when the hosted page asks the payer for it' }) customerEmail: string | null;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field({ description: "Where the payer lands once paid (session_id is appended); Tessera's receipt page when none was given" }) successUrl: string;
  @Field(() => String, { nullable: true }) cancelUrl: string | null;
  @Field({ description: 'The hosted payment page' }) checkoutUrl: string;
  @Field(() => CheckoutSessionSource) source: CheckoutSessionSource;
  @Field(() => ID, { nullable: true, description: 'The payment link or invoice that opened the session' }) sourceId: string | null;
  @Field(() => ID, { nullable: true, description: 'The payment that paid the session' }) paymentId: string | null;
  @Field(() => [CheckoutPaymentMethod], { description: 'What the hosted page offers' }) paymentMethods: CheckoutPaymentMethod[];
  @Field(() => ID, { nullable: true, description: 'The collection that paid the session (a local rail)' }) collectionId: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata: Record<string, unknown> | null;
  @Field(() => Mode) mode: Mode;
  @Field() expiresAt: Date;
  @Field(() => Date, { nullable: true }) completedAt: Date | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: CheckoutSessionRow, core: Core): CheckoutSession {
    return Object.assign(new CheckoutSession(), {
      id: row.id, status: row.status, amount: Money.of(row.amount, row.currency), customerEmail: row.customerEmail, description: row.description,
      successUrl: core.checkout.successUrlOf(row), cancelUrl: row.cancelUrl, checkoutUrl: core.checkout.urlOf(row), source: row.source,
      sourceId: row.sourceId, paymentId: row.paymentId, paymentMethods: [...row.paymentMethods], collectionId: row.collectionId, metadata: row.metadata, mode: row.livemode ? Mode.LIVE : Mode.TEST,
      expiresAt: row.expiresAt, completedAt: row.completedAt, createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType()
export class CheckoutSessionConnection extends Connection(CheckoutSession, 'CheckoutSession') {}

@InputType()
export class CreateCheckoutSessionInput {
  @Field({ description: 'Decimal amount in major units, e.g. "25.00"' }) amount: string;
  @Field({ description: 'Currency code, any case' }) currency: string;
  @Field({ nullable: true, description: 'Omit to let the hosted page ask for it' }) customerEmail?: string;
  @Field({ description: 'Absolute http(s) URL' }) successUrl: string;
  @Field({ nullable: true }) cancelUrl?: string;
  @Field({ nullable: true }) description?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
  @Field(() => [CheckoutPaymentMethod], { nullable: true, description: 'What the hosted page offers (default [CARD]); local rails need a channel in the currency' })
  paymentMethods?: CheckoutPaymentMethod[];
}
