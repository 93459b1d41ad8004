import { ProviderRegistry } from '../../providers/registry';
import { EventService } from '../events/event.service';
import { TesseraPubSub } from '../events/pubsub';
import { ClockService } from '../sandbox';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, FieldErrors, validationError } from '../shared/errors';
import { PayoutsErrorCode } from './payouts.errors';
import { isUuid } from '../shared/ids';
import { CURRENCY_EXPONENTS } from '../shared/money';
import { ListPage, PageQuery, keysetPagesPerParent, newestFirst, paginate } from '../shared/pagination';
import { EntityRows } from '../shared/rows';
import { findOwned, lockOwned } from '../shared/tenancy';
import { BatchService } from './batch.service';
import {
  CadenceRule,
  MAX_DAY_OF_MONTH,
  MIN_DAY_OF_MONTH,
  ScheduleCadence,
  firstOccurrence,
  occurrenceAtOrAfter,
} from './cadence';
import { BatchItem } from './payout.commands';
import { PayoutPinService } from './payout-pin.service';
import { PayoutService, PreparedPayout } from './payout.service';
import { MAX_BATCH_ITEMS, MAX_LABEL_LENGTH } from './payouts.settings';
import { RecipientService } from './recipient.service';
import { announceSchedule, enqueueWakeUp, ruleOf } from './schedule-runner';
import { CAP_AMOUNT, CAP_AMOUNT_MESSAGE, LocalCap, MAX_LOCAL_CAPS } from './schedule-caps';
import {
  CreateScheduleCommand,
  ScheduleFilters,
  SchedulePayload,
  ScheduleRunsQuery,
  UpdateScheduleCommand,
} from './schedule.commands';
import {
  FrozenPayout,
  PayoutSchedule,
  PayoutScheduleRun,
  SchedulePayloadKind,
  ScheduleStatus,
} from './schedule.entities';
import { ScheduleAction, scheduleAllows, scheduleTransition } from './schedule.states';
import { ScheduleEvent, scheduleEventData } from './schedules.events';

/** The filters a runs cursor carries: one schedule's runs (so a cursor cannot page another schedule's). */
const runListFilters = (scheduleId: string) => ({ scheduleId });
/** The properties an edit can set (the subscription's changedFields compare them before and after). */
const EDITABLE_FIELDS = [
  'name',
  'cadence',
  'dayOfMonth',
  'endAt',
  'nextRunAt',
  'maxRunAmountUsd',
  'maxRunLocalCaps',
  'payloadKind',
  'itemCount',
  'authorizedAt',
] as const satisfies ReadonlyArray<keyof PayoutSchedule>;
/** A value as JSON with its objects' keys sorted: a cap read back from jsonb equals the same cap as given. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );

/** A startAt this far in the past is still accepted (clock skew, a slow request); its first run fires at once. */
export const START_GRACE_MS = 5 * 60_000;

const itemsOf = (payload: SchedulePayload): BatchItem[] =>
  payload.kind === SchedulePayloadKind.SINGLE ? [payload.payout] : payload.items;

const frozen = (items: BatchItem[], prepared: PreparedPayout[]): FrozenPayout[] =>
  items.map((item, index) => ({
    recipientId: prepared[index].recipientId,
    amountMinor: prepared[index].terms.amount.toString(),
    currency: prepared[index].terms.currency,
    reference: item.reference,
  }));

/**
 * Scheduled payouts (design section 8; docs/schedules.md): a payload frozen and authorised (PIN,
 * screening) at creation, paid on a cadence within per-run caps: create, read, edit, pause, resume,
 * cancel, runs. Every rule of the resource is here, so each face's operation is one call; the runs
 * themselves are fired by ScheduleRunner. Time is the business's clock (ClockService): the wall
 * clock, plus the test clock's offset in test mode.
 */
