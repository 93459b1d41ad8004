import { TesseraPubSub } from '../events/pubsub';
import { ApiCredential } from '../identity';
import { RequestContext } from '../shared/context';
import { moveRows } from '../shared/row-transition';
import { EntityRows } from '../shared/rows';
import { DELIVERY_ROWS, DeliveryAction, isAttemptable } from './delivery.states';
import { SigningSecrets } from './treasury-webhook-endpoint.service';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity';
import { AttemptOutcome, WebhookSender, WebhookSettings } from './webhook-sender';
import { publishDeliveryChange } from './webhooks.events';

/** The error recorded on an attempt that Tessera itself could not make; the cause is in the server's log. */
export const ATTEMPT_INTERNAL_ERROR =
  'Not delivered: an internal error stopped this attempt; it is retried on the schedule';

/** A delivery to attempt, and the sealed API secret of its business and mode (null when none was issued). */
export interface DueDelivery {
  delivery: WebhookDelivery;
  sealedApiSecret: string | null;
}

/** An attempt's request, made and answered (or failed), before it is recorded. */
export interface SentAttempt {
  delivery: WebhookDelivery;
  attemptedAt: Date;
  outcome: AttemptOutcome;
}

/** The secrets an attempt signs with, or why it cannot be signed (and so is not sent). */
export type Signing = { secrets: SigningSecrets; unsignable?: never } | { secrets: null; unsignable: string };

/** How an attempt finds its secrets (WebhookService.signingOf). */
export type SignDelivery = (ctx: RequestContext, due: DueDelivery, at: Date) => Promise<Signing>;

/**
 * When a delivery's attempts are due (`webhookRetryScheduleSeconds`): attempt n waits
 * `delaysSeconds[n - 1]`, the first one counted from the delivery's creation and each other one
 * from the failure before it; a failure with no delay left is the last, and the delivery is given up.
 */
export class RetrySchedule {
  constructor(private readonly delaysSeconds: readonly number[]) {}

  /** When a new delivery's first attempt is due: null for at once (the database's clock, which claims compare with). */
  firstAttemptAt(now = Date.now()): Date | null {
    const delaySeconds = this.delaysSeconds[0] ?? 0;
    return delaySeconds > 0 ? new Date(now + delaySeconds * 1000) : null;
  }

  /** What the outcome of the `attemptCount`-th attempt does, and when the next one is due (null: none is). */
  afterAttempt(
    attemptCount: number,
    ok: boolean,
    now = Date.now(),
  ): { action: DeliveryAction; nextRetryAt: Date | null } {
    if (ok) return { action: 'deliver', nextRetryAt: null };
    const delaySeconds = this.delaysSeconds[attemptCount];
    return delaySeconds === undefined
      ? { action: 'give_up', nextRetryAt: null }
      : { action: 'retry', nextRetryAt: new Date(now + delaySeconds * 1000) };
  }
}

/** What an attempt writes on its delivery, besides its status. */
type AttemptRecord = Pick<
  WebhookDelivery,
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

/** The columns an attempt writes, with their SQL types (`moveRows`). */
const ATTEMPT_COLUMNS: Record<string, string> = {
  attempt_count: 'integer',
  last_attempt_at: 'timestamptz',
  next_retry_at: 'timestamptz',
  request_headers: 'jsonb',
  response_status: 'integer',
  response_body: 'text',
  response_time_ms: 'integer',
  error_message: 'text',
  due_at: 'timestamptz',
  claimed_at: 'timestamptz',
};

const failedOutcome = (errorMessage: string): AttemptOutcome => ({
  ok: false,
  requestHeaders: null,
  responseStatus: null,
  responseBody: null,
  responseTimeMs: 0,
  errorMessage,
});

/**
 * A delivery's attempts: claiming the due ones, sending one (signed, within the timeout), and
 * recording its outcome as a move of the delivery (`delivery.states.ts`) with the next attempt
 * due at the retry schedule's time, in the same UPDATE.
 */
export class DeliveryAttempts {
  private readonly sender: WebhookSender;
  readonly schedule: RetrySchedule;

  constructor(
    settings: WebhookSettings,
    private readonly sign: SignDelivery,
    private readonly pubSub: TesseraPubSub,
  ) {
    this.sender = new WebhookSender(settings);
    this.schedule = new RetrySchedule(settings.retryScheduleSeconds);
  }

