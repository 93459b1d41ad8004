import { setServerToServerCharging } from '../../domain/payments/payments.settings';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { PaymentChange, Topic } from '../../domain/events/pubsub';
import { DisputeStatus } from '../../domain/payments/payment.entities';
import { notFound } from '../../domain/shared/errors';
import { PageQuery } from '../../domain/shared/pagination';
import { chargeCommandOf, chargeRequestSchema, disputeFilterFields, openDisputeRequestSchema, paymentFilterFields, refundRequestSchema } from '../../wire/payments';
import { parseInput } from '../../wire/validation';
import { z } from 'zod';
import { GraphQLContext, caller, ownedBySubscriber } from '../shared/context';
import { toConnection } from '../shared/connection';
import { Customer } from '../customers/customer.types';
import { ChargeCardInput, Dispute, DisputeConnection, DisputeResult, Payment, PaymentConnection, PaymentFilter, Refund, RefundResult } from './payment.types';

const paymentFilterSchema = z.object(paymentFilterFields);
const disputeFilterSchema = z.object(disputeFilterFields);
const keyset = (first?: number, after?: string): PageQuery => ({ kind: 'keyset', first: first ?? null, after: after ?? null });

/** Card payments for the dashboard: the same operations (and commands) as /api/v1/business/payment(s). */
@Resolver(() => Payment)
export class PaymentResolver {
  @Query(() => PaymentConnection, {
    description: 'Payments of the active business and mode, newest first',
    complexity: ({ args, childComplexity }) => (args.first ?? 20) * childComplexity,
  })
  async payments(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('filter', () => PaymentFilter, { nullable: true }) filter?: PaymentFilter,
  ): Promise<PaymentConnection> {
    const filters = parseInput(paymentFilterSchema, { ...filter });
    return toConnection(await context.core.payments.list(caller(context), filters, keyset(first, after)), Payment.from);
  }

