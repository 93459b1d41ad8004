/** The low-balance threshold request as the GraphQL face and the CLI accept it. */
import { z } from 'zod';
import { toMinor } from '../domain/shared/money';
import { SetLowBalanceThresholdCommand } from '../domain/wallets';
import { currencySchema, decimalAmount } from './validation';

export const lowBalanceThresholdSchema = z.object({
  currency: currencySchema,
  threshold: decimalAmount('a positive decimal amount such as 100.00, or null to remove the threshold').nullable(),
});

/** The threshold becomes minor units of the currency (an unsupported currency or too many decimals is a validation error). */
export const lowBalanceCommandOf = (
  request: z.output<typeof lowBalanceThresholdSchema>,
): SetLowBalanceThresholdCommand => ({
  currency: request.currency,
  threshold: request.threshold === null ? null : toMinor(request.threshold, request.currency, 'threshold'),
});
