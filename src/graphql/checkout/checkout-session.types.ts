import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { Core } from '../../domain/core';
import {
  CheckoutPaymentMethod,
  CheckoutSession as CheckoutSessionRow,
  CheckoutSessionSource,
  CheckoutSessionStatus,
} from '../../domain/checkout';
import { Mode } from '../../domain/shared/modes';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';

registerEnumType(CheckoutSessionStatus, {
  name: 'CheckoutSessionStatus',
  description: 'OPEN (payable), COMPLETED (paid once), EXPIRED, or LOCKED (too many failed payment attempts)',
  valuesConfig: {
    OPEN: { description: 'Payable on the hosted page until expiresAt' },
    COMPLETED: { description: 'Paid once (paymentId, or collectionId for a local rail, is set); never payable again' },
    EXPIRED: { description: 'Past expiresAt unpaid, or withdrawn with its voided invoice' },
    LOCKED: {
      description:
        'Too many failed payment attempts (of the session, its payment link or invoice, or the card): every further attempt is refused',
    },
  },
});
registerEnumType(CheckoutPaymentMethod, {
  name: 'CheckoutPaymentMethod',
  description: 'How the hosted page lets the payer pay: CARD, or a local rail of collections (BANK, MOMO, EFT)',
  valuesConfig: {
    CARD: { description: 'The card form (the default)' },
    BANK: { description: 'Bank transfer to a virtual account, through a collection' },
    MOMO: { description: "A mobile money prompt on the payer's phone, through a collection" },
    EFT: { description: "An EFT quoting the reference shown on Tessera's page, through a collection" },
  },
});
registerEnumType(CheckoutSessionSource, {
  name: 'CheckoutSessionSource',
  description: 'What opened the session: the API, a payment link, an invoice or a payment of the /v1 surface',
  valuesConfig: {
    API: { description: 'Opened with createCheckoutSession (REST: POST /business/checkout/session)' },
    PAYMENT_LINK: { description: 'A visit of a payment link (sourceId is the link)' },
    INVOICE: { description: 'A sent invoice (sourceId is the invoice)' },
    V1: { description: 'A payment of the alternate /v1 surface (POST /v1/payments), with the same id' },
  },
});

/** The GraphQL spelling of a recurring interval. */
export enum RecurringIntervalValue {
  WEEKLY = 'weekly',
  MONTHLY = 'monthly',
}
registerEnumType(RecurringIntervalValue, {
  name: 'RecurringInterval',
  description: 'How often a recurring gift is charged',
  valuesConfig: {
    WEEKLY: { description: 'Every 7 days' },
    MONTHLY: { description: 'The same day each month (or the last day of a shorter month)' },
  },
});

