import DataLoader from 'dataloader';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';
import { WebhookDelivery } from '../../domain/webhooks';
import { alignTo, groupBy } from '../shared/keyed';

/** The events area's per-request DataLoaders: the webhook deliveries of events. */
export interface EventLoaders {
  deliveriesByEventId: DataLoader<string, WebhookDelivery[]>;
  /** Webhook deliveries of the caller's business and mode (null for any other id). */
  deliveryById: DataLoader<string, WebhookDelivery | null>;
}

declare module '../shared/loaders' {
  interface Loaders extends EventLoaders {}
}

export function createEventLoaders(core: Core, ctx: RequestContext): EventLoaders {
  return {
    deliveriesByEventId: new DataLoader(async (eventIds) =>
      groupBy(eventIds, await core.deliveryLog.deliveriesOf(ctx, [...eventIds]), (delivery) => delivery.eventId),
    ),
    deliveryById: new DataLoader(async (ids) =>
      alignTo(ids, await core.deliveryLog.deliveriesByIds(ctx, [...ids]), (delivery) => delivery.id),
    ),
  };
}
