import { DomainEvent } from '../events/event.entity';
import { EventInsert } from '../events/event-recording';
import { ApiCredential } from '../identity/identity.entities';
import { BusinessSettings } from '../shared/business-settings.entity';
import { requireTreasuryPartner } from '../treasury/treasury.settings';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { DomainError, ErrorCode, notFound } from '../shared/errors';
import { ListPage, PageQuery, paginate } from '../shared/pagination';
import { findOwned } from '../shared/tenancy';
import {
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookDeliveryTarget,
  WebhookPayload,
} from './webhook-delivery.entity';
import { ALL_EVENTS, WebhookEndpoint, WebhookEndpointStatus, WebhookRegistry } from './webhook-endpoint.entity';
import { deliveryQuery, findEndpoint } from './webhook-endpoint-registry';
import { SigningSecrets, TreasuryWebhookEndpointService } from './treasury-webhook-endpoint.service';
import { AttemptOutcome, WebhookSender, WebhookSettings } from './webhook-sender';
import { TesseraPubSub, Topic } from '../events/pubsub';
import { jobsCtes } from '../shared/jobs';
import { EntityRows } from '../shared/rows';
import { DeliveryFilters, ReplayEvent } from './webhooks.commands';
import { announceDelivery, publishDeliveryChange } from './webhooks.events';

export { NO_ANSWER, readTruncated, signedHeaders } from './webhook-sender';
export type { WebhookSettings } from './webhook-sender';

/** The error recorded on an attempt that Tessera itself could not make; the cause is in the server's log. */
export const ATTEMPT_INTERNAL_ERROR =
  'Not delivered: an internal error stopped this attempt; it is retried on the schedule';

/** Where a delivery goes: the webhookUrl (no endpoint) or a registered endpoint, and its treasury partner if any. */
interface DeliveryTarget {
  target: WebhookDeliveryTarget;
  url: string;
  endpointId: string | null;
  partnerId: string | null;
}

const targetOf = (endpoint: WebhookEndpoint): DeliveryTarget => ({
  target: WebhookDeliveryTarget.ENDPOINT,
  url: endpoint.url,
  endpointId: endpoint.id,
  partnerId: endpoint.registry === WebhookRegistry.TREASURY ? endpoint.businessId : null,
});

/** The active `/v1` key of a business and mode, unsealed; null when none is active. */
export type V1SigningKey = (ctx: RequestContext, businessId: string, livemode: boolean) => Promise<string | null>;

/** A delivery to attempt, and the sealed API secret of its business and mode (null when none was issued). */
export interface DueDelivery {
  delivery: WebhookDelivery;
  sealedApiSecret: string | null;
}

/** The PostgreSQL channel on which delivery pumps are told that deliveries are due (DeliveryPump listens). */
export const WEBHOOKS_DUE_CHANNEL = 'tessera_webhooks_due';

/** An attempt's request, made and answered (or failed), before it is recorded. */
export interface SentAttempt {
  delivery: WebhookDelivery;
  attemptedAt: Date;
  outcome: AttemptOutcome;
}

/** What an attempt writes on its delivery. */
type AttemptRecord = Pick<
  WebhookDelivery,
  | 'status'
  | 'attemptCount'
  | 'lastAttemptAt'
  | 'nextRetryAt'
  | 'requestHeaders'
  | 'responseStatus'
  | 'responseBody'
  | 'responseTimeMs'
  | 'errorMessage'
  | 'dueAt'
  | 'claimedAt'
>;

/**
 * Writes the attempts' records, one per delivery, in one UPDATE, and returns the deliveries as
 * stored: each row read before its attempt with its changes and the update time the database set
 * (RETURNING), instead of reading them again; null for a delivery no longer there. The records arrive as one array per column
 * (`unnest`): one statement text whatever their number, prepared once per connection.
 */
