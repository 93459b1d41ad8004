import { z } from 'zod';
import { MAX_PAGE_SIZE, PageQuery } from '../../domain/shared/pagination';
import { toMajor } from '../../domain/shared/money';
import { Wallet, WalletEntry } from '../../domain/wallets';
import { integerParam } from '../../wire/validation';
import { fundCommandOf, fundRequestSchema } from '../../wire/wallets';
import { currencyCodeSchema, decimalStringSchema, timestampSchema } from '../shared/schemas';

// ---------------------------------------------------------------- requests

export const walletParamsSchema = z.object({ walletId: z.string() });

export const entriesQuerySchema = z.object({
  limit: integerParam(MAX_PAGE_SIZE),
  after: z.string().optional().describe('The nextCursor of the previous page'),
});

export const fundBodySchema = fundRequestSchema;
export { fundCommandOf };

/** Entries are paged by cursor only (newest first): `limit` and the previous page's `nextCursor`. */
export const entriesPageOf = (query: z.output<typeof entriesQuerySchema>): Extract<PageQuery, { kind: 'keyset' }> => ({
  kind: 'keyset',
  first: query.limit ?? null,
  after: query.after ?? null,
});

// ---------------------------------------------------------------- responses

export const walletSchema = z
  .object({
    id: z.string(),
    object: z.literal('wallet'),
    currency: currencyCodeSchema,
    balance: decimalStringSchema,
    balanceMinor: z.string().describe('The balance in minor units, as an integer string'),
    livemode: z.boolean(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .meta({
    id: 'Wallet',
    // docs/rest-api.md, GET /api/v1/business/wallets/{walletId}.
    examples: [
      {
        id: 'f8edc742-6f4b-44fb-873e-4b1ba9ccc93b',
        object: 'wallet',
        currency: 'usd',
        balance: '125.50',
        balanceMinor: '12550',
        livemode: false,
        createdAt: '2026-11-22T07:57:02.134Z',
        updatedAt: '2026-11-22T07:57:32.197Z',
      },
    ],
  });

export const walletEntrySchema = z
  .object({
    id: z.string().describe('The entry sequence number (entries are ordered by it)'),
    object: z.literal('wallet_entry'),
    transactionId: z.string().describe('The journal transaction the entry belongs to'),
    kind: z.string().describe('What moved the money: card_settlement, card_refund, dispute_opened, sandbox_funding, …'),
    description: z.string().nullable(),
    currency: currencyCodeSchema,
    amount: z.string().describe('Signed decimal amount in major units (negative for a debit)'),
    amountMinor: z.string().describe('Signed amount in minor units, as an integer string'),
    balanceAfter: z.string().nullable().describe('The wallet balance after the entry, in major units'),
    createdAt: timestampSchema,
  })
  .meta({ id: 'WalletEntry' });

export const walletListSchema = z.object({ items: z.array(walletSchema), total: z.number().int() });
export const walletEntriesSchema = z.object({
  items: z.array(walletEntrySchema),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable().describe('Pass as `after` for the next page; null on the last page'),
});
export const fundResultSchema = z
  .object({ wallet: walletSchema, transactionId: z.string() })
  .meta({ id: 'SandboxWalletFunding' });

export const walletJson = (wallet: Wallet): z.input<typeof walletSchema> => ({
  id: wallet.id,
  object: 'wallet',
  currency: wallet.currency.toLowerCase(),
  balance: toMajor(wallet.balance, wallet.currency),
  balanceMinor: wallet.balance.toString(),
  livemode: wallet.livemode,
  createdAt: wallet.createdAt.toISOString(),
  updatedAt: wallet.updatedAt.toISOString(),
});

export const walletEntryJson = ({ entry, transaction }: WalletEntry): z.input<typeof walletEntrySchema> => ({
  id: entry.seq,
  object: 'wallet_entry',
  transactionId: transaction.id,
  kind: transaction.kind,
  description: transaction.description,
  currency: entry.currency.toLowerCase(),
  amount: toMajor(entry.amount, entry.currency),
  amountMinor: entry.amount.toString(),
  balanceAfter: entry.balanceAfter === null ? null : toMajor(entry.balanceAfter, entry.currency),
  createdAt: entry.createdAt.toISOString(),
});
