import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { PublishedEvent, Topic, WebhookDeliveryChange } from '../../domain/events/pubsub';
import { Mode } from '../../domain/identity/identity.entities';
import { notFound } from '../../domain/shared/errors';
import { eventFilterSchema, toEventFilters } from '../../wire/events';
import { parseInput } from '../../wire/validation';
import { GraphQLContext, caller, ownedBySubscriber } from '../shared/context';
import { toConnection } from '../shared/connection';
import { deliveryFiltersSchema } from '../../wire/webhooks';
import { Event, EventConnection, WebhookDelivery, WebhookDeliveryConnection } from './event.types';

@Resolver(() => Event)
export class EventResolver {
  @Query(() => EventConnection, {
    description: 'The event log of the active business and mode, newest first',
    complexity: ({ args, childComplexity }) => (args.first ?? 20) * childComplexity,
  })
  async events(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('type', () => String, { nullable: true, description: 'Only events of this type' }) type?: string,
    @Arg('from', () => Date, { nullable: true, description: 'Created at or after' }) from?: Date,
    @Arg('to', () => Date, { nullable: true, description: 'Created at or before' }) to?: Date,
  ): Promise<EventConnection> {
    const ctx = caller(context);
    const filters = toEventFilters(parseInput(eventFilterSchema, { type, from, to }));
    const page = await context.core.eventLog.list(ctx, filters, { kind: 'keyset', first: first ?? null, after: after ?? null });
    return toConnection(page, Event.from);
  }

  @Query(() => Event)
  async event(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<Event> {
    return Event.from(await context.core.eventLog.get(caller(context), id));
  }

  @FieldResolver(() => [WebhookDelivery], { description: "This event's webhook deliveries" })
  async deliveries(@Root() event: Event, @Ctx() { loaders }: GraphQLContext): Promise<WebhookDelivery[]> {
    return (await loaders.deliveriesByEventId.load(event.id)).map(WebhookDelivery.from);
  }

  @Mutation(() => WebhookDelivery, { description: 'Sends a delivery again (a new delivery of the same event to the same URL)' })
  async redeliverWebhook(@Arg('deliveryId', () => ID) deliveryId: string, @Ctx() context: GraphQLContext): Promise<WebhookDelivery> {
    return WebhookDelivery.from(await context.core.webhooks.redeliver(caller(context), deliveryId));
  }

  @Query(() => WebhookDeliveryConnection, {
    description: "Deliveries to the business's own webhookUrl of the active mode (REST GET /business/config/webhook-deliveries), newest first",
    complexity: ({ args, childComplexity }) => (args.first ?? 20) * childComplexity,
  })
  async webhookUrlDeliveries(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('status', () => String, { nullable: true, description: 'pending, succeeded, failed or permanently_failed' }) status?: string,
    @Arg('eventType', () => String, { nullable: true, description: 'The event type, for example wallet.funded' }) eventType?: string,
  ): Promise<WebhookDeliveryConnection> {
    const ctx = caller(context);
    const filters = parseInput(deliveryFiltersSchema, { status, eventType });
    const page = await context.core.webhooks.listWebhookUrlDeliveries(ctx, filters, { kind: 'keyset', first: first ?? null, after: after ?? null });
    return toConnection(page, WebhookDelivery.from);
  }

  @Mutation(() => WebhookDelivery, { description: "Sends a delivery to the business's webhookUrl again (NOT_FOUND for an endpoint's delivery)" })
  async redeliverWebhookUrlDelivery(@Arg('deliveryId', () => ID) deliveryId: string, @Ctx() context: GraphQLContext): Promise<WebhookDelivery> {
    return WebhookDelivery.from(await context.core.webhooks.redeliverWebhookUrlDelivery(caller(context), deliveryId));
  }

  @Mutation(() => WebhookDelivery, { description: "Replays an event to an endpoint, or to the business's webhookUrl" })
  async replayEvent(
    @Arg('eventId', () => ID) eventId: string,
    @Ctx() context: GraphQLContext,
    @Arg('endpointId', () => ID, { nullable: true }) endpointId?: string,
  ): Promise<WebhookDelivery> {
    return WebhookDelivery.from(await context.core.webhooks.replayEvent(caller(context), { eventId, endpointId }));
  }

  @Subscription(() => Event, {
    topics: Topic.EVENT,
    description: "Events of the subscriber's business and mode, as they are committed",
    filter: ({ payload, context }: { payload: PublishedEvent; context: GraphQLContext }) => ownedBySubscriber(payload, context),
  })
  eventCreated(@Root() event: PublishedEvent): Event {
    return Object.assign(new Event(), {
      id: event.id, type: event.type, mode: event.livemode ? Mode.LIVE : Mode.TEST, data: event.data, createdAt: new Date(event.createdAt),
    });
  }

  @Subscription(() => WebhookDelivery, {
    topics: Topic.WEBHOOK_DELIVERY,
    description: "A webhook delivery of the subscriber's business and mode was created or attempted; its current state",
    filter: ({ payload, context }: { payload: WebhookDeliveryChange; context: GraphQLContext }) => ownedBySubscriber(payload, context),
  })
  async webhookDeliveryUpdated(@Root() change: WebhookDeliveryChange, @Ctx() context: GraphQLContext): Promise<WebhookDelivery> {
    caller(context);
    // Through the publication's shared loader: one read for every subscriber of this process.
    const delivery = await context.loaders.deliveryById.load(change.deliveryId);
    if (!delivery) throw notFound('Webhook delivery');
    return WebhookDelivery.from(delivery);
  }
}
