import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DomainEvent } from '../../domain/events/event.entity';
import { Mode } from '../../domain/identity/identity.entities';
import { WebhookDelivery as WebhookDeliveryRow } from '../../domain/webhooks/webhook-delivery.entity';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { IdInput, Payload } from '../shared/payload';
import { WebhookUserErrors } from '../webhooks/webhook.errors';

@ObjectType({ description: 'One attempt series of sending an event to a webhook URL', implements: Node })
export class WebhookDelivery extends Node {
  @Field(() => ID) eventId: string;
  @Field() eventType: string;
  @Field() url: string;
  @Field({ description: 'The exact body every attempt sends and signs (JSON text): verify a signature over these bytes' })
  requestBody: string;
  @Field(() => GraphQLJSONObject, { nullable: true, description: "The headers of the latest attempt's request, signatures included; null before the first attempt or when it sent nothing" })
  requestHeaders: Record<string, string> | null;
  @Field({ description: 'One of pending, succeeded, failed (a retry is scheduled) or permanently_failed' }) status: string;
  @Field(() => Int) attemptCount: number;
  @Field(() => Date, { nullable: true }) lastAttemptAt: Date | null;
  @Field(() => Date, { nullable: true }) nextRetryAt: Date | null;
  @Field(() => Int, { nullable: true }) responseStatus: number | null;
  @Field(() => String, { nullable: true }) responseBody: string | null;
  @Field(() => Int, { nullable: true }) responseTimeMs: number | null;
  @Field(() => String, { nullable: true }) errorMessage: string | null;
  @Field(() => ID, { nullable: true, description: 'The treasury partner (its business id) on deliveries to a treasury endpoint; null otherwise' })
  partnerId: string | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: WebhookDeliveryRow): WebhookDelivery {
    return Object.assign(new WebhookDelivery(), row);
  }
}

@ObjectType({ description: 'Something that happened in the business (the event log)', implements: Node })
export class Event extends Node {
  @Field({ description: 'The event type, for example wallet.funded' }) type: string;
  @Field(() => Mode) mode: Mode;
  @Field(() => GraphQLJSONObject, { description: 'The event payload, as sent in webhooks' }) data: Record<string, unknown>;
  @Field() createdAt: Date;

  static from(row: DomainEvent): Event {
    return Object.assign(new Event(), {
      id: row.id, type: row.type, mode: row.livemode ? Mode.LIVE : Mode.TEST, data: row.data, createdAt: row.createdAt,
    });
  }
}

@ObjectType({ description: 'One change of a webhook delivery: the delivery now, the status it had, and the fields the change set' })
export class WebhookDeliveryUpdate {
  @Field(() => WebhookDelivery, { description: 'The delivery as it is when the update is sent' }) webhookDelivery: WebhookDelivery;
  @Field(() => String, { nullable: true, description: 'Its status before this change; null when the change created it' }) previousStatus: string | null;
  @Field(() => [String], { description: 'The fields of WebhookDelivery this change set (on creation, every field)' }) changedFields: string[];
}

@ObjectType()
export class EventConnection extends Connection(Event, 'Event') {}

@ObjectType()
export class WebhookDeliveryConnection extends Connection(WebhookDelivery, 'WebhookDelivery') {}

export const RedeliverWebhookInput = IdInput('RedeliverWebhook', 'The delivery to send again');
export type RedeliverWebhookInput = InstanceType<typeof RedeliverWebhookInput>;
export const RedeliverWebhookUrlDeliveryInput = IdInput('RedeliverWebhookUrlDelivery', "A delivery to the business's webhookUrl");
export type RedeliverWebhookUrlDeliveryInput = InstanceType<typeof RedeliverWebhookUrlDeliveryInput>;

@InputType()
export class ReplayEventInput {
  @Field(() => ID) eventId: string;
  @Field(() => ID, { nullable: true, description: "An endpoint of the business (either registry); the business's webhookUrl when omitted" }) endpointId?: string | null;
}

export const RedeliverWebhookPayload = Payload('RedeliverWebhook', 'webhookDelivery', () => WebhookDelivery, WebhookUserErrors);
export type RedeliverWebhookPayload = InstanceType<typeof RedeliverWebhookPayload>;
export const RedeliverWebhookUrlDeliveryPayload = Payload('RedeliverWebhookUrlDelivery', 'webhookDelivery', () => WebhookDelivery, WebhookUserErrors);
export type RedeliverWebhookUrlDeliveryPayload = InstanceType<typeof RedeliverWebhookUrlDeliveryPayload>;
export const ReplayEventPayload = Payload('ReplayEvent', 'webhookDelivery', () => WebhookDelivery, WebhookUserErrors);
export type ReplayEventPayload = InstanceType<typeof ReplayEventPayload>;
