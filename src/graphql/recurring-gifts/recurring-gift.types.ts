import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Mode } from '../../domain/identity/identity.entities';
import { RecurringGift as RecurringGiftRow, RecurringGiftStatus } from '../../domain/recurring-gifts/recurring-gift.entity';
import { RecurringIntervalValue } from '../checkout/checkout-session.types';
import { Connection } from '../shared/connection';
import { Money } from '../shared/money.type';
import { Node } from '../shared/node';
import { IdInput } from '../shared/payload';

registerEnumType(RecurringGiftStatus, { name: 'RecurringGiftStatus', description: 'ACTIVE, PAUSED (after too many failed charges) or CANCELLED' });

@ObjectType({ description: "A payer's standing gift on a payment link, charged to the saved card every interval", implements: Node })
export class RecurringGift extends Node {
  @Field(() => RecurringGiftStatus) status: RecurringGiftStatus;
  @Field(() => ID) paymentLinkId: string;
  @Field(() => ID) checkoutSessionId: string;
  @Field(() => ID) customerId: string;
  @Field(() => ID) paymentMethodId: string;
  @Field() email: string;
  @Field(() => Money) amount: Money;
  @Field(() => RecurringIntervalValue) interval: RecurringIntervalValue;
  @Field(() => Date, { nullable: true }) nextChargeAt: Date | null;
  @Field(() => Int, { description: 'Successful recurring charges (the first gift, paid on the page, not counted)' }) chargeCount: number;
  @Field(() => Int, { description: 'Consecutive failed charges' }) failureCount: number;
  @Field(() => Date, { nullable: true }) lastChargeAt: Date | null;
  @Field(() => ID, { nullable: true }) lastPaymentId: string | null;
  @Field(() => String, { nullable: true }) lastError: string | null;
  @Field(() => Mode) mode: Mode;
  @Field(() => Date, { nullable: true }) pausedAt: Date | null;
  @Field(() => Date, { nullable: true }) cancelledAt: Date | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: RecurringGiftRow): RecurringGift {
    return Object.assign(new RecurringGift(), {
      id: row.id, status: row.status, paymentLinkId: row.paymentLinkId, checkoutSessionId: row.checkoutSessionId, customerId: row.customerId,
      paymentMethodId: row.paymentMethodId, email: row.email, amount: Money.of(row.amount, row.currency), interval: row.interval as RecurringIntervalValue,
      nextChargeAt: row.nextChargeAt, chargeCount: row.chargeCount, failureCount: row.failureCount, lastChargeAt: row.lastChargeAt,
      lastPaymentId: row.lastPaymentId, lastError: row.lastError, mode: row.livemode ? Mode.LIVE : Mode.TEST, pausedAt: row.pausedAt,
      cancelledAt: row.cancelledAt, createdAt: row.createdAt, updatedAt: row.updatedAt,
    });
  }
}

@ObjectType()
export class RecurringGiftConnection extends Connection(RecurringGift, 'RecurringGift') {}

export const CancelRecurringGiftInput = IdInput('CancelRecurringGift', 'The gift to stop for good');
export type CancelRecurringGiftInput = InstanceType<typeof CancelRecurringGiftInput>;
export const ResumeRecurringGiftInput = IdInput('ResumeRecurringGift', 'The PAUSED gift to resume');
export type ResumeRecurringGiftInput = InstanceType<typeof ResumeRecurringGiftInput>;
export const SandboxChargeRecurringGiftInput = IdInput('SandboxChargeRecurringGift', 'The ACTIVE gift to charge now');
export type SandboxChargeRecurringGiftInput = InstanceType<typeof SandboxChargeRecurringGiftInput>;
