import { z } from 'zod';
import { PayoutPinStatus, SetPayoutPinCommand } from '../../domain/payouts';
import { required } from '../../wire/validation';
import { timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

/** The format (exactly 6 digits) and whether `currentPin` is needed are the domain's rules, so one answer names every bad field. */
export const setPinBodySchema = z
  .object(
    {
      pin: z
        .string({ error: required('the new PIN, 6 digits as a string') })
        .describe('The new PIN: exactly 6 digits, as a string'),
      currentPin: z
        .string({ error: 'must be a string or null' })
        .nullish()
        .describe('The PIN set now; required to change it, ignored on the first set'),
    },
    { error: 'must be a JSON object' },
  )
  .strict();

export const toSetPinCommand = (body: z.output<typeof setPinBodySchema>): SetPayoutPinCommand => ({
  pin: body.pin,
  currentPin: body.currentPin ?? null,
});

// ---------------------------------------------------------------- responses

export const payoutPinStatusSchema = z
  .object({
    isSet: z.boolean(),
    lockedUntil: timestampSchema
      .nullable()
      .describe(
        'When the lock that applies to the caller ends (of its own credential, or of the whole business); null when not locked',
      ),
    updatedAt: timestampSchema.nullable().describe('When the PIN was last set or changed; null when never set'),
  })
  .describe('The payout PIN of the business (never the PIN itself)')
  .meta({ id: 'PayoutPinStatus' });

export const payoutPinStatusJson = (status: PayoutPinStatus): z.input<typeof payoutPinStatusSchema> => ({
  isSet: status.isSet,
  lockedUntil: status.lockedUntil?.toISOString() ?? null,
  updatedAt: status.updatedAt?.toISOString() ?? null,
});