async function updateDeliveries(
  ctx: RequestContext,
  records: Array<{ delivery: WebhookDelivery; changes: AttemptRecord }>,
): Promise<Array<WebhookDelivery | null>> {
  const column = <K extends keyof AttemptRecord>(key: K) => records.map(({ changes }) => changes[key]);
  const [rows]: [Array<{ id: string; updated_at: Date }>, number] = await ctx.em.query(
    `UPDATE "${EntityRows.of(ctx, WebhookDelivery).tableName}" AS "delivery" SET
        status = record.status, attempt_count = record.attempt_count, last_attempt_at = record.last_attempt_at,
        next_retry_at = record.next_retry_at, request_headers = record.request_headers, response_status = record.response_status,
        response_body = record.response_body, response_time_ms = record.response_time_ms, error_message = record.error_message,
        due_at = record.due_at, claimed_at = NULL, updated_at = CURRENT_TIMESTAMP
       FROM unnest($1::uuid[], $2::"public"."webhook_delivery_status"[], $3::integer[], $4::timestamptz[], $5::timestamptz[],
                   $6::jsonb[], $7::integer[], $8::text[], $9::integer[], $10::text[], $11::timestamptz[])
         AS record(id, status, attempt_count, last_attempt_at, next_retry_at, request_headers, response_status,
                   response_body, response_time_ms, error_message, due_at)
      WHERE "delivery"."id" = record.id
      RETURNING "delivery"."id", "delivery"."updated_at"`,
    [
      records.map(({ delivery }) => delivery.id),
      column('status'),
      column('attemptCount'),
      column('lastAttemptAt'),
      column('nextRetryAt'),
      column('requestHeaders').map((headers) => (headers === null ? null : JSON.stringify(headers))),
      column('responseStatus'),
      column('responseBody'),
      column('responseTimeMs'),
      column('errorMessage'),
      column('dueAt'),
    ],
  );
  const updatedAt = new Map(rows.map((row) => [row.id, row.updated_at]));
  return records.map(({ delivery, changes }) => {
    const at = updatedAt.get(delivery.id);
    // A new object: the attempt's delivery stays as it was, what the change is announced against.
    return at === undefined
      ? null
      : Object.assign(Object.create(Object.getPrototypeOf(delivery) as object) as WebhookDelivery, delivery, changes, {
          updatedAt: at,
        });
  });
}

/**
 * The event's own columns, EventService's INSERT of its row (RETURNING it) with its parameters
 * numbered from $1, and the jobs the event's change schedules (written in the same statement).
 */
/** What the event-with-deliveries statement answers. */
interface RecordedEventRow {
  id: string;
  created_at: Date;
  jobs: string;
  deliveries: Array<{
    id: string;
    target: WebhookDeliveryTarget;
    url: string;
    endpoint_id: string | null;
    partner_id: string | null;
    created_at: string;
  }>;
}

/**
 * Treasury events (`treasury.*`, design section 10) belong to the treasury product: they go to the
 * treasury registry's endpoints only, never to the webhookUrl nor to merchant endpoints (even those
 * subscribed to "*"). Every other event keeps its targets.
 */
const TREASURY_EVENT_PREFIX = 'treasury.';
const isTreasuryEvent = (type: string) => type.startsWith(TREASURY_EVENT_PREFIX);
/** `/v1` events (rows named by `v1EventRowType`, src/domain/v1/v1.events.ts) go only to `/v1` targets, signed with the `/v1` key. */
const isV1Event = (type: string) => type.startsWith('v1.');
const isTreasuryEventSql = (type: string) => `starts_with(${type}::text, '${TREASURY_EVENT_PREFIX}')`;

/**
 * Where an event goes: the business's webhookUrl of the event's mode, then its enabled endpoints
 * subscribed to the type (or "*"), oldest first (ordered by rank, created_at, endpoint_id);
 * treasury endpoints only while the business has the treasury product; treasury events to
 * treasury endpoints only (see TREASURY_EVENT_PREFIX). Its nine parameters are targetsParams,
 * numbered by `at(1)` to `at(9)`.
 */