@ObjectType({
  description: 'A hosted checkout session: one amount, paid once on the hosted page at checkoutUrl',
  implements: Node,
})
export class CheckoutSession extends Node {
  @Field(() => CheckoutSessionStatus, { description: 'OPEN until paid, expired or locked' })
  status: CheckoutSessionStatus;
  @Field(() => Money, { description: 'The amount to pay' }) amount: Money;
  @Field(() => String, { nullable: true, description: 'Null when the hosted page asks the payer for it' })
  customerEmail: string | null;
  @Field(() => String, { nullable: true, description: 'Shown to the payer on the hosted page; null when none' })
  description: string | null;
  @Field({
    description: "Where the payer lands once paid (session_id is appended); Tessera's receipt page when none was given",
  })
  successUrl: string;
  @Field(() => String, {
    nullable: true,
    description: 'Shown as a "Cancel and return" link on the hosted page; null for none',
  })
  cancelUrl: string | null;
  @Field({ description: 'The hosted payment page' }) checkoutUrl: string;
  @Field(() => CheckoutSessionSource, { description: 'What opened the session' }) source: CheckoutSessionSource;
  @Field(() => ID, { nullable: true, description: 'The payment link or invoice that opened the session' }) sourceId:
    string | null;
  @Field(() => ID, { nullable: true, description: 'The payment that paid the session' }) paymentId: string | null;
  @Field(() => [CheckoutPaymentMethod], { description: 'What the hosted page offers' })
  paymentMethods: CheckoutPaymentMethod[];
  @Field(() => ID, { nullable: true, description: 'The collection that paid the session (a local rail)' })
  collectionId: string | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Your key-value data as sent, copied to the payment; null when none',
  })
  metadata: Record<string, unknown> | null;
  @Field(() => Mode, { description: 'TEST or LIVE (REST: livemode)' }) mode: Mode;
  @Field({
    description:
      'When an unpaid session expires (ISO 8601, UTC): 24 hours after creation, 90 days after sending for an invoice',
  })
  expiresAt: Date;
  @Field(() => Date, {
    nullable: true,
    description: 'When the session was paid (ISO 8601, UTC); null unless COMPLETED',
  })
  completedAt: Date | null;
  @Field({ description: 'When the session was opened (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the session last changed (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: CheckoutSessionRow, core: Core): CheckoutSession {
    return Object.assign(new CheckoutSession(), {
      id: row.id,
      status: row.status,
      amount: Money.of(row.amount, row.currency),
      customerEmail: row.customerEmail,
      description: row.description,
      successUrl: core.checkout.successUrlOf(row),
      cancelUrl: row.cancelUrl,
      checkoutUrl: core.checkout.urlOf(row),
      source: row.source,
      sourceId: row.sourceId,
      paymentId: row.paymentId,
      paymentMethods: [...row.paymentMethods],
      collectionId: row.collectionId,
      metadata: row.metadata,
      mode: row.livemode ? Mode.LIVE : Mode.TEST,
      expiresAt: row.expiresAt,
      completedAt: row.completedAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'A page of checkout sessions, newest first' })
export class CheckoutSessionConnection extends Connection(CheckoutSession, 'CheckoutSession') {}

@ObjectType({ description: 'A checkout session was opened or left OPEN (checkoutSessionUpdated)' })
export class CheckoutSessionUpdate {
  @Field(() => CheckoutSession, {
    description: 'The session as it reads when the message is sent (it may already show a later status)',
  })
  checkoutSession: CheckoutSession;
  @Field(() => CheckoutSessionStatus, {
    nullable: true,
    description: 'The status it left (OPEN); null when this change opened it',
  })
  previousStatus: CheckoutSessionStatus | null;

  static of(row: CheckoutSessionRow, previousStatus: CheckoutSessionStatus | null, core: Core): CheckoutSessionUpdate {
    return Object.assign(new CheckoutSessionUpdate(), {
      checkoutSession: CheckoutSession.from(row, core),
      previousStatus,
    });
  }
}

@InputType({
  description: 'A hosted checkout session (REST: POST /business/checkout/session): one amount to be paid once',
})
export class CreateCheckoutSessionInput {
  @Field({ description: 'Decimal amount in major units, e.g. "25.00"' }) amount: string;
  @Field({ description: 'Currency code, any case' }) currency: string;
  @Field({ nullable: true, description: 'Omit to let the hosted page ask for it' }) customerEmail?: string;
  @Field({ description: 'Absolute http(s) URL' }) successUrl: string;
  @Field({ nullable: true, description: 'Absolute http(s) URL, shown as a "Cancel and return" link' })
  cancelUrl?: string;
  @Field({ nullable: true, description: 'Shown to the payer on the hosted page (at most 500 characters)' })
  description?: string;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'Your key-value data, a JSON object of at most 8 KB, copied to the payment',
  })
  metadata?: Record<string, unknown>;
  @Field(() => [CheckoutPaymentMethod], {
    nullable: true,
    description: 'What the hosted page offers (default [CARD]); local rails need a channel in the currency',
  })
  paymentMethods?: CheckoutPaymentMethod[];
}
