import type {
  BalanceEntry,
  BalanceEntryType,
  ReconciliationLookup,
  ReconciliationSource,
} from '../../providers/reconciliation/port';
import type { ProviderRegistry } from '../../providers/registry';
import { RequestContext, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { KeysetQuery, ListPage, keysetPage } from '../shared/pagination';
import { ReconcileCommand, ReconciliationRunFilters } from './reconciliation.commands';
import {
  ReconciliationDifference,
  ReconciliationDifferenceKind,
  ReconciliationFee,
  ReconciliationRun,
  ReconciliationRunStatus,
} from './reconciliation.entities';

/** A run and what it found. */
export interface ReconciliationReport {
  run: ReconciliationRun;
  differences: ReconciliationDifference[];
}

const MAX_PROVIDER_LENGTH = 100;

/** The longest period one run compares (the acquirer's list is read whole, into memory). */
const MAX_PERIOD_DAYS = 31;

/**
 * How far around the period the acquirer's balance is read to clear Tessera's postings: Stripe's
 * entry of a charge is written before Tessera books it (its answer comes first, a 3-D Secure
 * return minutes later), so a posting just after midnight may have its entry just before.
 */
const MARGIN_MS = 60 * 60 * 1000;

/**
 * Where Tessera keeps the provider's id of what an entry moved, and the posting that booked it:
 * its kind, and the account on the provider's side of it, whose line is the amount compared
 * (`amount`: the row's own amount and currency instead, when the posting is in another currency
 * than the provider's entry: a payout's settlement is in the wallet's currency, the rail paid the
 * destination's). `scope` (SQL on `row`, `:provider` the source's name) keeps the other direction
 * to the rows this provider handled.
 */
interface BookingRule {
  table: string;
  /**
   * The column holding the provider's id; or `reference`: no column does, the posting's reference is
   * `<row id>:<provider's id>` (a treasury deposit's credit: the wallet and the rail's deposit id),
   * and the row is the booking's (Tessera's id the row's); the posting's own line is compared
   * (`amount` does not apply).
   */
  column: string | { reference: true };
  referenceType: string;
  posting: string;
  account: string;
  amount?: { column: string; currency: string };
  scope?: string;
}

/** The matching rules of each kind of source (`compares`), by entry type; a type without one is not compared. */
const RULES: Record<ReconciliationSource['compares'], Partial<Record<BalanceEntryType, BookingRule>>> = {
  // Stripe's balance transactions: the clearing account for captures and refunds, the dispute reserve for disputes.
  'card-acquirer': {
    charge: {
      table: 'payments',
      column: 'acquirer_reference',
      referenceType: 'payment',
      posting: 'card_capture',
      account: 'provider_clearing',
    },
    refund: {
      table: 'refunds',
      column: 'acquirer_reference',
      referenceType: 'refund',
      posting: 'card_refund',
      account: 'provider_clearing',
    },
    refund_failure: {
      table: 'refunds',
      column: 'acquirer_reference',
      referenceType: 'refund',
      posting: 'card_refund_failure',
      account: 'provider_clearing',
    },
    dispute: {
      table: 'disputes',
      column: 'acquirer_dispute_id',
      referenceType: 'dispute',
      posting: 'dispute_opened',
      account: 'dispute_reserve',
    },
    dispute_reversal: {
      table: 'disputes',
      column: 'acquirer_dispute_id',
      referenceType: 'dispute',
      posting: 'dispute_won',
      account: 'dispute_reserve',
    },
  },
  // A payout rail's completed payments and collections (Yellow Card's): the payout's settlement, in
  // the destination's amount and currency (live payouts: the live rail's); the collection's credit,
  // in its own amount and currency (the provider's collections).
  'payout-rail': {
    payout: {
      table: 'payouts',
      column: 'provider_ref',
      referenceType: 'payout',
      posting: 'payout_settle',
      account: 'provider_clearing',
      amount: { column: 'dst_amount', currency: 'destination_currency' },
      scope: 'row.livemode',
    },
    collection: {
      table: 'collections',
      column: 'provider_ref',
      referenceType: 'collection',
      posting: 'collection_settlement',
      account: 'provider_clearing',
      amount: { column: 'amount', currency: 'currency' },
      scope: 'row.provider = :provider',
    },
  },
  // A treasury rail's completed transfers (Bridge's): the live treasury payout's settlement, the
  // line into the clearing account, in the payout's (the wallet's) amount and currency.
  'treasury-rail': {
    treasury_payout: {
      table: 'treasury_payouts',
      column: 'provider_ref',
      referenceType: 'treasury_payout',
      posting: 'treasury_payout_settle',
      account: 'provider_clearing',
      scope: 'row.livemode',
    },
    // A deposit Bridge received for a wallet (on its virtual account, or a drain of its liquidation
    // address): its credit, the line out of the clearing account, in the wallet's amount and
    // currency; found by the posting's reference (`<wallet id>:<Bridge's deposit or drain id>`).
    treasury_deposit: {
      table: 'treasury_wallets',
      column: { reference: true },
      referenceType: 'treasury_provider_deposit',
      posting: 'treasury_deposit',
      account: 'provider_clearing',
      scope: 'row.livemode',
    },
  },
};

/** A Tessera booking of an acquirer's id: the row's id and, when it was posted, the acquirer-side line. */
interface Booking {
  acquirerId: string;
  tesseraId: string;
  amount: bigint | null;
  currency: string | null;
}

type NewDifference = Omit<ReconciliationDifference, 'id' | 'runId' | 'provider' | 'periodFrom' | 'periodTo'>;

/** Where the treasury area answers a source's question about the live wallets (ReconciliationLookup). */
interface LiveWalletRefs {
  liveProviderRefs(ctx: RequestContext, key: string): Promise<Array<Record<string, string>>>;
}

/**
 * Reconciliation of a provider's balance with the ledger (docs/live.md, Reconciliation), by its
 * source's rules (RULES): every entry the provider shows in the period (a card acquirer's charge,
 * refund or dispute; a payout rail's payout or collection) has its posting with the same amount
 * and currency, and every posting of the provider's in the period is among its entries. What
 * differs is recorded with the run and answered; nothing else is written: the ledger, payments,
 * refunds, disputes, payouts and collections are never changed by it.
 */
export class ReconciliationService {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly wallets: LiveWalletRefs,
  ) {}

  /**
   * Reconciles one provider's balance over the period: `command.provider`'s (VALIDATION_ERROR when
   * no source of that name is configured), else the first configured source that keeps a balance
   * (the card acquirer, src/providers/kinds.ts's order). A run of nothing to compare when none does.
   */
  async reconcile(ctx: RequestContext, command: ReconcileCommand): Promise<ReconciliationReport> {
    const sources = this.sourcesFor(command);
    for (const source of sources) {
      const listed = await this.entriesOf(ctx, source, command);
      if (listed) return this.compare(ctx, command, source, listed);
    }
    return this.nothingToCompare(ctx, command);
  }

  /**
   * The daily job's: every configured source that keeps a balance, one run each (one source's
   * failure does not stop the others'; it is thrown after they ran). One run of nothing to compare
   * when no source keeps a balance.
   */
  async reconcileEach(ctx: RequestContext, command: ReconcileCommand): Promise<ReconciliationReport[]> {
    const reports: ReconciliationReport[] = [];
    let failure: unknown = null;
    for (const source of this.sourcesFor(command)) {
      try {
        const listed = await this.entriesOf(ctx, source, command);
        if (listed) reports.push(await this.compare(ctx, command, source, listed));
      } catch (error) {
        failure ??= error;
      }
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- a source's own failure, thrown as it was
    if (failure) throw failure;
    return reports.length > 0 ? reports : [await this.nothingToCompare(ctx, command)];
  }

  /** The configured sources (of `command.provider` only, when named), the period checked first. */
  private sourcesFor(command: ReconcileCommand): ReconciliationSource[] {
    const { from, to, provider } = command;
    if (!(to.getTime() > from.getTime()))
      throw new DomainError(ErrorCode.VALIDATION_ERROR, 'The period must end after it starts', { to: ['after from'] });
    if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * 86_400_000)
      throw new DomainError(ErrorCode.VALIDATION_ERROR, `A reconciliation spans at most ${MAX_PERIOD_DAYS} days`, {
        to: [`at most ${MAX_PERIOD_DAYS} days after from`],
      });
    const sources = this.providers.reconciliationSources();
    if (provider === undefined) return sources;
    const named = sources.filter((source) => source.provider === provider);
    if (named.length === 0) {
      const known = sources.map((source) => source.provider).join(', ') || 'none';
      throw new DomainError(
        ErrorCode.VALIDATION_ERROR,
        `No reconciliation source is configured for provider '${provider}' (configured: ${known})`,
        { provider: [`one of: ${known}`] },
      );
    }
    return named;
  }

  /**
   * Outside any transaction: the provider's pages may take a while. An hour beyond each end
   * (MARGIN_MS). What the source asks Tessera is read with the caller's context.
   */
  private entriesOf(ctx: RequestContext, source: ReconciliationSource, { from, to }: ReconcileCommand) {
    const tessera: ReconciliationLookup = { liveWalletRefs: (key) => this.wallets.liveProviderRefs(ctx, key) };
    return source.balanceEntries(
      { from: new Date(from.getTime() - MARGIN_MS), to: new Date(to.getTime() + MARGIN_MS) },
      tessera,
    );
  }

  private nothingToCompare(ctx: RequestContext, command: ReconcileCommand): Promise<ReconciliationReport> {
    return inTransaction(ctx, async (tx) => {
      const run = await this.saveRun(tx, {
        periodFrom: command.from,
        periodTo: command.to,
        provider: null,
        acquirer: null,
        status: ReconciliationRunStatus.NOTHING_TO_COMPARE,
        transactions: 0,
        matched: 0,
        skipped: 0,
        differences: 0,
        fees: {},
      });
      return { run, differences: [] };
    });
  }

  /**
   * The runs, newest first (the operator's view: the CLI or an operator token): of one acquirer or
   * provider, and whose period overlaps [from, to) when those are given.
   */
  async runs(
    ctx: RequestContext,
    filters: ReconciliationRunFilters,
    page: KeysetQuery,
  ): Promise<ListPage<ReconciliationRun>> {
    ctx.requirePlatformOperator();
    const { provider, from, to } = filters;
    if (provider !== undefined && (provider.length === 0 || provider.length > MAX_PROVIDER_LENGTH))
      throw validationError({ provider: [`must be 1 to ${MAX_PROVIDER_LENGTH} characters`] });
    if (from && to && !(to.getTime() > from.getTime())) throw validationError({ to: ['must be after from'] });
    const query = ctx
      .repo(ReconciliationRun)
      .createQueryBuilder('run')
      .orderBy('run.created_at', 'DESC')
      .addOrderBy('run.id', 'DESC');
    if (provider !== undefined) query.andWhere('run.provider = :provider', { provider });
    if (from) query.andWhere('run.period_to > :from', { from });
    if (to) query.andWhere('run.period_from < :to', { to });
    return keysetPage(query, 'run', page, {
      provider: provider ?? null,
      from: from?.toISOString() ?? null,
      to: to?.toISOString() ?? null,
    });
  }

  /** One run; NOT_FOUND for an unknown id (its differences and fees: differencesOf, feesOf). */
  async run(ctx: RequestContext, id: string): Promise<ReconciliationRun> {
    ctx.requirePlatformOperator();
    const run = isUuid(id) ? await ctx.repo(ReconciliationRun).findOne({ where: { id } }) : null;
    if (!run) throw notFound('Reconciliation run');
    return run;
  }

  /** The provider's fees several runs listed (a page's DataLoader), by balance transaction. */
  async feesOf(ctx: RequestContext, runIds: readonly string[]): Promise<ReconciliationFee[]> {
    ctx.requirePlatformOperator();
    if (runIds.length === 0) return [];
    return ctx
      .repo(ReconciliationFee)
      .createQueryBuilder('fee')
      .where('fee.run_id = ANY(:runIds)', { runIds: [...runIds] })
      .orderBy('fee.acquirer_transaction_id')
      .addOrderBy('fee.id')
      .getMany();
  }

  /** The differences of several runs at once (a page's DataLoader), by kind then the acquirer's id. */
  async differencesOf(ctx: RequestContext, runIds: readonly string[]): Promise<ReconciliationDifference[]> {
    ctx.requirePlatformOperator();
    if (runIds.length === 0) return [];
    return ctx
      .repo(ReconciliationDifference)
      .createQueryBuilder('difference')
      .where('difference.run_id = ANY(:runIds)', { runIds: [...runIds] })
      .orderBy('difference.kind')
      .addOrderBy('difference.acquirer_id')
      .addOrderBy('difference.id')
      .getMany();
  }

  private async compare(
    ctx: RequestContext,
    { from, to }: ReconcileCommand,
    source: ReconciliationSource,
    listed: BalanceEntry[],
  ): Promise<ReconciliationReport> {
    const rules = RULES[source.compares];
    const inPeriod = (at: Date) => at >= from && at < to;
    const transactions = listed.filter((transaction) => inPeriod(transaction.createdAt));
    const compared = transactions.filter((transaction) => rules[transaction.type] !== undefined);
    const differences: NewDifference[] = [];
    const fees = new Map<string, bigint>();
    const feeRows: Omit<ReconciliationFee, 'id' | 'runId'>[] = [];
    let matched = 0;
    return inTransaction(ctx, async (tx) => {
      const bookings = await this.bookingsOf(tx, rules, compared);
      for (const transaction of compared) {
        const acquirerId = acquirerIdOf(transaction);
        const booking = acquirerId ? bookings.get(transaction.type)?.get(acquirerId) : undefined;
        const difference = differenceOf(transaction, booking);
        if (difference) differences.push({ ...difference, acquirerId, tesseraId: booking?.tesseraId ?? null });
        else matched += 1;
      }
      for (const transaction of transactions) {
        if (transaction.fee === 0n) continue;
        fees.set(transaction.feeCurrency, (fees.get(transaction.feeCurrency) ?? 0n) + transaction.fee);
        const acquirerId = acquirerIdOf(transaction);
        const booking = acquirerId ? bookings.get(transaction.type)?.get(acquirerId) : undefined;
        feeRows.push({
          acquirerTransactionId: transaction.id,
          transactionType: transaction.type === 'other' ? transaction.acquirerType : transaction.type,
          acquirerId: transaction.sourceId,
          tesseraId: booking?.tesseraId ?? null,
          fee: transaction.fee,
          currency: transaction.feeCurrency,
        });
      }
      differences.push(...(await this.missingAtAcquirer(tx, rules, source.provider, { from, to }, listed)));
      const run = await this.saveRun(tx, {
        periodFrom: from,
        periodTo: to,
        provider: source.provider,
        acquirer: source.compares === 'card-acquirer' ? source.provider : null,
        status: ReconciliationRunStatus.COMPARED,
        transactions: compared.length,
        matched,
        skipped: transactions.length - compared.length,
        differences: differences.length,
        fees: Object.fromEntries([...fees].map(([currency, total]) => [currency, total.toString()])),
      });
      const saved = await tx.repo(ReconciliationDifference).save(
        differences.map((difference) =>
          tx.repo(ReconciliationDifference).create({
            ...difference,
            runId: run.id,
            provider: source.provider,
            periodFrom: from,
            periodTo: to,
          }),
        ),
      );
      if (feeRows.length > 0)
        await tx.repo(ReconciliationFee).insert(feeRows.map((row) => ({ ...row, runId: run.id })));
      return { run, differences: saved };
    });
  }

  /** Tessera's bookings of the provider's ids the entries name, by type and id (one statement per type). */
  private async bookingsOf(
    tx: RequestContext,
    rules: Partial<Record<BalanceEntryType, BookingRule>>,
    transactions: BalanceEntry[],
  ): Promise<Map<BalanceEntryType, Map<string, Booking>>> {
    const found = new Map<BalanceEntryType, Map<string, Booking>>();
    for (const [type, booking] of ruleEntries(rules)) {
      const ids = idsOf(transactions, type);
      found.set(type, new Map());
      if (ids.length === 0) continue;
      const rows: BookedRow[] = await tx.em.query(
        typeof booking.column === 'string'
          ? `SELECT row.${booking.column} AS acquirer_id, row.id AS tessera_id, posted.amount, posted.currency
               FROM ${booking.table} row
               LEFT JOIN LATERAL (${postedLine(booking)}) posted ON true
              WHERE row.${booking.column} = ANY($1::text[])`
          : `SELECT acquirer_id, tessera_id, amount, currency FROM (${referencedPostings(booking)}) booked
              WHERE acquirer_id = ANY($1::text[])`,
        [ids, booking.referenceType, booking.posting, booking.account],
      );
      for (const row of rows)
        found.get(type)!.set(row.acquirer_id, {
          acquirerId: row.acquirer_id,
          tesseraId: row.tessera_id,
          amount: row.amount === null ? null : BigInt(row.amount),
          currency: row.currency,
        });
    }
    return found;
  }

  /**
   * The other direction: postings of the period for the provider's payments, refunds, disputes,
   * payouts or collections (those with the provider's id, in the rule's scope) whose id the
   * provider's entries around the period do not show.
   */
  private async missingAtAcquirer(
    tx: RequestContext,
    rules: Partial<Record<BalanceEntryType, BookingRule>>,
    provider: string,
    period: ReconcileCommand,
    listed: BalanceEntry[],
  ): Promise<NewDifference[]> {
    const missing: NewDifference[] = [];
    for (const [type, booking] of ruleEntries(rules)) {
      const scoped = booking.scope?.includes(':provider');
      const scope = booking.scope ? `AND ${booking.scope.replace(':provider', '$7')}` : '';
      const rows: BookedRow[] = await tx.em.query(
        typeof booking.column === 'string'
          ? `SELECT row.${booking.column} AS acquirer_id, row.id AS tessera_id, posted.amount, posted.currency
               FROM journal_transactions t
               JOIN ${booking.table} row ON row.id::text = t.reference_id
               CROSS JOIN LATERAL (${postedLine(booking)}) posted
              WHERE t.reference_type = $2 AND t.kind = $3 AND t.created_at >= $5 AND t.created_at < $6
                AND row.${booking.column} IS NOT NULL AND NOT (row.${booking.column} = ANY($1::text[]))
                ${scope}
              ORDER BY t.created_at`
          : `SELECT acquirer_id, tessera_id, amount, currency FROM (${referencedPostings(booking, scope)}) booked
              WHERE booked_at >= $5 AND booked_at < $6 AND NOT (acquirer_id = ANY($1::text[]))
              ORDER BY booked_at`,
        [
          idsOf(listed, type),
          booking.referenceType,
          booking.posting,
          booking.account,
          period.from,
          period.to,
          ...(scoped ? [provider] : []),
        ],
      );
      for (const row of rows)
        missing.push({
          kind: ReconciliationDifferenceKind.MISSING_AT_ACQUIRER,
          transactionType: type,
          acquirerTransactionId: null,
          acquirerId: row.acquirer_id,
          tesseraId: row.tessera_id,
          acquirerAmount: null,
          acquirerCurrency: null,
          ledgerAmount: row.amount === null ? null : BigInt(row.amount),
          ledgerCurrency: row.currency,
        });
    }
    return missing;
  }

  private async saveRun(
    tx: RequestContext,
    run: Omit<ReconciliationRun, 'id' | 'createdAt'>,
  ): Promise<ReconciliationRun> {
    return tx.repo(ReconciliationRun).save(tx.repo(ReconciliationRun).create(run));
  }
}

