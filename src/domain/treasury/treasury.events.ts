import { EventNameOf } from '../events/catalog';
import { toMajor } from '../shared/money';
import {
  TreasuryEndUser,
  TreasuryKycCheck,
  TreasuryPayout,
  TreasuryWallet,
  TreasuryWalletView,
} from './treasury.entities';

/**
 * The treasury.* events (design section 10): data `{ livemode, object }`, object the resource's read
 * shape. They go to the treasury webhook registry's endpoints only (WebhookService's targets),
 * never to the merchant's webhookUrl or merchant endpoints.
 */
export const TreasuryEvent = {
  END_USER_CREATED: 'treasury.end_user.created',
  KYC_APPROVED: 'treasury.kyc.approved',
  KYC_REJECTED: 'treasury.kyc.rejected',
  WALLET_CREATED: 'treasury.wallet.created',
  DEPOSIT_RECEIVED: 'treasury.deposit.received',
  PAYOUT_CREATED: 'treasury.payout.created',
  PAYOUT_COMPLETED: 'treasury.payout.completed',
  PAYOUT_FAILED: 'treasury.payout.failed',
  PAYOUT_CANCELLED: 'treasury.payout.cancelled',
} as const;

export type TreasuryEventType = EventNameOf<typeof TreasuryEvent>;

/** The documented Treasury end-user, exactly its fields. */
export const endUserObject = (user: TreasuryEndUser) => ({
  id: user.id,
  partnerId: user.businessId,
  externalId: user.externalId,
  email: user.email,
  status: user.status,
  createdAt: user.createdAt.toISOString(),
  updatedAt: user.updatedAt.toISOString(),
  name: user.name,
  phone: user.phone,
  metadata: user.metadata,
});

/** The documented Treasury KYC record, exactly its fields. */
export const kycObject = (check: TreasuryKycCheck) => ({
  id: check.id,
  partnerEndUserId: check.endUserId,
  status: check.status,
  updatedAt: check.updatedAt.toISOString(),
  level: check.level,
  rejectionReasons: [...check.rejectionReasons],
  kycLinkUrl: check.kycLinkUrl,
});

/** A wallet (design section 10): `balance` from its ledger account, a decimal in major units. */
export const walletObject = ({ wallet, balance }: TreasuryWalletView) => ({
  id: wallet.id,
  partnerEndUserId: wallet.endUserId,
  currency: wallet.currency.toLowerCase(),
  balance: toMajor(balance, wallet.currency),
  status: wallet.status,
  createdAt: wallet.createdAt.toISOString(),
});

/** The documented Wallet deposit instructions: every field present, strings or null (an object for depositInstructions). */
export const depositInstructionsObject = (wallet: TreasuryWallet) => {
  const account = wallet.depositAccount;
  return {
    walletId: wallet.id,
    currency: wallet.currency.toLowerCase(),
    accountNumber: account.accountNumber,
    routingNumber: account.routingNumber,
    iban: account.iban,
    bankName: account.bankName,
    accountType: account.accountType,
    depositInstructions: { ...account.instructions },
    cryptoDepositAddress: account.address,
    cryptoDepositChain: account.chain,
    walletAddress: account.address,
    chain: account.chain,
  };
};

/** A deposit credited to a wallet (its id is the ledger's journal transaction). */
export interface TreasuryDeposit {
  id: string;
  wallet: TreasuryWallet;
  amount: bigint;
  balance: bigint;
  createdAt: Date;
}

export const depositObject = (deposit: TreasuryDeposit) => ({
  id: deposit.id,
  walletId: deposit.wallet.id,
  partnerEndUserId: deposit.wallet.endUserId,
  amount: toMajor(deposit.amount, deposit.wallet.currency),
  currency: deposit.wallet.currency.toLowerCase(),
  balance: toMajor(deposit.balance, deposit.wallet.currency),
  createdAt: deposit.createdAt.toISOString(),
});

/** The documented Treasury payout, exactly its fields (`failureReason` null until it fails). */
export const treasuryPayoutObject = (payout: TreasuryPayout) => ({
  id: payout.id,
  partnerId: payout.businessId,
  partnerEndUserId: payout.endUserId,
  amount: toMajor(payout.amount, payout.currency),
  currency: payout.currency.toLowerCase(),
  destinationType: payout.destinationType,
  destinationDetails: { ...payout.destinationDetails },
  status: payout.status,
  createdAt: payout.createdAt.toISOString(),
  updatedAt: payout.updatedAt.toISOString(),
  partnerWalletId: payout.walletId,
  failureReason: payout.failureReason,
});

export type EndUserObject = ReturnType<typeof endUserObject>;
export type KycObject = ReturnType<typeof kycObject>;
export type WalletObject = ReturnType<typeof walletObject>;
export type DepositInstructionsObject = ReturnType<typeof depositInstructionsObject>;
export type DepositObject = ReturnType<typeof depositObject>;
export type TreasuryPayoutObject = ReturnType<typeof treasuryPayoutObject>;

/** `{ livemode, object }` of a treasury event. */
export const treasuryEventData = (livemode: boolean, object: Record<string, unknown>) => ({ livemode, object });

/** The event of the status a treasury payout has just reached (PROCESSING has none). */
export const TREASURY_PAYOUT_EVENT_OF_STATUS = {
  PENDING: TreasuryEvent.PAYOUT_CREATED,
  PROCESSING: null,
  COMPLETED: TreasuryEvent.PAYOUT_COMPLETED,
  FAILED: TreasuryEvent.PAYOUT_FAILED,
  CANCELLED: TreasuryEvent.PAYOUT_CANCELLED,
} as const;
