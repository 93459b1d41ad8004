import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Mode } from '../../domain/shared/modes';
import { RecurringGift as RecurringGiftRow, RecurringGiftStatus } from '../../domain/recurring-gifts';
import { RecurringIntervalValue } from '../checkout/checkout-session.types';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';
import { IdInput } from '../shared/payload';

registerEnumType(RecurringGiftStatus, {
  name: 'RecurringGiftStatus',
  description: 'ACTIVE, PAUSED (after too many failed charges) or CANCELLED',
  valuesConfig: {
    ACTIVE: { description: 'Charged every interval, at nextChargeAt' },
    PAUSED: {
      description: 'Not charged: paused after 3 consecutive failed charges (RECURRING_GIFT_MAX_FAILURES) until resumed',
    },
    CANCELLED: { description: 'Stopped for good; final' },
  },
});

@ObjectType({
  description: "A payer's standing gift on a payment link, charged to the saved card every interval",
  implements: Node,
})
export class RecurringGift extends Node {
  @Field(() => RecurringGiftStatus, { description: 'ACTIVE, PAUSED or CANCELLED' }) status: RecurringGiftStatus;
  @Field(() => ID, { description: 'The payment link the gift was made on' }) paymentLinkId: string;
  @Field(() => ID, { description: 'The checkout session whose payment started the gift (the first gift)' })
  checkoutSessionId: string;
  @Field(() => ID, { description: "The payer's customer profile" }) customerId: string;
  @Field(() => ID, { description: 'The saved card charged every interval' }) paymentMethodId: string;
  @Field({ description: "The payer's email" }) email: string;
  @Field(() => Money, { description: "The amount charged every interval (the link's amount)" }) amount: Money;
  @Field(() => RecurringIntervalValue, { description: 'How often the gift is charged' })
  interval: RecurringIntervalValue;
  @Field(() => Date, { nullable: true, description: 'When the next charge is due (ISO 8601, UTC); null unless ACTIVE' })
  nextChargeAt: Date | null;
  @Field(() => Int, { description: 'Successful recurring charges (the first gift, paid on the page, not counted)' })
  chargeCount: number;
  @Field(() => Int, { description: 'Consecutive failed charges' }) failureCount: number;
  @Field(() => Date, {
    nullable: true,
    description: 'When the gift was last charged, successfully or not (ISO 8601, UTC); at first the first gift',
  })
  lastChargeAt: Date | null;
  @Field(() => ID, { nullable: true, description: 'The payment of the last charge (at first the first gift)' })
  lastPaymentId: string | null;
  @Field(() => String, {
    nullable: true,
    description: "The last charge's failure message; null when the last charge succeeded",
  })
  lastError: string | null;
  @Field(() => Mode, { description: 'TEST or LIVE (REST: livemode)' }) mode: Mode;
  @Field(() => Date, {
    nullable: true,
    description: 'When the gift was paused (ISO 8601, UTC); null if never paused or since resumed',
  })
  pausedAt: Date | null;
  @Field(() => Date, {
    nullable: true,
    description: 'When the gift was cancelled (ISO 8601, UTC); null unless CANCELLED',
  })
  cancelledAt: Date | null;
  @Field({ description: 'When the gift started (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the gift last changed (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: RecurringGiftRow): RecurringGift {
    return Object.assign(new RecurringGift(), {
      id: row.id,
      status: row.status,
      paymentLinkId: row.paymentLinkId,
      checkoutSessionId: row.checkoutSessionId,
      customerId: row.customerId,
      paymentMethodId: row.paymentMethodId,
      email: row.email,
      amount: Money.of(row.amount, row.currency),
      interval: row.interval as RecurringIntervalValue,
      nextChargeAt: row.nextChargeAt,
      chargeCount: row.chargeCount,
      failureCount: row.failureCount,
      lastChargeAt: row.lastChargeAt,
      lastPaymentId: row.lastPaymentId,
      lastError: row.lastError,
      mode: row.livemode ? Mode.LIVE : Mode.TEST,
      pausedAt: row.pausedAt,
      cancelledAt: row.cancelledAt,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    });
  }
}

@ObjectType({ description: 'A page of recurring gifts, newest first' })
export class RecurringGiftConnection extends Connection(RecurringGift, 'RecurringGift') {}

export const CancelRecurringGiftInput = IdInput('CancelRecurringGift', 'The gift to stop for good');
export type CancelRecurringGiftInput = InstanceType<typeof CancelRecurringGiftInput>;
export const ResumeRecurringGiftInput = IdInput('ResumeRecurringGift', 'The PAUSED gift to resume');
export type ResumeRecurringGiftInput = InstanceType<typeof ResumeRecurringGiftInput>;
export const SandboxChargeRecurringGiftInput = IdInput('SandboxChargeRecurringGift', 'The ACTIVE gift to charge now');
export type SandboxChargeRecurringGiftInput = InstanceType<typeof SandboxChargeRecurringGiftInput>;
