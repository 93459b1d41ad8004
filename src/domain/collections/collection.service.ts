import crypto from 'node:crypto';
import { In } from 'typeorm';
import {
  CollectionChannel,
  CollectionNetwork,
  CollectionRail,
  CollectionRailReport,
  RailInstructions,
  networkIdsOf,
} from '../../providers/collection-rail/port';
import { ProviderRegistry } from '../../providers/registry';
import { CheckoutSession, checkoutSessionAllows, sessionByToken, systemContextFor } from '../checkout';
import type { CheckoutService } from '../checkout';
import { EventService } from '../events/event.service';
import { TesseraPubSub, changedProperties } from '../events/pubsub';
import { CollectionChange, CollectionTopic } from './collections.topics';
import { Business } from '../identity';
import { Mode } from '../shared/modes';
import { LedgerService } from '../ledger';
import { ClockAdvancing, ClockService, ClockSlice } from '../sandbox';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, FieldErrors, notFound, validationError } from '../shared/errors';
import { isUuid } from '../shared/ids';
import { enqueueJob } from '../shared/jobs';
import { ListPage, PageQuery, newestFirst, paginate } from '../shared/pagination';
import { EntityRows } from '../shared/rows';
import { findOwned } from '../shared/tenancy';
import { isUniqueViolationOf } from '../shared/unique-violation';
import {
  ChannelFilters,
  CollectionFilters,
  CreateCollectionCommand,
  PayCollectionCommand,
  StartSessionCollectionCommand,
} from './collection.commands';
import {
  Collection,
  CollectionCustomer,
  CollectionInstructions,
  CollectionRailKind,
  CollectionSource,
  CollectionStatus,
} from './collection.entities';
import {
  AMOUNT_MISMATCH,
  COLLECTION_ROWS,
  CollectionAction,
  assertPayable,
  collectionAllows,
  collectionTransition,
  statusesAllowing,
} from './collection.states';
import { moveRow, statusAfter } from '../shared/row-transition';
import { COLLECTION_EVENT_OF_STATUS, collectionEventData } from './collections.events';
import { expiryJob } from './collections.job-names';
import {
  DEFAULT_EXPIRES_IN_SECONDS,
  MAX_BUSINESS_PAYMENT_ID_LENGTH,
  MAX_EXPIRES_IN_SECONDS,
  MIN_EXPIRES_IN_SECONDS,
} from './collections.settings';
import { CollectionSettlementService, SettlementTerms } from './collection-settlement.service';
import { madeEarlier } from '../idempotency';

/** Tessera's page for a collection (`/collect/<token>`), as the domain decides it: the instructions, or where to go once paid. */
export type CollectionPage =
  | { kind: 'redirect'; url: string }
  | {
      kind: 'page';
      collection: Collection;
      merchantName: string;
      railInstructions: RailInstructions;
      expired: boolean;
    };

/** A local rail a checkout session offers on its hosted page, with the networks a payer picks from (mobile money). */
export interface SessionRail {
  rail: CollectionRailKind;
  /** Mobile money: the networks the payer picks from (shown by name). */
  networks: CollectionNetwork[];
}

export interface CollectionSettings {
  /** Where Tessera's pages are served (the `hosted_page` instructions point there). */
  publicBaseUrl: string;
}

/** A collection checked, its channel chosen and its instructions opened by the rail: ready to be written. */
interface PreparedCollection {
  id: string;
  channel: CollectionChannel;
  amount: bigint;
  customer: CollectionCustomer;
  metadata: Record<string, unknown> | null;
  businessPaymentId: string;
  source: CollectionSource;
  checkoutSessionId: string | null;
  expiresAt: Date;
}

const COUNTRY = /^[A-Za-z]{2}$/;
const BUSINESS_PAYMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
const HOSTED_TOKEN = /^col_(test|live)_[A-Za-z0-9_-]{32}$/;
const PHONE = /^\+?[0-9][0-9 ()-]{6,19}$/;
/** The rail port names rails by the values of the domain's enums ('bank', 'momo', 'eft'): the same rail is the same string. */
const sameRail = (a: string, b: string) => a === b;

