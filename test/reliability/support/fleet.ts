import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Spawned, freePort, spawnTs } from '../../support/process';
import { waitUntil } from '../../support/wait';

/**
 * The deployment the probe of issue 26 ran against, as real processes: two API servers
 * (src/main.ts, no worker inside) and one worker (`tessera worker`), all on one database. Any of
 * them can be killed with SIGKILL and started again, or started to die at a crash point
 * (crash-points.ts).
 */
export type ProcessName = 'api-a' | 'api-b' | 'worker';
export const APIS: ProcessName[] = ['api-a', 'api-b'];

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** What a request came to: an answer, or the connection lost (the process died, or was not listening). */
export type Outcome<T = any> = Answer<T> | { lost: string };
export const isAnswer = <T>(outcome: Outcome<T>): outcome is Answer<T> => 'status' in outcome;

/** Settings every process of the suite shares: quick sandbox rails and worker, no rate limit in the way of the load. */
const SUITE_ENV: Record<string, string> = {
  TESSERA_MASTER_KEY: 'reliability-master-key',
  JWT_SECRET: 'reliability-jwt-secret',
  WORKER_IN_PROCESS: 'false',
  SEED_SANDBOX_BUSINESS: 'false',
  RATE_LIMIT_MAX: '1000000',
  WORKER_POLL_INTERVAL_MS: '100',
  WORKER_CONCURRENCY: '4',
  WEBHOOK_TIMEOUT_MS: '1000',
  // A job locked longer than this belongs to a dead worker: a restarted worker frees it at once.
  JOB_STALL_AFTER_MS: '2500',
  PAYOUT_SANDBOX_SETTLE_MS: '200',
  PAYMENT_SETTLEMENT_DELAY_S: '1',
  SANDBOX_3DS_AUTO_COMPLETE_MS: '200',
};

interface Member {
  name: ProcessName;
  port: number;
  process: Spawned | null;
}

export class Fleet {
  kills = 0;
  starts = 0;
  private readonly members = new Map<ProcessName, Member>();

  private constructor(
    readonly databaseUrl: string,
    private readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Starts the two API processes and the worker on `databaseUrl` (the first API process migrates it). */
  static async start(databaseUrl: string, env: Record<string, string> = {}): Promise<Fleet> {
    const fleet = new Fleet(databaseUrl, fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-reliability-')), env);
    for (const name of ['api-a', 'api-b', 'worker'] as ProcessName[]) {
      fleet.members.set(name, { name, port: name === 'worker' ? 0 : await freePort(), process: null });
    }
    await fleet.launch('api-a');
    await Promise.all([fleet.launch('api-b'), fleet.launch('worker')]);
    return fleet;
  }

  url(name: ProcessName): string {
    return `http://127.0.0.1:${this.member(name).port}`;
  }

  /** The process is running (started and not exited). */
  running(name: ProcessName): boolean {
    const spawned = this.member(name).process;
    return spawned !== null && spawned.child.exitCode === null && spawned.child.signalCode === null;
  }

  /**
   * Starts a process that is not running; with `crashAt`, one that kills itself with SIGKILL at that
   * step (crash-points.ts). Resolves when it serves (API) or runs jobs (worker).
   */
  async launch(name: ProcessName, crashAt?: string): Promise<void> {
    const member = this.member(name);
    if (this.running(name)) throw new Error(`${name} is already running`);
    const entry = name === 'worker' ? 'src/cli/index.ts' : 'src/main.ts';
    const args = name === 'worker' ? ['worker'] : [];
    const env: Record<string, string | undefined> = {
      ...SUITE_ENV,
      ...this.env,
      DATABASE_URL: this.databaseUrl,
      TESSERA_DATA_DIR: this.dataDir,
      PORT: member.port ? String(member.port) : undefined,
      TESSERA_TEST_CRASH_AT: crashAt,
      TESSERA_CRASH_ENTRY: crashAt ? entry : undefined,
    };
    const spawned = spawnTs(crashAt ? 'test/reliability/support/crash-points.ts' : entry, args, env);
    member.process = spawned;
    this.starts += 1;
    await spawned.waitFor(name === 'worker' ? /Worker running/ : /Ready on/);
  }

  /** kill -9, and waits until the process is gone. */
  async kill(name: ProcessName): Promise<void> {
    const spawned = this.member(name).process;
    if (!spawned || !this.running(name)) return;
    spawned.child.kill('SIGKILL');
    this.kills += 1;
    await spawned.exited;
  }

  /** kill -9, then a fresh start (with `crashAt`, one that will die at that step). */
  async restart(name: ProcessName, crashAt?: string): Promise<void> {
    await this.kill(name);
    await this.launch(name, crashAt);
  }

  /** Waits until a process started with a crash point has killed itself; counts the kill. */
  async crashed(name: ProcessName, timeoutMs = 120_000): Promise<void> {
    const spawned = this.member(name).process!;
    await waitUntil(() => !this.running(name), `${name} to die at ${spawned.child.spawnargs.join(' ')}`, timeoutMs, 50);
    if (spawned.child.signalCode !== 'SIGKILL')
      throw new Error(`${name} exited with ${spawned.child.exitCode} instead of being killed:\n${spawned.output()}`);
    this.kills += 1;
  }

  output(name: ProcessName): string {
    return this.member(name).process?.output() ?? '';
  }

  async request<T = any>(
    name: ProcessName,
    method: string,
    urlPath: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Outcome<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${this.url(name)}${urlPath}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        /* not JSON: kept as text */
      }
      return { status: response.status, headers: response.headers, body: body as T };
    } catch (error) {
      return { lost: (error as Error).cause ? String((error as { cause: unknown }).cause) : String(error) };
    }
  }

  /** A request that must be answered (setup and checks): throws with what came back otherwise. */
  async answer<T = any>(
    name: ProcessName,
    method: string,
    urlPath: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
    expected: number[] = [200, 201],
  ): Promise<Answer<T>> {
    const outcome = await this.request<T>(name, method, urlPath, options);
    if (!isAnswer(outcome) || !expected.includes(outcome.status)) {
      throw new Error(
        `${method} ${urlPath} on ${name}: ${JSON.stringify(isAnswer(outcome) ? { status: outcome.status, body: outcome.body } : outcome)}`,
      );
    }
    return outcome;
  }

  /** Stops every process (SIGKILL: nothing is left to finish) and removes the scratch directory. */
  async stop(): Promise<void> {
    for (const name of this.members.keys()) {
      const spawned = this.member(name).process;
      if (spawned && this.running(name)) {
        spawned.child.kill('SIGKILL');
        await spawned.exited;
      }
    }
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }

  private member(name: ProcessName): Member {
    const member = this.members.get(name);
    if (!member) throw new Error(`no process ${name}`);
    return member;
  }
}
