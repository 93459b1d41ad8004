import {
  Dispute as DisputeRow,
  DisputeStatus,
  Payment as PaymentRow,
  PaymentChange,
  PaymentTopic,
  Refund as RefundRow,
  setServerToServerCharging,
  VolumeInterval,
} from '../../domain/payments';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { notFound } from '../../domain/shared/errors';
import {
  chargeCommandOf,
  chargeRequestSchema,
  disputeFilterFields,
  openDisputeRequestSchema,
  paymentFilterFields,
  refundRequestSchema,
  resolveDisputeRequestSchema,
} from '../../wire/payments';
import { parseInput } from '../../wire/validation';
import { z } from 'zod';
import { GraphQLContext, caller, ownedBySubscriber } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, filtersGiven, keysetPage, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { Customer } from '../customers/customer.types';
import { Event } from '../events/event.types';
import { PaymentVolume } from './payment-volume.types';
import {
  ChargeCardPayload,
  CompleteThreeDSecurePayload,
  RefundPaymentPayload,
  SandboxOpenDisputePayload,
  SandboxResolveDisputePayload,
  SandboxSettlePaymentPayload,
  SetServerToServerChargingPayload,
} from './payment.payloads';
import {
  ChargeCardInput,
  CompleteThreeDSecureInput,
  Dispute,
  DisputeConnection,
  Payment,
  PaymentConnection,
  PaymentFilter,
  PaymentUpdate,
  Refund,
  RefundPaymentInput,
  SandboxOpenDisputeInput,
  SandboxResolveDisputeInput,
  SandboxSettlePaymentInput,
  SetServerToServerChargingInput,
} from './payment.types';

const paymentFilterSchema = z.object(paymentFilterFields);
const disputeFilterSchema = z.object(disputeFilterFields);

defineNode({
  type: Payment,
  entity: PaymentRow,
  load: async (context, id) => Payment.from(await context.core.payments.get(caller(context), id)),
});
defineNode({
  type: Refund,
  entity: RefundRow,
  load: async (context, id) => Refund.from(await context.core.payments.getRefund(caller(context), id)),
});
defineNode({
  type: Dispute,
  entity: DisputeRow,
  load: async (context, id) => Dispute.from(await context.core.disputes.get(caller(context), id)),
});

/** Card payments for the dashboard: the same operations (and commands) as /api/v1/business/payment(s). */
@Resolver(() => Payment)
export class PaymentResolver {
  @Query(() => PaymentConnection, {
    description: 'Payments of the active business and mode, newest first',
    complexity: perRow,
  })
  async payments(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('filter', () => PaymentFilter, {
      nullable: true,
      description: 'Narrows the list (status, reference, email, customerId, from, to)',
    })
    filter?: PaymentFilter,
  ): Promise<PaymentConnection> {
    const filters = parseInput(paymentFilterSchema, filtersGiven(filter));
    return toConnection(
      await context.core.payments.list(caller(context), filters, keysetPage(first, after)),
      Payment.from,
    );
  }

