import { ErrorCode } from '../../domain/shared/errors';
import { defineUserErrors } from '../shared/payload';

/** What webhook endpoints, redeliveries and replays refuse that the caller can fix (WebhookErrorCode). */
export const WebhookUserErrors = defineUserErrors(
  'Webhook',
  [ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT],
  'webhook endpoint or delivery',
);