/**
 * Collections over local rails (design section 9): deposit instructions opened with a
 * collection-rail provider, the rail's reports moving the collection through its five states, and
 * completion crediting the business's USDC wallet. Each status change is one conditional UPDATE
 * (`WHERE status = ANY(...)`), so a report repeated or arriving concurrently moves the collection
 * once, and its ledger posting and event are written in that same transaction. Rail and FX calls
 * happen outside any transaction.
 */
export class CollectionService {
  constructor(
    private readonly settings: CollectionSettings,
    private readonly providers: ProviderRegistry,
    private readonly ledger: LedgerService,
    private readonly events: EventService,
    private readonly settlements: CollectionSettlementService,
    private readonly checkout: CheckoutService,
    private readonly clock: ClockService,
    private readonly pubSub: TesseraPubSub,
  ) {}

  /** GET /business/collections/channels: the rail's channels (of one country when asked). Live mode without a rail is refused. */
  async channels(ctx: RequestContext, filters: ChannelFilters): Promise<CollectionChannel[]> {
    ctx.requireRole(...ALL_ROLES);
    const rail = this.providers.providerFor(ctx, 'collection-rail');
    if (filters.country !== undefined && !COUNTRY.test(filters.country))
      throw validationError({ country: ['must be a two-letter country code such as NG'] });
    return rail.channels(filters.country?.toUpperCase());
  }

  async create(ctx: RequestContext, command: CreateCollectionCommand): Promise<Collection> {
    ctx.requireRole(...WRITE_ROLES);
    const rail = this.providers.providerFor(ctx, 'collection-rail');
    const earlier = await madeEarlier(ctx, 'collection', Collection);
    if (earlier) return earlier;
    const channel = this.channelFor(rail, command);
    const expiresIn = command.expiresInSeconds ?? DEFAULT_EXPIRES_IN_SECONDS;
    const businessPaymentId = command.businessPaymentId ?? `bp_${crypto.randomBytes(12).toString('hex')}`;
    return this.openAndWrite(
      ctx,
      rail,
      {
        id: crypto.randomUUID(),
        channel,
        amount: command.amount,
        customer: command.customer,
        metadata: command.metadata,
        businessPaymentId,
        source: CollectionSource.API,
        checkoutSessionId: null,
        expiresAt: new Date((await this.clock.now(ctx)).getTime() + expiresIn * 1000),
      },
      true,
    );
  }

