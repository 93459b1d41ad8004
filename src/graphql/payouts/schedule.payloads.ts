import { Payload } from '../shared/payload';
import { PayoutUserErrors } from './payout.errors';
import { PayoutSchedule } from './schedule.types';

export const CreatePayoutSchedulePayload = Payload(
  'CreatePayoutSchedule',
  'payoutSchedule',
  () => PayoutSchedule,
  PayoutUserErrors,
);
export type CreatePayoutSchedulePayload = InstanceType<typeof CreatePayoutSchedulePayload>;
export const UpdatePayoutSchedulePayload = Payload(
  'UpdatePayoutSchedule',
  'payoutSchedule',
  () => PayoutSchedule,
  PayoutUserErrors,
);
export type UpdatePayoutSchedulePayload = InstanceType<typeof UpdatePayoutSchedulePayload>;
export const PausePayoutSchedulePayload = Payload(
  'PausePayoutSchedule',
  'payoutSchedule',
  () => PayoutSchedule,
  PayoutUserErrors,
);
export type PausePayoutSchedulePayload = InstanceType<typeof PausePayoutSchedulePayload>;
export const ResumePayoutSchedulePayload = Payload(
  'ResumePayoutSchedule',
  'payoutSchedule',
  () => PayoutSchedule,
  PayoutUserErrors,
);
export type ResumePayoutSchedulePayload = InstanceType<typeof ResumePayoutSchedulePayload>;
export const CancelPayoutSchedulePayload = Payload(
  'CancelPayoutSchedule',
  'payoutSchedule',
  () => PayoutSchedule,
  PayoutUserErrors,
);
export type CancelPayoutSchedulePayload = InstanceType<typeof CancelPayoutSchedulePayload>;
