import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, FieldErrors, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { findOwned } from '../shared/tenancy';
import { BatchItem, CreateBatchCommand, PayoutFilters } from './payout.commands';
import { Payout, PayoutBatch, PayoutStatus } from './payout.entities';
import { PayoutService, PreparedPayout } from './payout.service';
import { MAX_BATCH_ITEMS, MAX_LABEL_LENGTH } from './payouts.settings';

/** How many of a batch's payouts are in each state. */
export interface BatchCounts {
  created: number;
  submitted: number;
  settled: number;
  failed: number;
  cancelled: number;
  pendingReview: number;
}

/**
 * PROCESSING while any payout can still move; then COMPLETED (all settled), FAILED (none settled)
 * or PARTIALLY_COMPLETED.
 */
export enum BatchStatus {
  PROCESSING = 'PROCESSING',
  COMPLETED = 'COMPLETED',
  PARTIALLY_COMPLETED = 'PARTIALLY_COMPLETED',
  FAILED = 'FAILED',
}

export interface BatchView {
  batch: PayoutBatch;
  counts: BatchCounts;
  status: BatchStatus;
}

const COUNT_KEYS: Record<PayoutStatus, keyof BatchCounts> = {
  CREATED: 'created',
  SUBMITTED: 'submitted',
  SETTLED: 'settled',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
  PENDING_REVIEW: 'pendingReview',
};

export function batchStatusOf(counts: BatchCounts): BatchStatus {
  if (counts.created + counts.submitted + counts.pendingReview > 0) return BatchStatus.PROCESSING;
  const ended = counts.failed + counts.cancelled;
  if (ended === 0) return BatchStatus.COMPLETED;
  return counts.settled === 0 ? BatchStatus.FAILED : BatchStatus.PARTIALLY_COMPLETED;
}

/**
 * Payout batches: every item is checked first (any bad item refuses the whole batch with its
 * errors keyed `items.N.field`), then all the payouts are written in one transaction, so the
 * batch's total debit either fits the balance or nothing is created. Each item is an ordinary
 * payout with its own events; the batch's status and counts are read from its payouts.
 */
export class BatchService {
  constructor(private readonly payoutService: PayoutService) {}

  async create(ctx: RequestContext, command: CreateBatchCommand): Promise<BatchView> {
    ctx.requireRole(...WRITE_ROLES);
    const name = command.name?.trim() || null;
    if (name && name.length > MAX_LABEL_LENGTH)
      throw validationError({ name: [`must be at most ${MAX_LABEL_LENGTH} characters`] });
    if (command.items.length === 0 || command.items.length > MAX_BATCH_ITEMS)
      throw validationError({ items: [`must hold 1 to ${MAX_BATCH_ITEMS} payouts`] });
    const prepared = await this.prepareItems(ctx, command.items);
    return inTransaction(ctx, async (tx) => {
      const { batch } = await this.write(tx, name, prepared);
      return (await this.viewsOf(tx, [batch]))[0];
    });
  }