  /**
   * Every rule of a create that needs no database: the amount, the channel (named, or the only one
   * of the country, currency and rail), its limits, the customer a rail needs, the expiry and the
   * merchant's reference. All bad fields at once, nothing written.
   */
  private channelFor(rail: CollectionRail, command: CreateCollectionCommand): CollectionChannel {
    const errors: FieldErrors = {};
    const fail = (field: string, message: string) => {
      (errors[field] ??= []).push(message);
    };
    const all = rail.channels();
    const channelIds = new Set(all.map((channel) => channel.id));
    const networkIds = new Set(all.flatMap((channel) => networkIdsOf(channel) ?? []));
    const country = command.country.trim().toUpperCase();
    const currency = command.currency.trim().toUpperCase();
    const { customer } = command;

    if (command.amount <= 0n) fail('amount', 'must be a positive integer in minor units of the currency');
    if (!COUNTRY.test(country)) fail('country', 'must be a two-letter country code such as NG');
    const expiresIn = command.expiresInSeconds;
    if (
      expiresIn !== null &&
      (!Number.isSafeInteger(expiresIn) || expiresIn < MIN_EXPIRES_IN_SECONDS || expiresIn > MAX_EXPIRES_IN_SECONDS)
    ) {
      fail(
        'expiresInSeconds',
        `must be an integer from ${MIN_EXPIRES_IN_SECONDS} to ${MAX_EXPIRES_IN_SECONDS} (7 days)`,
      );
    }
    const reference = command.businessPaymentId;
    if (
      reference !== null &&
      (reference.length > MAX_BUSINESS_PAYMENT_ID_LENGTH || !BUSINESS_PAYMENT_ID.test(reference))
    ) {
      fail(
        'businessPaymentId',
        `must be 1 to ${MAX_BUSINESS_PAYMENT_ID_LENGTH} letters, digits and . _ : - (starting with a letter or digit)`,
      );
    }
    // A channel id and a network id are never interchangeable: each sent in the other's place is refused by name.
    if (customer.networkId !== null && channelIds.has(customer.networkId)) {
      fail(
        'customer.networkId',
        `"${customer.networkId}" is a channel id: send it as channelId; customer.networkId takes an operator network id such as mtn-gh`,
      );
    }
    if (command.channelId !== null && networkIds.has(command.channelId)) {
      fail(
        'channelId',
        `"${command.channelId}" is an operator network id: send it as customer.networkId; channelId takes a channel id from GET /business/collections/channels`,
      );
    } else if (command.channelId !== null && !channelIds.has(command.channelId)) {
      fail('channelId', 'is not a channel of this rail provider (see GET /business/collections/channels)');
    }
    if (customer.phone !== null && !PHONE.test(customer.phone))
      fail('customer.phone', 'must be a phone number in international format such as +233241234567');

    const candidates = all.filter(
      (channel) =>
        channel.country === country &&
        channel.currency === currency &&
        sameRail(channel.rail, command.rail) &&
        (command.channelId === null || channel.id === command.channelId),
    );
    const channel = candidates[0];
    if (!channel && !errors.channelId && !errors.country) {
      const inCountry = all.filter((item) => item.country === country);
      const listed = (items: CollectionChannel[]) =>
        items.map((item) => `${item.rail} in ${item.currency.toLowerCase()}`).join(', ');
      if (inCountry.length === 0) {
        fail(
          'country',
          `has no collection channel (channels collect in ${[...new Set(all.map((item) => item.country))].join(', ')})`,
        );
      } else if (!inCountry.some((item) => item.currency === currency)) {
        fail('currency', `cannot be collected in ${country} (offered there: ${listed(inCountry)})`);
      } else if (!inCountry.some((item) => item.currency === currency && sameRail(item.rail, command.rail))) {
        fail(
          'rail',
          `${command.rail} is not offered for ${currency.toLowerCase()} in ${country} (offered there: ${listed(inCountry)})`,
        );
      } else {
        fail(
          'channelId',
          `channel ${command.channelId} does not collect ${currency.toLowerCase()} by ${command.rail} in ${country}`,
        );
      }
    }
    if (channel) {
      if (command.amount > 0n && (command.amount < channel.minAmount || command.amount > channel.maxAmount)) {
        fail(
          'amount',
          `must be from ${channel.minAmount} to ${channel.maxAmount} (minor units of ${currency.toLowerCase()}) on channel ${channel.id}`,
        );
      }
      if (sameRail(channel.rail, CollectionRailKind.MOMO)) {
        if (customer.phone === null)
          fail('customer.phone', 'is required for mobile money: the phone the prompt is sent to');
        const ids = networkIdsOf(channel) ?? [];
        if (customer.networkId === null)
          fail('customer.networkId', `is required for mobile money: one of ${ids.join(', ')}`);
        else if (!channelIds.has(customer.networkId) && !ids.includes(customer.networkId)) {
          fail('customer.networkId', `must be one of ${ids.join(', ')} on channel ${channel.id}`);
        }
      } else if (customer.networkId !== null && !channelIds.has(customer.networkId)) {
        fail('customer.networkId', `applies to mobile money only; ${channel.rail} routes to no operator network`);
      }
    }
    if (Object.keys(errors).length > 0) throw validationError(errors);
    return channel;
  }

