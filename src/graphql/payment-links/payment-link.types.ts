import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';
import { Core } from '../../domain/core';
import { Mode } from '../../domain/identity/identity.entities';
import { PaymentLink as PaymentLinkRow } from '../../domain/payment-links/payment-link.entity';
import { RecurringIntervalValue } from '../checkout/checkout-session.types';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';
import { IdInput } from '../shared/payload';

@ObjectType({ description: 'A fixed amount behind a reusable public URL; each visit opens a new checkout session', implements: Node })
export class PaymentLink extends Node {
  @Field({ description: 'The public URL to share (/pay/…)' }) url: string;
  @Field() name: string;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field(() => Money) amount: Money;
  @Field({ description: 'False once deactivated: the URL then shows a "no longer active" page' }) active: boolean;
  @Field() allowRecurring: boolean;
  @Field(() => RecurringIntervalValue, { nullable: true }) recurringInterval: RecurringIntervalValue | null;
  @Field(() => String, { nullable: true }) successUrl: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata: Record<string, unknown> | null;
  @Field(() => Mode) mode: Mode;
  @Field(() => Date, { nullable: true }) deactivatedAt: Date | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: PaymentLinkRow, core: Core): PaymentLink {
    return Object.assign(new PaymentLink(), {
      id: row.id, url: core.paymentLinks.urlOf(row), name: row.name, description: row.description, amount: Money.of(row.amount, row.currency),
      active: row.active, allowRecurring: row.allowRecurring, recurringInterval: row.recurringInterval as RecurringIntervalValue | null,
      successUrl: row.successUrl, metadata: row.metadata, mode: row.livemode ? Mode.LIVE : Mode.TEST, deactivatedAt: row.deactivatedAt,
      createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType()
export class PaymentLinkConnection extends Connection(PaymentLink, 'PaymentLink') {}

@InputType()
export class CreatePaymentLinkInput {
  @Field() name: string;
  @Field({ nullable: true }) description?: string;
  @Field({ description: 'Decimal amount in major units' }) amount: string;
  @Field() currency: string;
  @Field({ nullable: true, description: 'Payers may turn their payment into a recurring gift' }) allowRecurring?: boolean;
  @Field(() => RecurringIntervalValue, { nullable: true, description: 'MONTHLY when allowRecurring and omitted' }) recurringInterval?: RecurringIntervalValue;
  @Field({ nullable: true }) successUrl?: string;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown>;
}

export const DeactivatePaymentLinkInput = IdInput('DeactivatePaymentLink', 'The payment link to deactivate (deactivating again changes nothing)');
export type DeactivatePaymentLinkInput = InstanceType<typeof DeactivatePaymentLinkInput>;