  @Query(() => Payment)
  async payment(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<Payment> {
    return Payment.from(await context.core.payments.get(caller(context), id));
  }

  @Query(() => DisputeConnection, {
    name: 'disputes',
    description: 'Disputes of the active business and mode, newest first',
    complexity: ({ args, childComplexity }) => (args.first ?? 20) * childComplexity,
  })
  async disputeList(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('status', () => DisputeStatus, { nullable: true }) status?: DisputeStatus,
  ): Promise<DisputeConnection> {
    const filters = parseInput(disputeFilterSchema, { status });
    return toConnection(await context.core.disputes.list(caller(context), filters, keyset(first, after)), Dispute.from);
  }

  @Query(() => Dispute)
  async dispute(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<Dispute> {
    return Dispute.from(await context.core.disputes.get(caller(context), id));
  }

  @FieldResolver(() => Customer, { nullable: true, description: 'The stored customer profile the payment belongs to, if any' })
  async customer(@Root() payment: Payment, @Ctx() { loaders }: GraphQLContext): Promise<Customer | null> {
    if (!payment.customerId) return null;
    const row = await loaders.customerById.load(payment.customerId);
    return row ? Customer.from(row) : null;
  }

  @FieldResolver(() => [Refund])
  async refunds(@Root() payment: Payment, @Ctx() { loaders }: GraphQLContext): Promise<Refund[]> {
    return (await loaders.refundsByPaymentId.load(payment.id)).map(Refund.from);
  }

  @FieldResolver(() => [Dispute])
  async disputes(@Root() payment: Payment, @Ctx() { loaders }: GraphQLContext): Promise<Dispute[]> {
    return (await loaders.disputesByPaymentId.load(payment.id)).map(Dispute.from);
  }

  @Mutation(() => Payment, { description: 'Server-to-server card charge (must be enabled for the business and mode); the same parameters within 60 s return the same payment' })
  async chargeCard(@Arg('input') input: ChargeCardInput, @Ctx() context: GraphQLContext): Promise<Payment> {
    const request = parseInput(chargeRequestSchema, { ...input, card: input.card ? { ...input.card } : undefined });
    return Payment.from(await context.core.charges.charge(caller(context), chargeCommandOf(request)));
  }

  @Mutation(() => Payment, { description: 'Finishes a payment waiting for 3-D Secure (REQUIRES_ACTION)' })
  async completeThreeDSecure(@Arg('paymentId', () => ID) paymentId: string, @Ctx() context: GraphQLContext): Promise<Payment> {
    return Payment.from(await context.core.charges.completeThreeDSecure(caller(context), paymentId));
  }

  @Mutation(() => RefundResult, { description: 'Refunds all (amount omitted) or part of a captured payment' })
  async refundPayment(
    @Arg('paymentId', () => ID) paymentId: string,
    @Ctx() context: GraphQLContext,
    @Arg('amount', () => String, { nullable: true, description: 'Decimal major units; the whole refundable amount when omitted' }) amount?: string,
    @Arg('reason', () => String, { nullable: true }) reason?: string,
  ): Promise<RefundResult> {
    const request = parseInput(refundRequestSchema, { amount: amount ?? undefined, reason });
    const result = await context.core.refunds.refund(caller(context), { paymentId, amount: request.amount, reason: request.reason ?? null });
    return { refund: Refund.from(result.refund), payment: Payment.from(result.payment) };
  }

  @Mutation(() => Payment, { description: 'Sandbox only: settles a COMPLETED payment now' })
  async sandboxSettlePayment(@Arg('paymentId', () => ID) paymentId: string, @Ctx() context: GraphQLContext): Promise<Payment> {
    return Payment.from(await context.core.settlements.sandboxSettle(caller(context), paymentId));
  }

  @Mutation(() => DisputeResult, { description: 'Sandbox only: the cardholder disputes the payment' })
  async sandboxOpenDispute(
    @Arg('paymentId', () => ID) paymentId: string,
    @Ctx() context: GraphQLContext,
    @Arg('reason', () => String, { nullable: true }) reason?: string,
  ): Promise<DisputeResult> {
    const request = parseInput(openDisputeRequestSchema, { reason: reason ?? undefined });
    const result = await context.core.disputes.open(caller(context), { paymentId, reason: request.reason });
    return { dispute: Dispute.from(result.dispute), payment: Payment.from(result.payment) };
  }

  @Mutation(() => DisputeResult, { description: 'Sandbox only: resolves an open dispute, won or lost' })
  async sandboxResolveDispute(
    @Arg('disputeId', () => ID) disputeId: string,
    @Arg('won') won: boolean,
    @Ctx() context: GraphQLContext,
  ): Promise<DisputeResult> {
    const result = await context.core.disputes.resolve(caller(context), { disputeId, won });
    return { dispute: Dispute.from(result.dispute), payment: Payment.from(result.payment) };
  }

  @Mutation(() => Boolean, { description: 'OWNER, test mode only: turns server-to-server charging on or off (live mode: operators, with the CLI)' })
  async setServerToServerCharging(@Arg('enabled') enabled: boolean, @Ctx() context: GraphQLContext): Promise<boolean> {
    return (await setServerToServerCharging(caller(context), enabled)).serverToServerCharging;
  }

  @Subscription(() => Payment, {
    topics: Topic.PAYMENT,
    description: "Status changes of the subscriber's payments (one payment when paymentId is given), in its business and mode only",
    filter: ({ payload, args, context }: { payload: PaymentChange; args: { paymentId?: string }; context: GraphQLContext }) =>
      ownedBySubscriber(payload, context) && (!args.paymentId || args.paymentId === payload.paymentId),
  })
  async paymentUpdated(
    @Root() change: PaymentChange,
    @Ctx() context: GraphQLContext,
    @Arg('paymentId', () => ID, { nullable: true }) _paymentId?: string,
  ): Promise<Payment> {
    caller(context);
    // Through the publication's shared loader: one read for every subscriber of this process.
    const payment = await context.loaders.paymentById.load(change.paymentId);
    if (!payment) throw notFound('Payment');
    return Payment.from(payment);
  }
}