  /**
   * Opens the instructions with the rail (outside any transaction, under the collection's own id:
   * the rail's idempotency reference), then writes the collection, collection.created and its
   * expiry job in one transaction.
   */
  /** `answersRetries`: the request's retry answers from this collection (`create`; never a caller that makes more than it). */
  private async openAndWrite(
    ctx: RequestContext,
    rail: CollectionRail,
    prepared: PreparedCollection,
    answersRetries = false,
  ): Promise<Collection> {
    const { channel } = prepared;
    const business = await ctx
      .repo(Business)
      .findOne({ select: { id: true, name: true }, where: { id: ctx.requireBusiness() } });
    const opening = await rail.open({
      collectionId: prepared.id,
      channel,
      amountMinor: prepared.amount,
      currency: channel.currency,
      customer: prepared.customer,
      merchantName: business?.name ?? 'Merchant',
      expiresAt: prepared.expiresAt,
    });
    const hostedToken = `col_${ctx.livemode ? 'live' : 'test'}_${crypto.randomBytes(24).toString('base64url')}`;
    const instructions: CollectionInstructions =
      opening.instructions.kind === 'hosted_page'
        ? {
            kind: 'hosted_page',
            url: `${this.settings.publicBaseUrl}/collect/${hostedToken}`,
            provider: channel.provider,
          }
        : opening.instructions;
    return inTransaction(ctx, async (tx) => {
      const repo = tx.repo(Collection);
      // createdAt on the business's clock, like expiresAt (the test clock in the sandbox).
      const createdAt = await this.clock.now(tx);
      const collection = await repo
        .save(
          repo.create({
            id: prepared.id,
            businessId: tx.requireBusiness(),
            createdAt,
            livemode: tx.livemode,
            status: CollectionStatus.PENDING,
            amount: prepared.amount,
            currency: channel.currency,
            country: channel.country,
            rail: channel.rail as CollectionRailKind,
            provider: channel.provider,
            channelId: channel.id,
            networkId: prepared.customer.networkId,
            customer: prepared.customer,
            instructions,
            railInstructions: opening.instructions,
            metadata: prepared.metadata,
            businessPaymentId: prepared.businessPaymentId,
            source: prepared.source,
            checkoutSessionId: prepared.checkoutSessionId,
            hostedToken,
            providerRef: opening.providerRef,
            expiresAt: prepared.expiresAt,
            amountReceived: null,
            failureReason: null,
            settlementRate: null,
            settlementGross: null,
            settlementFee: null,
            settlementNet: null,
            processingAt: null,
            completedAt: null,
            failedAt: null,
            expiredAt: null,
          } as Partial<Collection>),
        )
        .catch((error: unknown) => {
          if (isUniqueViolationOf(error, 'uq_collections_business_payment_id')) {
            throw new DomainError(ErrorCode.CONFLICT, 'A collection with this businessPaymentId already exists', {
              businessPaymentId: ['is already used by another collection of this business'],
            });
          }
          throw error;
        });
      if (answersRetries) await tx.idempotency?.recordResource(tx, 'collection', collection.id);
      const offset = tx.livemode ? 0 : await this.clock.offsetOf(tx, collection.businessId);
      await this.events.record(tx, COLLECTION_EVENT_OF_STATUS[collection.status], collectionEventData(collection), [
        expiryJob(collection, offset),
      ]);
      this.announce(tx, collection, null, {});
      return collection;
    });
  }

  async get(ctx: RequestContext, collectionId: string): Promise<Collection> {
    ctx.requireRole(...ALL_ROLES);
    return findOwned(ctx, Collection, collectionId, 'Collection');
  }

  async list(ctx: RequestContext, filters: CollectionFilters, page: PageQuery): Promise<ListPage<Collection>> {
    ctx.requireRole(...ALL_ROLES);
    const query = newestFirst(ctx, Collection, 'collection');
    if (filters.status) query.andWhere('collection.status = :status', { status: filters.status });
    return paginate(query, 'collection', page, { status: filters.status ?? null });
  }

  /** Collections of the context's business and mode by id (the GraphQL loader's batch). */
  async byIds(ctx: RequestContext, ids: readonly string[]): Promise<Collection[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return EntityRows.of(ctx, Collection).select(
      ctx,
      'collection',
      'WHERE collection.id = ANY($1::uuid[]) AND collection.business_id = $2 AND collection.livemode = $3',
      [valid, ctx.requireBusiness(), ctx.livemode],
    );
  }

