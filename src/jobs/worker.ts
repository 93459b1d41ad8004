import { Logger, Runner, TaskList, run, runMigrations } from 'graphile-worker';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { Core } from '../domain/core';
import { RequestContext } from '../domain/shared/context';
import { webhookTasks } from '../domain/webhooks/webhooks.jobs';
import { COMPLETE_3DS_TASK, RECONCILE_PENDING_TASK, SETTLE_PAYMENT_TASK } from '../domain/payments/payment.service';
import { EXPIRE_CHECKOUT_SESSION_TASK, RECONCILE_CHECKOUT_SESSION_TASK } from '../domain/checkout/checkout.service';
import { CHARGE_RECURRING_GIFT_TASK } from '../domain/recurring-gifts/recurring-gift.service';

/**
 * Background work on graphile-worker: a PostgreSQL-backed queue in the same database, picked up
 * through LISTEN/NOTIFY. Any number of worker processes may run against one database; each job
 * runs once at a time. `npm start` runs one worker in-process; `npm run worker` runs more.
 */
export function taskList(core: Core): TaskList {
  return {
    /** Forgets stored Idempotency-Key responses past their lifetime. */
    purge_expired_idempotency_keys: async (_payload, helpers) => {
      const purged = await core.idempotency.purgeExpired(core.dataSource);
      if (purged > 0) helpers.logger.info(`purged ${purged} expired idempotency keys`);
    },
    /** Deletes card tokens that expired more than a day ago. */
    purge_expired_card_tokens: async (_payload, helpers) => {
      const purged = await core.cardTokens.purgeExpired(RequestContext.system(core.dataSource, 'housekeeping'));
      if (purged > 0) helpers.logger.info(`purged ${purged} expired card tokens`);
    },
    /** Deletes sign-ups a day after they expired unconfirmed. */
    purge_expired_sign_ups: async (_payload, helpers) => {
      const purged = await core.signUps.purgeExpired(RequestContext.system(core.dataSource, 'housekeeping'));
      if (purged > 0) helpers.logger.info(`purged ${purged} expired sign-ups`);
    },
    /** Frees jobs held by workers that died (killed, crashed) so a live worker runs them. */
    release_stalled_jobs: async (_payload, helpers) => {
      const released = await releaseStalledJobs(core.dataSource, core.config.jobStallAfterMs);
      if (released > 0) helpers.logger.warn(`released jobs of ${released} stalled worker(s)`);
    },
    ...Object.fromEntries(Object.entries(webhookTasks(core.webhooks, () => RequestContext.system(core.dataSource, 'webhooks')))
      .map(([name, task]) => [name, (payload: unknown, helpers: { logger: { error(message: string): void } }) => task(payload, helpers.logger)])),
    /** Settles a captured card payment into the merchant wallet once its settlement delay has passed. */
    [SETTLE_PAYMENT_TASK]: async (payload) => {
      const { paymentId } = payload as { paymentId: string };
      await core.payments.settleDue(RequestContext.system(core.dataSource, 'settlement'), paymentId);
    },
    /** Payments left PENDING by a process that died mid-charge get their acquirer answer. */
    [RECONCILE_PENDING_TASK]: async (_payload, helpers) => {
      const reconciled = await core.payments.reconcilePending(RequestContext.system(core.dataSource, 'payments'));
      if (reconciled > 0) helpers.logger.warn(`reconciled ${reconciled} payment(s) left pending by an interrupted charge`);
    },
    /** The sandbox's automatic 3-D Secure challenge completion. */
    [COMPLETE_3DS_TASK]: async (payload) => {
      const { paymentId } = payload as { paymentId: string };
      await core.payments.autoCompleteThreeDSecure(RequestContext.system(core.dataSource, 'sandbox-3ds'), paymentId);
    },
    /** A checkout session reached its expiresAt unpaid. */
    [EXPIRE_CHECKOUT_SESSION_TASK]: async (payload) => {
      const { sessionId } = payload as { sessionId: string };
      await core.checkout.expireDue(RequestContext.system(core.dataSource, 'checkout'), sessionId);
    },
    /** Completes a checkout session whose 3-D Secure payment finished while the payer was away. */
    [RECONCILE_CHECKOUT_SESSION_TASK]: async (payload) => {
      const { sessionId } = payload as { sessionId: string };
      await core.checkout.reconcile(RequestContext.system(core.dataSource, 'checkout'), sessionId);
    },
    /** Charges a recurring gift whose nextChargeAt has come. */
    [CHARGE_RECURRING_GIFT_TASK]: async (payload) => {
      const { recurringGiftId } = payload as { recurringGiftId: string };
      await core.recurringGifts.chargeDue(RequestContext.system(core.dataSource, 'recurring-gifts'), recurringGiftId);
    },
  };
}

