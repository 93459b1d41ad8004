import { TreasuryDestination, TreasuryRailOutcome } from '../../providers/treasury-rail/port';
import { ProviderRegistry } from '../../providers/registry';
import { EventService } from '../events/event.service';
import { TesseraPubSub, changedProperties } from '../events/pubsub';
import { TreasuryPayoutChange, TreasuryTopic } from './treasury.topics';
import { AccountKind, LedgerService, PostingLine } from '../ledger';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { SecretBox } from '../shared/crypto';
import { DomainError, ErrorCode, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { JobRequest } from '../shared/jobs';
import { positiveMinor } from '../shared/money';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { EntityRows } from '../shared/rows';
import { findOwned } from '../shared/tenancy';
import { CreateTreasuryPayoutCommand, TreasuryPayoutFilters } from './treasury.commands';
import { TreasuryDestinationType, TreasuryPayout, TreasuryPayoutStatus, TreasuryWallet } from './treasury.entities';
import { Mode } from '../shared/modes';
import { TREASURY_PAYOUT_EVENT_OF_STATUS, treasuryEventData, treasuryPayoutObject } from './treasury.events';
import { dispatchTreasuryPayoutJob, treasuryRailCallbackJob } from './treasury.job-names';
import { TREASURY_PAYOUT_ROWS, TreasuryPayoutAction } from './treasury-payout.states';
import { dispatchToRail, moveRow, redispatchStalled } from '../shared/row-transition';
import { maskTail } from '../payouts';
import { TreasuryWalletService } from './treasury-wallet.service';
import { requireTreasuryPartner } from '../identity';
import { madeEarlier } from '../idempotency';

const MASKED_FIELDS = new Set(['accountNumber', 'phone', 'address']);

/** The destination as shown: account numbers, phones and addresses masked to their last 4 characters; nulls left out. */
export function maskDestination(destination: TreasuryDestination): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [field, value] of Object.entries(destination)) {
    if (field === 'type' || value === null || value === undefined) continue;
    const text = String(value);
    shown[field] = MASKED_FIELDS.has(field) ? maskTail(text) : text;
  }
  return shown;
}

/** What a payout's dispatch submits: its test outcome (sandbox), read from its metadata. */
const testOutcomeOf = (metadata: Record<string, unknown> | null): string | null =>
  typeof metadata?.test_outcome === 'string' ? metadata.test_outcome : null;

type Posting = 'debit' | 'reverse' | 'settle';

/**
 * A live treasury payout still PROCESSING this long after the rail took it has its report late or
 * lost: the status poll (`poll_late_treasury_payouts`, every 5 minutes) asks the rail about it.
 */
export const LATE_TREASURY_PAYOUT_AFTER_SECONDS = 10 * 60;

/**
 * Treasury payouts out of end-user wallets (design section 10). Created PENDING with the wallet
 * debited into payout in flight, the row and treasury.payout.created in one transaction (too little
 * balance: INSUFFICIENT_FUNDS, nothing written). A durable job claims PENDING → PROCESSING and
 * hands it to the treasury rail outside any transaction; the rail's report moves it to COMPLETED or
 * FAILED (reversed). Each status change is one conditional UPDATE (`WHERE status = …`), so a cancel
 * racing the dispatch, or a report repeated, moves the payout exactly once.
 */
