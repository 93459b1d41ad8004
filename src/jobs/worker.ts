import { Logger, TaskList, runMigrations } from 'graphile-worker';
import { Pool } from 'pg';
import { AREAS } from '../areas';
import { whileHoldingMigrationLock } from '../db/migration-lock';
import { Core } from '../domain/core';
import { RequestContext } from '../domain/shared/context';
import { housekeepingJobs } from '../domain/housekeeping.jobs';
import { AreaJobs, cronLine, releaseStalledJobs } from '../domain/shared/jobs';
import { DeliveryPump } from '../domain/webhooks';
import { JobRunner } from './job-runner';

/**
 * Background work on graphile-worker: a PostgreSQL-backed queue in the same database, picked up
 * through LISTEN/NOTIFY. Any number of worker processes may run against one database; each job
 * runs once at a time. `npm start` runs one worker in-process; `npm run worker` runs more.
 */
/** Every area's job catalog (src/areas.ts), and the kernel's: housekeeping and the release of stalled jobs. */
export function areaJobs(core: Core): AreaJobs[] {
  return [
    ...AREAS.flatMap((area) => area.domain.jobs?.(core) ?? []),
    housekeepingJobs(core.dataSource, core.idempotency, core.cardTokens, core.signUps),
    {
      actor: 'worker',
      tasks: {
        /** Frees jobs held by workers that died (killed, crashed) so a live worker runs them. */
        release_stalled_jobs: async (_payload, log) => {
          const released = await releaseStalledJobs(core.dataSource, core.config.jobStallAfterMs);
          if (released > 0) log.warn(`released jobs of ${released} stalled worker(s)`);
        },
      },
      crontab: [cronLine('* * * * *', 'release_stalled_jobs')],
    },
  ];
}

export function taskList(core: Core): TaskList {
  const list: TaskList = {};
  for (const area of areaJobs(core)) {
    const system = () => RequestContext.system(core.dataSource, area.actor);
    for (const [name, task] of Object.entries(area.tasks)) {
      if (list[name]) throw new Error(`Two areas declare the job task ${name}`);
      list[name] = (payload, helpers) => task(payload, helpers.logger, system);
    }
  }
  return list;
}

const crontabOf = (core: Core) =>
  areaJobs(core)
    .flatMap((area) => area.crontab ?? [])
    .join('\n');

// graphile-worker's LogLevel is an ambient const enum, which isolated-module builds cannot read: its levels compare as the strings they are.
const isLoud = (level: string) => level === 'error' || level === 'warning';
const quietLogger = (log: (line: string) => void) =>
  new Logger(() => (level, message) => {
    if (isLoud(level)) log(`[worker] ${message}`);
  });

/**
 * Creates or upgrades graphile-worker's schema, so jobs can be enqueued in SQL (as events do in
 * their transaction) before any worker has started against the database.
 */
export async function installJobQueue(
  databaseUrl: string,
  log: (line: string) => void = () => undefined,
): Promise<void> {
  await whileHoldingMigrationLock(databaseUrl, () =>
    runMigrations({ connectionString: databaseUrl, logger: quietLogger(log) }),
  );
}

export interface Worker {
  runner: JobRunner;
  pool: Pool;
  deliveries: DeliveryPump;
}

export async function startWorker(core: Core, databaseUrl: string, log: (line: string) => void): Promise<Worker> {
  // The worker's own pool, so shutdown can close every one of its connections before the
  // (possibly embedded) database stops.
  const pool = new Pool({ connectionString: databaseUrl, max: core.config.workerConcurrency + 2 });
  pool.on('error', (error) => log(`[worker] database connection error: ${error.message}`));
  const released = await releaseStalledJobs(core.dataSource, core.config.jobStallAfterMs);
  if (released > 0) log(`[worker] released the jobs of ${released} stalled worker(s)`);
  const runner = await JobRunner.start(
    {
      pgPool: pool,
      concurrency: core.config.workerConcurrency,
      noHandleSignals: true,
      pollInterval: core.config.workerPollIntervalMs,
      taskList: taskList(core),
      crontab: crontabOf(core),
      logger: quietLogger(log),
    },
    log,
  );
  // Webhook deliveries are not graphile-worker jobs: the pump claims due rows (docs/webhooks.md).
  const deliveries = new DeliveryPump(
    core.webhooks,
    () => RequestContext.system(core.dataSource, 'webhooks'),
    core.pubSub,
    {
      concurrency: core.config.workerConcurrency,
      pollIntervalMs: core.config.workerPollIntervalMs,
      stalledAfterMs: core.config.jobStallAfterMs,
      databaseUrl,
    },
    log,
  );
  deliveries.start();
  return { runner, pool, deliveries };
}

/** Stops taking jobs, waits for those in hand, and closes every database connection of the worker. */
export async function stopWorker(worker: Worker): Promise<void> {
  await worker.deliveries.stop();
  await worker.runner.stop();
  await worker.pool.end();
}
