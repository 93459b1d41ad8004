import { Field, ID, Int, InputType, ObjectType } from 'type-graphql';
import { IssuedSigningSecret, WebhookEndpoint as WebhookEndpointRow } from '../../domain/webhooks';
import { Connection } from '../shared/connection';
import { Node } from '../shared/node';
import { IdInput } from '../shared/payload';
import { CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WebhookEndpoint } from './webhook-endpoint.types';

@ObjectType({
  description: "A URL that receives a treasury partner's events of one mode, signed with the endpoint's own secret",
  implements: Node,
})
export class TreasuryWebhookEndpoint extends WebhookEndpoint {
  @Field({ description: 'The signing secret as it may be shown again: whsk_… and its last 4 characters' })
  signingSecretHint: string;
  @Field(() => ID, { description: "The partner's business id (the same as partnerId)" }) businessId: string;
  @Field(() => ID, { description: "The partner: the business's id" }) partnerId: string;
  @Field({ description: 'Interface version of the payloads (2026-04-15)' }) apiVersion: string;

  static override from(row: WebhookEndpointRow): TreasuryWebhookEndpoint {
    return Object.assign(new TreasuryWebhookEndpoint(), {
      id: row.id,
      url: row.url,
      events: row.events,
      status: row.status,
      description: row.description,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      signingSecretHint: row.secretHint,
      businessId: row.businessId,
      partnerId: row.businessId,
      apiVersion: row.apiVersion,
    });
  }
}

@ObjectType({ description: 'An endpoint with its signing secret, answered once by creation and by each rotation' })
export class TreasuryWebhookEndpointWithSecret {
  @Field(() => TreasuryWebhookEndpoint, { description: 'The endpoint, with signingSecretHint naming the secret below' })
  endpoint: TreasuryWebhookEndpoint;
  @Field({ description: 'The secret (whsk_…): keep it; later reads show only signingSecretHint' })
  signingSecret: string;

  static from(issued: IssuedSigningSecret): TreasuryWebhookEndpointWithSecret {
    return Object.assign(new TreasuryWebhookEndpointWithSecret(), {
      endpoint: TreasuryWebhookEndpoint.from(issued.endpoint),
      signingSecret: issued.signingSecret,
    });
  }
}

@InputType({
  description:
    'A new treasury endpoint of the active business and mode (at most 20 per mode); its signing secret is generated',
})
export class CreateTreasuryWebhookEndpointInput extends CreateWebhookEndpointInput {
  @Field({ nullable: true, description: '2026-04-15 (the default)' }) apiVersion?: string;
}

@ObjectType({ description: 'A page of treasury webhook endpoints, newest first' })
export class TreasuryWebhookEndpointConnection extends Connection(TreasuryWebhookEndpoint, 'TreasuryWebhookEndpoint') {}

@InputType({ description: 'The fields given change; the others stay' })
export class UpdateTreasuryWebhookEndpointInput extends UpdateWebhookEndpointInput {
  @Field(() => ID, { description: 'The endpoint changed' }) id: string;
  @Field({ nullable: true, description: 'The new interface version of the payloads: 2026-04-15 only' })
  apiVersion?: string;
}

@InputType({
  description: 'The endpoint whose signing secret is replaced, and how long the replaced one keeps signing',
})
export class RotateTreasuryWebhookEndpointSecretInput {
  @Field(() => ID, { description: 'The endpoint whose secret is replaced' }) id: string;
  @Field(() => Int, {
    nullable: true,
    description: 'How long the replaced secret keeps signing: 0 to 168 hours (default 24)',
  })
  gracePeriodHours?: number;
}

export const DeleteTreasuryWebhookEndpointInput = IdInput(
  'DeleteTreasuryWebhookEndpoint',
  'The endpoint deleted (its past deliveries are kept)',
);
export type DeleteTreasuryWebhookEndpointInput = InstanceType<typeof DeleteTreasuryWebhookEndpointInput>;
