import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { bigintTransformer } from '../shared/money';

export enum AccountKind {
  /** A merchant's balance per business, mode and currency. No overdraft. */
  MERCHANT_WALLET = 'merchant_wallet',
  /** Captured card payments of a business, mode and currency not yet settled to its wallet.
   * Derived from its entries (no cached balance), so captures do not contend on one row per merchant. */
  MERCHANT_PENDING = 'merchant_pending',
  /** A treasury end-user's wallet. No overdraft. */
  END_USER_WALLET = 'end_user_wallet',
  /** Tessera's fee income. */
  FEES_REVENUE = 'fees_revenue',
  /** Money owed by/to card acquirers and rails, before settlement. */
  PROVIDER_CLEARING = 'provider_clearing',
  /** Funds held against open disputes. */
  DISPUTE_RESERVE = 'dispute_reserve',
  /** Payouts debited from a wallet, not yet settled by the rail. */
  PAYOUT_IN_FLIGHT = 'payout_in_flight',
  /** The sandbox's source of play money. Test mode only. */
  SANDBOX_FUNDING = 'sandbox_funding',
  /**
   * Tessera's position with the FX provider, per mode and currency: what a conversion gave it (+,
   * in the source currency) and took from it (−, in the target currency).
   */
  FX_CLEARING = 'fx_clearing',
}

/** Kinds whose balance is cached on the account row because a no-overdraft rule needs it. */
export const CACHED_BALANCE_KINDS: ReadonlySet<AccountKind> = new Set([
  AccountKind.MERCHANT_WALLET,
  AccountKind.END_USER_WALLET,
]);

@Entity('currencies')
export class Currency {
  @PrimaryColumn('text') code: string;
  @Column('smallint') exponent: number;
}

/**
 * A ledger account. Platform accounts (fees, clearing, ...) derive their balance from
 * their entries, so no hot row is updated by every posting.
 */
@Entity('ledger_accounts')
@Check('ck_ledger_accounts_no_overdraft', `allow_negative OR balance >= 0`)
@Index('uq_ledger_accounts_identity', ['kind', 'livemode', 'currency', 'businessId', 'ownerRef'], {
  unique: true,
})
export class LedgerAccount {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column({ type: 'enum', enum: AccountKind, enumName: 'ledger_account_kind' }) kind: AccountKind;

  /** Null for platform accounts. Stored as the nil UUID rather than NULL so the identity index is unique. */
  @Column('uuid') businessId: string;

  /** Owner inside the business (an end-user id for END_USER_WALLET), '' otherwise. */
  @Column('text', { default: '' }) ownerRef: string;

  @Column('boolean') livemode: boolean;

  @Column('text') currency: string;

  /** Cached balance in minor units; only maintained for CACHED_BALANCE_KINDS. */
  @Column('bigint', { default: 0, transformer: bigintTransformer }) balance: bigint;

  @Column('boolean', { default: false }) allowNegative: boolean;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt: Date;
}

export const PLATFORM_BUSINESS_ID = '00000000-0000-0000-0000-000000000000';

/** A balanced set of entries: one business event in the books. Append-only. */
@Entity('journal_transactions')
@Index('ix_journal_transactions_reference', ['referenceType', 'referenceId'])
export class JournalTransaction {
  @PrimaryGeneratedColumn('uuid') id: string;

  @Column('uuid') businessId: string;

  @Column('boolean') livemode: boolean;

  /** What moved the money, e.g. `sandbox_funding`, `charge_settlement`, `payout`. */
  @Column('text') kind: string;

  @Column('text', { nullable: true }) referenceType: string | null;
  @Column('text', { nullable: true }) referenceId: string | null;

  @Column('text', { nullable: true }) description: string | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

/** One line of a journal transaction. Positive amounts increase the account's balance. */
@Entity('journal_entries')
@Index('ix_journal_entries_account_seq', ['accountId', 'seq'])
@Index('ix_journal_entries_transaction', ['transactionId'])
export class JournalEntry {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) seq: string;

  @Column('uuid') transactionId: string;

  @ManyToOne(() => JournalTransaction)
  @JoinColumn({ name: 'transaction_id' })
  transaction?: JournalTransaction;

  @Column('uuid') accountId: string;

  @ManyToOne(() => LedgerAccount)
  @JoinColumn({ name: 'account_id' })
  account?: LedgerAccount;

  @Column('text') currency: string;

  @Column('bigint', { transformer: bigintTransformer }) amount: bigint;

  /** The account's balance after this entry, for accounts with a cached balance. */
  @Column('bigint', { nullable: true, transformer: bigintTransformer }) balanceAfter: bigint | null;

  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