  /**
   * Checks and prices every item (one currency for all: the first item's), naming each bad field
   * `<prefix>.N.field` (a recipient not payable by this business and mode is a field error too);
   * VALIDATION_ERROR with all of them, or the prepared payouts.
   */
  async prepareItems(ctx: RequestContext, items: BatchItem[], prefix = 'items'): Promise<PreparedPayout[]> {
    const currency = items[0].currency.trim().toUpperCase();
    const errors: FieldErrors = {};
    const prepared: PreparedPayout[] = [];
    for (const [index, item] of items.entries()) {
      const field = (name: string) => `${prefix}.${index}.${name}`;
      if (item.currency.trim().toUpperCase() !== currency) {
        errors[field('currency')] = [`must be the batch's currency, ${currency} (the first item's)`];
        continue;
      }
      try {
        prepared.push(await this.payoutService.prepare(ctx, { ...item, quoteId: null, metadata: null }, field));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.code === ErrorCode.VALIDATION_ERROR || error.code === ErrorCode.UNSUPPORTED_CURRENCY)
          Object.assign(errors, error.fieldErrors);
        else if (error.code === ErrorCode.NOT_FOUND)
          errors[field('recipientId')] = ['is not a payable recipient of this business and mode'];
        else throw error;
      }
    }
    if (Object.keys(errors).length > 0)
      throw validationError(errors, 'Some batch items are invalid; no payout was created');
    return prepared;
  }

  /**
   * Writes a batch of prepared payouts in the caller's transaction (a schedule's run uses it too).
   * The wallet's conditional debit refuses the first payout that no longer fits: INSUFFICIENT_FUNDS
   * then rolls the caller's transaction (or savepoint) back, so the batch is all or nothing.
   */
  async write(
    tx: RequestContext,
    name: string | null,
    prepared: PreparedPayout[],
  ): Promise<{ batch: PayoutBatch; payouts: Payout[] }> {
    const batch = await tx.repo(PayoutBatch).save(
      tx.repo(PayoutBatch).create({
        businessId: tx.requireBusiness(),
        livemode: tx.livemode,
        name,
        itemCount: prepared.length,
        currency: prepared[0].terms.currency,
        totalAmount: prepared.reduce((sum, item) => sum + item.terms.amount, 0n),
      }),
    );
    const payouts: Payout[] = [];
    for (const item of prepared) payouts.push(await this.payoutService.write(tx, item, batch.id));
    return { batch, payouts };
  }

  async get(ctx: RequestContext, batchId: string): Promise<BatchView> {
    ctx.requireRole(...ALL_ROLES);
    return (await this.viewsOf(ctx, [await findOwned(ctx, PayoutBatch, batchId, 'Batch')]))[0];
  }

  async list(ctx: RequestContext, page: PageQuery): Promise<ListPage<BatchView>> {
    ctx.requireRole(...ALL_ROLES);
    const batches = await paginate(newestFirst(ctx, PayoutBatch, 'batch'), 'batch', page, {});
    const views = await this.viewsOf(ctx, batches.items);
    const byId = new Map(views.map((view) => [view.batch.id, view]));
    return { ...batches, items: views, cursorOf: (view) => batches.cursorOf(byId.get(view.batch.id)!.batch) };
  }

  /** The batch's payouts (404 for another business's batch). */
  async payouts(
    ctx: RequestContext,
    batchId: string,
    filters: Omit<PayoutFilters, 'batchId'>,
    page: PageQuery,
  ): Promise<ListPage<Payout>> {
    const batch = await findOwned(ctx, PayoutBatch, batchId, 'Batch');
    return this.payoutService.list(ctx, { ...filters, batchId: batch.id }, page);
  }

  /** Batches with their counts: one grouped query for all of them. */
  async viewsOf(ctx: RequestContext, batches: PayoutBatch[]): Promise<BatchView[]> {
    if (batches.length === 0) return [];
    const rows: Array<{ batch_id: string; status: PayoutStatus; count: number }> = await ctx.em.query(
      `SELECT batch_id, status, count(*)::int AS count FROM payouts WHERE batch_id = ANY($1::uuid[]) GROUP BY batch_id, status`,
      [batches.map((batch) => batch.id)],
    );
    return batches.map((batch) => {
      const counts: BatchCounts = { created: 0, submitted: 0, settled: 0, failed: 0, cancelled: 0, pendingReview: 0 };
      for (const row of rows) if (row.batch_id === batch.id) counts[COUNT_KEYS[row.status]] = row.count;
      return { batch, counts, status: batchStatusOf(counts) };
    });
  }

  /** Batches of the context's business and mode by id, with counts (the GraphQL loader's batch). */
  async byIds(ctx: RequestContext, ids: readonly string[]): Promise<BatchView[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    const batches = await ctx
      .repo(PayoutBatch)
      .createQueryBuilder('batch')
      .where('batch.id IN (:...ids) AND batch.business_id = :businessId AND batch.livemode = :livemode', {
        ids: valid,
        businessId: ctx.requireBusiness(),
        livemode: ctx.livemode,
      })
      .getMany();
    return this.viewsOf(ctx, batches);
  }
}