const targetsSql = (at: (index: number) => string) => `
  SELECT ${at(8)}::text AS target, s.webhook_url AS url, NULL::uuid AS endpoint_id, NULL::uuid AS partner_id, 0 AS rank, NULL::timestamptz AS created_at
    FROM business_settings s
   WHERE s.business_id = ${at(1)} AND s.livemode = ${at(2)} AND s.webhook_url IS NOT NULL
     AND NOT ${isTreasuryEventSql(at(3))}
  UNION ALL
  SELECT ${at(9)}::text, e.url, e.id, CASE WHEN e.registry = ${at(5)} THEN e.business_id END, 1, e.created_at
    FROM webhook_endpoints e
   WHERE e.business_id = ${at(1)} AND e.livemode = ${at(2)} AND e.status = ${at(6)} AND e.events && ARRAY[${at(3)}, ${at(4)}]::text[]
     AND (e.registry = ${at(7)} OR EXISTS (SELECT 1 FROM businesses b WHERE b.id = e.business_id AND b.treasury_enabled))
     AND (e.registry = ${at(5)} OR NOT ${isTreasuryEventSql(at(3))})`;

const targetsParams = (businessId: string, livemode: boolean, type: string) => [
  businessId,
  livemode,
  type,
  ALL_EVENTS,
  WebhookRegistry.TREASURY,
  WebhookEndpointStatus.ENABLED,
  WebhookRegistry.MERCHANT,
  WebhookDeliveryTarget.WEBHOOK_URL,
  WebhookDeliveryTarget.ENDPOINT,
];

/** The secrets an attempt signs with, or why it cannot be signed (and so is not sent). */
type Signing = { secrets: SigningSecrets; unsignable?: never } | { secrets: null; unsignable: string };

/** What a delivery sends: the body as an object, and the exact bytes of it every attempt POSTs. */
interface DeliveryContent {
  payload: WebhookPayload;
  requestBody: string;
}

/** The body of a payload in the documented key order; serialized once per delivery and stored. */
export const bodyOf = (payload: WebhookPayload) =>
  JSON.stringify({ event: payload.event, timestamp: payload.timestamp, data: payload.data });

/** A new delivery's content, from the event (its data as recorded, in the event's transaction, or as stored). */
const contentOf = (event: DomainEvent): DeliveryContent => {
  const payload: WebhookPayload = { event: event.type, timestamp: event.createdAt.toISOString(), data: event.data };
  return { payload, requestBody: bodyOf(payload) };
};

/**
 * Webhook deliveries to the business's own `webhookUrl` of the event's mode and to its registered
 * endpoints: merchant endpoints signed like the webhookUrl (the business's API secret of the mode),
 * treasury endpoints with their own signing secret. A delivery row is written in the event's
 * transaction, due at once (or after the first retry delay); the workers' delivery pumps claim due
 * rows (`claimDue`) and attempt them, and a failed attempt makes the row due again at the retry
 * schedule's next time in the same UPDATE that records it.
 */
export class WebhookService {
  private readonly sender: WebhookSender;
  /** The `/v1` secret key that signs `/v1` deliveries of a business and mode (set by the `/v1` area). */
  private v1SigningKey: V1SigningKey | null = null;

  constructor(
    private readonly settings: WebhookSettings,
    /** Unseals a stored secret (the business's API secret, read with the delivery it signs). */
    private readonly openSecret: (sealed: string) => string,
    private readonly treasuryEndpoints: TreasuryWebhookEndpointService,
    private readonly pubSub: TesseraPubSub,
  ) {
    this.sender = new WebhookSender(settings);
  }

  /** Closes the deliveries' idle connections. */
  async close(): Promise<void> {
    await this.sender.close();
  }

  /**
   * Records an event and, in the same statement, one delivery to the business's `webhookUrl` of
   * the event's mode (when set) and one to each enabled registered endpoint of that business and
   * mode subscribed to the event's type (or "*"), each due for its first attempt, and the jobs the
   * change schedules. One statement because it runs for every event, inside the transaction of the
   * change the event records: one round trip instead of an insert, a read of the targets and a
   * write per target. `insertEvent` is
   * EventService's INSERT of the event row (RETURNING it); the delivery's body is built in SQL
   * from the event's own timestamp, byte for byte what `bodyOf` makes of the stored event.
   */
  async recordWithDeliveries(
    tx: RequestContext,
    insertEvent: EventInsert,
  ): Promise<{ event: DomainEvent; deliveries: WebhookDelivery[] }> {
    if (!tx.inTransaction)
      throw new Error("WebhookService.recordWithDeliveries must run inside the event's transaction");
    const { sql, params } = this.eventWithDeliveriesStatement(insertEvent);
    const [row]: RecordedEventRow[] = await tx.em.query(sql, params);
    return this.recordedFrom(tx, insertEvent, row);
  }

