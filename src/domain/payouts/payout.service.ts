import { PayoutRail, RailOutcome } from '../../providers/payout-rail/port';
import { ProviderRegistry } from '../../providers/registry';
import { EventService } from '../events/event.service';
import { TesseraPubSub } from '../events/pubsub';
import { PayoutChange, PayoutTopic } from './payouts.topics';
import { Mode, Role } from '../shared/modes';
import { AccountKind, LedgerService, PostingLine } from '../ledger';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { JobRequest, enqueueJob } from '../shared/jobs';
import { normalizeCurrency } from '../shared/money';
import { ListPage, PageQuery, keysetPagesPerParent, newestFirst, paginate } from '../shared/pagination';
import { EntityRows } from '../shared/rows';
import { DomainEventBus } from '../shared/domain-events';
import { findOwned } from '../shared/tenancy';
import { isUniqueViolationOf } from '../shared/unique-violation';
import {
  AdvancePayoutCommand,
  BatchPayoutsQuery,
  CreatePayoutCommand,
  PayoutFilters,
  RecipientDetails,
  RejectPayoutCommand,
} from './payout.commands';
import { Payout, PayoutRailKind, PayoutStatus, Recipient } from './payout.entities';
import { PAYOUT_ROWS, PayoutAction, payoutTransition, statusesAllowing } from './payout.states';
import { dispatchToRail, moveRow, redispatchStalled } from '../shared/row-transition';
import { PAYOUT_EVENT_OF_STATUS, PayoutEvent, payoutEventData } from './payouts.events';
import { dispatchJob, railCallbackJob } from './payouts.job-names';
import { LATE_PAYOUT_AFTER_SECONDS, MAX_REFERENCE_LENGTH, reviewThresholdOf } from './payouts.settings';
import { QuoteService, QuoteTerms } from './quote.service';
import { RecipientService, destinationMaskedOf } from './recipient.service';
import { madeEarlier } from '../idempotency';
import { PayoutPinService } from './payout-pin.service';

/** What a payouts page's cursor is bound to: a cursor of one filter set is refused with another. */
const payoutListFilters = (filters: PayoutFilters) => ({
  status: filters.status ?? null,
  recipientId: filters.recipientId ?? null,
  batchId: filters.batchId ?? null,
});

/** A payout checked and priced, ready to be written (single payouts and batch items alike). */
export interface PreparedPayout {
  recipientId: string;
  details: RecipientDetails;
  terms: QuoteTerms;
  quoteId: string | null;
  reference: string | null;
  metadata: Record<string, unknown> | null;
  held: boolean;
  dispatch: 'auto' | 'manual';
}

/**
 * Payouts: money out of a merchant wallet to a recipient (design section 8). Each status change is
 * one conditional UPDATE (`WHERE status IN (...)`), so a repeated or concurrent request or rail
 * report moves the payout once, and its ledger posting and event are written in that same
 * transaction. The rail is called outside any transaction, by a durable job.
 */
