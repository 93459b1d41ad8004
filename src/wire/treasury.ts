/**
 * The treasury requests as both faces accept them (REST `/api/v1/treasury/...` and the GraphQL
 * treasury mutations): one shape each, the same field messages, one mapping to the domain's
 * commands. Shape only (type, presence, format); the domain decides KYC, currencies, decimals of
 * the wallet's currency, balances and states.
 */
import { z } from 'zod';
import {
  CreateEndUserCommand,
  CreateTreasuryPayoutCommand,
  CreateTreasuryWalletCommand,
  EndUserStatus,
  KycLevel,
  RejectKycCommand,
  SandboxDepositCommand,
  StartKycCommand,
  TreasuryDestinationType,
  TreasuryPayoutDestination,
  TreasuryPayoutStatus,
} from '../domain/treasury';
import { SANDBOX_TEST_OUTCOMES } from '../providers/treasury-rail/sandbox';
import {
  currencySchema,
  emailSchema,
  enumFilter,
  evenWhenFieldsFail,
  metadataSchema,
  required,
  skipTakeParams,
} from './validation';

const text = (what: string, max = 200) =>
  z
    .string({ error: required(what) })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);
const optionalText = (what: string, max = 200) =>
  z
    .string({ error: `must be a string: ${what}` })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .nullish();

/** The documented treasury payout amount: digits, optionally a dot and digits (a string). */
export const TREASURY_AMOUNT_PATTERN = /^\d+(\.\d+)?$/;
const AMOUNT_MESSAGE = 'must be a decimal string of digits, optionally a dot and digits, such as "25.00"';
export const treasuryAmountSchema = z
  .string({ error: required('a decimal amount string such as "25.00"') })
  .regex(TREASURY_AMOUNT_PATTERN, AMOUNT_MESSAGE)
  .max(40, 'is too long');

/** End-user and wallet ids in a treasury payout request: at least 8 characters (interface document, Limits). */
export const MIN_TREASURY_ID_LENGTH = 8;
const treasuryId = (what: string) =>
  z
    .string({ error: required(what) })
    .min(MIN_TREASURY_ID_LENGTH, `must be at least ${MIN_TREASURY_ID_LENGTH} characters`)
    .max(100, 'must be at most 100 characters');

const countrySchema = z
  .string({ error: required('a two-letter country code such as US') })
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as US')
  .transform((value) => value.toUpperCase());

// ---------------------------------------------------------------- end-users

export const createEndUserBodySchema = z.object(
  {
    externalId: text('your own id of the end-user, unique per partner and mode', 200),
    email: z.string({ error: required("the end-user's email address") }).pipe(emailSchema),
    name: optionalText("the end-user's name"),
    phone: optionalText('a phone number in international format such as +14155550100', 32),
    metadata: metadataSchema,
  },
  { error: 'must be a JSON object' },
);

export const toCreateEndUserCommand = (body: z.output<typeof createEndUserBodySchema>): CreateEndUserCommand => ({
  externalId: body.externalId,
  email: body.email,
  name: body.name ?? null,
  phone: body.phone ?? null,
  metadata: body.metadata ?? null,
});

export const endUsersQuerySchema = z.object({
  ...skipTakeParams,
  status: enumFilter(EndUserStatus).optional(),
  externalId: z.string().optional(),
});

// ---------------------------------------------------------------- KYC

const LEVELS = Object.values(KycLevel).join(', ');

export const startKycBodySchema = z.object(
  {
    level: z
      .enum(KycLevel, { error: `must be one of ${LEVELS}` })
      .nullish()
      .describe('basic (default) or full'),
  },
  { error: 'must be a JSON object' },
);

export const toStartKycCommand = (
  endUserId: string,
  body: z.output<typeof startKycBodySchema> | undefined,
): StartKycCommand => ({ endUserId, level: body?.level ?? null });

export const rejectKycBodySchema = z.object(
  {
    reasons: z
      .array(text('a reason', 200), { error: required('a list of rejection reasons such as ["document_unreadable"]') })
      .min(1, 'must list at least one reason')
      .max(10, 'must list at most 10 reasons'),
  },
  { error: 'must be a JSON object' },
);

export const toRejectKycCommand = (
  endUserId: string,
  body: z.output<typeof rejectKycBodySchema>,
): RejectKycCommand => ({ endUserId, reasons: body.reasons });

// ---------------------------------------------------------------- wallets

export const createTreasuryWalletBodySchema = z.object(
  {
    currency: currencySchema.describe('A currency code such as usd, eur or usdc'),
  },
  { error: 'must be a JSON object' },
);

export const toCreateTreasuryWalletCommand = (
  endUserId: string,
  body: z.output<typeof createTreasuryWalletBodySchema>,
): CreateTreasuryWalletCommand => ({ endUserId, currency: body.currency });

export const sandboxDepositBodySchema = z.object(
  {
    amount: treasuryAmountSchema.describe("Decimal in major units of the wallet's currency"),
  },
  { error: 'must be a JSON object' },
);

export const toSandboxDepositCommand = (
  endUserId: string,
  walletId: string,
  body: z.output<typeof sandboxDepositBodySchema>,
): SandboxDepositCommand => ({ endUserId, walletId, amount: body.amount });

// ---------------------------------------------------------------- payouts

const DESTINATION_TYPES = Object.values(TreasuryDestinationType).join(', ');

