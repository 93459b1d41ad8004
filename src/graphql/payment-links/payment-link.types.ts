import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';
import { Core } from '../../domain/core';
import { Mode } from '../../domain/shared/modes';
import { PaymentLink as PaymentLinkRow } from '../../domain/payment-links';
import { RecurringIntervalValue } from '../checkout/checkout-session.types';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';
import { IdInput } from '../shared/payload';

@ObjectType({
  description: 'A fixed amount behind a reusable public URL; each visit opens a new checkout session',
  implements: Node,
})
export class PaymentLink extends Node {
  @Field({ description: 'The public URL to share (/pay/…)' }) url: string;
  @Field({ description: 'What the payer is paying for, shown on the page' }) name: string;
  @Field(() => String, { nullable: true, description: 'Shown on the page; null when none' }) description: string | null;
  @Field(() => Money, { description: 'The fixed amount every session of the link asks for' }) amount: Money;
  @Field({ description: 'False once deactivated: the URL then shows a "no longer active" page' }) active: boolean;
  @Field({ description: 'Whether payers may turn their payment into a recurring gift' }) allowRecurring: boolean;
  @Field(() => RecurringIntervalValue, {
    nullable: true,
    description: 'The interval of its recurring gifts; null unless allowRecurring',
  })
  recurringInterval: RecurringIntervalValue | null;
  @Field(() => String, { nullable: true, description: "Where payers land once paid; null: Tessera's receipt page" })
  successUrl: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Your key-value data as sent; null when none' })
  metadata: Record<string, unknown> | null;
  @Field(() => Mode, { description: 'TEST or LIVE (REST: livemode)' }) mode: Mode;
  @Field(() => Date, { nullable: true, description: 'When it was deactivated (ISO 8601, UTC); null while active' })
  deactivatedAt: Date | null;
  @Field({ description: 'When it was created (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When it last changed (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: PaymentLinkRow, core: Core): PaymentLink {
    return Object.assign(new PaymentLink(), {
      id: row.id,
      url: core.paymentLinks.urlOf(row),
      name: row.name,
      description: row.description,
      amount: Money.of(row.amount, row.currency),
      active: row.active,
      allowRecurring: row.allowRecurring,
      recurringInterval: row.recurringInterval as RecurringIntervalValue | null,
      successUrl: row.successUrl,
      metadata: row.metadata,
      mode: row.livemode ? Mode.LIVE : Mode.TEST,
      deactivatedAt: row.deactivatedAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'A page of payment links, newest first' })
export class PaymentLinkConnection extends Connection(PaymentLink, 'PaymentLink') {}

@InputType({ description: 'A payment link (REST: POST /business/payment-links): a fixed amount behind a reusable URL' })
export class CreatePaymentLinkInput {
  @Field({ description: 'What the payer is paying for (1 to 200 characters)' }) name: string;
  @Field({ nullable: true, description: 'Shown on the page (at most 500 characters)' }) description?: string;
  @Field({ description: 'Decimal amount in major units' }) amount: string;
  @Field({ description: 'Currency code, any case' }) currency: string;
  @Field({ nullable: true, description: 'Payers may turn their payment into a recurring gift' })
  allowRecurring?: boolean;
  @Field(() => RecurringIntervalValue, { nullable: true, description: 'MONTHLY when allowRecurring and omitted' })
  recurringInterval?: RecurringIntervalValue;
  @Field({
    nullable: true,
    description: "Absolute http(s) URL payers land on once paid; Tessera's receipt page when omitted",
  })
  successUrl?: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'Your key-value data, a JSON object of at most 8 KB' })
  metadata?: Record<string, unknown>;
}

export const DeactivatePaymentLinkInput = IdInput(
  'DeactivatePaymentLink',
  'The payment link to deactivate (deactivating again changes nothing)',
);
export type DeactivatePaymentLinkInput = InstanceType<typeof DeactivatePaymentLinkInput>;
