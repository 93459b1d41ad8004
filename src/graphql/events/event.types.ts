import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DomainEvent } from '../../domain/events/event.entity';
import { Mode } from '../../domain/shared/modes';
import { WebhookDelivery as WebhookDeliveryRow } from '../../domain/webhooks';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { IdInput, Payload } from '../shared/payload';
import { WebhookUserErrors } from '../webhooks/webhook.errors';

@ObjectType({ description: 'One attempt series of sending an event to a webhook URL', implements: Node })
export class WebhookDelivery extends Node {
  @Field(() => ID, { description: 'The event it delivers' }) eventId: string;
  @Field({ description: 'The type of that event, for example wallet.funded' }) eventType: string;
  @Field({
    description:
      "The URL it is POSTed to, as it was when the delivery was created (a redelivery keeps the original delivery's)",
  })
  url: string;
  @Field({
    description: 'The exact body every attempt sends and signs (JSON text): verify a signature over these bytes',
  })
  requestBody: string;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description:
      "The headers of the latest attempt's request, signatures included; null before the first attempt or when it sent nothing",
  })
  requestHeaders: Record<string, string> | null;
  @Field({ description: 'One of pending, succeeded, failed (a retry is scheduled) or permanently_failed' })
  status: string;
  @Field(() => Int, { description: 'Attempts made so far (5 at most on the default retry schedule)' })
  attemptCount: number;
  @Field(() => Date, {
    nullable: true,
    description: 'When the latest attempt was made (ISO 8601, UTC); null before the first',
  })
  lastAttemptAt: Date | null;
  @Field(() => Date, {
    nullable: true,
    description:
      'When the next automatic attempt is due after a failed one (ISO 8601, UTC); null when none is scheduled',
  })
  nextRetryAt: Date | null;
  @Field(() => Int, {
    nullable: true,
    description:
      "The HTTP status of the latest attempt's answer; null before the first attempt or when there was no answer",
  })
  responseStatus: number | null;
  @Field(() => String, {
    nullable: true,
    description:
      "The first 2 KB of the latest attempt's answer body; null without an answer, and always for a private target",
  })
  responseBody: string | null;
  @Field(() => Int, {
    nullable: true,
    description:
      'Milliseconds the latest attempt took (0 when nothing was sent); null before the first attempt, or when a private target gave no answer',
  })
  responseTimeMs: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'Why the latest attempt failed (for example "The endpoint answered HTTP 500"); null when it did not',
  })
  errorMessage: string | null;
  @Field(() => ID, {
    nullable: true,
    description: 'The treasury partner (its business id) on deliveries to a treasury endpoint; null otherwise',
  })
  partnerId: string | null;
  @Field({ description: 'When the delivery was created (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the delivery last changed, by an attempt or otherwise (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: WebhookDeliveryRow): WebhookDelivery {
    return Object.assign(new WebhookDelivery(), row);
  }
}

@ObjectType({ description: 'Something that happened in the business (the event log)', implements: Node })
export class Event extends Node {
  @Field({ description: 'The event type, for example wallet.funded' }) type: string;
  @Field(() => Mode, { description: 'The mode the event happened in (REST: livemode)' }) mode: Mode;
  @Field(() => GraphQLJSONObject, { description: 'The event payload, as sent in webhooks' }) data: Record<
    string,
    unknown
  >;
  @Field({ description: 'When the event was recorded (ISO 8601, UTC)' }) createdAt: Date;

  static from(row: DomainEvent): Event {
    return Object.assign(new Event(), {
      id: row.id,
      type: row.type,
      mode: row.livemode ? Mode.LIVE : Mode.TEST,
      data: row.data,
      createdAt: row.createdAt,
    });
  }
}

@ObjectType({
  description: 'One change of a webhook delivery: the delivery now, the status it had, and the fields the change set',
})
export class WebhookDeliveryUpdate {
  @Field(() => WebhookDelivery, { description: 'The delivery as it is when the update is sent' })
  webhookDelivery: WebhookDelivery;
  @Field(() => String, {
    nullable: true,
    description: 'Its status before this change; null when the change created it',
  })
  previousStatus: string | null;
  @Field(() => [String], { description: 'The fields of WebhookDelivery this change set (on creation, every field)' })
  changedFields: string[];
}

@ObjectType({ description: 'A page of the event log, newest first' })
export class EventConnection extends Connection(Event, 'Event') {}

@ObjectType({ description: 'A page of webhook deliveries, newest first' })
export class WebhookDeliveryConnection extends Connection(WebhookDelivery, 'WebhookDelivery') {}

export const RedeliverWebhookInput = IdInput('RedeliverWebhook', 'The delivery to send again');
export type RedeliverWebhookInput = InstanceType<typeof RedeliverWebhookInput>;
export const RedeliverWebhookUrlDeliveryInput = IdInput(
  'RedeliverWebhookUrlDelivery',
  "A delivery to the business's webhookUrl",
);
export type RedeliverWebhookUrlDeliveryInput = InstanceType<typeof RedeliverWebhookUrlDeliveryInput>;

@InputType({ description: 'The event to send again, and where to' })
export class ReplayEventInput {
  @Field(() => ID, { description: 'The event to replay, of the active business and mode' }) eventId: string;
  @Field(() => ID, {
    nullable: true,
    description: "An endpoint of the business (either registry); the business's webhookUrl when omitted",
  })
  endpointId?: string | null;
}

export const RedeliverWebhookPayload = Payload(
  'RedeliverWebhook',
  'webhookDelivery',
  () => WebhookDelivery,
  WebhookUserErrors,
);
export type RedeliverWebhookPayload = InstanceType<typeof RedeliverWebhookPayload>;
export const RedeliverWebhookUrlDeliveryPayload = Payload(
  'RedeliverWebhookUrlDelivery',
  'webhookDelivery',
  () => WebhookDelivery,
  WebhookUserErrors,
);
export type RedeliverWebhookUrlDeliveryPayload = InstanceType<typeof RedeliverWebhookUrlDeliveryPayload>;
export const ReplayEventPayload = Payload('ReplayEvent', 'webhookDelivery', () => WebhookDelivery, WebhookUserErrors);
export type ReplayEventPayload = InstanceType<typeof ReplayEventPayload>;