  /**
   * A report of the rail about a collection (its callback; the sandbox pay helper), applied once
   * however often and however concurrently it arrives. A report of an earlier stage arriving after
   * a later one (funds detected after settlement) changes nothing. A settlement of another amount
   * than the collection's fails it (`amount_mismatch`) and credits nothing. Null when nothing changed.
   */
  async applyRailReport(
    ctx: RequestContext,
    collectionId: string,
    report: CollectionRailReport,
  ): Promise<Collection | null> {
    // Each stage is stamped on the business's clock (the test clock in the sandbox), like createdAt and expiresAt.
    const at = await this.clock.now(ctx);
    if (report.kind === 'received') {
      const current = await findOwned(ctx, Collection, collectionId, 'Collection');
      if (!collectionAllows(current.status, 'receive')) return null;
      return this.move(ctx, collectionId, 'receive', {
        amount_received: report.amount.toString(),
        processing_at: at,
      }).catch((error: unknown) => {
        // A later report (settled, failed) committed between the read above and the UPDATE: funds detected late change nothing.
        if (error instanceof DomainError && error.code === ErrorCode.CONFLICT) return null;
        throw error;
      });
    }
    if (report.kind === 'failed') {
      return this.move(ctx, collectionId, 'fail', { failure_reason: report.reason, failed_at: at });
    }
    const current = await findOwned(ctx, Collection, collectionId, 'Collection');
    if (current.status === statusAfter(COLLECTION_ROWS, 'settle')) return null;
    if (report.amount !== current.amount) {
      // The rule is Tessera's, whatever the rail does with it: only the collection's exact amount is credited.
      return this.move(ctx, collectionId, 'fail', {
        amount_received: report.amount.toString(),
        failure_reason: AMOUNT_MISMATCH,
        failed_at: at,
      });
    }
    collectionTransition(current.status, 'settle');
    // Priced outside the transaction (the FX provider is an external call); the posting uses exactly these terms.
    const terms = await this.settlements.price(ctx, current);
    return this.move(
      ctx,
      collectionId,
      'settle',
      {
        amount_received: report.amount.toString(),
        completed_at: at,
        settlement_rate: terms.rate,
        settlement_gross: terms.gross.toString(),
        settlement_fee: terms.fee.toString(),
        settlement_net: terms.net.toString(),
      },
      terms,
    );
  }

  /**
   * A provider's report about a collection named by Tessera's id alone (its webhook, applied in
   * the provider-event inbox's transaction `tx`, a system context of no business): the rail's
   * reports in order, each applied once (a settlement of another amount fails the collection with
   * `amount_mismatch`), or `expired`: the provider let it lapse, so a collection still pending
   * expires. A collection that is not Tessera's, or moved elsewhere, changes nothing: the answer says why.
   */
  async applyProviderReports(
    tx: RequestContext,
    command: {
      collectionId: string;
      reports: Array<CollectionRailReport | { kind: 'expired' }>;
      /** A collection not found may yet be written (the rail answered its opening, Tessera has not committed it): throw, to be tried again. */
      retryIfMissing?: boolean;
    },
  ): Promise<{ ignored: string } | void> {
    if (!isUuid(command.collectionId)) return { ignored: 'the sequence id is not a Tessera collection id' };
    const found = await tx.repo(Collection).findOne({ where: { id: command.collectionId } });
    if (!found && command.retryIfMissing)
      throw new Error(`collection ${command.collectionId} not found yet: its report is tried again later`);
    if (!found) return { ignored: `no collection ${command.collectionId}` };
    const ctx = tx.forBusiness(found.businessId, found.livemode ? Mode.LIVE : Mode.TEST);
    let changed = false;
    for (const report of command.reports) {
      const moved =
        report.kind === 'expired'
          ? await this.expire(ctx, found.id)
          : await this.applyRailReport(ctx, found.id, report).catch((error: unknown) => {
              if (error instanceof DomainError && error.code === ErrorCode.CONFLICT) return null;
              throw error;
            });
      changed ||= moved !== null;
    }
    if (!changed)
      return { ignored: `collection ${found.id}: the report changes nothing (applied already, or moved elsewhere)` };
  }

  /** The live rail, when its channels come from its provider, reads them again (the cron task `refresh_provider_channels`). */
  async refreshProviderChannels(_system: RequestContext): Promise<boolean> {
    const rail = this.providers.inMode('collection-rail', 'live');
    if (!rail?.refreshChannels) return false;
    await rail.refreshChannels();
    return true;
  }

