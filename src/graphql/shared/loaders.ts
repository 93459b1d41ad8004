import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { Business, Membership, User } from '../../domain/identity/identity.entities';
import { RequestContext } from '../../domain/shared/context';
import { WebhookDelivery } from '../../domain/webhooks/webhook-delivery.entity';
import { CheckoutSession } from '../../domain/checkout/checkout-session.entity';
import { PaymentLink } from '../../domain/payment-links/payment-link.entity';

/** Per-request DataLoaders: each relation is fetched with one query per request, aligned to its keys. */
export interface Loaders {
  userById: DataLoader<string, User | null>;
  businessById: DataLoader<string, Business | null>;
  membershipsByUserId: DataLoader<string, Membership[]>;
  deliveriesByEventId: DataLoader<string, WebhookDelivery[]>;
  checkoutSessionById: DataLoader<string, CheckoutSession | null>;
  paymentLinkById: DataLoader<string, PaymentLink | null>;
}

const alignTo = <K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K) => {
  const byKey = new Map(rows.map((row) => [keyOf(row), row]));
  return keys.map((key) => byKey.get(key) ?? null);
};

export function createLoaders(core: Core, ctx: RequestContext): Loaders {
  return {
    userById: new DataLoader(async (ids) => alignTo(ids, await core.identity.usersByIds(ctx, [...ids]), (user) => user.id)),
    businessById: new DataLoader(async (ids) =>
      alignTo(ids, await core.identity.businessesByIds(ctx, [...ids]), (business) => business.id)),
    membershipsByUserId: new DataLoader(async (userIds) => {
      const memberships = await core.identity.membershipsOfUsers(ctx, [...userIds]);
      return userIds.map((userId) => memberships.filter((membership) => membership.userId === userId));
    }),
    deliveriesByEventId: new DataLoader(async (eventIds) => {
      const deliveries = await core.eventLog.deliveriesOf(ctx, [...eventIds]);
      return eventIds.map((eventId) => deliveries.filter((delivery) => delivery.eventId === eventId));
    }),
    checkoutSessionById: new DataLoader(async (ids) => alignTo(ids, await core.checkout.byIds(ctx, [...ids]), (session) => session.id)),
    paymentLinkById: new DataLoader(async (ids) => alignTo(ids, await core.paymentLinks.byIds(ctx, [...ids]), (link) => link.id)),
  };
}