/** `destination` per `destinationType` (design section 10). */
export const destinationSchemas = {
  [TreasuryDestinationType.BANK_ACCOUNT]: z
    .object(
      {
        accountNumber: text('the account number', 34).regex(/^[A-Za-z0-9]{4,34}$/, 'must be 4 to 34 letters or digits'),
        routingNumber: optionalText('the routing number (or give bankCode)', 32),
        bankCode: optionalText('the bank code (or give routingNumber)', 32),
        accountName: text("the account holder's name"),
        country: countrySchema,
        bankName: optionalText('the bank name', 120),
      },
      { error: 'must be a JSON object' },
    )
    .superRefine((value, context) => {
      if (!value.routingNumber && !value.bankCode)
        context.addIssue({
          code: 'custom',
          path: ['routingNumber'],
          message: 'is required: routingNumber or bankCode',
        });
    }),
  [TreasuryDestinationType.MOBILE_MONEY]: z.object(
    {
      phone: text('a phone number in international format such as +233241234567', 20).regex(
        /^\+?[0-9]{7,15}$/,
        'must be a phone number in international format such as +233241234567',
      ),
      networkId: text('the mobile network id, such as mtn-gh', 64),
      country: countrySchema,
      accountName: optionalText("the wallet holder's name"),
    },
    { error: 'must be a JSON object' },
  ),
  [TreasuryDestinationType.CRYPTO]: z.object(
    {
      address: text('the wallet address', 128),
      chain: text('the chain, such as ethereum', 32),
    },
    { error: 'must be a JSON object' },
  ),
} as const;

const testOutcomeMessage = `must be one of ${SANDBOX_TEST_OUTCOMES.join(', ')}`;

export const createTreasuryPayoutBodySchema = z
  .object(
    {
      partnerEndUserId: treasuryId('the end-user id'),
      partnerWalletId: treasuryId('the id of the wallet paid from'),
      amount: treasuryAmountSchema.describe('Principal in major units of the wallet\'s currency, e.g. "25.00"'),
      destinationType: z.enum(TreasuryDestinationType, { error: required(`one of ${DESTINATION_TYPES}`) }),
      destination: z
        .record(z.string(), z.unknown(), { error: required('an object with the fields of its destinationType') })
        .describe(
          'bank_account: accountNumber, routingNumber or bankCode, accountName, country (bankName); mobile_money: phone, networkId, country (accountName); crypto: address, chain',
        ),
      idempotencyKey: optionalText('a key of yours; only stored in metadata', 255),
      metadata: metadataSchema.describe(
        'Your key-values; in the sandbox, test_outcome (success, failed, pending) drives the payout',
      ),
    },
    { error: 'must be a JSON object' },
  )
  .superRefine((body, context) => {
    const type = body.destinationType as unknown;
    const destination = body.destination as unknown;
    if (
      typeof type === 'string' &&
      type in destinationSchemas &&
      destination &&
      typeof destination === 'object' &&
      !Array.isArray(destination)
    ) {
      const checked = destinationSchemas[type as TreasuryDestinationType].safeParse(destination);
      if (!checked.success)
        for (const issue of checked.error.issues)
          context.addIssue({ code: 'custom', path: ['destination', ...issue.path], message: issue.message });
    }
    const metadata = body.metadata as unknown;
    const outcome =
      metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>).test_outcome : undefined;
    if (outcome !== undefined && !(SANDBOX_TEST_OUTCOMES as readonly unknown[]).includes(outcome)) {
      context.addIssue({ code: 'custom', path: ['metadata', 'test_outcome'], message: testOutcomeMessage });
    }
  }, evenWhenFieldsFail);

function destinationOf(type: TreasuryDestinationType, raw: Record<string, unknown>): TreasuryPayoutDestination {
  switch (type) {
    case TreasuryDestinationType.BANK_ACCOUNT: {
      const value = destinationSchemas[type].parse(raw);
      return {
        type,
        accountNumber: value.accountNumber,
        routingNumber: value.routingNumber ?? null,
        bankCode: value.bankCode ?? null,
        accountName: value.accountName,
        country: value.country,
        bankName: value.bankName ?? null,
      };
    }
    case TreasuryDestinationType.MOBILE_MONEY: {
      const value = destinationSchemas[type].parse(raw);
      return {
        type,
        phone: value.phone,
        networkId: value.networkId,
        country: value.country,
        accountName: value.accountName ?? null,
      };
    }
    case TreasuryDestinationType.CRYPTO: {
      const value = destinationSchemas[type].parse(raw);
      return { type, address: value.address, chain: value.chain };
    }
  }
}

export const toCreateTreasuryPayoutCommand = (
  body: z.output<typeof createTreasuryPayoutBodySchema>,
): CreateTreasuryPayoutCommand => ({
  endUserId: body.partnerEndUserId,
  walletId: body.partnerWalletId,
  amount: body.amount,
  destination: destinationOf(body.destinationType, body.destination),
  idempotencyKey: body.idempotencyKey ?? null,
  metadata: body.metadata ?? null,
});

export const treasuryPayoutsQuerySchema = z.object({
  ...skipTakeParams,
  status: enumFilter(TreasuryPayoutStatus).optional(),
  partnerEndUserId: z.string().optional(),
  partnerWalletId: z.string().optional(),
});

export const treasuryListQuerySchema = z.object(skipTakeParams);