  /**
   * Sandbox helper: the payer sends `amount` (minor units of the collection's currency). The rail
   * detects the funds (processing), then settles (completed) when the amount matches or fails with
   * `amount_mismatch`. Paying a completed collection again repeats the reports, which change nothing.
   */
  async sandboxPay(ctx: RequestContext, command: PayCollectionCommand): Promise<Collection> {
    ctx.requireRole(...WRITE_ROLES);
    ctx.requireSandbox();
    const earlier = await madeEarlier(ctx, 'collection', Collection);
    if (earlier) return earlier; // a retry of a payment whose reports committed before the answer was stored
    const rail = this.providers.providerFor(ctx, 'collection-rail');
    const collection = await findOwned(ctx, Collection, command.collectionId, 'Collection');
    if (command.amount <= 0n)
      throw validationError({ amount: ['must be a positive integer in minor units of the collection currency'] });
    assertPayable(collection.status);
    if (collectionAllows(collection.status, 'expire') && collection.expiresAt <= (await this.clock.now(ctx))) {
      await this.expire(ctx, collection.id);
      throw new DomainError(ErrorCode.CONFLICT, 'Cannot pay a collection that is expired');
    }
    // The rail's reports of one payment apply as one transaction: a crash between two of them would
    // leave the collection `processing` with nothing left to finish it. The transaction names the
    // collection on the request's Idempotency-Key, so a retry after a crash answers from it. Here the
    // settlement is priced inside that transaction (the sandbox FX provider is in-process; a rail's
    // own reports, applyRailReport from its jobs, price outside one): an FX failure rolls the whole
    // payment back, leaving the collection pending, never half-applied.
    await inTransaction(ctx, async (tx) => {
      for (const report of rail.reportsForPayment(collection.amount, command.amount)) {
        await this.applyRailReport(tx, collection.id, report);
      }
      await tx.idempotency?.recordResource(tx, 'collection', collection.id);
    });
    return this.get(ctx, collection.id);
  }

  /** The expiry job: a pending collection whose expiresAt has passed on its business's clock expires; one not yet due is looked at again then. */
  async expireDue(ctx: RequestContext, collectionId: string): Promise<Collection | null> {
    const collection = await findOwned(ctx, Collection, collectionId, 'Collection');
    if (!collectionAllows(collection.status, 'expire')) return null;
    if (collection.expiresAt <= (await this.clock.now(ctx))) return this.expire(ctx, collectionId);
    // The job ran early for this clock (it never runs late for the test clock: advancing runs expireUntil).
    await inTransaction(ctx, async (tx) => {
      const offset = tx.livemode ? 0 : await this.clock.offsetOf(tx, collection.businessId);
      const job = expiryJob(collection, offset);
      await enqueueJob(tx, job.task, job.payload, job.options);
    });
    return null;
  }

  /** A test clock is advancing (`sandbox.clock-advancing`): whether a pending collection would expire by then. */
  async countExpiring(tx: RequestContext, advancing: ClockAdvancing): Promise<void> {
    const other = (await this.pendingDueBy(tx, advancing.until, 1)).length > 0;
    advancing.count({ runs: 0, payouts: 0, stopBefore: null, other });
  }

  /** A slice of a test clock's advance (`sandbox.clock-slice`): expires the pending collections it passed, within its budget. */
  async expireOnAdvance(ctx: RequestContext, slice: ClockSlice): Promise<void> {
    const owner = ctx.forBusiness(slice.window.businessId, Mode.TEST);
    await slice.fire((budget) => this.expireUntil(owner, slice.window.until, budget));
  }

  /**
   * A slice of the business's test clock's advance to `until`: up to `limit` pending collections of
   * its test mode due by then expire, in order; `done` when none is left.
   */
  private async expireUntil(ctx: RequestContext, until: Date, limit: number): Promise<{ used: number; done: boolean }> {
    const due = await this.pendingDueBy(ctx, until, limit);
    for (const { id } of due) await this.expire(ctx, id);
    return { used: due.length, done: due.length < limit };
  }

  private pendingDueBy(ctx: RequestContext, until: Date, limit: number): Promise<Array<{ id: string }>> {
    return ctx.em.query(
      `SELECT id FROM collections WHERE business_id = $1 AND livemode = false AND status = 'pending' AND expires_at <= $2 ORDER BY expires_at, id LIMIT $3`,
      [ctx.requireBusiness(), until, limit],
    );
  }

