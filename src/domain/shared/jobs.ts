import type { DataSource } from 'typeorm';
import { RequestContext } from './context';

export interface JobOptions {
  runAt?: Date | null;
  /** At most one pending job per key: adding again replaces the pending one. */
  jobKey?: string;
  maxAttempts?: number;
  /**
   * graphile-worker's named queue: the jobs of one queue run one at a time, in order, while other
   * queues' jobs and unqueued jobs run beside them (a test clock's advance: one queue per business).
   */
  queueName?: string;
  /** Lower runs first among the jobs due (graphile-worker's priority; 0 by default). */
  priority?: number;
  /**
   * Written as the job's row alone, not through graphile-worker's `add_job`: no NOTIFY (a
   * notifying commit holds PostgreSQL's notification-queue lock through its WAL flush, so such
   * commits queue one behind another) and no upserts of the task and queue or key handling. For a
   * job due well after its transaction commits, without a key: the workers' poll
   * (`WORKER_POLL_INTERVAL_MS`) finds it when it is due. The card settlement job is one
   * (docs/performance.md).
   */
  rowOnly?: boolean;
}

/** A job to enqueue: its task, its payload and when and how it runs. */
export interface JobRequest {
  task: string;
  payload: Record<string, unknown>;
  options?: JobOptions;
}

/** How many parameters one `add_job` call takes. */
const ADD_JOB_PARAMS = 7;

/**
 * The graphile-worker `add_job` call of a job, with its parameters numbered from `first`: for
 * enqueueJob, and for a statement that enqueues jobs along with its own writes (EventService.record).
 */
export function addJobCall(job: JobRequest, first: number): { sql: string; params: unknown[] } {
  const options = job.options ?? {};
  const [task, payload, runAt, jobKey, maxAttempts, queueName, priority] = [0, 1, 2, 3, 4, 5, 6].map(
    (offset) => `$${first + offset}`,
  );
  return {
    sql:
      `graphile_worker.add_job(${task}, ${payload}::json, run_at := ${runAt}::timestamptz, job_key := ${jobKey}::text, max_attempts := ${maxAttempts}::int, ` +
      `queue_name := ${queueName}::text, priority := ${priority}::int)`,
    params: [
      job.task,
      JSON.stringify(job.payload),
      options.runAt ?? null,
      options.jobKey ?? null,
      options.maxAttempts ?? 5,
      options.queueName ?? null,
      options.priority ?? null,
    ],
  };
}

/**
 * The rows of `rowOnly` jobs (see JobOptions), inserted straight into graphile-worker's job table
 * (graphile-worker is pinned: package.json), its parameters numbered from `first`. A task's row in
 * graphile-worker's task table is made when this statement's snapshot has none (`add_job` tries on
 * every call); when a concurrent transaction made it meanwhile, `DO UPDATE` waits for it and
 * returns its id, which `DO NOTHING` would not.
 */
function jobRowsInsert(jobs: JobRequest[], first: number): { newTasksSql: string; sql: string; params: unknown[] } {
  const values = jobs.map((job, index) => {
    const options = job.options ?? {};
    if (options.jobKey !== undefined || options.queueName !== undefined || !options.runAt)
      throw new Error(`A row-only job has a runAt and no key or queue (${job.task})`);
    const [task, payload, runAt, maxAttempts] = [0, 1, 2, 3].map((offset) => `$${first + index * 4 + offset}`);
    return `(${task}::text, ${payload}::json, ${runAt}::timestamptz, ${maxAttempts}::smallint)`;
  });
  const tasks = `graphile_worker._private_tasks`;
  return {
    sql: `INSERT INTO graphile_worker._private_jobs (task_id, payload, run_at, max_attempts)
          SELECT coalesce((SELECT id FROM ${tasks} WHERE identifier = job.task), (SELECT id FROM new_tasks WHERE identifier = job.task)),
                 job.payload, job.run_at, job.max_attempts
            FROM (VALUES ${values.join(', ')}) AS job (task, payload, run_at, max_attempts)
          RETURNING id`,
    newTasksSql: `INSERT INTO ${tasks} (identifier)
          SELECT DISTINCT job.task FROM (VALUES ${values.join(', ')}) AS job (task, payload, run_at, max_attempts)
           WHERE NOT EXISTS (SELECT 1 FROM ${tasks} WHERE identifier = job.task)
          ON CONFLICT (identifier) DO UPDATE SET identifier = EXCLUDED.identifier RETURNING id, identifier`,
    params: jobs.flatMap((job) => [
      job.task,
      JSON.stringify(job.payload),
      job.options!.runAt,
      job.options?.maxAttempts ?? 5,
    ]),
  };
}

