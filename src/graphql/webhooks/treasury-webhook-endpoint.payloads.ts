import { TreasuryUserErrors } from '../treasury/treasury.errors';
import { Payload } from '../shared/payload';
import { TreasuryWebhookEndpoint, TreasuryWebhookEndpointWithSecret } from './treasury-webhook-endpoint.types';

// The treasury product's endpoints answer the treasury area's user errors (TreasuryErrorCode).
export const CreateTreasuryWebhookEndpointPayload = Payload(
  'CreateTreasuryWebhookEndpoint',
  'endpointWithSecret',
  () => TreasuryWebhookEndpointWithSecret,
  TreasuryUserErrors,
);
export type CreateTreasuryWebhookEndpointPayload = InstanceType<typeof CreateTreasuryWebhookEndpointPayload>;
export const RotateTreasuryWebhookEndpointSecretPayload = Payload(
  'RotateTreasuryWebhookEndpointSecret',
  'endpointWithSecret',
  () => TreasuryWebhookEndpointWithSecret,
  TreasuryUserErrors,
);
export type RotateTreasuryWebhookEndpointSecretPayload = InstanceType<
  typeof RotateTreasuryWebhookEndpointSecretPayload
>;
export const UpdateTreasuryWebhookEndpointPayload = Payload(
  'UpdateTreasuryWebhookEndpoint',
  'treasuryWebhookEndpoint',
  () => TreasuryWebhookEndpoint,
  TreasuryUserErrors,
);
export type UpdateTreasuryWebhookEndpointPayload = InstanceType<typeof UpdateTreasuryWebhookEndpointPayload>;
export const DeleteTreasuryWebhookEndpointPayload = Payload(
  'DeleteTreasuryWebhookEndpoint',
  'treasuryWebhookEndpoint',
  () => TreasuryWebhookEndpoint,
  TreasuryUserErrors,
);
export type DeleteTreasuryWebhookEndpointPayload = InstanceType<typeof DeleteTreasuryWebhookEndpointPayload>;