  /**
   * `recordWithDeliveries` without waiting for the statement's answer (RequestContext.writeBehind):
   * the same statement in the same transaction, answered before the transaction's next statement
   * or its COMMIT; `onRecorded` gets the event then.
   */
  recordWithDeliveriesBehind(
    tx: RequestContext,
    insertEvent: EventInsert,
    onRecorded: (event: DomainEvent) => void,
  ): void {
    if (!tx.inTransaction)
      throw new Error("WebhookService.recordWithDeliveries must run inside the event's transaction");
    const { sql, params } = this.eventWithDeliveriesStatement(insertEvent);
    tx.writeBehind(sql, params, ([row]: RecordedEventRow[]) =>
      onRecorded(this.recordedFrom(tx, insertEvent, row).event),
    );
  }

  private eventWithDeliveriesStatement(insertEvent: EventInsert): { sql: string; params: unknown[] } {
    const { businessId, livemode, type, data } = insertEvent.event;
    const firstDelaySeconds = this.settings.retryScheduleSeconds[0] ?? 0;
    const runAt = firstDelaySeconds > 0 ? new Date(Date.now() + firstDelaySeconds * 1000) : null;
    const at = (index: number) => `$${insertEvent.params.length + index}`;
    // Numbered after the event's parameters and the twelve of this statement (targets, body, first attempt).
    const scheduled = jobsCtes(insertEvent.jobs, insertEvent.params.length + 13);
    return {
      sql: `WITH event AS (${insertEvent.sql}),
       stamp AS (SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso FROM event),
       targets AS (${targetsSql(at)}),
       deliveries AS (
         INSERT INTO webhook_deliveries (business_id, livemode, event_id, event_type, target, endpoint_id, partner_id, url, payload, request_body, status, due_at)
         SELECT event.business_id, event.livemode, event.id, event.type, targets.target, targets.endpoint_id, targets.partner_id, targets.url,
                jsonb_build_object('event', event.type, 'timestamp', stamp.iso, 'data', event.data),
                ${at(10)} || stamp.iso || ${at(11)}, '${WebhookDeliveryStatus.PENDING}', coalesce(${at(12)}::timestamptz, now())
           FROM event, stamp, targets ORDER BY targets.rank, targets.created_at, targets.endpoint_id
         RETURNING id, target, url, endpoint_id, partner_id, created_at
       ),
       ${scheduled.sql}
       SELECT event.id, event.created_at, ${scheduled.countSql} AS jobs,
              (SELECT coalesce(json_agg(deliveries), '[]') FROM deliveries) AS deliveries
         FROM event`,
      params: [
        ...insertEvent.params,
        ...targetsParams(businessId, livemode, type),
        `{"event":${JSON.stringify(type)},"timestamp":"`,
        `","data":${JSON.stringify(data)}}`,
        runAt,
        ...scheduled.params,
      ],
    };
  }

  /** The event and its deliveries as the statement wrote them; each delivery announced once the transaction commits. */
  private recordedFrom(
    tx: RequestContext,
    insertEvent: EventInsert,
    row: RecordedEventRow,
  ): { event: DomainEvent; deliveries: WebhookDelivery[] } {
    const { businessId, livemode, type, data } = insertEvent.event;
    const event = tx
      .repo(DomainEvent)
      .create({ id: row.id, businessId, livemode, type, data, createdAt: row.created_at });
    const deliveries = row.deliveries.map((delivery) =>
      tx.repo(WebhookDelivery).create({
        id: delivery.id,
        businessId,
        livemode,
        eventId: event.id,
        eventType: type,
        target: delivery.target,
        url: delivery.url,
        endpointId: delivery.endpoint_id,
        partnerId: delivery.partner_id,
        status: WebhookDeliveryStatus.PENDING,
        createdAt: new Date(delivery.created_at),
        updatedAt: new Date(delivery.created_at),
      }),
    );
    for (const delivery of deliveries) announceDelivery(tx, this.pubSub, delivery);
    if (deliveries.length > 0) this.announceDue(tx, deliveries.length);
    return { event, deliveries };
  }