/** A booking as the statements above read it. */
interface BookedRow {
  acquirer_id: string;
  tessera_id: string;
  amount: string | null;
  currency: string | null;
}

/**
 * The provider-side line of a row's posting ($2 reference type, $3 posting kind, $4 account kind):
 * its amount (unsigned) and currency, or the row's own (`rule.amount`) once it is posted; no row
 * when it was never posted.
 */
const postedLine = (rule: BookingRule) => `
  SELECT ${rule.amount ? `row.${rule.amount.column}::text` : 'abs(sum(e.amount))::text'} AS amount,
         ${rule.amount ? `row.${rule.amount.currency}` : 'min(e.currency)'} AS currency
    FROM journal_transactions p
    JOIN journal_entries e ON e.transaction_id = p.id
    JOIN ledger_accounts a ON a.id = e.account_id
   WHERE p.reference_type = $2 AND p.reference_id = row.id::text AND p.kind = $3 AND a.kind::text = $4
  HAVING count(*) > 0`;

/**
 * The postings of a rule keyed by reference (`column: { reference: true }`; $2 reference type, $3
 * posting kind, $4 account kind): each one's provider id (its reference after the row's id and
 * `:`), its row, the provider-side line (unsigned) and when it was booked; `scope` (SQL on `row`)
 * keeps the rows the provider handled.
 */
