import { Runner, RunnerOptions, run } from 'graphile-worker';

/**
 * graphile-worker's runner, replaced when one of its job slots dies.
 *
 * graphile-worker 0.16 gives up a job slot for good when it cannot record a job's outcome (the
 * database went away while the job ran: "Failed to release job …; committing seppuku") and starts
 * no other in its place; once every slot of a process has died that way, the process stays up and
 * runs no job again, cron included (found by the reliability suite's PostgreSQL restart under
 * load, docs/reliability.md). On the first dead slot this stops the runner (its other slots finish
 * the jobs in hand) and starts a new one with the same options, trying again until the database
 * answers. The dead slot's job stays locked until the stalled-job release unlocks it
 * (`releaseStalledJobs`, and graphile-worker's own lock expiry), then runs again: at least once,
 * as every job here.
 */
export class JobRunner {
  private current!: Runner;
  private replacing: Promise<void> | null = null;
  private stopped = false;
  /** How many times the runner was replaced (tests and the log). */
  replacements = 0;

  private constructor(
    private readonly options: RunnerOptions,
    private readonly log: (line: string) => void,
    private readonly retryMs: number,
  ) {}

  static async start(options: RunnerOptions, log: (line: string) => void, retryMs = 1000): Promise<JobRunner> {
    const runner = new JobRunner(options, log, retryMs);
    runner.current = runner.watch(await run(options));
    return runner;
  }

  private watch(runner: Runner): Runner {
    runner.events.on('worker:fatalError', ({ error }) => this.replace(error));
    return runner;
  }

  private replace(error: unknown): void {
    if (this.stopped || this.replacing) return;
    this.log(
      `[worker] a job slot stopped (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); restarting the job runner`,
    );
    this.replacing = (async () => {
      await this.current.stop().catch(() => undefined);
      await this.current.promise.catch(() => undefined);
      while (!this.stopped) {
        try {
          this.current = this.watch(await run(this.options));
          this.replacements += 1;
          this.log('[worker] job runner restarted');
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, this.retryMs));
        }
      }
    })().finally(() => {
      this.replacing = null;
    });
  }

  /** Stops taking jobs and waits for those in hand (a replacement under way finishes first). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.replacing;
    await this.current.stop().catch(() => undefined);
    await this.current.promise.catch(() => undefined);
  }
}