  /**
   * Wakes the delivery pumps once the transaction commits (they would otherwise find the rows at
   * their next poll): this process's at once through the pub/sub, every process's (with or
   * without Redis) through a NOTIFY sent after the commit, on its own and not waited for, so the
   * event's transaction never holds PostgreSQL's notification lock through its commit.
   */
  private announceDue(tx: RequestContext, deliveries: number): void {
    tx.afterCommit(() => {
      void tx.dataSource.query(`SELECT pg_notify('${WEBHOOKS_DUE_CHANNEL}', '')`).catch(() => undefined);
      return this.pubSub.publish(Topic.WEBHOOKS_DUE, { deliveries });
    });
  }

  /** Lets the `/v1` area sign its deliveries with the business's `/v1` key. */
  signV1DeliveriesWith(signingKey: V1SigningKey): void {
    this.v1SigningKey = signingKey;
  }

  /**
   * Deliveries of a `/v1` event (design section 11) to the URLs its area chose, in the event's
   * transaction: the same rows, jobs and retry schedule as every delivery, with the `/v1` body
   * (`{ event, timestamp, data }` in the `/v1` names) and the `/v1` signature (target V1).
   */
  async recordV1Deliveries(
    tx: RequestContext,
    event: DomainEvent,
    urls: string[],
    payload: WebhookPayload,
  ): Promise<WebhookDelivery[]> {
    if (!tx.inTransaction) throw new Error("WebhookService.recordV1Deliveries must run inside the event's transaction");
    const firstDelaySeconds = this.settings.retryScheduleSeconds[0] ?? 0;
    const runAt = firstDelaySeconds > 0 ? new Date(Date.now() + firstDelaySeconds * 1000) : null;
    const content = { payload, requestBody: bodyOf(payload) };
    const deliveries: WebhookDelivery[] = [];
    for (const url of urls) {
      const target = { target: WebhookDeliveryTarget.V1, url, endpointId: null, partnerId: null };
      deliveries.push(await this.createDelivery(tx, event, target, runAt, content, payload.event));
    }
    return deliveries;
  }

  /** Manual redelivery: a new delivery of the same event to the same URL, with the same body bytes, attempted at once. */
  async redeliver(ctx: RequestContext, deliveryId: string): Promise<WebhookDelivery> {
    return this.redeliverOne(ctx, deliveryId, null);
  }

  /**
   * Deliveries to the business's own webhookUrl of the mode (whatever the URL was when each was
   * made), newest first, filtered like an endpoint's deliveries.
   */
  async listWebhookUrlDeliveries(
    ctx: RequestContext,
    filters: DeliveryFilters,
    page: PageQuery,
  ): Promise<ListPage<WebhookDelivery>> {
    ctx.requireRole(...ALL_ROLES);
    const query = deliveryQuery(ctx, filters).andWhere('delivery.target = :target', {
      target: WebhookDeliveryTarget.WEBHOOK_URL,
    });
    return paginate(query, 'delivery', page, { status: filters.status ?? null, eventType: filters.eventType ?? null });
  }

  /** Manual redelivery of a delivery to the webhookUrl; any other delivery (an endpoint's) is NOT_FOUND here. */
  async redeliverWebhookUrlDelivery(ctx: RequestContext, deliveryId: string): Promise<WebhookDelivery> {
    return this.redeliverOne(ctx, deliveryId, WebhookDeliveryTarget.WEBHOOK_URL);
  }

  private async redeliverOne(
    ctx: RequestContext,
    deliveryId: string,
    only: WebhookDeliveryTarget | null,
  ): Promise<WebhookDelivery> {
    ctx.requireRole(...WRITE_ROLES);
    return inTransaction(ctx, async (tx) => {
      const original = await findOwned(tx, WebhookDelivery, deliveryId, 'Webhook delivery');
      if (only && original.target !== only) throw notFound('Webhook delivery');
      const event = await tx.repo(DomainEvent).findOneOrFail({ where: { id: original.eventId } });
      const target = {
        target: original.target,
        url: original.url,
        endpointId: original.endpointId,
        partnerId: original.partnerId,
      };
      return this.createDelivery(
        tx,
        event,
        target,
        null,
        { payload: original.payload, requestBody: original.requestBody },
        original.eventType,
      );
    });
  }

