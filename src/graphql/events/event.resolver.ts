import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { EventTopic, PublishedEvent } from '../../domain/events/events.topics';
import { WebhookDelivery as WebhookDeliveryRow, WebhookDeliveryChange, WebhookTopic } from '../../domain/webhooks';
import { DomainEvent } from '../../domain/events/event.entity';
import { Mode } from '../../domain/shared/modes';
import { ALL_ROLES } from '../../domain/shared/context';
import { notFound } from '../../domain/shared/errors';
import { eventFilterSchema, toEventFilters } from '../../wire/events';
import { parseInput } from '../../wire/validation';
import { GraphQLContext, caller, ownedBySubscriber } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { deliveryFiltersSchema } from '../../wire/webhooks';
import {
  Event,
  EventConnection,
  RedeliverWebhookInput,
  RedeliverWebhookPayload,
  RedeliverWebhookUrlDeliveryInput,
  RedeliverWebhookUrlDeliveryPayload,
  ReplayEventInput,
  ReplayEventPayload,
  WebhookDelivery,
  WebhookDeliveryConnection,
  WebhookDeliveryUpdate,
} from './event.types';

defineNode({
  type: Event,
  entity: DomainEvent,
  load: async (context, id) => Event.from(await context.core.eventLog.get(caller(context), id)),
});
// A delivery of the caller's business and mode (to its webhookUrl, an endpoint, or a /v1 target), as event.deliveries answers it.
defineNode({
  type: WebhookDelivery,
  entity: WebhookDeliveryRow,
  load: async (context, id) => {
    const ctx = caller(context);
    ctx.requireRole(...ALL_ROLES);
    const [delivery] = await context.core.deliveryLog.deliveriesByIds(ctx, [id]);
    if (!delivery) throw notFound('Webhook delivery');
    return WebhookDelivery.from(delivery);
  },
});

@Resolver(() => Event)
export class EventResolver {
  @Query(() => EventConnection, {
    description: 'The event log of the active business and mode, newest first',
    complexity: perRow,
  })
  async events(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('type', () => String, { nullable: true, description: 'Only events of this type' }) type?: string,
    @Arg('from', () => Date, { nullable: true, description: 'Created at or after' }) from?: Date,
    @Arg('to', () => Date, { nullable: true, description: 'Created at or before' }) to?: Date,
  ): Promise<EventConnection> {
    const ctx = caller(context);
    const filters = toEventFilters(parseInput(eventFilterSchema, { type, from, to }));
    const page = await context.core.eventLog.list(ctx, filters, {
      kind: 'keyset',
      first: first ?? null,
      after: after ?? null,
    });
    return toConnection(page, Event.from);
  }

  @Query(() => Event, { description: 'One event of the active business and mode (NOT_FOUND otherwise)' })
  async event(
    @Arg('id', () => ID, { description: "The event's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<Event> {
    return Event.from(await context.core.eventLog.get(caller(context), id));
  }

  @FieldResolver(() => [WebhookDelivery], { description: "This event's webhook deliveries" })
  async deliveries(@Root() event: Event, @Ctx() { loaders }: GraphQLContext): Promise<WebhookDelivery[]> {
    return (await loaders.deliveriesByEventId.load(event.id)).map(WebhookDelivery.from);
  }

  @Mutation(() => RedeliverWebhookPayload, {
    description: 'Sends a delivery again (a new delivery of the same event to the same URL)',
  })
  async redeliverWebhook(
    @Arg('input', { description: 'The delivery to send again' }) input: RedeliverWebhookInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RedeliverWebhookPayload> {
    const ctx = caller(context);
    return payloadOf(RedeliverWebhookPayload, async () =>
      WebhookDelivery.from(await context.core.webhooks.redeliver(ctx, input.id)),
    );
  }

  @Query(() => WebhookDeliveryConnection, {
    description:
      "Deliveries to the business's own webhookUrl of the active mode (REST GET /business/config/webhook-deliveries), newest first",
    complexity: perRow,
  })
  async webhookUrlDeliveries(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => String, {
      nullable: true,
      description: 'One of pending, succeeded, failed or permanently_failed',
    })
    status?: string,
    @Arg('eventType', () => String, { nullable: true, description: 'The event type, for example wallet.funded' })
    eventType?: string,
  ): Promise<WebhookDeliveryConnection> {
    const ctx = caller(context);
    const filters = parseInput(deliveryFiltersSchema, { status, eventType });
    const page = await context.core.webhooks.listWebhookUrlDeliveries(ctx, filters, {
      kind: 'keyset',
      first: first ?? null,
      after: after ?? null,
    });
    return toConnection(page, WebhookDelivery.from);
  }

  @Mutation(() => RedeliverWebhookUrlDeliveryPayload, {
    description: "Sends a delivery to the business's webhookUrl again (NOT_FOUND for an endpoint's delivery)",
  })
  async redeliverWebhookUrlDelivery(
    @Arg('input', { description: "The webhookUrl's delivery to send again" }) input: RedeliverWebhookUrlDeliveryInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RedeliverWebhookUrlDeliveryPayload> {
    const ctx = caller(context);
    return payloadOf(RedeliverWebhookUrlDeliveryPayload, async () =>
      WebhookDelivery.from(await context.core.webhooks.redeliverWebhookUrlDelivery(ctx, input.id)),
    );
  }

  @Mutation(() => ReplayEventPayload, {
    description: "Replays an event to an endpoint, or to the business's webhookUrl",
  })
  async replayEvent(
    @Arg('input', { description: 'The event and, optionally, the endpoint to send it to' }) input: ReplayEventInput,
    @Ctx() context: GraphQLContext,
  ): Promise<ReplayEventPayload> {
    const ctx = caller(context);
    return payloadOf(ReplayEventPayload, async () =>
      WebhookDelivery.from(
        await context.core.webhooks.replayEvent(ctx, {
          eventId: input.eventId,
          endpointId: input.endpointId ?? undefined,
        }),
      ),
    );
  }

  @Subscription(() => Event, {
    topics: EventTopic.EVENT,
    description: "Events of the subscriber's business and mode, as they are committed",
    filter: ({ payload, context }: { payload: PublishedEvent; context: GraphQLContext }) =>
      ownedBySubscriber(payload, context),
  })
  eventCreated(@Root() event: PublishedEvent): Event {
    return Object.assign(new Event(), {
      id: event.id,
      type: event.type,
      mode: event.livemode ? Mode.LIVE : Mode.TEST,
      data: event.data,
      createdAt: new Date(event.createdAt),
    });
  }

  @Subscription(() => WebhookDeliveryUpdate, {
    topics: WebhookTopic.WEBHOOK_DELIVERY,
    description:
      "A webhook delivery of the subscriber's business and mode was created or attempted: one update per change, with what it changed",
    filter: ({ payload, context }: { payload: WebhookDeliveryChange; context: GraphQLContext }) =>
      ownedBySubscriber(payload, context),
  })
  async webhookDeliveryUpdated(
    @Root() change: WebhookDeliveryChange,
    @Ctx() context: GraphQLContext,
  ): Promise<WebhookDeliveryUpdate> {
    caller(context);
    // Through the publication's shared loader: one read for every subscriber of this process.
    const delivery = await context.loaders.deliveryById.load(change.deliveryId);
    if (!delivery) throw notFound('Webhook delivery');
    return {
      webhookDelivery: WebhookDelivery.from(delivery),
      previousStatus: change.previousStatus ?? null,
      changedFields: change.changedFields ?? [],
    };
  }
}
