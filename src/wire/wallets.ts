/** The sandbox wallet funding request as both faces accept it (REST body, GraphQL `SandboxFundWalletInput`). */
import { z } from 'zod';
import { toMinor } from '../domain/shared/money';
import { FundWalletCommand } from '../domain/wallets';
import { decimalAmount, required } from './validation';

export const fundRequestSchema = z.object({
  currency: z.string({ error: required() }).min(3, 'must be a currency code').max(8),
  amount: decimalAmount(),
});

/** The amount becomes minor units of the currency (an unsupported currency or too many decimals is a 400 here). */
export const fundCommandOf = (request: z.output<typeof fundRequestSchema>): FundWalletCommand => ({
  currency: request.currency,
  amount: toMinor(request.amount, request.currency),
});
