import { RequestContext } from './context';

export interface JobOptions {
  runAt?: Date | null;
  /** At most one pending job per key: adding again replaces the pending one. */
  jobKey?: string;
  maxAttempts?: number;
}

/** Enqueues a graphile-worker job in the caller's transaction: it runs only if that transaction commits. */
export async function enqueueJob(tx: RequestContext, task: string, payload: Record<string, unknown>, options: JobOptions = {}): Promise<void> {
  if (!tx.inTransaction) throw new Error('enqueueJob must run inside a transaction');
  await tx.em.query(
    `SELECT graphile_worker.add_job($1, $2::json, run_at := $3::timestamptz, job_key := $4::text, max_attempts := $5::int)`,
    [task, JSON.stringify(payload), options.runAt ?? null, options.jobKey ?? null, options.maxAttempts ?? 5],
  );
}
