import { DomainEvent } from '../events/event.entity';
import { requireTreasuryPartner, V1KeyService } from '../identity';
import { EventInsert } from '../events/event-recording';
import { BusinessSettings } from '../shared/business-settings.entity';
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
import { WebhookEndpoint, WebhookRegistry } from './webhook-endpoint.entity';
import { deliveryQuery, findEndpoint } from './webhook-endpoint-registry';
import { TreasuryWebhookEndpointService } from './treasury-webhook-endpoint.service';
import { WebhookSettings } from './webhook-sender';
import { TesseraPubSub } from '../events/pubsub';
import { WebhookTopic } from './webhooks.topics';
import { jobsCtes } from '../shared/jobs';
import { DeliveryFilters, ReplayEvent } from './webhooks.commands';
import { announceDelivery } from './webhooks.events';
import { DeliveryAttempts, DueDelivery, SentAttempt, Signing } from './delivery-attempts';
import { targetsSql } from './delivery-routing';
import { isTreasuryEvent } from './treasury-webhook-endpoint.route';

export { NO_ANSWER, readTruncated, signedHeaders } from './webhook-sender';
export type { WebhookSettings } from './webhook-sender';

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

/** The PostgreSQL channel on which delivery pumps are told that deliveries are due (DeliveryPump listens). */
export const WEBHOOKS_DUE_CHANNEL = 'tessera_webhooks_due';

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
/** `/v1` events (rows named by `v1EventRowType`, ./v1.events.ts) go only to `/v1` targets, signed with the `/v1` key. */
const isV1Event = (type: string) => type.startsWith('v1.');

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
  private readonly attempts: DeliveryAttempts;

  constructor(
    settings: WebhookSettings,
    /** Unseals a stored secret (the business's API secret, read with the delivery it signs). */
    private readonly openSecret: (sealed: string) => string,
    private readonly treasuryEndpoints: TreasuryWebhookEndpointService,
    private readonly pubSub: TesseraPubSub,
    /** Holds the `/v1` keys that sign `/v1` deliveries (design section 11). */
    private readonly v1Keys: V1KeyService,
  ) {
    this.attempts = new DeliveryAttempts(settings, (ctx, due, at) => this.signingOf(ctx, due, at), pubSub);
  }

  /** Closes the deliveries' idle connections. */
  async close(): Promise<void> {
    await this.attempts.close();
  }

  /**
   * Records an event and, in the same statement, one delivery to each target its routes name
   * (delivery-routing.ts: the business's `webhookUrl` of the event's mode when set, then each
   * enabled registered endpoint of that business and mode subscribed to the event's type or "*"),
   * each due for its first attempt (the retry schedule's), and the jobs the change schedules. One statement because it runs for every event, inside the transaction of the
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
    const { type, data } = insertEvent.event;
    const params = [...insertEvent.params];
    const bind = (value: unknown) => `$${params.push(value)}`;
    const targets = targetsSql(insertEvent.event, bind);
    const bodyStart = bind(`{"event":${JSON.stringify(type)},"timestamp":"`);
    const bodyEnd = bind(`","data":${JSON.stringify(data)}}`);
    const firstAttemptAt = bind(this.attempts.schedule.firstAttemptAt());
    // Numbered after every parameter bound above.
    const scheduled = jobsCtes(insertEvent.jobs, params.length + 1);
    return {
      sql: `WITH event AS (${insertEvent.sql}),
       stamp AS (SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS iso FROM event),
       targets AS (${targets}),
       deliveries AS (
         INSERT INTO webhook_deliveries (business_id, livemode, event_id, event_type, target, endpoint_id, partner_id, url, payload, request_body, status, due_at)
         SELECT event.business_id, event.livemode, event.id, event.type, targets.target, targets.endpoint_id, targets.partner_id, targets.url,
                jsonb_build_object('event', event.type, 'timestamp', stamp.iso, 'data', event.data),
                ${bodyStart} || stamp.iso || ${bodyEnd}, '${WebhookDeliveryStatus.PENDING}', coalesce(${firstAttemptAt}::timestamptz, now())
           FROM event, stamp, targets ORDER BY targets.rank, targets.created_at, targets.endpoint_id
         RETURNING id, target, url, endpoint_id, partner_id, created_at
       ),
       ${scheduled.sql}
       SELECT event.id, event.created_at, ${scheduled.countSql} AS jobs,
              (SELECT coalesce(json_agg(deliveries), '[]') FROM deliveries) AS deliveries
         FROM event`,
      params: [...params, ...scheduled.params],
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
      return this.pubSub.publish(WebhookTopic.WEBHOOKS_DUE, { deliveries });
    });
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
    const runAt = this.attempts.schedule.firstAttemptAt();
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
   * whose claim is older than `stalledAfterMs` (its worker died), oldest due first; each with its
   * business's sealed API secret. One statement for the batch.
   */
  async claimDue(ctx: RequestContext, limit: number, stalledAfterMs: number): Promise<DueDelivery[]> {
    return this.attempts.claimDue(ctx, limit, stalledAfterMs);
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
    return this.attempts.attempt(ctx, deliveryId, reportError);
  }

  /** One attempt of a delivery read (or claimed) with its sealed API secret; see `attempt`. */
  async attemptDue(
    ctx: RequestContext,
    due: DueDelivery,
    reportError: (error: unknown) => void = () => undefined,
  ): Promise<WebhookDelivery> {
    return this.attempts.attemptDue(ctx, due, reportError);
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
    return this.attempts.send(ctx, due, reportError);
  }

  /** Records a sent attempt on its delivery (see `recordAllSent`) and announces the change. */
  async recordSent(ctx: RequestContext, sent: SentAttempt): Promise<WebhookDelivery> {
    return this.attempts.recordSent(ctx, sent);
  }

  /** Records sent attempts in one statement (`writeAllSent`) and announces each change (`announceRecorded`). */
  async recordAllSent(ctx: RequestContext, sent: readonly SentAttempt[]): Promise<Array<WebhookDelivery | null>> {
    return this.attempts.recordAllSent(ctx, sent);
  }

  /** Writes sent attempts, each a move of its own delivery, in one statement (DeliveryAttempts.writeAllSent). */
  async writeAllSent(ctx: RequestContext, sent: readonly SentAttempt[]): Promise<Array<WebhookDelivery | null>> {
    return this.attempts.writeAllSent(ctx, sent);
  }

  /** Announces recorded attempts to subscribers (`webhookDeliveryUpdated`): `recorded[i]` is `sent[i]`'s delivery as stored. */
  async announceRecorded(recorded: ReadonlyArray<WebhookDelivery | null>, sent: readonly SentAttempt[]): Promise<void> {
    return this.attempts.announceRecorded(recorded, sent);
  }

  /**
   * Merchant deliveries (webhookUrl and merchant endpoints) sign with the business's API secret of
   * the mode; a treasury delivery only with its endpoint's own secrets, never with the API secret.
   */
  private async signingOf(ctx: RequestContext, { delivery, sealedApiSecret }: DueDelivery, at: Date): Promise<Signing> {
    if (delivery.target === WebhookDeliveryTarget.V1) {
      const key = await this.v1Keys.signingKeyOf(ctx, delivery.businessId, delivery.livemode);
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
