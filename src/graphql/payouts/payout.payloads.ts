import { Payload } from '../shared/payload';
import { PayoutUserErrors } from './payout.errors';
import { Payout } from './payout.types';

export const CreatePayoutPayload = Payload('CreatePayout', 'payout', () => Payout, PayoutUserErrors);
export type CreatePayoutPayload = InstanceType<typeof CreatePayoutPayload>;
export const CancelPayoutPayload = Payload('CancelPayout', 'payout', () => Payout, PayoutUserErrors);
export type CancelPayoutPayload = InstanceType<typeof CancelPayoutPayload>;