const referencedPostings = (rule: BookingRule, scope = '') => `
  SELECT substr(p.reference_id, strpos(p.reference_id, ':') + 1) AS acquirer_id, row.id AS tessera_id,
         abs(sum(e.amount))::text AS amount, min(e.currency) AS currency, p.created_at AS booked_at
    FROM journal_transactions p
    JOIN ${rule.table} row ON row.id::text = split_part(p.reference_id, ':', 1)
    JOIN journal_entries e ON e.transaction_id = p.id
    JOIN ledger_accounts a ON a.id = e.account_id
   WHERE p.reference_type = $2 AND p.kind = $3 AND a.kind::text = $4 AND strpos(p.reference_id, ':') > 0
     ${scope}
   GROUP BY p.id, row.id`;

/** A source's rules as [type, rule] pairs. */
const ruleEntries = (rules: Partial<Record<BalanceEntryType, BookingRule>>) =>
  Object.entries(rules) as Array<[BalanceEntryType, BookingRule]>;

/** The provider's ids the entries of one type name. */
const idsOf = (entries: BalanceEntry[], type: BalanceEntryType) =>
  entries
    .filter((entry) => entry.type === type)
    .map(acquirerIdOf)
    .filter((id): id is string => id !== null);

/** The acquirer's id Tessera keeps for what a transaction moved: a charge's payment reference, else its source. */
const acquirerIdOf = (transaction: BalanceEntry) =>
  transaction.type === 'charge' ? transaction.paymentReference : transaction.sourceId;

/** How a balance transaction and Tessera's booking of it disagree, or null when they agree. */
function differenceOf(
  transaction: BalanceEntry,
  booking: Booking | undefined,
): Omit<NewDifference, 'acquirerId' | 'tesseraId'> | null {
  const base = {
    transactionType: transaction.type,
    acquirerTransactionId: transaction.id,
    acquirerAmount: transaction.amount,
    acquirerCurrency: transaction.currency,
    ledgerAmount: booking?.amount ?? null,
    ledgerCurrency: booking?.currency ?? null,
  };
  if (!booking || booking.amount === null) return { ...base, kind: ReconciliationDifferenceKind.MISSING_IN_LEDGER };
  if (booking.currency !== transaction.currency)
    return { ...base, kind: ReconciliationDifferenceKind.CURRENCY_MISMATCH };
  if (booking.amount !== transaction.amount) return { ...base, kind: ReconciliationDifferenceKind.AMOUNT_MISMATCH };
  return null;
}