export class PayoutService {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly ledger: LedgerService,
    private readonly events: EventService,
    private readonly recipients: RecipientService,
    private readonly quotes: QuoteService,
    private readonly pubSub: TesseraPubSub,
    private readonly bus: DomainEventBus,
    private readonly pins: PayoutPinService,
  ) {}

  async create(ctx: RequestContext, command: CreatePayoutCommand): Promise<Payout> {
    ctx.requireRole(...WRITE_ROLES);
    const earlier = await madeEarlier(ctx, 'payout', Payout);
    if (earlier) return earlier;
    // A PIN, when given, is checked first (a wrong try counts in a transaction of its own, and
    // nothing else is done), then confirmed unchanged inside the transaction that debits.
    const pin = command.pin != null ? await this.pins.verify(ctx, command.pin) : null;
    const prepared = await this.prepare(ctx, command);
    return inTransaction(ctx, async (tx) => {
      if (pin) await this.pins.confirm(tx, pin);
      const payout = await this.write(tx, prepared, null);
      await tx.idempotency?.recordResource(tx, 'payout', payout.id);
      return payout;
    });
  }

  /**
   * Every check that needs no lock: the recipient is the caller's and payable, the mode has a rail,
   * the business holds a wallet in the currency, the quote (given or made now), the review decision.
   */
  async prepare(
    ctx: RequestContext,
    command: CreatePayoutCommand,
    field = (name: string) => name,
  ): Promise<PreparedPayout> {
    const currency = normalizeCurrency(command.currency, field('currency'));
    if (command.amount <= 0n) throw validationError({ [field('amount')]: ['must be greater than zero'] });
    if (command.reference !== null && command.reference.length > MAX_REFERENCE_LENGTH) {
      throw validationError({ [field('reference')]: [`must be at most ${MAX_REFERENCE_LENGTH} characters`] });
    }
    // A mode without a rail is refused before the recipient is looked up (as UNPROCESSABLE, not a field error).
    this.providers.providerFor(ctx, 'payout-rail');
    const { recipient, details } = await this.recipients.payable(ctx, command.recipientId);
    return this.prepareTo(ctx, recipient.id, details, { ...command, currency }, field);
  }

  /**
   * `prepare` for a destination's normalised details (the recipient need not be saved yet: a `/v1`
   * transfer saves its recipient in the transaction that writes the payout, and sets `recipientId`
   * then; '' until then).
   */
  async prepareTo(
    ctx: RequestContext,
    recipientId: string,
    details: RecipientDetails,
    command: Omit<CreatePayoutCommand, 'recipientId'>,
    field = (name: string) => name,
  ): Promise<PreparedPayout> {
    const currency = normalizeCurrency(command.currency, field('currency'));
    if (command.amount <= 0n) throw validationError({ [field('amount')]: ['must be greater than zero'] });
    const rail = this.providers.providerFor(ctx, 'payout-rail');
    await this.assertWalletHeld(ctx, currency, field('currency'));
    const country = 'country' in details ? details.country : null;
    const destination = {
      amount: command.amount,
      currency,
      destinationCurrency: details.currency,
      rail: details.rail as PayoutRailKind,
      country: country ?? '',
    };
    const quote = command.quoteId ? await this.quotes.forPayout(ctx, command.quoteId, destination) : null;
    const terms: QuoteTerms = quote ?? (await this.quotes.price(ctx, { ...destination, country }));
    return {
      recipientId,
      details,
      terms,
      quoteId: quote?.id ?? null,
      reference: command.reference,
      metadata: command.metadata,
      held: await this.heldForReview(ctx, rail, details, command.amount, currency),
      dispatch: rail.dispatchOf(details),
    };
  }

  /** Held when the rail's compliance check says so, or when the payout is worth at least the business's review threshold in USD. */
  private async heldForReview(
    ctx: RequestContext,
    rail: PayoutRail,
    details: RecipientDetails,
    amount: bigint,
    currency: string,
  ): Promise<boolean> {
    if (rail.holdFor(details) === 'review') return true;
    const threshold = await reviewThresholdOf(ctx);
    return threshold !== null && (await this.quotes.usdValue(ctx, amount, currency)) >= threshold;
  }

  private async assertWalletHeld(ctx: RequestContext, currency: string, field: string): Promise<void> {
    const [held]: Array<{ held: boolean }> = await ctx.em.query(
      `SELECT EXISTS (SELECT 1 FROM ledger_accounts WHERE kind = $1 AND business_id = $2 AND livemode = $3 AND currency = $4) AS held`,
      [AccountKind.MERCHANT_WALLET, ctx.requireBusiness(), ctx.livemode, currency],
    );
    if (!held.held) throw validationError({ [field]: [`this business has no ${currency} wallet`] });
  }

  /**
   * Writes a prepared payout in the caller's transaction: the payout row, the wallet debit of amount
   * + fee (refused with INSUFFICIENT_FUNDS when the balance does not cover it, which rolls the whole
   * transaction back), payout.initiated (and payout.review when held), and its dispatch job.
   */
  async write(tx: RequestContext, prepared: PreparedPayout, batchId: string | null): Promise<Payout> {
    const { terms } = prepared;
    const status = prepared.held ? payoutTransition(PayoutStatus.CREATED, 'hold') : PayoutStatus.CREATED;
    const payout = await tx
      .repo(Payout)
      .save(
        tx.repo(Payout).create({
          businessId: tx.requireBusiness(),
          livemode: tx.livemode,
          recipientId: prepared.recipientId,
          batchId,
          quoteId: prepared.quoteId,
          rail: terms.rail,
          status,
          amount: terms.amount,
          currency: terms.currency,
          serviceFee: terms.serviceFee,
          dstAmount: terms.dstAmount,
          destinationCurrency: terms.destinationCurrency,
          rate: terms.rate,
          country: terms.country,
          destinationMasked: destinationMaskedOf(prepared.details),
          reference: prepared.reference,
          metadata: prepared.metadata,
          providerRef: null,
          failureReason: null,
          submittedAt: null,
          settledAt: null,
          reviewedBy: null,
          reviewedAt: null,
        }),
      )
      .catch((error: unknown) => {
        if (isUniqueViolationOf(error, 'uq_payouts_quote'))
          throw validationError({ quoteId: ['was already used by another payout'] });
        throw error;
      });
    const dispatch: JobRequest[] = !prepared.held && prepared.dispatch === 'auto' ? [dispatchJob(payout)] : [];
    if (prepared.held) {
      await this.events.record(tx, PayoutEvent.INITIATED, payoutEventData({ ...payout, status: PayoutStatus.CREATED }));
      await this.events.record(tx, PayoutEvent.REVIEW, payoutEventData(payout));
    } else {
      await this.events.record(tx, PayoutEvent.INITIATED, payoutEventData(payout), dispatch);
    }
    // The debit comes last: its conditional update locks the wallet's row until commit, so every
    // statement written before it is one round trip less that concurrent payouts of the wallet wait for.
    await this.post(tx, payout, 'debit');
    this.announce(tx, payout, null, null);
    return payout;
  }

  /**
   * The payout's postings. debit: wallet −(amount + fee), in flight +amount, fees +fee. reverse:
   * the exact opposite (the fee is returned too). settle: the amount leaves for the rail's clearing.
   */
  private async post(tx: RequestContext, payout: Payout, kind: 'debit' | 'reverse' | 'settle'): Promise<void> {
    const { currency, businessId } = payout;
    const inFlight = await this.ledger.account(tx, { kind: AccountKind.PAYOUT_IN_FLIGHT, currency });
    let lines: PostingLine[];
    if (kind === 'settle') {
      const clearing = await this.ledger.account(tx, { kind: AccountKind.PROVIDER_CLEARING, currency });
      lines = [
        { account: inFlight, amount: -payout.amount },
        { account: clearing, amount: payout.amount },
      ];
    } else {
      const sign = kind === 'debit' ? 1n : -1n;
      const wallet = await this.ledger.account(tx, { kind: AccountKind.MERCHANT_WALLET, currency, businessId });
      lines = [
        { account: wallet, amount: -sign * (payout.amount + payout.serviceFee) },
        { account: inFlight, amount: sign * payout.amount },
      ];
      if (payout.serviceFee > 0n)
        lines.push({
          account: await this.ledger.account(tx, { kind: AccountKind.FEES_REVENUE, currency }),
          amount: sign * payout.serviceFee,
        });
    }
    const description = {
      debit: 'Payout: wallet debited',
      reverse: 'Payout reversed: wallet re-credited',
      settle: 'Payout settled by the rail',
    }[kind];
    await this.ledger.move(tx, {
      kind: `payout_${kind}`,
      referenceType: 'payout',
      referenceId: payout.id,
      description,
      lines,
    });
  }

  /** Moves the payout by `action` in one conditional UPDATE (`moveRow`): null when already done, CONFLICT when elsewhere. */
  private transition(
    tx: RequestContext,
    payoutId: string,
    action: PayoutAction,
    changes: Record<string, unknown> = {},
  ): Promise<Payout | null> {
    return moveRow(tx, PAYOUT_ROWS, payoutId, action, changes);
  }

  /** A status change with its posting and event, in one transaction; null when already done. */
  private async move(
    ctx: RequestContext,
    payoutId: string,
    action: PayoutAction,
    changes: Record<string, unknown>,
    posting: 'reverse' | 'settle' | null,
    jobs: JobRequest[] = [],
  ): Promise<Payout | null> {
    return inTransaction(ctx, async (tx) => {
      const payout = await this.transition(tx, payoutId, action, changes);
      if (!payout) return null;
      if (posting) await this.post(tx, payout, posting);
      const event = PAYOUT_EVENT_OF_STATUS[payout.status];
      if (payout.status !== PayoutStatus.CREATED) await this.events.record(tx, event, payoutEventData(payout), jobs);
      else for (const job of jobs) await enqueueJob(tx, job.task, job.payload, job.options);
      await this.bus.publish(tx, 'payout.moved', { payout });
      this.announceMove(tx, payout, action, changes);
      return payout;
    });
  }

  /** CREATED → CANCELLED with the reversal; any other state, CANCELLED included, is 409 (design section 8). */
  async cancel(ctx: RequestContext, payoutId: string): Promise<Payout> {
    ctx.requireRole(...WRITE_ROLES);
    const payout = await this.move(ctx, payoutId, 'cancel', {}, 'reverse');
    if (!payout)
      throw new DomainError(ErrorCode.CONFLICT, 'Only a CREATED payout can be cancelled; this one is CANCELLED');
    return payout;
  }

  /** A held payout goes on to dispatch. OWNER or ADMIN of the dashboard only (never an API credential). */
  async approve(ctx: RequestContext, payoutId: string): Promise<Payout> {
    ctx.requireDashboardRole(Role.OWNER, Role.ADMIN);
    const reviewer = ctx.actor.kind === 'dashboard' ? ctx.actor.userId : null;
    const held = await findOwned(ctx, Payout, payoutId, 'Payout');
    const rail = this.providers.providerFor(ctx, 'payout-rail');
    const jobs = rail.dispatchOf(await this.recipientDetails(ctx, held)) === 'auto' ? [dispatchJob(held)] : [];
    const payout = await this.move(
      ctx,
      payoutId,
      'approve',
      { reviewed_by: reviewer, reviewed_at: new Date() },
      null,
      jobs,
    );
    if (!payout) throw new DomainError(ErrorCode.CONFLICT, 'Only a payout held for review can be approved');
    return payout;
  }

  /** A held payout fails with the reviewer's reason, and its debit is reversed. OWNER or ADMIN only. */
  async reject(ctx: RequestContext, command: RejectPayoutCommand): Promise<Payout> {
    ctx.requireDashboardRole(Role.OWNER, Role.ADMIN);
    const reason = command.reason.trim();
    if (reason.length === 0 || reason.length > 500) throw validationError({ reason: ['must be 1 to 500 characters'] });
    const reviewer = ctx.actor.kind === 'dashboard' ? ctx.actor.userId : null;
    const payout = await this.move(
      ctx,
      command.payoutId,
      'reject',
      { failure_reason: reason, reviewed_by: reviewer, reviewed_at: new Date() },
      'reverse',
    );
    if (!payout) throw new DomainError(ErrorCode.CONFLICT, 'Only a payout held for review can be rejected');
    return payout;
  }

  /**
   * The dispatch job: claims CREATED → SUBMITTED (committed before the rail hears of it, so a cancel
   * can no longer win and a retry finds it claimed), submits outside any transaction under the
   * payout's id (the rail's idempotency reference: a retry after a crash is the same payout there),
   * then records the rail's reference, payout.submitted and the rail's report. The event waits for
   * the reference so that its object is the payout as it then reads (providerRef included), not a
   * passing state no later read shows.
   */
  async dispatch(ctx: RequestContext, payoutId: string): Promise<Payout | null> {
    return dispatchToRail(
      ctx,
      PAYOUT_ROWS,
      payoutId,
      'submit',
      { submitted_at: new Date() },
      (tx, row) => this.announceMove(tx, row, 'submit', { submitted_at: null }),
      {
        submit: async (payout) => {
          const rail = this.providers.providerFor(ctx, 'payout-rail');
          return rail.submit({
            payoutId,
            amountMinor: payout.dstAmount,
            currency: payout.destinationCurrency,
            destination: await this.recipientDetails(ctx, payout),
          });
        },
        callbackJobOf: railCallbackJob,
        accepted: async (tx, submitted) => {
          // A payout the advance helper already moved on keeps the reference but gets no late payout.submitted.
          if (submitted.status === PayoutStatus.SUBMITTED)
            await this.events.record(tx, PayoutEvent.SUBMITTED, payoutEventData(submitted));
          // The claim announced the status; this change only adds the rail's reference.
          this.announce(tx, submitted, submitted.status, ['providerRef']);
        },
      },
    );
  }

  /**
   * Sends again the payouts whose dispatch stalled: claimed (SUBMITTED) more than
   * STALLED_DISPATCH_AFTER_SECONDS ago, still without the rail's reference, their dispatch job gone
   * or out of attempts (`redispatchStalled`; the cron task `redispatch_stalled_payouts`). Answers
   * their ids.
   */
  async redispatchStalled(
    system: RequestContext,
    options: { olderThanSeconds?: number; limit?: number } = {},
  ): Promise<string[]> {
    return (await redispatchStalled(system, PAYOUT_ROWS, 'submit', 'submitted_at', dispatchJob, options)).map(
      (row) => row.id,
    );
  }

  /** The rail's report (its callback): applied once however often and however concurrently it arrives. */
  async applyRailOutcome(ctx: RequestContext, payoutId: string, outcome: RailOutcome): Promise<Payout | null> {
    return outcome.status === 'SETTLED'
      ? this.move(ctx, payoutId, 'settle', { settled_at: new Date() }, 'settle')
      : this.move(ctx, payoutId, 'fail', { failure_reason: outcome.reason }, 'reverse');
  }

  /**
   * A provider's report about a payout named by Tessera's id alone (its webhook, applied in the
   * provider-event inbox's transaction `tx`, a system context of no business): applied as the
   * rail's report, once. A payout that is not Tessera's, or already moved elsewhere (a report after
   * a cancel, an earlier report of the other outcome), changes nothing: the answer says why.
   */
  async applyProviderOutcome(
    tx: RequestContext,
    command: { payoutId: string; outcome: RailOutcome },
  ): Promise<{ ignored: string } | void> {
    if (!isUuid(command.payoutId)) return { ignored: 'the sequence id is not a Tessera payout id' };
    const payout = await tx.repo(Payout).findOne({ where: { id: command.payoutId } });
    if (!payout) return { ignored: `no payout ${command.payoutId}` };
    const ctx = tx.forBusiness(payout.businessId, payout.livemode ? Mode.LIVE : Mode.TEST);
    try {
      await this.applyRailOutcome(ctx, payout.id, command.outcome);
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.CONFLICT)
        return { ignored: `payout ${payout.id} moved elsewhere first: ${command.outcome.status} changes nothing` };
      throw error;
    }
  }

  /**
   * The status poll (the cron task `poll_late_payouts`): live payouts the rail accepted more than
   * `olderThanSeconds` ago and still SUBMITTED (their webhook late or lost) are asked about at the
   * rail by their id (`PayoutRail.outcomeOf`), outside any transaction; a final outcome is applied
   * as the rail's report. Answers the ids moved.
   */
  async pollLateSubmitted(
    system: RequestContext,
    options: { olderThanSeconds?: number; limit?: number } = {},
  ): Promise<string[]> {
    const rail = this.providers.inMode('payout-rail', 'live');
    if (!rail?.outcomeOf) return [];
    const rows = await system.em.query<Array<{ id: string; business_id: string }>>(
      `SELECT id, business_id FROM payouts
        WHERE livemode AND status = ANY($1::payout_status[]) AND provider_ref IS NOT NULL
          AND submitted_at < now() - make_interval(secs => $2)
        ORDER BY submitted_at LIMIT $3`,
      [statusesAllowing('settle'), options.olderThanSeconds ?? LATE_PAYOUT_AFTER_SECONDS, options.limit ?? 100],
    );
    const moved: string[] = [];
    for (const row of rows) {
      const outcome = await rail.outcomeOf(row.id);
      if (!outcome) continue;
      const ctx = system.forBusiness(row.business_id, Mode.LIVE);
      const payout = await this.applyRailOutcome(ctx, row.id, outcome).catch((error: unknown) => {
        if (error instanceof DomainError && error.code === ErrorCode.CONFLICT) return null;
        throw error;
      });
      if (payout) moved.push(row.id);
    }
    return moved;
  }

  /** Sandbox helper: one legal transition; repeating the payout's current status is a no-op. */
  async sandboxAdvance(ctx: RequestContext, command: AdvancePayoutCommand): Promise<Payout> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const payout = await findOwned(ctx, Payout, command.payoutId, 'Payout');
    if (payout.status === command.status) return payout;
    if (command.status === PayoutStatus.SUBMITTED) {
      payoutTransition(payout.status, 'submit');
      await this.dispatch(ctx, payout.id);
    } else {
      const outcome: RailOutcome =
        command.status === PayoutStatus.SETTLED
          ? { status: 'SETTLED' }
          : { status: 'FAILED', reason: command.reason ?? 'sandbox_failed' };
      await this.applyRailOutcome(ctx, payout.id, outcome);
    }
    return this.get(ctx, payout.id);
  }

  async get(ctx: RequestContext, payoutId: string): Promise<Payout> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, Payout, payoutId, 'Payout');
  }

  async list(ctx: RequestContext, filters: PayoutFilters, page: PageQuery): Promise<ListPage<Payout>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, Payout, 'payout');
    if (filters.status) query.andWhere('payout.status = :status', { status: filters.status });
    if (filters.recipientId !== undefined) {
      if (!isUuid(filters.recipientId)) throw validationError({ recipientId: ['must be a recipient id'] });
      query.andWhere('payout.recipient_id = :recipientId', { recipientId: filters.recipientId });
    }
    if (filters.batchId !== undefined) {
      if (!isUuid(filters.batchId)) throw validationError({ batchId: ['must be a batch id'] });
      query.andWhere('payout.batch_id = :batchId', { batchId: filters.batchId });
    }
    return paginate(query, 'payout', page, payoutListFilters(filters));
  }

  /** A page of payouts for each of several batches, in one statement (`keysetPagesPerParent`), with the cursors of `list`'s batch filter. */
  async ofBatches(ctx: RequestContext, query: BatchPayoutsQuery): Promise<Array<ListPage<Payout>>> {
    ctx.requireRole(...ALL_ROLES);
    return keysetPagesPerParent(ctx, Payout, {
      alias: 'payout',
      parentColumn: 'batch_id',
      orderColumn: 'created_at',
      first: query.first,
      pages: query.pages.map(({ batchId, after }) => ({ parentId: batchId, after })),
      filtersOf: (batchId) => payoutListFilters({ batchId }),
    });
  }

  /** Payouts of the context's business and mode by id (the GraphQL loader's batch). */
  async byIds(ctx: RequestContext, ids: readonly string[]): Promise<Payout[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return EntityRows.of(ctx, Payout).select(
      ctx,
      'payout',
      'WHERE payout.id = ANY($1::uuid[]) AND payout.business_id = $2 AND payout.livemode = $3',
      [valid, ctx.requireBusiness(), ctx.livemode],
    );
  }

  /** The full account details of the payout's recipient (archived or not: an accepted payout still goes out). */
  private async recipientDetails(ctx: RequestContext, payout: Payout): Promise<RecipientDetails> {
    return this.recipients.detailsOf(await findOwned(ctx, Recipient, payout.recipientId, 'Recipient'));
  }

  /** Tells subscribers, after commit, what one change did: the status before it, and the properties it set (null for both: created). */
  private announce(
    tx: RequestContext,
    payout: Payout,
    previousStatus: PayoutStatus | null,
    changedFields: string[] | null,
  ): void {
    const change: PayoutChange = {
      businessId: payout.businessId,
      livemode: payout.livemode,
      payoutId: payout.id,
      previousStatus,
      changedFields,
    };
    tx.afterCommit(() => this.pubSub.publish(PayoutTopic.PAYOUT, change));
  }

  /**
   * A move by `action` (its status, and the columns of `changes`). Only `fail` has two sources:
   * a payout the rail never took (no submittedAt) fails from CREATED.
   */
  private announceMove(
    tx: RequestContext,
    payout: Payout,
    action: PayoutAction,
    changes: Record<string, unknown>,
  ): void {
    const sources = statusesAllowing(action);
    const previous =
      sources.length === 1 ? sources[0] : payout.submittedAt ? PayoutStatus.SUBMITTED : PayoutStatus.CREATED;
    const properties = Object.keys(changes).map((column) =>
      column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
    );
    this.announce(tx, payout, previous, ['status', ...properties]);
  }
}
