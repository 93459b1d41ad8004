import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { WebhookEndpoint as WebhookEndpointRow } from '../../domain/webhooks/webhook-endpoint.entity';

@ObjectType({ description: "A URL that receives the business's events of one mode (the merchant registry)" })
export class WebhookEndpoint {
  @Field(() => ID) id: string;
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

@InputType()
export class UpdateWebhookEndpointInput {
  @Field({ nullable: true }) url?: string;
  @Field(() => [String], { nullable: true }) events?: string[];
  @Field({ nullable: true }) status?: string;
  @Field(() => String, { nullable: true }) description?: string | null;
}