export class ScheduleService {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly events: EventService,
    private readonly recipients: RecipientService,
    private readonly payouts: PayoutService,
    private readonly batches: BatchService,
    private readonly pins: PayoutPinService,
    private readonly clock: ClockService,
    private readonly pubSub: TesseraPubSub,
  ) {}

  async create(ctx: RequestContext, command: CreateScheduleCommand): Promise<PayoutSchedule> {
    ctx.requireRole(...WRITE_ROLES);
    const now = await this.clock.now(ctx);
    const errors: FieldErrors = {};
    const name = this.checkName(command.name, errors);
    const rule: CadenceRule = {
      cadence: command.cadence,
      dayOfMonth: this.checkDay(command.cadence, command.dayOfMonth, errors),
      anchorAt: command.startAt,
    };
    if (command.startAt.getTime() < now.getTime() - START_GRACE_MS) errors.startAt = ['must not be in the past'];
    const firstRun = errors.dayOfMonth ? null : firstOccurrence(rule);
    if (firstRun && command.endAt && command.endAt < firstRun)
      errors.endAt = [`must not be before the first run (${firstRun.toISOString()})`];
    const caps = this.checkCaps(command.maxRunAmountUsd, command.maxRunLocalCaps, errors);
    const items = itemsOf(command.payload);
    const prepared = await this.preparePayload(ctx, command.payload, errors);
    if (Object.keys(errors).length > 0) throw validationError(errors, 'The schedule is invalid; nothing was created');
    const pin = await this.pins.verify(ctx, command.pin);
    await this.screen(ctx, prepared);
    const schedule = await inTransaction(ctx, async (tx) => {
      await this.pins.confirm(tx, pin);
      const created = await tx.repo(PayoutSchedule).save(
        tx.repo(PayoutSchedule).create({
          businessId: tx.requireBusiness(),
          livemode: tx.livemode,
          name,
          cadence: rule.cadence,
          dayOfMonth: rule.dayOfMonth,
          payloadKind: command.payload.kind,
          status: ScheduleStatus.ACTIVE,
          payload: frozen(items, prepared),
          itemCount: items.length,
          startAt: command.startAt,
          nextRunAt: firstRun!,
          lastRunAt: null,
          endAt: command.endAt,
          runCount: 0,
          maxRunAmountUsd: caps.usd,
          maxRunLocalCaps: caps.local,
          authorizedAt: new Date(),
        }),
      );
      await this.wakeAt(tx, created);
      this.announce(tx, created, null, null);
      return created;
    });
    return schedule;
  }

  async get(ctx: RequestContext, scheduleId: string): Promise<PayoutSchedule> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, PayoutSchedule, scheduleId, 'Schedule');
  }

  /** One run of a schedule of the context's business and mode (NOT_FOUND otherwise). */
  async run(ctx: RequestContext, runId: string): Promise<PayoutScheduleRun> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, PayoutScheduleRun, runId, 'Schedule run');
  }

  async list(ctx: RequestContext, filters: ScheduleFilters, page: PageQuery): Promise<ListPage<PayoutSchedule>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, PayoutSchedule, 'schedule');
    if (filters.status) query.andWhere('schedule.status = :status', { status: filters.status });
    return paginate(query, 'schedule', page, { status: filters.status ?? null });
  }

  /**
   * The schedule's runs, the latest occurrence first (404 for another business's schedule). One
   * schedule's runs are fired one after another, so creation order is occurrence order and a
   * keyset cursor on (createdAt, id) pages this order too.
   */
  async runs(ctx: RequestContext, scheduleId: string, page: PageQuery): Promise<ListPage<PayoutScheduleRun>> {
    ctx.requireRole(...ALL_ROLES);
    const schedule = await findOwned(ctx, PayoutSchedule, scheduleId, 'Schedule');
    const query = ctx
      .repo(PayoutScheduleRun)
      .createQueryBuilder('run')
      .where('run.schedule_id = :scheduleId AND run.business_id = :businessId AND run.livemode = :livemode', {
        scheduleId: schedule.id,
        businessId: schedule.businessId,
        livemode: schedule.livemode,
      })
      .orderBy('run.due_at', 'DESC')
      .addOrderBy('run.id', 'DESC');
    return paginate(query, 'run', page, runListFilters(schedule.id));
  }

  /**
   * A page of runs for each of several schedules, in one statement (`keysetPagesPerParent`), in the
   * order of `runs` and with its cursors (an unknown or foreign schedule has no runs).
   */
  async runsOf(ctx: RequestContext, query: ScheduleRunsQuery): Promise<Array<ListPage<PayoutScheduleRun>>> {
    ctx.requireRole(...ALL_ROLES);
    return keysetPagesPerParent(ctx, PayoutScheduleRun, {
      alias: 'run',
      parentColumn: 'schedule_id',
      orderColumn: 'due_at',
      first: query.first,
      pages: query.pages.map(({ scheduleId, after }) => ({ parentId: scheduleId, after })),
      filtersOf: runListFilters,
    });
  }

  /** Schedules of the context's business and mode by id (the GraphQL loader's batch; the subscription's re-read). */
  async byIds(ctx: RequestContext, ids: readonly string[]): Promise<PayoutSchedule[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return EntityRows.of(ctx, PayoutSchedule).select(
      ctx,
      'schedule',
      'WHERE schedule.id = ANY($1::uuid[]) AND schedule.business_id = $2 AND schedule.livemode = $3',
      [valid, ctx.requireBusiness(), ctx.livemode],
    );
  }

  /**
   * Edits an ACTIVE or PAUSED schedule (409 otherwise). A new payload is authorised again: `pin`
   * (checked before anything else that counts) and screening, and `authorizedAt` is renewed. A new
   * cadence moves `nextRunAt` to the new series' next occurrence (never before `startAt`).
   */
  async update(ctx: RequestContext, command: UpdateScheduleCommand): Promise<PayoutSchedule> {
    ctx.requireRole(...WRITE_ROLES);
    const current = await findOwned(ctx, PayoutSchedule, command.scheduleId, 'Schedule');
    scheduleTransition(current.status, 'edit');
    const errors: FieldErrors = {};
    const name = command.name === undefined ? current.name : this.checkName(command.name, errors);
    const cadence = command.cadence ?? current.cadence;
    // Leaving MONTHLY clears the day unless one is given (and then it is refused).
    const day =
      command.dayOfMonth !== undefined
        ? command.dayOfMonth
        : cadence === ScheduleCadence.MONTHLY
          ? current.dayOfMonth
          : null;
    const rule: CadenceRule = { cadence, dayOfMonth: this.checkDay(cadence, day, errors), anchorAt: current.startAt };
    const endAt = command.endAt !== undefined ? command.endAt : current.endAt;
    const caps = this.checkCaps(
      command.maxRunAmountUsd ?? current.maxRunAmountUsd,
      command.maxRunLocalCaps !== undefined ? command.maxRunLocalCaps : current.maxRunLocalCaps,
      errors,
    );
    const cadenceChanged = cadence !== current.cadence || rule.dayOfMonth !== current.dayOfMonth;
    let nextRunAt = current.nextRunAt;
    if (cadenceChanged && !errors.dayOfMonth) {
      const next = occurrenceAtOrAfter(rule, await this.clock.now(ctx));
      if (!next)
        errors.cadence = ['leaves no run in the future (a ONCE schedule runs at its startAt, which has passed)'];
      else nextRunAt = next;
    }
    if (endAt && endAt < nextRunAt && !errors.cadence)
      errors.endAt = [`must not be before the next run (${nextRunAt.toISOString()})`];
    const payload = command.payload;
    if (payload && (command.pin === undefined || command.pin === null))
      errors.pin = ['is required to change the payload'];
    const prepared = payload ? await this.preparePayload(ctx, payload, errors) : null;
    if (Object.keys(errors).length > 0) throw validationError(errors, 'The schedule is invalid; nothing was changed');
    const pin = payload ? await this.pins.verify(ctx, command.pin!) : null;
    if (payload) await this.screen(ctx, prepared!);
    return inTransaction(ctx, async (tx) => {
      if (pin) await this.pins.confirm(tx, pin);
      const schedule = await lockOwned(tx, PayoutSchedule, command.scheduleId, 'Schedule');
      scheduleTransition(schedule.status, 'edit');
      if (schedule.updatedAt.getTime() !== current.updatedAt.getTime()) {
        throw new DomainError(
          ErrorCode.CONFLICT,
          'The schedule changed (it ran or was edited) while this edit was checked; read it and try again',
        );
      }
      Object.assign(schedule, {
        name,
        cadence,
        dayOfMonth: rule.dayOfMonth,
        endAt,
        nextRunAt,
        maxRunAmountUsd: caps.usd,
        maxRunLocalCaps: caps.local,
      });
      if (payload) {
        const items = itemsOf(payload);
        Object.assign(schedule, {
          payloadKind: payload.kind,
          payload: frozen(items, prepared!),
          itemCount: items.length,
          authorizedAt: new Date(),
        });
      }
      const saved = await tx.repo(PayoutSchedule).save(schedule);
      if (scheduleAllows(saved.status, 'run')) await this.wakeAt(tx, saved);
      this.announce(
        tx,
        saved,
        current.status,
        EDITABLE_FIELDS.filter((field) => canonical(saved[field]) !== canonical(current[field])),
      );
      return saved;
    });
  }

  /** ACTIVE → PAUSED: no run fires until it is resumed. */
  pause(ctx: RequestContext, scheduleId: string): Promise<PayoutSchedule> {
    return this.move(ctx, scheduleId, 'pause');
  }

  /**
   * PAUSED → ACTIVE with `nextRunAt` the series' next occurrence in the future: the runs missed
   * while paused are skipped, never fired in a burst. A schedule with nothing left to run (its ONCE
   * moment or its endAt passed while paused) becomes COMPLETED instead.
   */
  resume(ctx: RequestContext, scheduleId: string): Promise<PayoutSchedule> {
    return this.move(ctx, scheduleId, 'resume');
  }

  /** ACTIVE or PAUSED → CANCELLED, for good. */
  cancel(ctx: RequestContext, scheduleId: string): Promise<PayoutSchedule> {
    return this.move(ctx, scheduleId, 'cancel');
  }

  private async move(ctx: RequestContext, scheduleId: string, action: ScheduleAction): Promise<PayoutSchedule> {
    ctx.requireRole(...WRITE_ROLES);
    const now = await this.clock.now(ctx);
    return inTransaction(ctx, async (tx) => {
      const schedule = await lockOwned(tx, PayoutSchedule, scheduleId, 'Schedule');
      const { status: previousStatus, nextRunAt: previousRunAt } = schedule;
      schedule.status = scheduleTransition(schedule.status, action);
      let completed = false;
      if (action === 'resume') {
        const next = occurrenceAtOrAfter(ruleOf(schedule), new Date(now.getTime() + 1));
        if (next && !(schedule.endAt && next > schedule.endAt)) schedule.nextRunAt = next;
        else {
          schedule.status = scheduleTransition(schedule.status, 'complete');
          completed = true;
        }
      }
      const saved = await tx.repo(PayoutSchedule).save(schedule);
      if (completed) await this.events.record(tx, ScheduleEvent.COMPLETED, scheduleEventData(saved));
      if (scheduleAllows(saved.status, 'run')) await this.wakeAt(tx, saved);
      this.announce(
        tx,
        saved,
        previousStatus,
        saved.nextRunAt.getTime() !== previousRunAt.getTime() ? ['status', 'nextRunAt'] : ['status'],
      );
      return saved;
    });
  }

  private checkName(raw: string, errors: FieldErrors): string {
    const name = raw.trim();
    if (name.length === 0 || name.length > MAX_LABEL_LENGTH)
      errors.name = [`must be 1 to ${MAX_LABEL_LENGTH} characters`];
    return name;
  }

  private checkDay(cadence: ScheduleCadence, day: number | null, errors: FieldErrors): number | null {
    if (cadence === ScheduleCadence.MONTHLY) {
      if (day === null || !Number.isInteger(day) || day < MIN_DAY_OF_MONTH || day > MAX_DAY_OF_MONTH) {
        errors.dayOfMonth = [
          `is required for MONTHLY: a day of the month from ${MIN_DAY_OF_MONTH} to ${MAX_DAY_OF_MONTH}`,
        ];
      }
      return day;
    }
    if (day !== null) errors.dayOfMonth = [`must be null unless cadence is MONTHLY (it is ${cadence})`];
    return null;
  }

  /** The caps as stored: the decimal texts as given (exact), currencies in upper case. */
  private checkCaps(
    usd: string,
    local: LocalCap[] | null,
    errors: FieldErrors,
  ): { usd: string; local: LocalCap[] | null } {
    const positive = (text: string) => /[1-9]/.test(text);
    if (!CAP_AMOUNT.test(usd)) errors.maxRunAmountUsd = [CAP_AMOUNT_MESSAGE];
    else if (!positive(usd)) errors.maxRunAmountUsd = ['must be greater than zero'];
    if (local === null) return { usd, local: null };
    if (local.length > MAX_LOCAL_CAPS) errors.maxRunLocalCaps = [`must hold at most ${MAX_LOCAL_CAPS} caps`];
    const seen = new Set<string>();
    const caps = local.map((cap, index) => {
      const field = (name: string) => `maxRunLocalCaps.${index}.${name}`;
      const currency = cap.currency.trim().toUpperCase();
      if (currency.length < 3 || currency.length > 8) errors[field('currency')] = ['must be 3 to 8 characters'];
      else if (!(currency in CURRENCY_EXPONENTS))
        errors[field('currency')] = [`must be one of ${Object.keys(CURRENCY_EXPONENTS).join(', ')}`];
      else if (seen.has(currency)) errors[field('currency')] = ['has a cap already (one cap per currency)'];
      seen.add(currency);
      if (!CAP_AMOUNT.test(cap.amount)) errors[field('amount')] = [CAP_AMOUNT_MESSAGE];
      else if (!positive(cap.amount)) errors[field('amount')] = ['must be greater than zero'];
      return { currency, amount: cap.amount };
    });
    return { usd, local: caps };
  }

  /**
   * Checks and prices the payload as a payout made now would be (recipients payable by this
   * business and mode, a wallet in the currency, amounts that convert), errors keyed `payload.…`.
   */
  private async preparePayload(
    ctx: RequestContext,
    payload: SchedulePayload,
    errors: FieldErrors,
  ): Promise<PreparedPayout[]> {
    try {
      if (payload.kind === SchedulePayloadKind.BATCH) {
        if (payload.items.length === 0 || payload.items.length > MAX_BATCH_ITEMS) {
          errors['payload.items'] = [`must hold 1 to ${MAX_BATCH_ITEMS} payouts`];
          return [];
        }
        return await this.batches.prepareItems(ctx, payload.items, 'payload.items');
      }
      const field = (name: string) => `payload.${name}`;
      return [await this.payouts.prepare(ctx, { ...payload.payout, quoteId: null, metadata: null }, field)];
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.code === ErrorCode.NOT_FOUND)
        errors['payload.recipientId'] = ['is not a payable recipient of this business and mode'];
      else if (
        error.fieldErrors &&
        (error.code === ErrorCode.VALIDATION_ERROR || error.code === ErrorCode.UNSUPPORTED_CURRENCY)
      )
        Object.assign(errors, error.fieldErrors);
      else throw error;
      return [];
    }
  }

  /** Every recipient of the payload is screened, whoever asks (a schedule is a standing authorisation): a match is 403 SANCTIONS_MATCH. */
  private async screen(ctx: RequestContext, prepared: PreparedPayout[]): Promise<void> {
    const screening = this.providers.providerFor(ctx, 'screening');
    const ids = [...new Set(prepared.map((item) => item.recipientId))];
    for (const recipient of await this.recipients.byIds(ctx, ids)) {
      const details = this.recipients.detailsOf(recipient);
      const names = details.rail === 'CRYPTO' ? [recipient.label] : [recipient.label, details.accountName];
      const result = await screening.screen({
        names,
        country: 'country' in details ? details.country : null,
        businessId: ctx.businessId,
        request: 'payout_schedule',
      });
      if (result.match) {
        throw new DomainError(
          PayoutsErrorCode.SANCTIONS_MATCH,
          `Recipient ${recipient.id} matches a sanctions list; the schedule was not saved`,
        );
      }
    }
  }

  private wakeAt(tx: RequestContext, schedule: PayoutSchedule): Promise<void> {
    return enqueueWakeUp(tx, this.clock, schedule);
  }

  private announce(
    tx: RequestContext,
    schedule: PayoutSchedule,
    previousStatus: ScheduleStatus | null,
    changedFields: string[] | null,
  ): void {
    announceSchedule(tx, this.pubSub, schedule, previousStatus, changedFields);
  }
}
