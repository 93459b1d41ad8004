import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { Business, Membership, User } from '../../domain/identity/identity.entities';
import { RequestContext } from '../../domain/shared/context';
import { WebhookDelivery } from '../../domain/webhooks/webhook-delivery.entity';
import { Customer, PaymentMethod } from '../../domain/customers/customer.entities';
import { Dispute, Payment, Refund } from '../../domain/payments/payment.entities';
import { CheckoutSession } from '../../domain/checkout/checkout-session.entity';
import { PaymentLink } from '../../domain/payment-links/payment-link.entity';
import { PayoutLoaders, createPayoutLoaders } from '../payouts/payout.loaders';
import { CollectionLoaders, createCollectionLoaders } from '../collections/collection.loaders';
import { ScheduleLoaders, createScheduleLoaders } from '../payouts/schedule.loaders';
import { TreasuryLoaders, createTreasuryLoaders } from '../treasury/treasury.loaders';
import { alignTo, groupBy } from './keyed';

/** Per-request DataLoaders: each relation is fetched with one query per request, aligned to its keys. */
export interface Loaders extends PayoutLoaders, ScheduleLoaders, CollectionLoaders, TreasuryLoaders {
  userById: DataLoader<string, User | null>;
  businessById: DataLoader<string, Business | null>;
  /** Memberships the caller may see (their own and the active business's; null for any other id). */
  membershipById: DataLoader<string, Membership | null>;
  /** A user's memberships the caller may see: all of their own, only the active business's of anyone else. */
  membershipsByUserId: DataLoader<string, Membership[]>;
  deliveriesByEventId: DataLoader<string, WebhookDelivery[]>;
  /** Webhook deliveries of the caller's business and mode (null for any other id). */
  deliveryById: DataLoader<string, WebhookDelivery | null>;
  /** Payments of the caller's business and mode (null for any other id). */
  paymentById: DataLoader<string, Payment | null>;
  refundsByPaymentId: DataLoader<string, Refund[]>;
  disputesByPaymentId: DataLoader<string, Dispute[]>;
  /** Customers of the caller's business and mode (null for any other id); also for Payment.customer. */
  customerById: DataLoader<string, Customer | null>;
  /** Saved cards of a customer, newest first. */
  paymentMethodsByCustomerId: DataLoader<string, PaymentMethod[]>;
  /** A customer's 20 most recent payments, newest first (keyed by id; the email finds payments not linked yet). */
  recentPaymentsByCustomer: DataLoader<Pick<Customer, 'id' | 'email'>, Payment[], string>;
  checkoutSessionById: DataLoader<string, CheckoutSession | null>;
  paymentLinkById: DataLoader<string, PaymentLink | null>;
}

export function createLoaders(core: Core, ctx: RequestContext): Loaders {
  return {
    userById: new DataLoader(async (ids) =>
      alignTo(ids, await core.identity.team.usersByIds(ctx, [...ids]), (user) => user.id),
    ),
    businessById: new DataLoader(async (ids) =>
      alignTo(ids, await core.identity.team.businessesByIds(ctx, [...ids]), (business) => business.id),
    ),
    membershipById: new DataLoader(async (ids) =>
      alignTo(ids, await core.identity.team.membershipsByIds(ctx, [...ids]), (membership) => membership.id),
    ),
    membershipsByUserId: new DataLoader(async (userIds) =>
      groupBy(
        userIds,
        await core.identity.team.membershipsOfUsers(ctx, [...userIds]),
        (membership) => membership.userId,
      ),
    ),
    deliveriesByEventId: new DataLoader(async (eventIds) =>
      groupBy(eventIds, await core.deliveryLog.deliveriesOf(ctx, [...eventIds]), (delivery) => delivery.eventId),
    ),
    deliveryById: new DataLoader(async (ids) =>
      alignTo(ids, await core.deliveryLog.deliveriesByIds(ctx, [...ids]), (delivery) => delivery.id),
    ),
    paymentById: new DataLoader(async (ids) =>
      alignTo(ids, await core.payments.byIds(ctx, [...ids]), (payment) => payment.id),
    ),
    refundsByPaymentId: new DataLoader(async (paymentIds) =>
      groupBy(paymentIds, await core.payments.refundsOf(ctx, [...paymentIds]), (refund) => refund.paymentId),
    ),
    disputesByPaymentId: new DataLoader(async (paymentIds) =>
      groupBy(paymentIds, await core.payments.disputesOf(ctx, [...paymentIds]), (dispute) => dispute.paymentId),
    ),
    customerById: new DataLoader(async (ids) =>
      alignTo(ids, await core.customers.customersByIds(ctx, [...ids]), (customer) => customer.id),
    ),
    paymentMethodsByCustomerId: new DataLoader(async (customerIds) =>
      groupBy(customerIds, await core.customers.paymentMethodsOf(ctx, [...customerIds]), (method) => method.customerId),
    ),
    recentPaymentsByCustomer: new DataLoader(
      async (customers) => {
        const recent = await core.customers.recentPaymentsOf(ctx, [...customers]);
        return customers.map((customer) => recent.get(customer.id) ?? []);
      },
      { cacheKeyFn: (customer) => customer.id },
    ),
    checkoutSessionById: new DataLoader(async (ids) =>
      alignTo(ids, await core.checkout.byIds(ctx, [...ids]), (session) => session.id),
    ),
    paymentLinkById: new DataLoader(async (ids) =>
      alignTo(ids, await core.paymentLinks.byIds(ctx, [...ids]), (link) => link.id),
    ),
    ...createPayoutLoaders(core, ctx),
    ...createCollectionLoaders(core, ctx),
    ...createScheduleLoaders(core, ctx),
    ...createTreasuryLoaders(core, ctx),
  };
}