  /**
   * Replays an event to one of the business's endpoints (of either registry; a treasury one while
   * the product is enabled), or to its webhookUrl when none is named. A treasury event replays to a
   * treasury endpoint only, as it was delivered (CONFLICT otherwise, nothing written); a `/v1` event
   * is never replayed this way (its deliveries are redelivered instead).
   */
  async replayEvent(ctx: RequestContext, command: ReplayEvent): Promise<WebhookDelivery> {
    ctx.requireRole(...WRITE_ROLES);
    const { eventId, endpointId } = command;
    return inTransaction(ctx, async (tx) => {
      const event = await findOwned(tx, DomainEvent, eventId, 'Event');
      if (isV1Event(event.type)) {
        throw new DomainError(
          ErrorCode.CONFLICT,
          'A /v1 event goes only to its /v1 targets, signed with the /v1 key: redeliver one of its deliveries instead',
        );
      }
      const treasuryOnly = () =>
        new DomainError(
          ErrorCode.CONFLICT,
          'Treasury events are delivered to treasury webhook endpoints only; name one as endpointId',
        );
      if (endpointId) {
        const endpoint = await findEndpoint(tx, endpointId, null);
        if (endpoint.registry === WebhookRegistry.TREASURY) await requireTreasuryPartner(tx);
        else if (isTreasuryEvent(event.type)) throw treasuryOnly();
        return this.createDelivery(tx, event, targetOf(endpoint), null);
      }
      if (isTreasuryEvent(event.type)) throw treasuryOnly();
      const settings = await tx
        .repo(BusinessSettings)
        .findOne({ where: { businessId: event.businessId, livemode: event.livemode } });
      if (!settings?.webhookUrl) {
        throw new DomainError(
          ErrorCode.CONFLICT,
          'No webhookUrl is set for this mode; name an endpointId to replay to',
        );
      }
      return this.createDelivery(
        tx,
        event,
        { target: WebhookDeliveryTarget.WEBHOOK_URL, url: settings.webhookUrl, endpointId: null, partnerId: null },
        null,
      );
    });
  }

  private async createDelivery(
    tx: RequestContext,
    event: DomainEvent,
    target: DeliveryTarget,
    runAt: Date | null,
    content = contentOf(event),
    eventType = event.type,
  ) {
    const delivery = await tx.repo(WebhookDelivery).save(
      tx.repo(WebhookDelivery).create({
        businessId: event.businessId,
        livemode: event.livemode,
        eventId: event.id,
        eventType,
        target: target.target,
        endpointId: target.endpointId,
        partnerId: target.partnerId,
        url: target.url,
        payload: content.payload,
        requestBody: content.requestBody,
        status: WebhookDeliveryStatus.PENDING,
        // Without a time, the column's default: due now (the database's clock, which claims compare with).
        dueAt: runAt ?? undefined,
      }),
    );
    announceDelivery(tx, this.pubSub, delivery);
    if (!runAt) this.announceDue(tx, 1);
    return delivery;
  }

  /**
   * Claims up to `limit` due deliveries (the delivery pump): rows due now that no pump holds, or
   * whose claim is older than `stalledAfterMs` (its worker died), oldest due first, skipping rows
   * another transaction is claiming; each with its business's sealed API secret. One statement for
   * the batch.
   */
  async claimDue(ctx: RequestContext, limit: number, stalledAfterMs: number): Promise<DueDelivery[]> {
    const deliveries = EntityRows.of(ctx, WebhookDelivery);
    const [rows]: [Array<Record<string, unknown>>, number] = await ctx.em.query(
      `WITH due AS (
         SELECT id FROM "${deliveries.tableName}"
          WHERE due_at <= now() AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $2))
          ORDER BY due_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED)
       UPDATE "${deliveries.tableName}" AS "delivery" SET claimed_at = now()
         FROM due WHERE "delivery"."id" = due.id
       RETURNING ${deliveries.selectList('delivery')},
         (SELECT "credential"."secret_ciphertext" FROM "${ctx.repo(ApiCredential).metadata.tableName}" "credential"
           WHERE "credential"."business_id" = "delivery"."business_id" AND "credential"."livemode" = "delivery"."livemode") AS "sealed_api_secret"`,
      [limit, stalledAfterMs / 1000],
    );
    return rows.map((row) => ({
      delivery: deliveries.hydrate(row, 'delivery'),
      sealedApiSecret: row.sealed_api_secret as string | null,
    }));
  }

