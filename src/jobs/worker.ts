import { Logger, Runner, TaskList, run } from 'graphile-worker';
import { Core } from '../domain/core';

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
  };
}

const CRONTAB = ['0 * * * * purge_expired_idempotency_keys ?jobKey=purge_expired_idempotency_keys'].join('\n');

export async function startWorker(core: Core, databaseUrl: string, log: (line: string) => void): Promise<Runner> {
  return run({
    connectionString: databaseUrl,
    concurrency: core.config.workerConcurrency,
    noHandleSignals: true,
    pollInterval: 2000,
    taskList: taskList(core),
    crontab: CRONTAB,
    logger: new Logger(() => (level, message) => {
      if (level === 'error' || level === 'warning') log(`[worker] ${message}`);
    }),
  });
}

/** Stops taking jobs, waits for those in hand, and releases every database connection. */
export async function stopWorker(worker: Runner): Promise<void> {
  await worker.stop();
  await worker.promise.catch(() => undefined);
}
