import crypto from 'node:crypto';
import { ProviderRegistry } from '../../providers/registry';
import { EventService } from '../events/event.service';
import { isUniqueViolationOf } from '../shared/unique-violation';
import { AccountKind, LedgerService } from '../ledger';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { CURRENCY_EXPONENTS, exponentOf, positiveMinor } from '../shared/money';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned, lockOwned } from '../shared/tenancy';
import {
  CreateTreasuryWalletCommand,
  SandboxDepositCommand,
  TreasuryWalletFilters,
  TreasuryWalletRef,
} from './treasury.commands';
import { endUserTransition } from './end-user.states';
import {
  KycStatus,
  TreasuryEndUser,
  TreasuryKycCheck,
  TreasuryWallet,
  TreasuryWalletStatus,
  TreasuryWalletView,
} from './treasury.entities';
import { TreasuryDeposit, TreasuryEvent, depositObject, treasuryEventData, walletObject } from './treasury.events';
import { requireTreasuryPartner } from '../identity';
import { Mode } from '../shared/modes';

/** Play money per sandbox deposit, in major units. */
const MAX_SANDBOX_DEPOSIT = 1_000_000_000n;

/**
 * End-user wallets (design section 10): one per end-user and currency, opened after KYC approval,
 * each its own END_USER_WALLET ledger account (owner: the end-user; no overdraft), never the
 * partner's merchant wallet. Balances are the ledger account's; the deposit account is the treasury
 * rail's, opened (outside any transaction) with the wallet.
 */