  private async expire(ctx: RequestContext, collectionId: string): Promise<Collection | null> {
    const at = await this.clock.now(ctx);
    return this.move(ctx, collectionId, 'expire', { expired_at: at }).catch((error: unknown) => {
      // Paid (or failed) meanwhile: nothing to expire.
      if (error instanceof DomainError && error.code === ErrorCode.CONFLICT) return null;
      throw error;
    });
  }

  /**
   * The hosted checkout page: the payer chose a local rail the session offers. Opens a collection
   * of the session's amount (source `session`), or answers the one already open for that rail.
   */
  async startFromSession(
    ctx: RequestContext,
    command: StartSessionCollectionCommand,
  ): Promise<{ session: CheckoutSession; collection: Collection }> {
    const session = await sessionByToken(ctx, command.token);
    const system = systemContextFor(ctx, session);
    const rail = this.providers.providerFor(system, 'collection-rail');
    const now = await this.clock.now(system);
    // The collection would pay the session: only one the table still lets complete, before its expiry.
    if (!checkoutSessionAllows(session.status, 'complete') || session.expiresAt <= now) {
      throw new DomainError(ErrorCode.CONFLICT, 'This checkout is no longer open');
    }
    if (!(session.paymentMethods as string[]).includes(command.rail))
      throw validationError({
        rail: [`is not offered by this checkout (it offers ${session.paymentMethods.join(', ')})`],
      });
    const open = await this.openOfSession(system, session.id, command.rail);
    if (open) return { session, collection: open };
    const country =
      rail.channels().find((channel) => channel.currency === session.currency && sameRail(channel.rail, command.rail))
        ?.country ?? '';
    const customer: CollectionCustomer = {
      email: session.customerEmail,
      name: null,
      phone: command.phone,
      networkId: command.networkId,
    };
    const channel = this.channelFor(rail, {
      amount: session.amount,
      currency: session.currency,
      country,
      rail: command.rail,
      channelId: null,
      customer,
      metadata: session.metadata,
      expiresInSeconds: null,
      businessPaymentId: null,
    });
    // expiresAt is on the business's clock (the test clock in the sandbox), as the session's own: it ends with the session at the latest.
    const lifetime = Math.min(DEFAULT_EXPIRES_IN_SECONDS * 1000, session.expiresAt.getTime() - now.getTime());
    const expiresAt = new Date(now.getTime() + lifetime);
    try {
      const collection = await this.openAndWrite(system, rail, {
        id: crypto.randomUUID(),
        channel,
        amount: session.amount,
        customer,
        metadata: session.metadata,
        businessPaymentId: `bp_${crypto.randomBytes(12).toString('hex')}`,
        source: CollectionSource.SESSION,
        checkoutSessionId: session.id,
        expiresAt,
      });
      return { session, collection };
    } catch (error) {
      // Another submit of the page opened it first: that one is the session's collection on this rail.
      if (!isUniqueViolationOf(error, 'uq_collections_session_open')) throw error;
      return { session, collection: (await this.openOfSession(system, session.id, command.rail))! };
    }
  }

  /** The session's collection on a rail that can still be paid or is being paid, if any. */
  async openOfSession(ctx: RequestContext, sessionId: string, rail?: CollectionRailKind): Promise<Collection | null> {
    return ctx.repo(Collection).findOne({
      where: {
        checkoutSessionId: sessionId,
        ...(rail ? { rail } : {}),
        status: In([CollectionStatus.PENDING, CollectionStatus.PROCESSING]),
      },
      order: { createdAt: 'DESC' },
    });
  }

  /** The collection behind Tessera's instructions page (`hosted_page` instructions): the token is the capability. */
  async byHostedToken(ctx: RequestContext, token: string): Promise<Collection> {
    const collection = HOSTED_TOKEN.test(token)
      ? await ctx.repo(Collection).findOne({ where: { hostedToken: token } })
      : null;
    if (!collection) throw notFound('Collection');
    return collection;
  }

