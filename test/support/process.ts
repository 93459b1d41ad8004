import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

/**
 * How long one process started through ts-node may take to do its job: it compiles the project's
 * source before it runs (about 5 s of CPU), which a busy shared machine stretches to minutes.
 */
export const SPAWN_PATIENCE_MS = 180_000;
/** A test's time limit by the processes it starts: one may take SPAWN_PATIENCE_MS, the others a minute each. */
export const spawnBudget = (spawns: number) => SPAWN_PATIENCE_MS + (spawns - 1) * 60_000 + 30_000;

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

export interface Spawned {
  child: ChildProcess;
  output: () => string;
  /** What the process wrote to stderr alone. */
  errorOutput: () => string;
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<string>;
  exited: Promise<number | null>;
}

/**
 * The built file of a project source run in this checkout, when the run's global setup has built
 * dist/ (TESSERA_TEST_DIST, set after scripts/launch.js found or made dist/ current): node loads
 * it in about 1.5 s where ts-node compiles the sources for about 10 s of CPU. A copy of the
 * checkout runs its own dist/ when it was copied from this one's; anything else (a test's own
 * TypeScript, a copy without dist/) runs through ts-node.
 */
function builtEntry(entry: string, cwd: string): string | null {
  if (process.env.TESSERA_TEST_DIST !== 'current') return null;
  const file = path.resolve(cwd, entry);
  const at = file.lastIndexOf(`${path.sep}src${path.sep}`);
  if (at < 0 || !file.endsWith('.ts')) return null;
  // The checkout the entry belongs to: this one, or a copy of it whose dist/ was copied with it.
  const root = file.slice(0, at);
  if (root !== ROOT && buildStamp(root) !== buildStamp(ROOT)) return null;
  return path.join(root, 'dist', path.relative(root, file).replace(/\.ts$/, '.js'));
}

const buildStamp = (root: string): string | null => {
  try {
    return fs.readFileSync(path.join(root, 'dist', '.build-stamp'), 'utf8');
  } catch {
    return null;
  }
};

/**
 * A module of the project's code as a process started by a test runs it: from dist/ when the run
 * built it (see builtEntry), otherwise from src/ through ts-node. A preload that patches the server
 * (test/support/crashing-server.ts) must patch the same module instances the server then uses.
 */
export function projectModule<T = unknown>(module: string): T {
  const tree = process.env.TESSERA_TEST_DIST === 'current' ? path.join(ROOT, 'dist', 'src') : path.join(ROOT, 'src');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(tree, module)) as T;
}

/** Runs a TypeScript entry point of the project (from dist/ when built, otherwise through ts-node) as a real child process. */
export function spawnTs(
  entry: string,
  args: string[],
  env: Record<string, string | undefined>,
  options: { cwd?: string; uid?: number; gid?: number; node?: string } = {},
): Spawned {
  const built = builtEntry(entry, options.cwd ?? ROOT);
  // ts-node of the folder it runs in, or of this checkout when that folder has none (a folder outside any checkout).
  const runner = built
    ? [built]
    : ['-r', require.resolve('ts-node/register/transpile-only', { paths: [options.cwd ?? ROOT, ROOT] }), entry];
  const child = spawn(options.node ?? process.execPath, [...runner, ...args], {
    cwd: options.cwd ?? ROOT,
    uid: options.uid,
    gid: options.gid,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
    errors += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp, timeoutMs = SPAWN_PATIENCE_MS) =>
    new Promise<string>((resolve, reject) => {
      const started = Date.now();
      const timer = setInterval(() => {
        const match = pattern.exec(output);
        if (match) {
          clearInterval(timer);
          resolve(match[0]);
        } else if (child.exitCode !== null || Date.now() - started > timeoutMs) {
          clearInterval(timer);
          reject(new Error(`did not see ${pattern} (exit ${child.exitCode}); output:\n${output}`));
        }
      }, 50);
    });
  return { child, output: () => output, errorOutput: () => errors, waitFor, exited };
}
