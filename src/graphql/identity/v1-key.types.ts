import { Field, InputType, ObjectType } from 'type-graphql';
import { Mode } from '../../domain/shared/modes';
import { IssuedV1Key as IssuedV1KeyData, V1ApiKey as V1ApiKeyRow } from '../../domain/identity';
import { Node } from '../shared/node';
import { Payload } from '../shared/payload';
import { V1UserErrors } from './v1.errors';

@ObjectType({
  description: 'A secret key of the alternate surface /v1, shown this once (Authorization: Bearer <apiKey> on /v1)',
})
export class IssuedV1ApiKey {
  @Field({ description: 'The key (tessera_test_sk_… or tessera_live_sk_…): store it now, it cannot be read again' })
  apiKey: string;
  @Field(() => Mode, { description: 'The mode whose data the key reaches: TEST (sandbox) or LIVE' }) mode: Mode;
  @Field({ description: 'The first characters of the key, safe to display' }) keyHint: string;
  @Field({ description: 'When the key was issued (ISO 8601, UTC)' }) createdAt: Date;

  static from(issued: IssuedV1KeyData): IssuedV1ApiKey {
    return Object.assign(new IssuedV1ApiKey(), issued);
  }
}

@ObjectType({
  description: 'An active /v1 secret key of the business: its hint only (the key is shown once, when issued)',
  implements: Node,
})
export class V1ApiKey extends Node {
  @Field(() => Mode, { description: 'The mode whose data the key reaches: TEST (sandbox) or LIVE' }) mode: Mode;
  @Field({ description: 'The first characters of the key' }) keyHint: string;
  @Field({ description: 'When the key was issued (ISO 8601, UTC)' }) createdAt: Date;

  static from(row: V1ApiKeyRow): V1ApiKey {
    return Object.assign(new V1ApiKey(), {
      id: row.id,
      mode: row.livemode ? Mode.LIVE : Mode.TEST,
      keyHint: row.keyHint,
      createdAt: row.createdAt,
    });
  }
}

@ObjectType({
  description:
    "/v1's own settings of the caller's mode: where the business's /v1 events go (never the main surface's webhookUrl or endpoints)",
})
export class V1WebhookSettings {
  @Field(() => Mode, { description: "The mode these settings belong to: the caller's" }) mode: Mode;
  @Field(() => String, {
    nullable: true,
    description:
      "Receives every /v1 event of the mode (besides a payment's own webhook_url), signed with the /v1 key in Service-Signature; null: none",
  })
  webhookUrl: string | null;
}

@InputType({ description: "Which mode's /v1 secret key to issue" })
export class IssueV1ApiKeyInput {
  @Field(() => Mode, { defaultValue: Mode.TEST, description: 'The mode of the key (TEST when omitted)' }) mode: Mode;
}

@InputType({ description: "The /v1 webhook URL of the caller's mode" })
export class SetV1WebhookUrlInput {
  @Field(() => String, { nullable: true, description: 'An absolute http(s) URL, or null to remove it' }) webhookUrl:
    string | null;
}

export const IssueV1ApiKeyPayload = Payload('IssueV1ApiKey', 'issuedV1ApiKey', () => IssuedV1ApiKey, V1UserErrors);
export type IssueV1ApiKeyPayload = InstanceType<typeof IssueV1ApiKeyPayload>;
export const SetV1WebhookUrlPayload = Payload(
  'SetV1WebhookUrl',
  'v1WebhookSettings',
  () => V1WebhookSettings,
  V1UserErrors,
);
export type SetV1WebhookUrlPayload = InstanceType<typeof SetV1WebhookUrlPayload>;
