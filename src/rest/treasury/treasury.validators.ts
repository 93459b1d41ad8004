import { z } from 'zod';
import {
  DepositInstructionsObject,
  DepositObject,
  EndUserFilters,
  EndUserObject,
  EndUserStatus,
  KycLevel,
  KycObject,
  KycStatus,
  TreasuryDestinationType,
  TreasuryPayoutFilters,
  TreasuryPayoutObject,
  TreasuryPayoutStatus,
  TreasuryWalletStatus,
  WalletObject,
} from '../../domain/treasury';
import { endUsersQuerySchema, treasuryPayoutsQuerySchema } from '../../wire/treasury';
import { currencyCodeSchema, decimalStringSchema, timestampSchema } from '../shared/schemas';

export const toEndUserFilters = (query: z.output<typeof endUsersQuerySchema>): EndUserFilters => ({
  status: query.status,
  externalId: query.externalId,
});

export const toTreasuryPayoutFilters = (query: z.output<typeof treasuryPayoutsQuerySchema>): TreasuryPayoutFilters => ({
  status: query.status,
  endUserId: query.partnerEndUserId,
  walletId: query.partnerWalletId,
});

/** `{ endUserId }` and `{ id, walletId }` path parameters (any text: an unknown id answers 404, never 400). */
export const walletParamsSchema = z.object({ id: z.string(), walletId: z.string() });

// ---------------------------------------------------------------- responses

/** The documented Treasury end-user, exactly its fields. */
export const endUserSchema = z
  .object({
    id: z.string(),
    partnerId: z.string().describe('The partner (business) id'),
    externalId: z.string().describe('Your own id of the end-user, unique per partner and mode'),
    email: z.string(),
    status: z
      .enum(EndUserStatus)
      .describe('pending_kyc until its KYC check is decided, then active (approved) or rejected'),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    name: z.string().nullable(),
    phone: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'EndUser' });

/** The documented Treasury KYC record, exactly its fields. */
export const kycSchema = z
  .object({
    id: z.string(),
    partnerEndUserId: z.string(),
    status: z.enum(KycStatus),
    updatedAt: timestampSchema,
    level: z.enum(KycLevel),
    rejectionReasons: z.array(z.string()).describe('Empty unless REJECTED'),
    kycLinkUrl: z
      .string()
      .describe(
        "The page the end-user opens to go through the check (in the sandbox, Tessera's own page where the tester decides)",
      ),
  })
  .meta({ id: 'KycRecord' });

export const walletSchema = z
  .object({
    id: z.string(),
    partnerEndUserId: z.string(),
    currency: currencyCodeSchema.describe('Lower-case currency code (usd, eur, usdc, …)'),
    balance: decimalStringSchema.describe("From the wallet's ledger account, in major units"),
    status: z.enum(TreasuryWalletStatus),
    createdAt: timestampSchema,
  })
  .meta({ id: 'TreasuryWallet' });

const nullableText = z.string().nullable();

/** The documented Wallet deposit instructions: every field present, a string or null (depositInstructions an object). */
export const depositInstructionsSchema = z
  .object({
    walletId: z.string(),
    currency: currencyCodeSchema,
    accountNumber: nullableText.describe(
      'Fiat: the virtual account number (null for EUR, which uses iban, and for USDC)',
    ),
    routingNumber: nullableText.describe('Fiat: ABA routing number (USD), sort code (GBP) or bank code'),
    iban: nullableText.describe('EUR and GBP'),
    bankName: nullableText,
    accountType: nullableText.describe('checking, current, iban or virtual'),
    depositInstructions: z
      .record(z.string(), z.string().nullable())
      .describe(
        'method (bank_transfer or crypto), scheme, beneficiaryName, reference, note; or asset, chain, address, memo, note',
      ),
    cryptoDepositAddress: nullableText.describe('USDC: the address to send to'),
    cryptoDepositChain: nullableText.describe('USDC: its chain (ethereum)'),
    walletAddress: nullableText.describe('USDC: the same address'),
    chain: nullableText.describe('USDC: the same chain'),
  })
  .meta({ id: 'DepositInstructions' });

export const depositSchema = z
  .object({
    id: z.string().describe('The ledger transaction of the deposit'),
    walletId: z.string(),
    partnerEndUserId: z.string(),
    amount: decimalStringSchema,
    currency: currencyCodeSchema,
    balance: decimalStringSchema.describe("The wallet's balance after the deposit"),
    createdAt: timestampSchema,
  })
  .meta({ id: 'TreasuryDeposit' });

/** The documented Treasury payout, exactly its fields. */
export const treasuryPayoutSchema = z
  .object({
    id: z.string(),
    partnerId: z.string(),
    partnerEndUserId: z.string(),
    amount: decimalStringSchema,
    currency: currencyCodeSchema,
    destinationType: z.enum(TreasuryDestinationType),
    destinationDetails: z
      .record(z.string(), z.string())
      .describe('The destination as sent, account numbers, phones and addresses masked to their last 4 characters'),
    status: z.enum(TreasuryPayoutStatus),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    partnerWalletId: z.string(),
    failureReason: z.string().nullable().describe('Null unless FAILED'),
  })
  .meta({ id: 'TreasuryPayout' });

/** The read shapes are the domain's event objects, field for field (so REST and webhooks cannot drift). */
export const endUserJson = (object: EndUserObject): z.input<typeof endUserSchema> => object;
export const kycJson = (object: KycObject): z.input<typeof kycSchema> => object;
export const walletJson = (object: WalletObject): z.input<typeof walletSchema> => object;
export const depositInstructionsJson = (object: DepositInstructionsObject): z.input<typeof depositInstructionsSchema> =>
  object;
export const depositJson = (object: DepositObject): z.input<typeof depositSchema> => object;
export const treasuryPayoutJson = (object: TreasuryPayoutObject): z.input<typeof treasuryPayoutSchema> => object;
