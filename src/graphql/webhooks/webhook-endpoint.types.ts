import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { WebhookEndpoint as WebhookEndpointRow } from '../../domain/webhooks/webhook-endpoint.entity';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { IdInput, Payload } from '../shared/payload';
import { WebhookUserErrors } from './webhook.errors';

@ObjectType({ description: "A URL that receives the business's events of one mode (the merchant registry)", implements: Node })
export class WebhookEndpoint extends Node {
  @Field() url: string;
  @Field(() => [String], { description: 'Event types it receives; ["*"] means all' }) events: string[];
  @Field({ description: 'Either enabled or disabled' }) status: string;
  @Field(() => String, { nullable: true }) description: string | null;
  @Field() createdAt: Date;
  @Field() updatedAt: Date;

  static from(row: WebhookEndpointRow): WebhookEndpoint {
    return Object.assign(new WebhookEndpoint(), row);
  }
}

@InputType()
export class CreateWebhookEndpointInput {
  @Field() url: string;
  @Field(() => [String]) events: string[];
  @Field({ nullable: true, description: 'Either enabled (the default) or disabled' }) status?: string;
  @Field({ nullable: true }) description?: string;
}

/**
 * The fields an update may change (absent ones stay), shared with the treasury registry's input;
 * updateWebhookEndpoint's own input (GraphQL UpdateWebhookEndpointInput) adds the endpoint's id.
 */
@InputType('WebhookEndpointChangesInput')
export abstract class UpdateWebhookEndpointInput {
  @Field({ nullable: true }) url?: string;
  @Field(() => [String], { nullable: true }) events?: string[];
  @Field({ nullable: true }) status?: string;
  @Field(() => String, { nullable: true }) description?: string | null;
}

/** updateWebhookEndpoint's input (GraphQL UpdateWebhookEndpointInput): the endpoint and its changes. */
@InputType('UpdateWebhookEndpointInput', { description: 'The fields to change; absent ones stay as they are' })
export class UpdateWebhookEndpointByIdInput extends UpdateWebhookEndpointInput {
  @Field(() => ID, { description: 'The endpoint to change' }) id: string;
}

export const DeleteWebhookEndpointInput = IdInput('DeleteWebhookEndpoint', 'The endpoint to delete');
export type DeleteWebhookEndpointInput = InstanceType<typeof DeleteWebhookEndpointInput>;

@ObjectType()
export class WebhookEndpointConnection extends Connection(WebhookEndpoint, 'WebhookEndpoint') {}

export const CreateWebhookEndpointPayload = Payload('CreateWebhookEndpoint', 'webhookEndpoint', () => WebhookEndpoint, WebhookUserErrors);
export type CreateWebhookEndpointPayload = InstanceType<typeof CreateWebhookEndpointPayload>;
export const UpdateWebhookEndpointPayload = Payload('UpdateWebhookEndpoint', 'webhookEndpoint', () => WebhookEndpoint, WebhookUserErrors);
export type UpdateWebhookEndpointPayload = InstanceType<typeof UpdateWebhookEndpointPayload>;
export const DeleteWebhookEndpointPayload = Payload('DeleteWebhookEndpoint', 'webhookEndpoint', () => WebhookEndpoint, WebhookUserErrors);
export type DeleteWebhookEndpointPayload = InstanceType<typeof DeleteWebhookEndpointPayload>;
