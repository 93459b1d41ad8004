import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import net from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

export interface LoadResult {
  requests: number;
  perSecond: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
}

/** Runs bench/load.mjs in a child process against `url`. */
/** `perClient`: client i sends with `perClient[i % n]`'s headers and body instead (several callers at once). */
export function load(options: {
  url: string;
  method: string;
  headers: Record<string, string>;
  concurrency: number;
  seconds: number;
  body?: string;
  chargeBodies?: boolean;
  perClient?: Array<{ headers: Record<string, string>; body: string }>;
}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'load.mjs'), JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load generator exited with ${code}`)),
    );
  });
}

/**
 * Milliseconds since the epoch with sub-millisecond precision: comparable between the bench and
 * its child processes on the same machine (each process's `performance.now()` has its own origin).
 */
export const epochNow = () => performance.timeOrigin + performance.now();

/** A full garbage collection now, so memory read right after counts live objects only. */
export function collectGarbage() {
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

/** A child process that talks in JSON lines: one message per line on stdout, commands on stdin. */
// A child's messages are its JSON lines, read as they come (`any` by default, as the bench's callers read them).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export class JsonLinesChild<T = any> {
  private readonly messages: T[] = [];
  private waiting: Array<(message: T) => void> = [];
  private exitedWith: number | null = null;
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (line.trim()) this.deliver(JSON.parse(line) as T);
      }
    });
    this.exited = new Promise((resolve) =>
      child.on('exit', (code) => {
        this.exitedWith = code ?? -1;
        for (const waiter of this.waiting.splice(0)) waiter({ type: 'exit', code } as T);
        resolve(code);
      }),
    );
  }

  /** The next message, or `{ type: 'exit' }` if the child ends first; rejects after `timeoutMs`. */
  next(timeoutMs = 120_000): Promise<T> {
    if (this.messages.length > 0) return Promise.resolve(this.messages.shift()!);
    if (this.exitedWith !== null) return Promise.resolve({ type: 'exit', code: this.exitedWith } as T);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no message from the child process within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiting.push((message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  send(command: unknown) {
    this.child.stdin!.write(`${JSON.stringify(command)}\n`);
  }

  private deliver(message: T) {
    const waiter = this.waiting.shift();
    if (waiter) waiter(message);
    else this.messages.push(message);
  }
}

/** Starts a bench script (bench/<name>) in its own node process, speaking JSON lines. */
export function startJsonLinesChild(script: string, options: unknown, nodeFlags: string[] = []): JsonLinesChild {
  const child = spawn(process.execPath, [...nodeFlags, path.join(__dirname, script), JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new JsonLinesChild(child);
}

/**
 * With the environment variable `fileVariable` set to a path, a CPU profile of this process (the
 * app runs in it) while `work` runs, written there as a .cpuprofile (Chrome DevTools, speedscope).
 */
export async function profiled<T>(fileVariable: string, work: () => Promise<T>): Promise<T> {
  const file = process.env[fileVariable];
  if (!file) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}
