import { z } from 'zod';
import { CreateV1TransferCommand, v1TransferData, V1TransferStatus, V1TransferView } from '../../domain/payouts';
import { currencyCodeSchema, v1TimestampSchema } from '../schemas';

const amountMessage = 'must be a positive integer in the smallest unit of source_currency, such as 1050 for 10.50';

const text = (hint: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `is required: ${hint}` : 'must be a string') })
    .describe(hint);

export const createTransferBodySchema = z
  .object({
    source_amount: z
      .number({ error: (issue) => (issue.input === undefined ? `is required: ${amountMessage}` : amountMessage) })
      .int(amountMessage)
      .positive(amountMessage)
      .describe('Debited from your source_currency wallet in its smallest unit; the fee is debited on top'),
    source_currency: currencyCodeSchema().describe('The wallet the money leaves (3-letter ISO code)'),
    destination_currency: currencyCodeSchema().describe('The currency the recipient receives (3-letter ISO code)'),
    recipient: z
      .object(
        {
          name: text("the account holder's name"),
          sort_code: text("the bank's code (a sort code, bank code or routing code)"),
          account_number: text('the account number (4 to 34 letters or digits; spaces and dashes are ignored)'),
          country: text('the bank\'s country, ISO 3166-1 alpha-2 such as "NG"'),
        },
        {
          error: (issue) =>
            issue.input === undefined
              ? 'is required: { name, sort_code, account_number, country }'
              : 'must be an object',
        },
      )
      .strict(),
  })
  .strict();

export const transferSchema = z
  .object({
    id: z.string(),
    status: z
      .enum(V1TransferStatus)
      .describe(
        'pending (created, or held for review), processing (with the bank rail), completed, failed (the debit is returned) or cancelled',
      ),
    source_amount: z.number().int().describe('Debited from the source_currency wallet, smallest unit, before the fee'),
    source_currency: z.string(),
    destination_amount: z.number().int().describe('What the recipient receives, smallest unit of destination_currency'),
    destination_currency: z.string(),
    rate: z
      .number()
      .describe('Units of destination_currency per unit of source_currency, spread included (up to 8 decimals)'),
    fee: z
      .number()
      .int()
      .describe('Smallest unit of source_currency, debited on top of source_amount (returned if the transfer fails)'),
    recipient: z.object({
      name: z.string(),
      sort_code: z.string(),
      account_number: z.string().describe('Masked: **** and the last 4 characters'),
      country: z.string(),
    }),
    created_at: v1TimestampSchema,
  })
  .meta({ id: 'V1Transfer' });

export const toCreateTransferCommand = (body: z.output<typeof createTransferBodySchema>): CreateV1TransferCommand => ({
  sourceAmount: BigInt(body.source_amount),
  sourceCurrency: body.source_currency,
  destinationCurrency: body.destination_currency,
  recipient: {
    name: body.recipient.name,
    sortCode: body.recipient.sort_code,
    accountNumber: body.recipient.account_number,
    country: body.recipient.country,
  },
});

/** The read shape, the same as the `data` of the transfer's events. */
export const transferJson = (transfer: V1TransferView) => v1TransferData(transfer) as z.input<typeof transferSchema>;