export class TreasuryWalletService {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly ledger: LedgerService,
    private readonly events: EventService,
  ) {}

  async create(ctx: RequestContext, command: CreateTreasuryWalletCommand): Promise<TreasuryWalletView> {
    ctx.requireRole(...WRITE_ROLES);
    await requireTreasuryPartner(ctx);
    const endUser = await findOwned(ctx, TreasuryEndUser, command.endUserId, 'End-user');
    const rail = this.providers.providerFor(ctx, 'treasury-rail');
    const currency = command.currency.trim().toUpperCase();
    if (!rail.currencies.includes(currency) || !(currency in CURRENCY_EXPONENTS)) {
      throw validationError({ currency: [`must be one of ${rail.currencies.join(', ')}`] });
    }
    endUserTransition(endUser.status, 'open_wallet');
    if (await ctx.repo(TreasuryWallet).exists({ where: { endUserId: endUser.id, currency } }))
      throw this.duplicate(currency);
    const walletId = crypto.randomUUID();
    // The KYC provider's reference of the approved check: a live rail (Bridge) opens the account for that customer.
    const approved = await ctx.repo(TreasuryKycCheck).findOne({
      where: { endUserId: endUser.id, status: KycStatus.APPROVED },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    const depositAccount = await rail.openDepositAccount({
      walletId,
      currency,
      holderName: endUser.name ?? endUser.email,
      endUserRef: approved?.providerRef ?? null,
    });
    return inTransaction(ctx, async (tx) => {
      // Locked, so a KYC decision cannot slip between this check and the wallet's commit.
      const locked = await lockOwned(tx, TreasuryEndUser, endUser.id, 'End-user');
      endUserTransition(locked.status, 'open_wallet');
      const account = await this.ledger.account(tx, {
        kind: AccountKind.END_USER_WALLET,
        currency,
        businessId: tx.requireBusiness(),
        ownerRef: endUser.id,
      });
      const repo = tx.repo(TreasuryWallet);
      const wallet = await repo
        .save(
          repo.create({
            id: walletId,
            businessId: tx.requireBusiness(),
            livemode: tx.livemode,
            endUserId: endUser.id,
            currency,
            ledgerAccountId: account.id,
            status: TreasuryWalletStatus.ACTIVE,
            depositAccount,
          }),
        )
        .catch((error: unknown) => {
          throw isUniqueViolationOf(error, 'uq_treasury_wallets_end_user_currency') ? this.duplicate(currency) : error;
        });
      const view = { wallet, balance: await this.balanceOf(tx, wallet) };
      await this.events.record(
        tx,
        TreasuryEvent.WALLET_CREATED,
        treasuryEventData(wallet.livemode, walletObject(view)),
      );
      return view;
    });
  }

  /** The wallet of the end-user (a wallet of another end-user, partner or mode is 404), with its balance. */
  async get(ctx: RequestContext, ref: TreasuryWalletRef): Promise<TreasuryWalletView> {
    ctx.requireRole(...ALL_ROLES);
    await requireTreasuryPartner(ctx);
    const wallet = await this.owned(ctx, ref);
    return { wallet, balance: await this.balanceOf(ctx, wallet) };
  }

  async list(
    ctx: RequestContext,
    filters: TreasuryWalletFilters,
    page: PageQuery,
  ): Promise<ListPage<TreasuryWalletView>> {
    ctx.requireRole(...ALL_ROLES);
    await requireTreasuryPartner(ctx);
    const endUser = await findOwned(ctx, TreasuryEndUser, filters.endUserId, 'End-user');
    const query = newestFirst(ctx, TreasuryWallet, 'wallet').andWhere('wallet.end_user_id = :endUserId', {
      endUserId: endUser.id,
    });
    const found = await paginate(query, 'wallet', page, { endUserId: endUser.id });
    const balances = await this.balancesOf(ctx, found.items);
    return {
      ...found,
      items: found.items.map((wallet) => ({ wallet, balance: balances.get(wallet.ledgerAccountId) ?? 0n })),
      cursorOf: (view) => found.cursorOf(view.wallet),
    };
  }

  /** The wallet whose deposit instructions are read (depositInstructionsObject shows them). */
  async depositInstructions(ctx: RequestContext, ref: TreasuryWalletRef): Promise<TreasuryWallet> {
    ctx.requireRole(...ALL_ROLES);
    await requireTreasuryPartner(ctx);
    return this.owned(ctx, ref);
  }

  /**
   * Sandbox only (test credentials, else 403): money arrives on the wallet's deposit account. One
   * balanced journal transaction from the sandbox funding account, and treasury.deposit.received.
   */
  async sandboxDeposit(ctx: RequestContext, command: SandboxDepositCommand): Promise<TreasuryDeposit> {
    ctx.requireRole(...WRITE_ROLES);
    await requireTreasuryPartner(ctx);
    ctx.requireSandbox();
    const wallet = await this.owned(ctx, command);
    const amount = positiveMinor(command.amount, wallet.currency);
    if (amount > MAX_SANDBOX_DEPOSIT * 10n ** BigInt(exponentOf(wallet.currency))) {
      throw validationError({ amount: [`must be at most ${MAX_SANDBOX_DEPOSIT} ${wallet.currency} per deposit`] });
    }
    return inTransaction(ctx, async (tx) => {
      return this.credit(tx, wallet, amount, AccountKind.SANDBOX_FUNDING, {
        referenceType: 'treasury_wallet',
        referenceId: wallet.id,
        description: 'Sandbox deposit to an end-user wallet',
      });
    });
  }

  /**
   * Credits a wallet from `sourceKind` in one balanced journal transaction (`treasury_deposit`) and
   * records treasury.deposit.received: the sandbox's deposits and the rail's share it. `ctx`: the
   * wallet's business and mode, inside the caller's transaction.
   */
  private async credit(
    ctx: RequestContext,
    wallet: TreasuryWallet,
    amount: bigint,
    sourceKind: AccountKind,
    posting: { referenceType: string; referenceId: string; description: string },
  ): Promise<TreasuryDeposit> {
    const account = await this.accountOf(ctx, wallet);
    const source = await this.ledger.account(ctx, { kind: sourceKind, currency: wallet.currency });
    const { transaction, balances } = await this.ledger.move(ctx, {
      kind: 'treasury_deposit',
      ...posting,
      lines: [
        { account, amount },
        { account: source, amount: -amount },
      ],
    });
    const deposit: TreasuryDeposit = {
      id: transaction.id,
      wallet,
      amount,
      balance: balances.get(account.id)!,
      createdAt: transaction.createdAt,
    };
    await this.events.record(
      ctx,
      TreasuryEvent.DEPOSIT_RECEIVED,
      treasuryEventData(wallet.livemode, depositObject(deposit)),
    );
    return deposit;
  }

  /**
   * A deposit the live rail announced (Bridge's webhooks) on the account it opened for a wallet,
   * found by the rail's reference of that account (`depositAccount.providerRefs[refKey]`): credited
   * once per `depositRef` (the rail's id of the deposit), however often and however concurrently
   * it is announced, in one balanced journal transaction from the provider's clearing account, with
   * treasury.deposit.received. Null when it concerns no wallet of Tessera's, or was credited already.
   */
  async creditProviderDeposit(
    tx: RequestContext,
    command: {
      refKey: string;
      accountRef: string;
      depositRef: string;
      /** The currency the rail names (checked against the wallet's when given). */
      currency: string | null;
      /** The amount in minor units of the wallet's currency (the rail's decimal string, read for it). */
      amountOf: (currency: string) => bigint;
    },
  ): Promise<TreasuryDeposit | null> {
    return inTransaction(tx, async (tx) => {
      // Locked: two announcements of the same deposit wait for each other, and the second finds the first's posting.
      const rows: Array<{ id: string }> = await tx.em.query(
        `SELECT id FROM treasury_wallets WHERE livemode = true AND deposit_account -> 'providerRefs' ->> $1 = $2 FOR UPDATE`,
        [command.refKey, command.accountRef],
      );
      if (rows.length !== 1) return null;
      const wallet = await tx.repo(TreasuryWallet).findOneByOrFail({ id: rows[0].id });
      if (command.currency !== null && command.currency.toUpperCase() !== wallet.currency)
        throw new Error(`a ${command.currency} deposit announced on ${wallet.currency} wallet ${wallet.id}`);
      const amount = command.amountOf(wallet.currency);
      if (amount <= 0n) return null;
      const referenceType = 'treasury_provider_deposit';
      const referenceId = `${wallet.id}:${command.depositRef}`;
      const seen: unknown[] = await tx.em.query(
        `SELECT 1 FROM journal_transactions WHERE reference_type = $1 AND reference_id = $2 LIMIT 1`,
        [referenceType, referenceId],
      );
      if (seen.length > 0) return null;
      return this.credit(tx.forBusiness(wallet.businessId, Mode.LIVE), wallet, amount, AccountKind.PROVIDER_CLEARING, {
        referenceType,
        referenceId,
        description: 'Deposit to an end-user wallet, announced by the treasury rail',
      });
    });
  }

  /**
   * The rail's own references of every live wallet that keeps one named `key` (Bridge's USDC
   * wallets: `liquidationAddressId`), of every partner and status: what a reconciliation source
   * reads its per-account lists by (the operator's view; never a tenant's). Oldest wallet first.
   */
  async liveProviderRefs(ctx: RequestContext, key: string): Promise<Array<Record<string, string>>> {
    const rows: Array<{ refs: Record<string, string> }> = await ctx.em.query(
      `SELECT deposit_account -> 'providerRefs' AS refs FROM treasury_wallets
        WHERE livemode = true AND deposit_account -> 'providerRefs' ->> $1 IS NOT NULL
        ORDER BY created_at, id`,
      [key],
    );
    return rows.map((row) => row.refs);
  }

  /** Wallets of the context's partner and mode by id, with balances (the GraphQL loader's batch). */
  async byIds(ctx: RequestContext, ids: readonly string[]): Promise<TreasuryWalletView[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const wallets = await ctx
      .repo(TreasuryWallet)
      .createQueryBuilder('wallet')
      .where('wallet.id IN (:...ids) AND wallet.business_id = :businessId AND wallet.livemode = :livemode', {
        ids: valid,
        businessId: ctx.requireBusiness(),
        livemode: ctx.livemode,
      })
      .getMany();
    const balances = await this.balancesOf(ctx, wallets);
    return wallets.map((wallet) => ({ wallet, balance: balances.get(wallet.ledgerAccountId) ?? 0n }));
  }

  /** The wallets of each end-user of the context's partner and mode, oldest first, with balances (the GraphQL loader's batch). */
  async ofEndUsers(ctx: RequestContext, endUserIds: readonly string[]): Promise<TreasuryWalletView[]> {
    const valid = endUserIds.filter(isUuid);
    if (valid.length === 0) return [];
    const wallets = await ctx
      .repo(TreasuryWallet)
      .createQueryBuilder('wallet')
      .where('wallet.end_user_id IN (:...ids) AND wallet.business_id = :businessId AND wallet.livemode = :livemode', {
        ids: valid,
        businessId: ctx.requireBusiness(),
        livemode: ctx.livemode,
      })
      .orderBy('wallet.created_at', 'ASC')
      .addOrderBy('wallet.id', 'ASC')
      .getMany();
    const balances = await this.balancesOf(ctx, wallets);
    return wallets.map((wallet) => ({ wallet, balance: balances.get(wallet.ledgerAccountId) ?? 0n }));
  }

  /** The end-user's wallet: both ids must be the context's (else 404, never 403). */
  async owned(ctx: RequestContext, ref: TreasuryWalletRef): Promise<TreasuryWallet> {
    const endUser = await findOwned(ctx, TreasuryEndUser, ref.endUserId, 'End-user');
    const wallet = await findOwned(ctx, TreasuryWallet, ref.walletId, 'Wallet');
    if (wallet.endUserId !== endUser.id) throw notFound('Wallet');
    return wallet;
  }

  /** The wallet's ledger account (END_USER_WALLET of its end-user and currency). */
  async accountOf(tx: RequestContext, wallet: TreasuryWallet) {
    return this.ledger.account(tx, {
      kind: AccountKind.END_USER_WALLET,
      currency: wallet.currency,
      businessId: wallet.businessId,
      ownerRef: wallet.endUserId,
    });
  }

  private duplicate(currency: string) {
    return new DomainError(ErrorCode.CONFLICT, `This end-user already has a ${currency} wallet`, {
      currency: ['already has a wallet of this end-user'],
    });
  }

  private async balanceOf(ctx: RequestContext, wallet: TreasuryWallet): Promise<bigint> {
    return (await this.balancesOf(ctx, [wallet])).get(wallet.ledgerAccountId) ?? 0n;
  }

  private async balancesOf(ctx: RequestContext, wallets: TreasuryWallet[]): Promise<Map<string, bigint>> {
    if (wallets.length === 0) return new Map();
    const rows: Array<{ id: string; balance: string }> = await ctx.em.query(
      `SELECT id, balance::text AS balance FROM ledger_accounts WHERE id = ANY($1::uuid[]) AND kind = $2`,
      [wallets.map((wallet) => wallet.ledgerAccountId), AccountKind.END_USER_WALLET],
    );
    return new Map(rows.map((row) => [row.id, BigInt(row.balance)]));
  }
}