export class TreasuryPayoutService {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly ledger: LedgerService,
    private readonly events: EventService,
    private readonly wallets: TreasuryWalletService,
    private readonly secretBox: SecretBox,
    private readonly pubSub: TesseraPubSub,
  ) {}

  async create(ctx: RequestContext, command: CreateTreasuryPayoutCommand): Promise<TreasuryPayout> {
    ctx.requireRole(...WRITE_ROLES);
    await requireTreasuryPartner(ctx);
    const earlier = await madeEarlier(ctx, 'treasury_payout', TreasuryPayout);
    if (earlier) return earlier;
    const rail = this.providers.providerFor(ctx, 'treasury-rail');
    const wallet = await this.wallets.owned(ctx, { endUserId: command.endUserId, walletId: command.walletId });
    const amount = positiveMinor(command.amount, wallet.currency);
    const metadata =
      command.idempotencyKey === null
        ? command.metadata
        : { ...command.metadata, idempotencyKey: command.idempotencyKey };
    return inTransaction(ctx, async (tx) => {
      const repo = tx.repo(TreasuryPayout);
      const payout = await repo.save(
        repo.create({
          businessId: tx.requireBusiness(),
          livemode: tx.livemode,
          endUserId: wallet.endUserId,
          walletId: wallet.id,
          amount,
          currency: wallet.currency,
          destinationType: command.destination.type as TreasuryDestinationType,
          destinationDetails: maskDestination(command.destination),
          destinationSealed: this.secretBox.seal(JSON.stringify(command.destination)),
          status: TreasuryPayoutStatus.PENDING,
          metadata,
          failureReason: null,
          providerRef: null,
          processingAt: null,
          completedAt: null,
        }),
      );
      await tx.idempotency?.recordResource(tx, 'treasury_payout', payout.id);
      const jobs = rail.dispatchOf(testOutcomeOf(metadata)) === 'auto' ? [dispatchTreasuryPayoutJob(payout)] : [];
      await this.events.record(
        tx,
        TREASURY_PAYOUT_EVENT_OF_STATUS.PENDING,
        treasuryEventData(payout.livemode, treasuryPayoutObject(payout)),
        jobs,
      );
      // The debit comes last: its conditional update locks the wallet's balance row until commit, so
      // concurrent payouts of the wallet wait for one statement less. Too little: the whole transaction rolls back.
      await this.post(tx, payout, 'debit');
      this.announce(tx, payout, null, {});
      return payout;
    });
  }

  async get(ctx: RequestContext, payoutId: string): Promise<TreasuryPayout> {
    ctx.requireRole(...ALL_ROLES);
    await requireTreasuryPartner(ctx);
    return findOwned(ctx, TreasuryPayout, payoutId, 'Treasury payout');
  }

  async list(ctx: RequestContext, filters: TreasuryPayoutFilters, page: PageQuery): Promise<ListPage<TreasuryPayout>> {
    ctx.requireRole(...ALL_ROLES);
    await requireTreasuryPartner(ctx);
    const query = newestFirst(ctx, TreasuryPayout, 'payout');
    if (filters.status) query.andWhere('payout.status = :status', { status: filters.status });
    // Errors name the filter as both faces call it (partnerEndUserId, partnerWalletId).
    for (const [field, column, name] of [
      ['endUserId', 'end_user_id', 'partnerEndUserId'],
      ['walletId', 'wallet_id', 'partnerWalletId'],
    ] as const) {
      const value = filters[field];
      if (value === undefined) continue;
      if (!isUuid(value)) throw validationError({ [name]: ['must be an id'] });
      query.andWhere(`payout.${column} = :${field}`, { [field]: value });
    }
    return paginate(query, 'payout', page, {
      status: filters.status ?? null,
      endUserId: filters.endUserId ?? null,
      walletId: filters.walletId ?? null,
    });
  }

  /** PENDING → CANCELLED with the reversal; any other state (CANCELLED included) is 409. */
  async cancel(ctx: RequestContext, payoutId: string): Promise<TreasuryPayout> {
    ctx.requireRole(...WRITE_ROLES);
    await requireTreasuryPartner(ctx);
    const payout = await this.move(ctx, payoutId, 'cancel', {}, 'reverse');
    if (!payout)
      throw new DomainError(
        ErrorCode.CONFLICT,
        'Only a PENDING treasury payout can be cancelled; this one is CANCELLED',
      );
    return payout;
  }

  /**
   * The dispatch job: claims PENDING → PROCESSING (committed before the rail hears of it, so a
   * cancel can no longer win and a retry finds it claimed), submits outside any transaction under
   * the payout's id (a retry after a crash is the same payout at the rail), then records the rail's
   * reference and schedules its report. Null when there is nothing to do (cancelled first, done).
   */
  async dispatch(ctx: RequestContext, payoutId: string): Promise<TreasuryPayout | null> {
    const claim = { processing_at: new Date() };
    return dispatchToRail(
      ctx,
      TREASURY_PAYOUT_ROWS,
      payoutId,
      'dispatch',
      claim,
      (tx, row) => this.announce(tx, row, 'dispatch', claim),
      {
        submit: async (payout) => {
          const wallet = await ctx.repo(TreasuryWallet).findOneByOrFail({ id: payout.walletId });
          return this.providers.providerFor(ctx, 'treasury-rail').submit({
            payoutId,
            amountMinor: payout.amount,
            currency: payout.currency,
            destination: JSON.parse(this.secretBox.open(payout.destinationSealed)) as TreasuryDestination,
            testOutcome: testOutcomeOf(payout.metadata),
            walletRefs: wallet.depositAccount.providerRefs ?? null,
          });
        },
        callbackJobOf: treasuryRailCallbackJob,
      },
    );
  }

  /**
   * Sends again the treasury payouts whose dispatch stalled: claimed (PROCESSING) more than
   * STALLED_DISPATCH_AFTER_SECONDS ago, still without the rail's reference, their dispatch job
   * gone or out of attempts (`redispatchStalled`; the cron task
   * `redispatch_stalled_treasury_payouts`). Answers their ids.
   */
  async redispatchStalled(
    system: RequestContext,
    options: { olderThanSeconds?: number; limit?: number } = {},
  ): Promise<string[]> {
    return (
      await redispatchStalled(
        system,
        TREASURY_PAYOUT_ROWS,
        'dispatch',
        'processing_at',
        dispatchTreasuryPayoutJob,
        options,
      )
    ).map((row) => row.id);
  }

  /**
   * The status poll (the cron task `poll_late_treasury_payouts`): live treasury payouts the rail
   * took (its reference recorded) more than `olderThanSeconds` ago and still PROCESSING (Bridge's
   * transfer webhook late or lost) are asked about at the rail by its reference
   * (`TreasuryRail.outcomeOf`), outside any transaction (one the rail cannot answer about waits for
   * the next run); a final outcome is applied through the
   * webhook's path (`applyProviderOutcome`), so a webhook racing the poll moves the payout once.
   * Answers the ids moved.
   */
  async pollLateProcessing(
    system: RequestContext,
    options: { olderThanSeconds?: number; limit?: number } = {},
  ): Promise<string[]> {
    const rail = this.providers.inMode('treasury-rail', 'live');
    if (!rail?.outcomeOf) return [];
    const rows = await system.em.query<Array<{ id: string; provider_ref: string }>>(
      `SELECT id, provider_ref FROM treasury_payouts
        WHERE livemode AND status = 'PROCESSING' AND provider_ref IS NOT NULL
          AND processing_at < now() - make_interval(secs => $1)
        ORDER BY processing_at LIMIT $2`,
      [options.olderThanSeconds ?? LATE_TREASURY_PAYOUT_AFTER_SECONDS, options.limit ?? 100],
    );
    const moved: string[] = [];
    for (const row of rows) {
      // The rail not answering about one payout leaves it to the next run, not the others.
      const outcome = await rail
        .outcomeOf({ payoutId: row.id, providerRef: row.provider_ref })
        .catch((error: unknown) => {
          if (error instanceof DomainError && error.code === ErrorCode.SERVICE_UNAVAILABLE) return null;
          throw error;
        });
      if (!outcome) continue;
      const applied = await inTransaction(system, (tx) => this.applyProviderOutcome(tx, row.id, outcome));
      if ('payout' in applied) moved.push(row.id);
    }
    return moved;
  }

  /** The rail's report on a PROCESSING payout: applied once however often and however concurrently it arrives. */
  async applyRailOutcome(
    ctx: RequestContext,
    payoutId: string,
    outcome: TreasuryRailOutcome,
  ): Promise<TreasuryPayout | null> {
    return outcome.status === 'COMPLETED'
      ? this.move(ctx, payoutId, 'complete', { completed_at: new Date() }, 'settle')
      : this.move(ctx, payoutId, 'fail', { failure_reason: outcome.reason }, 'reverse');
  }

  /**
   * A live rail's report from its webhooks (Bridge's transfer events), for the payout whose id it
   * carries as Tessera's reference: applied in the caller's transaction through the same path as
   * the rail's report job, once. A payout that is not Tessera's live one is not applied, and one no
   * longer PROCESSING (a repeat, a later state after the final one) is left as it is: the answer says why.
   */
  async applyProviderOutcome(
    tx: RequestContext,
    payoutId: string,
    outcome: TreasuryRailOutcome,
  ): Promise<{ payout: TreasuryPayout } | { ignored: string }> {
    const found = isUuid(payoutId)
      ? await tx.repo(TreasuryPayout).findOne({ where: { id: payoutId, livemode: true } })
      : null;
    if (!found) return { ignored: `no live treasury payout ${payoutId}` };
    if (found.status !== TreasuryPayoutStatus.PROCESSING)
      return { ignored: `treasury payout ${payoutId} is ${found.status}, not PROCESSING` };
    const payout = await this.applyRailOutcome(tx.forBusiness(found.businessId, Mode.LIVE), payoutId, outcome).catch(
      (error: unknown) => {
        if ((error as { code?: string }).code === 'CONFLICT') return null;
        throw error;
      },
    );
    return payout ? { payout } : { ignored: `treasury payout ${payoutId} was moved meanwhile` };
  }

  /** Treasury payouts of the context's partner and mode by id (the GraphQL loader's batch). */
  async byIds(ctx: RequestContext, ids: readonly string[]): Promise<TreasuryPayout[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return EntityRows.of(ctx, TreasuryPayout).select(
      ctx,
      'payout',
      'WHERE payout.id = ANY($1::uuid[]) AND payout.business_id = $2 AND payout.livemode = $3',
      [valid, ctx.requireBusiness(), ctx.livemode],
    );
  }

  /**
   * The payout's postings. debit: wallet −amount, in flight +amount; reverse: the exact opposite;
   * settle: the amount leaves in flight for the rail's clearing.
   */
  private async post(tx: RequestContext, payout: TreasuryPayout, kind: Posting): Promise<void> {
    const { currency } = payout;
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
      const wallet = await this.ledger.account(tx, {
        kind: AccountKind.END_USER_WALLET,
        currency,
        businessId: payout.businessId,
        ownerRef: payout.endUserId,
      });
      lines = [
        { account: wallet, amount: -sign * payout.amount },
        { account: inFlight, amount: sign * payout.amount },
      ];
    }
    const description = {
      debit: 'Treasury payout: end-user wallet debited',
      reverse: 'Treasury payout reversed: end-user wallet re-credited',
      settle: 'Treasury payout completed by the rail',
    }[kind];
    await this.ledger.move(tx, {
      kind: `treasury_payout_${kind}`,
      referenceType: 'treasury_payout',
      referenceId: payout.id,
      description,
      lines,
    });
  }

  /** Moves the payout by `action` in one conditional UPDATE (`moveRow`): null when already done, CONFLICT when elsewhere. */
  private transition(
    tx: RequestContext,
    payoutId: string,
    action: TreasuryPayoutAction,
    changes: Record<string, unknown>,
  ): Promise<TreasuryPayout | null> {
    return moveRow(tx, TREASURY_PAYOUT_ROWS, payoutId, action, changes);
  }

  /** A status change with its posting and event, in one transaction; null when already done. */
  private async move(
    ctx: RequestContext,
    payoutId: string,
    action: TreasuryPayoutAction,
    changes: Record<string, unknown>,
    posting: Posting,
    jobs: JobRequest[] = [],
  ): Promise<TreasuryPayout | null> {
    return inTransaction(ctx, async (tx) => {
      const payout = await this.transition(tx, payoutId, action, changes);
      if (!payout) return null;
      await this.post(tx, payout, posting);
      const event = TREASURY_PAYOUT_EVENT_OF_STATUS[payout.status];
      if (event)
        await this.events.record(tx, event, treasuryEventData(payout.livemode, treasuryPayoutObject(payout)), jobs);
      this.announce(tx, payout, action, changes);
      return payout;
    });
  }

  /**
   * Publishes one change after commit: its creation (action null) or the move by `action`, which
   * leaves the one status the table allows it from, with the columns it set.
   */
  private announce(
    tx: RequestContext,
    payout: TreasuryPayout,
    action: TreasuryPayoutAction | null,
    changes: Record<string, unknown>,
  ): void {
    const change: TreasuryPayoutChange = {
      businessId: payout.businessId,
      livemode: payout.livemode,
      payoutId: payout.id,
      previousStatus: action === null ? null : TREASURY_PAYOUT_ROWS.allowing(action)[0],
      changed: changedProperties(changes),
    };
    tx.afterCommit(() => this.pubSub.publish(TreasuryTopic.TREASURY_PAYOUT, change));
  }
}