  /** Closes the deliveries' idle connections. */
  async close(): Promise<void> {
    await this.sender.close();
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

  /** See WebhookService.attempt. */
  async attempt(
    ctx: RequestContext,
    deliveryId: string,
    reportError: (error: unknown) => void,
  ): Promise<WebhookDelivery | null> {
    const due = await this.dueDelivery(ctx, deliveryId);
    return due ? this.attemptDue(ctx, due, reportError) : null;
  }

  /** One attempt of a delivery read (or claimed) with its sealed API secret; see WebhookService.attempt. */
  async attemptDue(
    ctx: RequestContext,
    due: DueDelivery,
    reportError: (error: unknown) => void,
  ): Promise<WebhookDelivery> {
    return this.recordSent(ctx, await this.send(ctx, due, reportError));
  }

  /**
   * The attempt's request (signed, sent, answered or failed), not yet recorded. Whatever stops it
   * before an answer (a secret that cannot be unsealed, a bug) is a failed attempt like any other,
   * with a generic message (the cause goes to `reportError`, the server's log, never to the merchant).
   */
  async send(ctx: RequestContext, due: DueDelivery, reportError: (error: unknown) => void): Promise<SentAttempt> {
    const { delivery } = due;
    const attemptedAt = new Date();
    let outcome: AttemptOutcome;
    try {
      const signing = await this.sign(ctx, due, attemptedAt);
      outcome = signing.secrets
        ? await this.sender.post(delivery, signing.secrets, attemptedAt)
        : failedOutcome(signing.unsignable);
    } catch (error) {
      reportError(error);
      outcome = failedOutcome(ATTEMPT_INTERNAL_ERROR);
    }
    return { delivery, attemptedAt, outcome };
  }

  /** Records a sent attempt on its delivery (see `recordAllSent`) and announces the change. */
  async recordSent(ctx: RequestContext, sent: SentAttempt): Promise<WebhookDelivery> {
    const [recorded] = await this.recordAllSent(ctx, [sent]);
    if (!recorded) throw new Error(`Webhook delivery ${sent.delivery.id} disappeared during its attempt`);
    return recorded;
  }

  /** Records sent attempts (`writeAllSent`) and announces each change (`announceRecorded`). */
  async recordAllSent(ctx: RequestContext, sent: readonly SentAttempt[]): Promise<Array<WebhookDelivery | null>> {
    const recorded = await this.writeAllSent(ctx, sent);
    await this.announceRecorded(recorded, sent);
    return recorded;
  }

  /**
   * Writes sent attempts, each on its own delivery, in one statement (`moveRows`): the deliveries
   * as stored, in order, each the row read before its attempt with its changes and the update time
   * the database set (instead of reading them again); null for one no longer there, or finished by
   * another attempt first (a claim taken over from a worker thought dead). A failure with another
   * attempt due makes the row due again then (so a delivery is never left failed with nothing
   * scheduled); a success or the last failure leaves nothing due. Each claim is released. One
   * statement: when it fails, none is written.
   */
  async writeAllSent(ctx: RequestContext, sent: readonly SentAttempt[]): Promise<Array<WebhookDelivery | null>> {
    if (sent.length === 0) return [];
    const records = sent.map(({ delivery, attemptedAt, outcome }) =>
      this.attemptRecord(delivery, attemptedAt, outcome),
    );
    const rows = await moveRows(
      ctx,
      DELIVERY_ROWS,
      records.map(({ action, changes }, index) => ({
        id: sent[index].delivery.id,
        action,
        changes: {
          attempt_count: changes.attemptCount,
          last_attempt_at: changes.lastAttemptAt,
          next_retry_at: changes.nextRetryAt,
          request_headers: changes.requestHeaders === null ? null : JSON.stringify(changes.requestHeaders),
          response_status: changes.responseStatus,
          response_body: changes.responseBody,
          response_time_ms: changes.responseTimeMs,
          error_message: changes.errorMessage,
          due_at: changes.dueAt,
          claimed_at: changes.claimedAt,
        },
      })),
      ATTEMPT_COLUMNS,
      ['status', 'updated_at'],
    );
    return rows.map((row, index) => {
      if (!row) return null;
      const { delivery } = sent[index];
      // A new object: the attempt's delivery stays as it was, what the change is announced against.
      return Object.assign(
        Object.create(Object.getPrototypeOf(delivery) as object) as WebhookDelivery,
        delivery,
        records[index].changes,
        {
          status: row.status as WebhookDeliveryStatus,
          updatedAt: row.updated_at as Date,
        },
      );
    });
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
    if (!row || !delivery || !isAttemptable(delivery.status)) return null;
    return { delivery, sealedApiSecret: row.sealed_api_secret as string | null };
  }

  /** What an attempt's outcome does to its delivery: its move, and what it writes (the retry due, what was sent and answered). */
  private attemptRecord(
    delivery: WebhookDelivery,
    attemptedAt: Date,
    outcome: AttemptOutcome,
  ): { action: DeliveryAction; changes: AttemptRecord } {
    const attemptCount = delivery.attemptCount + 1;
    const { action, nextRetryAt } = this.schedule.afterAttempt(attemptCount, outcome.ok);
    return {
      action,
      changes: {
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
      },
    };
  }
}
