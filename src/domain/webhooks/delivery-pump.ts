import { Client } from 'pg';
import { TesseraPubSub } from '../events/pubsub';
import { WebhookTopic } from './webhooks.topics';
import { RequestContext } from '../shared/context';
import { DueDelivery, SentAttempt } from './delivery-attempts';
import { WEBHOOKS_DUE_CHANNEL, WebhookService } from './webhook.service';

export interface DeliveryPumpOptions {
  /** Attempts in flight at most (`WORKER_CONCURRENCY`). */
  concurrency: number;
  /** How often it looks for due deliveries when nothing wakes it (`WORKER_POLL_INTERVAL_MS`): retries fall due this way. */
  pollIntervalMs: number;
  /** Where it LISTENs for deliveries made due by other processes (WEBHOOKS_DUE_CHANNEL). */
  databaseUrl: string;
  /** A claim older than this belongs to a dead worker (`JOB_STALL_AFTER_MS`, longer than two attempts' timeouts: loadConfig), and is claimed again. */
  stalledAfterMs: number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A worker's webhook delivery pump. It claims due deliveries in batches (one statement for up to
 * a batch, `WebhookService.claimDue`), keeps up to `concurrency` requests in flight, and records
 * their outcomes in batches too (one UPDATE for the outcomes that arrived while the previous one
 * was written, `record`): under load a share of two statements per delivery, where a
 * graphile-worker job per attempt took four (fetch the job, read the delivery, record, complete
 * the job) plus an `add_job` with its NOTIFY in the event's transaction. A request's slot is free
 * as soon as it is answered (its outcome is written meanwhile), and the next batch is claimed
 * while the last one is still being sent, so a receiver never waits for the database between two
 * deliveries. It claims after a commit that made deliveries due (`WebhookTopic.WEBHOOKS_DUE`, across
 * processes when Redis is configured), while a backlog lasts, and otherwise every
 * `pollIntervalMs`. The claims of a worker that died are taken over once they are older than
 * `stalledAfterMs`, and another pump attempts those deliveries again: at least once, as before
 * (graphile-worker's locks were released the same way).
 */
export class DeliveryPump {
  /** Claimed, not yet sent. */
  private readonly claimed: DueDelivery[] = [];
  /** Requests in flight. */
  private sending = 0;
  /** Attempts not yet recorded (sending or writing their outcome). */
  private readonly unfinished = new Set<Promise<void>>();
  private running = false;
  /** Set when something may be due (a wake-up, a backlog): the loop claims again before it sleeps. */
  private woken = false;
  /** The last claim was full, so more deliveries may be waiting. */
  private backlog = false;
  private sleeping: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private subscription: AsyncIterator<unknown> | null = null;
  /** The LISTEN connection; null until connected, and again after it failed (reconnected at the next turn of the loop). */
  private listener: Client | null = null;
  private listening = false;
  /** Sent attempts waiting for the outcome write in progress to finish; written together next. */
  private readonly toRecord: Array<{ sent: SentAttempt; recorded: () => void; failed: (error: unknown) => void }> = [];
  /** An outcome write is in progress. */
  private recording = false;

  constructor(
    private readonly webhooks: Pick<WebhookService, 'claimDue' | 'send' | 'writeAllSent' | 'announceRecorded'>,
    private readonly system: () => RequestContext,
    private readonly pubSub: TesseraPubSub,
    private readonly options: DeliveryPumpOptions,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    const due = this.pubSub.subscribe(WebhookTopic.WEBHOOKS_DUE);
    const iterator = due[Symbol.asyncIterator]();
    this.subscription = iterator;
    void (async () => {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) this.wake();
    })().catch(() => undefined);
    this.loop = this.run();
  }

  /** Stops claiming, sends what it has claimed, and waits for every attempt to be recorded. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.subscription?.return?.();
    await this.loop;
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
    while (this.unfinished.size > 0 || this.claimed.length > 0) {
      this.sendClaimed();
      await Promise.all([...this.unfinished]);
    }
  }

  private wake(): void {
    this.woken = true;
    const sleeping = this.sleeping;
    this.sleeping = null;
    sleeping?.();
  }

  private async run(): Promise<void> {
    const { concurrency, pollIntervalMs } = this.options;
    while (this.running) {
      // Wake-ups of the same turn (requests answered together) make one claim.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (!this.listening) await this.listen();
      this.woken = false;
      // One batch claimed ahead of the requests in flight, at most. Outcomes waiting for their
      // write do not count: a request's slot is free once it is answered.
      const room = 2 * concurrency - this.sending - this.claimed.length;
      if (room > 0) await this.claim(Math.min(room, concurrency));
      if (!this.running) break;
      if (this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        this.sleeping = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** LISTENs on WEBHOOKS_DUE_CHANNEL; until that works, polling alone finds due deliveries. */
  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.options.databaseUrl });
    this.listening = true;
    this.listener = client;
    const lost = (error?: Error) => {
      if (this.listener === client && this.running)
        this.log(`[webhooks] the delivery pump's LISTEN connection was lost${error ? `: ${error.message}` : ''}`);
      if (this.listener === client) this.listener = null;
      this.listening = false;
    };
    client.on('notification', () => this.wake());
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${WEBHOOKS_DUE_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
      await client.end().catch(() => undefined);
    }
  }

  private async claim(limit: number): Promise<void> {
    try {
      const claimed = await this.webhooks.claimDue(this.system(), limit, this.options.stalledAfterMs);
      this.backlog = claimed.length === limit;
      this.claimed.push(...claimed);
    } catch (error) {
      this.log(`[webhooks] claiming due deliveries failed: ${messageOf(error)}`);
    }
    this.sendClaimed();
  }

  /** Sends claimed deliveries while slots are free; a backlog running low wakes the loop to claim the next batch. */
  private sendClaimed(): void {
    while (this.sending < this.options.concurrency && this.claimed.length > 0) this.attempt(this.claimed.shift()!);
    if (this.backlog && this.running && this.claimed.length < this.options.concurrency) this.wake();
  }

  private attempt(due: DueDelivery): void {
    const ctx = this.system();
    this.sending += 1;
    const attempt = (async () => {
      let sent: SentAttempt;
      try {
        sent = await this.webhooks.send(ctx, due, (error) =>
          this.log(`[webhooks] delivery ${due.delivery.id}: the attempt failed inside Tessera: ${messageOf(error)}`),
        );
      } finally {
        this.sending -= 1;
        this.sendClaimed();
      }
      await this.record(sent);
    })()
      .catch((error) => {
        // Not recorded (the database failed): the claim goes stale and another attempt follows.
        this.log(`[webhooks] delivery ${due.delivery.id}: the attempt could not be recorded: ${messageOf(error)}`);
      })
      .finally(() => {
        this.unfinished.delete(attempt);
        if (this.backlog && this.running) this.wake();
      });
    this.unfinished.add(attempt);
  }

  /**
   * Records a sent attempt: at once when no outcome write is in progress, else with every outcome
   * that arrives meanwhile, in the next write (`writeAllSent`, one statement). Under load the
   * outcomes of a pump's requests in flight are written in one statement instead of one each.
   */
  private record(sent: SentAttempt): Promise<void> {
    return new Promise<void>((recorded, failed) => {
      this.toRecord.push({ sent, recorded, failed });
      this.writeOutcomes();
    });
  }

  private writeOutcomes(): void {
    if (this.recording || this.toRecord.length === 0) return;
    const batch = this.toRecord.splice(0);
    this.recording = true;
    void this.recordEach(batch)
      .catch(async (error) => {
        if (batch.length === 1) {
          batch[0].failed(error);
          return;
        }
        // The statement failed, so none was written: each is written on its own, so one that
        // cannot be recorded does not keep the others' outcomes from their rows.
        await Promise.all(batch.map((one) => this.recordEach([one]).catch(one.failed)));
      })
      .finally(() => {
        this.recording = false;
        this.writeOutcomes();
      });
  }

  /**
   * One statement for the batch; each attempt hears whether its row was there to record it on.
   * Announcing the written outcomes to subscribers comes after, and its failure is only logged: the
   * outcomes are written, and writing them again would count their attempts twice.
   */
  private async recordEach(batch: typeof this.toRecord): Promise<void> {
    const recorded = await this.webhooks.writeAllSent(
      this.system(),
      batch.map(({ sent }) => sent),
    );
    batch.forEach(({ sent, recorded: done, failed }, index) =>
      recorded[index]
        ? done()
        : failed(new Error(`Webhook delivery ${sent.delivery.id} disappeared during its attempt`)),
    );
    await this.webhooks
      .announceRecorded(
        recorded,
        batch.map(({ sent }) => sent),
      )
      .catch((error) =>
        this.log(`[webhooks] recorded attempts could not be announced to subscribers: ${messageOf(error)}`),
      );
  }
}