  @Query(() => Payment, {
    description:
      'One payment of the active business and mode (NOT_FOUND for an unknown id or another business or mode)',
  })
  async payment(
    @Arg('id', () => ID, { description: "The payment's id (UUID)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<Payment> {
    return Payment.from(await context.core.payments.get(caller(context), id));
  }

  @Query(() => PaymentVolume, {
    description:
      'Captured card volume of the active business and mode over [from, to), per currency, in buckets aligned in a time zone: for charts and "today" / "this month" figures without paging through payments',
  })
  async paymentVolume(
    @Ctx() context: GraphQLContext,
    @Arg('from', () => Date, { description: 'The start of the range (inclusive), by capturedAt' }) from: Date,
    @Arg('to', () => Date, { description: 'The end of the range (exclusive); must be after from' }) to: Date,
    @Arg('interval', () => VolumeInterval, {
      defaultValue: VolumeInterval.DAY,
      description: 'The length of each bucket: HOUR, DAY (the default), WEEK or MONTH',
    })
    interval: VolumeInterval,
    @Arg('timeZone', () => String, {
      defaultValue: 'UTC',
      description:
        'The IANA time zone (Europe/Paris, America/New_York, UTC: the default) whose hours, days, weeks and months the buckets follow',
    })
    timeZone: string,
  ): Promise<PaymentVolume> {
    return PaymentVolume.from(await context.core.payments.volume(caller(context), { from, to, interval, timeZone }));
  }

  @Query(() => DisputeConnection, {
    name: 'disputes',
    description: 'Disputes of the active business and mode, newest first',
    complexity: perRow,
  })
  async disputeList(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => DisputeStatus, { nullable: true, description: 'Only disputes in this status' })
    status?: DisputeStatus,
  ): Promise<DisputeConnection> {
    const filters = parseInput(disputeFilterSchema, filtersGiven({ status }));
    return toConnection(
      await context.core.disputes.list(caller(context), filters, keysetPage(first, after)),
      Dispute.from,
    );
  }

  @Query(() => Dispute, {
    description:
      'One dispute of the active business and mode (NOT_FOUND for an unknown id or another business or mode)',
  })
  async dispute(
    @Arg('id', () => ID, { description: "The dispute's id (UUID)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<Dispute> {
    return Dispute.from(await context.core.disputes.get(caller(context), id));
  }

  @FieldResolver(() => Customer, {
    nullable: true,
    description: 'The stored customer profile the payment belongs to, if any',
  })
  async customer(@Root() payment: Payment, @Ctx() { loaders }: GraphQLContext): Promise<Customer | null> {
    if (!payment.customerId) return null;
    const row = await loaders.customerById.load(payment.customerId);
    return row ? Customer.from(row) : null;
  }

  @FieldResolver(() => [Refund], {
    description: 'Every refund of the payment, oldest first (a payment has few: they cannot exceed its amount)',
  })
  async refunds(@Root() payment: Payment, @Ctx() { loaders }: GraphQLContext): Promise<Refund[]> {
    return (await loaders.refundsByPaymentId.load(payment.id)).map(Refund.from);
  }

  @FieldResolver(() => [Event], {
    description:
      "The payment's events, oldest first (payment.created, payment.completed, payment.refunded…: those whose data.paymentId is this payment), each with its webhook deliveries",
  })
  async events(@Root() payment: Payment, @Ctx() { loaders }: GraphQLContext): Promise<Event[]> {
    return (await loaders.eventsByPaymentId.load(payment.id)).map(Event.from);
  }

  @FieldResolver(() => [Dispute], { description: 'Every dispute of the payment (at most one is open at a time)' })
  async disputes(@Root() payment: Payment, @Ctx() { loaders }: GraphQLContext): Promise<Dispute[]> {
    return (await loaders.disputesByPaymentId.load(payment.id)).map(Dispute.from);
  }

  @Mutation(() => ChargeCardPayload, {
    description:
      'Server-to-server card charge (must be enabled for the business and mode); the same parameters within 60 s return the same payment',
  })
  async chargeCard(
    @Arg('input', { description: 'The card (or token, or saved card), amount, currency and payer' })
    input: ChargeCardInput,
    @Ctx() context: GraphQLContext,
  ): Promise<ChargeCardPayload> {
    const who = caller(context);
    return payloadOf(ChargeCardPayload, async () => {
      const request = parseInput(chargeRequestSchema, { ...input, card: input.card ? { ...input.card } : undefined });
      return Payment.from(await context.core.charges.charge(who, chargeCommandOf(request)));
    });
  }

  @Mutation(() => CompleteThreeDSecurePayload, {
    description: 'Finishes a payment waiting for 3-D Secure (REQUIRES_ACTION)',
  })
  async completeThreeDSecure(
    @Arg('input', { description: 'The payment waiting for 3-D Secure' }) input: CompleteThreeDSecureInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CompleteThreeDSecurePayload> {
    const who = caller(context);
    return payloadOf(CompleteThreeDSecurePayload, async () =>
      Payment.from(await context.core.charges.completeThreeDSecure(who, input.id)),
    );
  }

  @Mutation(() => RefundPaymentPayload, { description: 'Refunds all (amount omitted) or part of a captured payment' })
  async refundPayment(
    @Arg('input', { description: 'The payment, and the amount when not all of it' }) input: RefundPaymentInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RefundPaymentPayload> {
    const who = caller(context);
    let payment: Payment | null = null;
    const payload = await payloadOf(RefundPaymentPayload, async () => {
      const request = parseInput(refundRequestSchema, { amount: input.amount ?? undefined, reason: input.reason });
      const result = await context.core.refunds.refund(who, {
        paymentId: input.paymentId,
        amount: request.amount,
        reason: request.reason ?? null,
      });
      payment = Payment.from(result.payment);
      return Refund.from(result.refund);
    });
    return Object.assign(payload, { payment });
  }

  @Mutation(() => SandboxSettlePaymentPayload, { description: 'Sandbox only: settles a COMPLETED payment now' })
  async sandboxSettlePayment(
    @Arg('input', { description: 'The COMPLETED payment to settle' }) input: SandboxSettlePaymentInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SandboxSettlePaymentPayload> {
    const who = caller(context);
    return payloadOf(SandboxSettlePaymentPayload, async () =>
      Payment.from(await context.core.settlements.sandboxSettle(who, input.id)),
    );
  }

  @Mutation(() => SandboxOpenDisputePayload, { description: 'Sandbox only: the cardholder disputes the payment' })
  async sandboxOpenDispute(
    @Arg('input', { description: 'The payment to dispute and the reason' }) input: SandboxOpenDisputeInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SandboxOpenDisputePayload> {
    const who = caller(context);
    let payment: Payment | null = null;
    const payload = await payloadOf(SandboxOpenDisputePayload, async () => {
      const request = parseInput(openDisputeRequestSchema, { reason: input.reason ?? undefined });
      const result = await context.core.disputes.open(who, { paymentId: input.paymentId, reason: request.reason });
      payment = Payment.from(result.payment);
      return Dispute.from(result.dispute);
    });
    return Object.assign(payload, { payment });
  }

  @Mutation(() => SandboxResolveDisputePayload, { description: 'Sandbox only: resolves an open dispute, won or lost' })
  async sandboxResolveDispute(
    @Arg('input', { description: 'The OPEN dispute and whether the merchant won' }) input: SandboxResolveDisputeInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SandboxResolveDisputePayload> {
    const who = caller(context);
    let payment: Payment | null = null;
    const payload = await payloadOf(SandboxResolveDisputePayload, async () => {
      const { won } = parseInput(resolveDisputeRequestSchema, { won: input.won });
      const result = await context.core.disputes.resolve(who, { disputeId: input.disputeId, won });
      payment = Payment.from(result.payment);
      return Dispute.from(result.dispute);
    });
    return Object.assign(payload, { payment });
  }

  @Mutation(() => SetServerToServerChargingPayload, {
    description:
      'OWNER, test mode only: turns server-to-server charging on or off (live mode: operators, with the CLI)',
  })
  async setServerToServerCharging(
    @Arg('input', { description: 'On or off' }) input: SetServerToServerChargingInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SetServerToServerChargingPayload> {
    const who = caller(context);
    return payloadOf(
      SetServerToServerChargingPayload,
      async () => (await setServerToServerCharging(who, input.enabled)).serverToServerCharging,
    );
  }

  @Subscription(() => PaymentUpdate, {
    topics: PaymentTopic.PAYMENT,
    description:
      "Each change of the subscriber's payments once (one payment when paymentId is given), in its business and mode only",
    filter: ({
      payload,
      args,
      context,
    }: {
      payload: PaymentChange;
      args: { paymentId?: string };
      context: GraphQLContext;
    }) => ownedBySubscriber(payload, context) && (!args.paymentId || args.paymentId === payload.paymentId),
  })
  async paymentUpdated(
    @Root() change: PaymentChange,
    @Ctx() context: GraphQLContext,
    @Arg('paymentId', () => ID, {
      nullable: true,
      description: "Only this payment's changes; every payment of the business and mode when omitted",
    })
    _paymentId?: string,
  ): Promise<PaymentUpdate> {
    caller(context);
    // Through the publication's shared loader: one read for every subscriber of this process.
    const payment = await context.loaders.paymentById.load(change.paymentId);
    if (!payment) throw notFound('Payment');
    return PaymentUpdate.from(payment, change.previousStatus, change.changedFields);
  }
}