  /**
   * One attempt of a delivery by its id (a `deliver_webhook` job enqueued before the delivery
   * pumps; the pumps use `send` and `writeAllSent` on the rows they claim). Finished deliveries are
   * left alone. Whatever stops the attempt before an answer (a secret that cannot be unsealed, a
   * bug) is a failed attempt like any other: recorded with a generic message (the cause goes to
   * `reportError`, the server's log, never to the merchant) and retried by the schedule. Thrown
   * instead, it would leave the delivery claimed and unrecorded, with no error to see.
   */
  async attempt(
    ctx: RequestContext,
    deliveryId: string,
    reportError: (error: unknown) => void = () => undefined,
  ): Promise<WebhookDelivery | null> {
    const due = await this.dueDelivery(ctx, deliveryId);
    return due ? this.attemptDue(ctx, due, reportError) : null;
  }

  /** One attempt of a delivery read (or claimed) with its sealed API secret; see `attempt`. */
  async attemptDue(
    ctx: RequestContext,
    due: DueDelivery,
    reportError: (error: unknown) => void = () => undefined,
  ): Promise<WebhookDelivery> {
    return this.recordSent(ctx, await this.send(ctx, due, reportError));
  }

  /**
   * The attempt's request (signed, sent, answered or failed), not yet recorded: the delivery pump
   * frees the request's slot before `writeAllSent` writes it.
   */
  async send(
    ctx: RequestContext,
    due: DueDelivery,
    reportError: (error: unknown) => void = () => undefined,
  ): Promise<SentAttempt> {
    const { delivery } = due;
    const attemptedAt = new Date();
    let outcome: AttemptOutcome;
    try {
      const signing = await this.signingOf(ctx, due, attemptedAt);
      outcome = signing.secrets
        ? await this.sender.post(delivery, signing.secrets, attemptedAt)
        : {
            ok: false,
            requestHeaders: null,
            responseStatus: null,
            responseBody: null,
            responseTimeMs: 0,
            errorMessage: signing.unsignable,
          };
    } catch (error) {
      reportError(error);
      outcome = {
        ok: false,
        requestHeaders: null,
        responseStatus: null,
        responseBody: null,
        responseTimeMs: 0,
        errorMessage: ATTEMPT_INTERNAL_ERROR,
      };
    }
    return { delivery, attemptedAt, outcome };
  }

  /** Records a sent attempt on its delivery (see `recordAllSent`) and announces the change. */
  async recordSent(ctx: RequestContext, sent: SentAttempt): Promise<WebhookDelivery> {
    const [recorded] = await this.recordAllSent(ctx, [sent]);
    if (!recorded) throw new Error(`Webhook delivery ${sent.delivery.id} disappeared during its attempt`);
    return recorded;
  }

  /**
   * Records sent attempts, each on its own delivery, in one statement (`writeAllSent`), and
   * announces each change (`announceRecorded`): the deliveries as stored, in order, null for one no
   * longer there.
   */
  async recordAllSent(ctx: RequestContext, sent: readonly SentAttempt[]): Promise<Array<WebhookDelivery | null>> {
    const recorded = await this.writeAllSent(ctx, sent);
    await this.announceRecorded(recorded, sent);
    return recorded;
  }

  /**
   * Writes sent attempts, each on its own delivery, in one statement (a pump writes together the
   * outcomes that arrived while its last write was running): the deliveries as stored, in order,
   * null for one no longer there. A failure with another attempt due makes the row due again then
   * (so a delivery is never left failed with nothing scheduled); a success or the last failure
   * leaves nothing due. Each claim is released. One statement: when it fails, none is written.
   */
  async writeAllSent(ctx: RequestContext, sent: readonly SentAttempt[]): Promise<Array<WebhookDelivery | null>> {
    if (sent.length === 0) return [];
    return updateDeliveries(
      ctx,
      sent.map(({ delivery, attemptedAt, outcome }) => ({
        delivery,
        changes: this.attemptRecord(delivery, attemptedAt, outcome),
      })),
    );
  }