/**
 * CTEs that enqueue `jobs` along with a statement's own writes: `scheduled` (the `add_job` calls,
 * one row per job) and, for `rowOnly` jobs, `new_tasks` and `job_rows`; `countSql` counts the jobs
 * enqueued. Parameters are numbered from `first`.
 */
export function jobsCtes(jobs: JobRequest[], first: number): { sql: string; countSql: string; params: unknown[] } {
  const rowOnly = jobs.filter((job) => job.options?.rowOnly);
  const calls = jobs
    .filter((job) => !job.options?.rowOnly)
    .map((job, index) => addJobCall(job, first + index * ADD_JOB_PARAMS));
  const scheduled = `scheduled AS (${calls.map((call) => `SELECT job.id FROM ${call.sql} AS job`).join(' UNION ALL ') || 'SELECT NULL::bigint AS id WHERE false'})`;
  const callParams = calls.flatMap((call) => call.params);
  if (rowOnly.length === 0) return { sql: scheduled, countSql: '(SELECT count(*) FROM scheduled)', params: callParams };
  const rows = jobRowsInsert(rowOnly, first + callParams.length);
  return {
    sql: `${scheduled}, new_tasks AS (${rows.newTasksSql}), job_rows AS (${rows.sql})`,
    countSql: '(SELECT count(*) FROM scheduled) + (SELECT count(*) FROM job_rows)',
    params: [...callParams, ...rows.params],
  };
}

/** Enqueues a graphile-worker job in the caller's transaction: it runs only if that transaction commits. */
export async function enqueueJob(
  tx: RequestContext,
  task: string,
  payload: Record<string, unknown>,
  options: JobOptions = {},
): Promise<void> {
  if (!tx.inTransaction) throw new Error('enqueueJob must run inside a transaction');
  const enqueued = jobsCtes([{ task, payload, options }], 1);
  await tx.em.query(`WITH ${enqueued.sql} SELECT ${enqueued.countSql} AS jobs`, enqueued.params);
}

/**
 * A SQL condition, for a statement's own WHERE: a job keyed by the SQL expression `keySql` is
 * waiting, retrying or running (a job that has used its last attempt and is not locked is as good
 * as gone). graphile-worker's job view is read here only, beside the other statements on its schema.
 */
export const liveJobWithKey = (keySql: string): string =>
  `EXISTS (SELECT 1 FROM graphile_worker.jobs job
                         WHERE job.key = ${keySql} AND (job.attempts < job.max_attempts OR job.locked_at IS NOT NULL))`;

/**
 * A job can only be locked this long by a live worker (the longest task is one webhook attempt,
 * bounded by its timeout); a longer lock belongs to a worker that died. Those workers' jobs are
 * unlocked, and graphile-worker runs them again (at-least-once: receivers deduplicate). Answers how
 * many workers' locks were released.
 */
export async function releaseStalledJobs(dataSource: DataSource, stalledAfterMs: number): Promise<number> {
  const stalled: Array<{ locked_by: string }> = await dataSource.query(
    `SELECT DISTINCT locked_by FROM graphile_worker.jobs
     WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => $1)`,
    [stalledAfterMs / 1000],
  );
  if (stalled.length === 0) return 0;
  await dataSource.query(`SELECT graphile_worker.force_unlock_workers($1::text[])`, [
    stalled.map((row) => row.locked_by),
  ]);
  return stalled.length;
}

/** Where a task reports what it did or what failed inside Tessera (graphile-worker's logger). */
export interface TaskLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** One background task of an area: its payload as enqueued, a log, and a system context named for the area. */
export type AreaTask = (payload: unknown, log: TaskLog, system: () => RequestContext) => Promise<void>;

/**
 * An area's job catalog (`<area>.jobs.ts`): its tasks by name and its cron lines (graphile-worker's
 * crontab format). src/jobs/worker.ts only gathers the catalogs.
 */
export interface AreaJobs {
  /** The name of the system actor its tasks run as (`RequestContext.system(…, name)`). */
  actor: string;
  tasks: Record<string, AreaTask>;
  crontab?: string[];
}

/** A cron line that runs `task` on `schedule` at most once at a time (keyed by its name). */
export const cronLine = (schedule: string, task: string) => `${schedule} ${task} ?jobKey=${task}`;