  /** Tessera's page of a collection: its instructions while payable; once a session's collection completed, the session's success URL. */
  async hostedPage(ctx: RequestContext, token: string): Promise<CollectionPage> {
    const collection = await this.byHostedToken(ctx, token);
    if (collection.status === CollectionStatus.COMPLETED && collection.checkoutSessionId) {
      const session = await ctx.repo(CheckoutSession).findOneByOrFail({ id: collection.checkoutSessionId });
      return { kind: 'redirect', url: this.checkout.redirectUrlOf(session) };
    }
    const business = await ctx
      .repo(Business)
      .findOne({ select: { id: true, name: true }, where: { id: collection.businessId } });
    const expired =
      collection.status === CollectionStatus.EXPIRED ||
      (collection.status === CollectionStatus.PENDING &&
        collection.expiresAt <=
          (await this.clock.now(
            ctx.asSystem('hosted-collection', collection.businessId, collection.livemode ? Mode.LIVE : Mode.TEST),
          )));
    return {
      kind: 'page',
      collection,
      merchantName: business?.name ?? 'Merchant',
      railInstructions: collection.railInstructions,
      expired,
    };
  }

  /** The local rails a session's hosted page offers (those with a channel in its currency), with their networks. */
  sessionRails(session: CheckoutSession): SessionRail[] {
    const rail = this.providers.inMode('collection-rail', session.livemode ? 'live' : 'test');
    if (!rail) return [];
    const channels = rail.channels();
    return session.paymentMethods.flatMap((method) => {
      const channel = channels.find((item) => sameRail(item.rail, method) && item.currency === session.currency);
      return channel ? [{ rail: channel.rail as CollectionRailKind, networks: channel.networks ?? [] }] : [];
    });
  }

  /**
   * Checks the local rails a checkout session offers: each needs a channel in the session's
   * currency (and the mode a collection rail). Called by CheckoutService before it opens a session.
   */
  assertSessionRails(ctx: RequestContext, currency: string, rails: readonly string[]): void {
    if (rails.length === 0) return;
    const channels = this.providers.providerFor(ctx, 'collection-rail').channels();
    const missing = rails.filter(
      (rail) => !channels.some((channel) => channel.rail === rail && channel.currency === currency),
    );
    if (missing.length > 0) {
      throw validationError({
        paymentMethods: [
          `${missing.join(', ')} cannot collect ${currency.toLowerCase()} (see GET /business/collections/channels)`,
        ],
      });
    }
  }

  private async move(
    ctx: RequestContext,
    collectionId: string,
    action: CollectionAction,
    changes: Record<string, unknown>,
    settlement: SettlementTerms | null = null,
  ): Promise<Collection | null> {
    return inTransaction(ctx, async (tx) => {
      const collection = await this.transition(tx, collectionId, action, changes);
      if (!collection) return null;
      if (settlement) {
        await this.settlements.post(tx, collection, settlement);
        if (collection.checkoutSessionId)
          await this.checkout.completeWithCollection(tx, collection.checkoutSessionId, collection.id);
      }
      await this.events.record(tx, COLLECTION_EVENT_OF_STATUS[collection.status], collectionEventData(collection));
      this.announce(tx, collection, action, changes);
      return collection;
    });
  }

  /** Moves the collection by `action` in one conditional UPDATE (`moveRow`): null when already done (a repeated report), CONFLICT when elsewhere. */
  private transition(
    tx: RequestContext,
    collectionId: string,
    action: CollectionAction,
    changes: Record<string, unknown>,
  ): Promise<Collection | null> {
    return moveRow(tx, COLLECTION_ROWS, collectionId, action, changes);
  }

  /**
   * Publishes one change after commit: the creation (action null) or the move by `action`, with the
   * columns it set. settle and fail also leave pending (a rail may skip the funds report): the row
   * says which, as only receive stamps processing_at.
   */
  private announce(
    tx: RequestContext,
    collection: Collection,
    action: CollectionAction | null,
    changes: Record<string, unknown>,
  ): void {
    const from = action === null ? [] : statusesAllowing(action);
    const previousStatus =
      from.length <= 1
        ? (from[0] ?? null)
        : collection.processingAt
          ? CollectionStatus.PROCESSING
          : CollectionStatus.PENDING;
    const change: CollectionChange = {
      businessId: collection.businessId,
      livemode: collection.livemode,
      collectionId: collection.id,
      previousStatus,
      changed: changedProperties(changes),
    };
    tx.afterCommit(() => this.pubSub.publish(CollectionTopic.COLLECTION, change));
  }
}
