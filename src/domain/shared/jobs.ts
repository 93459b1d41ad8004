import { RequestContext } from './context';

export interface JobOptions {
  runAt?: Date | null;
  /** At most one pending job per key: adding again replaces the pending one. */
  jobKey?: string;
  maxAttempts?: number;
}

/** A job to enqueue: its task, its payload and when and how it runs. */
export interface JobRequest {
  task: string;
  payload: Record<string, unknown>;
  options?: JobOptions;
}

/**
 * The graphile-worker `add_job` call of a job, with its parameters numbered from `first`: for
 * enqueueJob, and for a statement that enqueues jobs along with its own writes (EventService.record).
 */
export function addJobCall(job: JobRequest, first: number): { sql: string; params: unknown[] } {
  const options = job.options ?? {};
  const [task, payload, runAt, jobKey, maxAttempts] = [0, 1, 2, 3, 4].map((offset) => `$${first + offset}`);
  return {
    sql: `graphile_worker.add_job(${task}, ${payload}::json, run_at := ${runAt}::timestamptz, job_key := ${jobKey}::text, max_attempts := ${maxAttempts}::int)`,
    params: [job.task, JSON.stringify(job.payload), options.runAt ?? null, options.jobKey ?? null, options.maxAttempts ?? 5],
  };
}

/**
 * A SELECT that enqueues `jobs` (one row per job), for a CTE of a statement that enqueues along
 * with its writes; its parameters are numbered from `first`.
 */
export function addJobsSelect(jobs: JobRequest[], first: number): { sql: string; params: unknown[] } {
  const calls = jobs.map((job, index) => addJobCall(job, first + index * 5));
  return {
    sql: calls.map((call) => `SELECT job.id FROM ${call.sql} AS job`).join(' UNION ALL ') || 'SELECT NULL::bigint AS id WHERE false',
    params: calls.flatMap((call) => call.params),
  };
}

/** Enqueues a graphile-worker job in the caller's transaction: it runs only if that transaction commits. */
export async function enqueueJob(tx: RequestContext, task: string, payload: Record<string, unknown>, options: JobOptions = {}): Promise<void> {
  if (!tx.inTransaction) throw new Error('enqueueJob must run inside a transaction');
  const call = addJobCall({ task, payload, options }, 1);
  await tx.em.query(`SELECT ${call.sql}`, call.params);
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