const quietLogger = (log: (line: string) => void) => new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning') log(`[worker] ${message}`);
});

/**
 * Creates or upgrades graphile-worker's schema, so jobs can be enqueued in SQL (as events do in
 * their transaction) before any worker has started against the database.
 */
export async function installJobQueue(databaseUrl: string, log: (line: string) => void = () => undefined): Promise<void> {
  await runMigrations({ connectionString: databaseUrl, logger: quietLogger(log) });
}

const CRONTAB = [
  '0 * * * * purge_expired_idempotency_keys ?jobKey=purge_expired_idempotency_keys',
  '* * * * * release_stalled_jobs ?jobKey=release_stalled_jobs',
  '30 * * * * purge_expired_card_tokens ?jobKey=purge_expired_card_tokens',
  '45 * * * * purge_expired_sign_ups ?jobKey=purge_expired_sign_ups',
  `* * * * * ${RECONCILE_PENDING_TASK} ?jobKey=${RECONCILE_PENDING_TASK}`,
].join('\n');

/**
 * A job can only be locked this long by a live worker (the longest task is one webhook attempt,
 * bounded by its timeout); a longer lock belongs to a worker that died. Those workers' jobs are
 * unlocked, and graphile-worker runs them again (at-least-once: receivers deduplicate).
 */
export async function releaseStalledJobs(dataSource: DataSource, stalledAfterMs: number): Promise<number> {
  const stalled: Array<{ locked_by: string }> = await dataSource.query(
    `SELECT DISTINCT locked_by FROM graphile_worker.jobs
     WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => $1)`,
    [stalledAfterMs / 1000],
  );
  if (stalled.length === 0) return 0;
  await dataSource.query(`SELECT graphile_worker.force_unlock_workers($1::text[])`, [stalled.map((row) => row.locked_by)]);
  return stalled.length;
}

export interface Worker {
  runner: Runner;
  pool: Pool;
}

export async function startWorker(core: Core, databaseUrl: string, log: (line: string) => void): Promise<Worker> {
  // The worker's own pool, so shutdown can close every one of its connections before the
  // (possibly embedded) database stops.
  const pool = new Pool({ connectionString: databaseUrl, max: core.config.workerConcurrency + 2 });
  pool.on('error', (error) => log(`[worker] database connection error: ${error.message}`));
  const released = await releaseStalledJobs(core.dataSource, core.config.jobStallAfterMs);
  if (released > 0) log(`[worker] released the jobs of ${released} stalled worker(s)`);
  const runner = await run({
    pgPool: pool,
    concurrency: core.config.workerConcurrency,
    noHandleSignals: true,
    pollInterval: core.config.workerPollIntervalMs,
    taskList: taskList(core),
    crontab: CRONTAB,
    logger: quietLogger(log),
  });
  return { runner, pool };
}

/** Stops taking jobs, waits for those in hand, and closes every database connection of the worker. */
export async function stopWorker(worker: Worker): Promise<void> {
  await worker.runner.stop();
  await worker.runner.promise.catch(() => undefined);
  await worker.pool.end();
}
