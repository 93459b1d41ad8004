import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { WebhookEndpoint as WebhookEndpointRow } from '../../domain/webhooks';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { IdInput, Payload } from '../shared/payload';
import { WebhookUserErrors } from './webhook.errors';

@ObjectType({
  description: "A URL that receives the business's events of one mode (the merchant registry)",
  implements: Node,
})
export class WebhookEndpoint extends Node {
  @Field({ description: 'The URL events are POSTed to (absolute http(s); in live mode https and publicly reachable)' })
  url: string;
  @Field(() => [String], { description: 'Event types it receives; ["*"] means all' }) events: string[];
  @Field({ description: 'Either enabled or disabled' }) status: string;
  @Field(() => String, {
    nullable: true,
    description: "The business's own note on the endpoint (at most 500 characters); null when none",
  })
  description: string | null;
  @Field({ description: 'When the endpoint was registered (ISO 8601, UTC)' }) createdAt: Date;
  @Field({ description: 'When the endpoint last changed (ISO 8601, UTC)' }) updatedAt: Date;

  static from(row: WebhookEndpointRow): WebhookEndpoint {
    return Object.assign(new WebhookEndpoint(), row);
  }
}

@InputType({ description: 'A new endpoint of the active business and mode (at most 20 per mode)' })
export class CreateWebhookEndpointInput {
  @Field({ description: 'Absolute http(s) URL, at most 2048 characters; in live mode https and publicly reachable' })
  url: string;
  @Field(() => [String], {
    description: 'Event types to receive (wallet.funded, …), or ["*"] for all: 1 to 100, duplicates removed',
  })
  events: string[];
  @Field({ nullable: true, description: 'Either enabled (the default) or disabled' }) status?: string;
  @Field({ nullable: true, description: 'A note on the endpoint, at most 500 characters' }) description?: string;
}

/**
 * The fields an update may change (absent ones stay), shared with the treasury registry's input;
 * updateWebhookEndpoint's own input (GraphQL UpdateWebhookEndpointInput) adds the endpoint's id.
 */
@InputType('WebhookEndpointChangesInput')
export abstract class UpdateWebhookEndpointInput {
  @Field({
    nullable: true,
    description: 'The new URL: absolute http(s), at most 2048 characters; in live mode https and publicly reachable',
  })
  url?: string;
  @Field(() => [String], {
    nullable: true,
    description: 'The new event types (1 to 100, or ["*"] for all); applies to events recorded afterwards',
  })
  events?: string[];
  @Field({
    nullable: true,
    description:
      'Either enabled or disabled (a disabled endpoint receives nothing new; deliveries already enqueued still run)',
  })
  status?: string;
  @Field(() => String, { nullable: true, description: 'The new note, at most 500 characters; null clears it' })
  description?: string | null;
}

/** updateWebhookEndpoint's input (GraphQL UpdateWebhookEndpointInput): the endpoint and its changes. */
@InputType('UpdateWebhookEndpointInput', { description: 'The fields to change; absent ones stay as they are' })
export class UpdateWebhookEndpointByIdInput extends UpdateWebhookEndpointInput {
  @Field(() => ID, { description: 'The endpoint to change' }) id: string;
}

export const DeleteWebhookEndpointInput = IdInput('DeleteWebhookEndpoint', 'The endpoint to delete');
export type DeleteWebhookEndpointInput = InstanceType<typeof DeleteWebhookEndpointInput>;

@ObjectType({ description: 'A page of webhook endpoints of the merchant registry, newest first' })
export class WebhookEndpointConnection extends Connection(WebhookEndpoint, 'WebhookEndpoint') {}

export const CreateWebhookEndpointPayload = Payload(
  'CreateWebhookEndpoint',
  'webhookEndpoint',
  () => WebhookEndpoint,
  WebhookUserErrors,
);
export type CreateWebhookEndpointPayload = InstanceType<typeof CreateWebhookEndpointPayload>;
export const UpdateWebhookEndpointPayload = Payload(
  'UpdateWebhookEndpoint',
  'webhookEndpoint',
  () => WebhookEndpoint,
  WebhookUserErrors,
);
export type UpdateWebhookEndpointPayload = InstanceType<typeof UpdateWebhookEndpointPayload>;
export const DeleteWebhookEndpointPayload = Payload(
  'DeleteWebhookEndpoint',
  'webhookEndpoint',
  () => WebhookEndpoint,
  WebhookUserErrors,
);
export type DeleteWebhookEndpointPayload = InstanceType<typeof DeleteWebhookEndpointPayload>;