  /** Announces recorded attempts to subscribers (`webhookDeliveryUpdated`): `recorded[i]` is `sent[i]`'s delivery as stored. */
  async announceRecorded(recorded: ReadonlyArray<WebhookDelivery | null>, sent: readonly SentAttempt[]): Promise<void> {
    await Promise.all(
      recorded.map(async (delivery, index) => {
        if (delivery) await publishDeliveryChange(this.pubSub, delivery, sent[index].delivery);
      }),
    );
  }

  /**
   * The delivery to attempt, with the sealed API secret of its business and mode, in one query
   * (it runs for every attempt); null when it is gone or already finished.
   */
  private async dueDelivery(ctx: RequestContext, deliveryId: string): Promise<DueDelivery | null> {
    const deliveries = EntityRows.of(ctx, WebhookDelivery);
    const [row]: Array<Record<string, unknown>> = await ctx.em.query(
      `SELECT ${deliveries.selectList('delivery')}, "credential"."secret_ciphertext" AS "sealed_api_secret"
         FROM "${deliveries.tableName}" "delivery"
         LEFT JOIN "${ctx.repo(ApiCredential).metadata.tableName}" "credential"
           ON "credential"."business_id" = "delivery"."business_id" AND "credential"."livemode" = "delivery"."livemode"
        WHERE "delivery"."id" = $1`,
      [deliveryId],
    );
    const delivery = row ? deliveries.hydrate(row, 'delivery') : null;
    if (
      !row ||
      !delivery ||
      delivery.status === WebhookDeliveryStatus.SUCCEEDED ||
      delivery.status === WebhookDeliveryStatus.PERMANENTLY_FAILED
    ) {
      return null;
    }
    return { delivery, sealedApiSecret: row.sealed_api_secret as string | null };
  }

  /** What an attempt's outcome writes on its delivery: its status, the retry due, what was sent and answered. */
  private attemptRecord(delivery: WebhookDelivery, attemptedAt: Date, outcome: AttemptOutcome): AttemptRecord {
    const attemptCount = delivery.attemptCount + 1;
    const retryDelaySeconds = outcome.ok ? undefined : this.settings.retryScheduleSeconds[attemptCount];
    const nextRetryAt = retryDelaySeconds === undefined ? null : new Date(Date.now() + retryDelaySeconds * 1000);
    const status = outcome.ok
      ? WebhookDeliveryStatus.SUCCEEDED
      : nextRetryAt
        ? WebhookDeliveryStatus.FAILED
        : WebhookDeliveryStatus.PERMANENTLY_FAILED;
    return {
      status,
      attemptCount,
      lastAttemptAt: attemptedAt,
      nextRetryAt,
      requestHeaders: outcome.requestHeaders,
      responseStatus: outcome.responseStatus,
      responseBody: outcome.responseBody,
      responseTimeMs: outcome.responseTimeMs,
      errorMessage: outcome.errorMessage,
      dueAt: nextRetryAt,
      claimedAt: null,
    };
  }

  /**
   * Merchant deliveries (webhookUrl and merchant endpoints) sign with the business's API secret of
   * the mode; a treasury delivery only with its endpoint's own secrets, never with the API secret.
   */
  private async signingOf(ctx: RequestContext, { delivery, sealedApiSecret }: DueDelivery, at: Date): Promise<Signing> {
    if (delivery.target === WebhookDeliveryTarget.V1) {
      const key = (await this.v1SigningKey?.(ctx, delivery.businessId, delivery.livemode)) ?? null;
      return key
        ? { secrets: { current: key, previous: null } }
        : { secrets: null, unsignable: 'Not delivered: the business has no active /v1 key of this mode to sign with' };
    }
    if (delivery.partnerId) {
      const secrets = await this.treasuryEndpoints.signingSecretsOf(ctx, delivery, at);
      return secrets
        ? { secrets }
        : {
            secrets: null,
            unsignable:
              'Not delivered: the treasury webhook endpoint was deleted, and its deliveries are signed only with its own signing secret',
          };
    }
    const apiSecret = sealedApiSecret === null ? null : this.openSecret(sealedApiSecret);
    return apiSecret
      ? { secrets: { current: apiSecret, previous: null } }
      : { secrets: null, unsignable: 'The business has no API secret for this mode to sign with' };
  }
}
