import type { Core } from '../core';
import type { ProviderRegistry } from '../../providers/registry';
import type { ProviderEventHandler } from '../../providers/webhooks/port';
import { RequestContext, inTransaction } from '../shared/context';
import { DomainError, ErrorCode } from '../shared/errors';
import { enqueueJob } from '../shared/jobs';
import { ProviderEventOutcome } from './provider-event.entity';
import { ApplyProviderEventCommand, ReceiveProviderEventCommand } from './provider-events.commands';
import { APPLY_PROVIDER_EVENT_MAX_ATTEMPTS, APPLY_PROVIDER_EVENT_TASK } from './provider-events.job-names';

/** What a receipt did: `stored`, or `repeat` (the provider sent this event before: nothing written). */
export type ProviderEventReceipt = 'stored' | 'repeat';

/**
 * What an application did; `already-applied`: an earlier run committed it (nothing written).
 * `ignored`: why, when its handler said (no handler: none).
 */
export type ProviderEventApplied = { outcome: ProviderEventOutcome; ignored?: string } | 'already-applied';

/** The longest error text kept on a row. */
const MAX_ERROR_LENGTH = 2000;

interface StoredRow {
  provider: string;
  event_id: string;
  type: string;
  livemode: boolean;
  payload: Record<string, unknown>;
  received_at: Date;
}

/**
 * The providers' webhooks inbox (docs/architecture.md, Providers' webhooks: the inbox): every event
 * a provider sends is stored once, by (provider, event id), with the job that applies it in the
 * same transaction; the job runs its handler and marks it applied in one transaction, so a crash
 * anywhere runs the whole application again, and an applied event is never applied twice.
 */
export class ProviderEventInbox {
  constructor(
    private readonly providers: ProviderRegistry,
    /** The domain's services, handed to handlers; read when an event is applied, once every service is built. */
    private readonly core: () => Core,
  ) {}

  /**
   * Stores a verified event and enqueues its application, in one transaction, once per provider and
   * event id: a repeat (a provider retries until it hears 2xx, and may send one event twice at once)
   * writes nothing. An event of a type without a handler is stored already marked ignored.
   */
  async receive(ctx: RequestContext, command: ReceiveProviderEventCommand): Promise<ProviderEventReceipt> {
    const webhooks = this.providers.inboundWebhooksOf(command.provider);
    if (!webhooks)
      throw new DomainError(ErrorCode.NOT_FOUND, `This server receives no webhooks of ${command.provider}`);
    const { event } = command;
    const handled = handlerOf(webhooks.handlers, event.type) !== undefined;
    return inTransaction(ctx, async (tx) => {
      const stored: Array<{ id: string }> = await tx.em.query(
        `INSERT INTO provider_events (provider, event_id, type, livemode, payload, applied_at, outcome)
         VALUES ($1, $2, $3, $4, $5::jsonb, CASE WHEN $6 THEN NULL ELSE now() END, CASE WHEN $6 THEN NULL ELSE $7 END)
         ON CONFLICT (provider, event_id) DO NOTHING
         RETURNING id`,
        [
          command.provider,
          storable(event.id),
          storable(event.type),
          event.livemode,
          JSON.stringify(storable(event.payload)),
          handled,
          ProviderEventOutcome.IGNORED,
        ],
      );
      if (stored.length === 0) return 'repeat';
      if (handled)
        await enqueueJob(
          tx,
          APPLY_PROVIDER_EVENT_TASK,
          { id: stored[0].id },
          { maxAttempts: APPLY_PROVIDER_EVENT_MAX_ATTEMPTS },
        );
      return 'stored';
    });
  }

  /**
   * Applies a stored event: its handler's writes and the mark commit together. The row is locked
   * first, so a second run waits for the first and then finds it applied. A failing handler rolls
   * back, its error is recorded on the row, and the throw hands the retry to the job queue. A
   * provider whose webhooks the server no longer receives (its secret unset since) is such a
   * failure: the event waits, it is not ignored.
   */
  async apply(ctx: RequestContext, command: ApplyProviderEventCommand): Promise<ProviderEventApplied> {
    try {
      return await inTransaction(ctx, async (tx) => {
        const [row]: StoredRow[] = await tx.em.query(
          `SELECT provider, event_id, type, livemode, payload, received_at FROM provider_events
            WHERE id = $1 AND applied_at IS NULL FOR UPDATE`,
          [command.id],
        );
        if (!row) return 'already-applied';
        const webhooks = this.providers.inboundWebhooksOf(row.provider);
        if (!webhooks) throw new Error(`This server receives no webhooks of ${row.provider} now: the event waits`);
        const handler = handlerOf(webhooks.handlers, row.type);
        const handled = handler
          ? await handler({
              tx,
              core: this.core(),
              event: {
                provider: row.provider,
                id: row.event_id,
                type: row.type,
                livemode: row.livemode,
                payload: row.payload,
                receivedAt: row.received_at,
              },
            })
          : undefined;
        const ignored = handled ? handled.ignored : undefined;
        const outcome = handler && !ignored ? ProviderEventOutcome.APPLIED : ProviderEventOutcome.IGNORED;
        await tx.em.query(
          `UPDATE provider_events SET applied_at = now(), outcome = $2, attempts = attempts + 1 WHERE id = $1`,
          [command.id, outcome],
        );
        return { outcome, ignored };
      });
    } catch (error) {
      await this.recordFailure(ctx, command.id, error);
      throw error;
    }
  }

  /** Counts a failed try and keeps its error, outside the rolled-back transaction; a failure to record it changes nothing. */
  private async recordFailure(ctx: RequestContext, id: string, error: unknown): Promise<void> {
    const message = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(
      0,
      MAX_ERROR_LENGTH,
    );
    await ctx.dataSource
      .query(
        `UPDATE provider_events SET attempts = attempts + 1, last_error = $2 WHERE id = $1 AND applied_at IS NULL`,
        [id, message],
      )
      .catch(() => undefined);
  }
}

/** The handler of `type`, own properties only (a type named `constructor` or `toString` has none). */
const handlerOf = (handlers: Readonly<Record<string, ProviderEventHandler>>, type: string) =>
  Object.hasOwn(handlers, type) ? handlers[type] : undefined;

/**
 * A provider's value as PostgreSQL can keep it: its text and jsonb refuse the NUL character
 * (U+0000), which a provider may still send inside a string (a name a payer typed). Each one
 * becomes U+FFFD, the replacement character, so the event is stored and applied instead of
 * failing with a 500 that the provider would send again for days.
 */
function storable<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\uFFFD') as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storable(key), storable(item)])) as T;
  return value;
}
