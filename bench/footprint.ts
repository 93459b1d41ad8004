/**
 * Footprint: what `npm start` costs on an idle machine. `npm start` builds dist/ when a source
 * changed (scripts/launch.js) and then runs `dist/src/main.js`; the bench builds once and times the server's own
 * start: on a fresh data directory (the embedded PostgreSQL initialised, migrations run, the sandbox
 * business seeded), its RSS once idle; then a warm start on the same data directory, spawn to
 * /readyz 200. Baseline in the same run: a bare Fastify hello-world process, started and read alike.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './util';

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);
const ROOT = path.resolve(__dirname, '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');

const HELLO_WORLD = `
const app = require('fastify')();
app.get('/readyz', async () => ({ status: 'ok' }));
app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

interface Started {
  child: ChildProcess;
  startMs: number;
  databaseUpMs: number | null;
}
interface Footprint {
  startMs: number;
  databaseUpMs: number | null;
  rssBytes: number;
  companions: { processes: number; pssBytes: number };
}

export async function benchFootprint() {
  buildOnce();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-footprint-'));
  const systemDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-footprint-system-'));
  fs.chmodSync(dataDir, 0o777);
  fs.chmodSync(systemDir, 0o755);
  try {
    const env = {
      TESSERA_DATA_DIR: dataDir,
      TESSERA_SYSTEM_DIR: systemDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    };
    const fresh = await measure([MAIN], env);
    const warm = await measure([MAIN], env);
    const bare = await measure(['-e', HELLO_WORLD], {});
    console.log(
      `footprint: node dist/src/main.js (npm start after its build), idle ${IDLE_SECONDS} s after /readyz answered 200`,
    );
    console.log(
      `footprint: fresh data dir: ready in ${seconds(fresh.startMs)}${databasePart(fresh)}, idle RSS ${mib(fresh.rssBytes)} (embedded PostgreSQL besides: ${fresh.companions.processes} processes, ${mib(fresh.companions.pssBytes)} PSS)`,
    );
    console.log(
      `footprint: warm start (same data dir): ready in ${seconds(warm.startMs)}${databasePart(warm)}, idle RSS ${mib(warm.rssBytes)} (embedded PostgreSQL besides: ${warm.companions.processes} processes, ${mib(warm.companions.pssBytes)} PSS)`,
    );
    console.log(
      `baseline:  bare Fastify hello-world: ready in ${seconds(bare.startMs)}, idle RSS ${mib(bare.rssBytes)}`,
    );
    console.log(
      `ratio:     warm start ${(warm.startMs / bare.startMs).toFixed(1)}x the baseline's; idle RSS ${(fresh.rssBytes / bare.rssBytes).toFixed(1)}x`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(systemDir, { recursive: true, force: true });
  }
}

/** `npm start`'s build, once (nothing when dist/ is current): the start times below are the server's, not the compiler's. */
function buildOnce() {
  const started = performance.now();
  const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`npm run build exited with ${built.status}`);
  console.log(
    `footprint: npm run build (npm start's build step) in ${seconds(performance.now() - started)}, not counted below`,
  );
}

/** Starts a node process, times it to /readyz 200, lets it idle, reads its memory, and stops it. */
async function measure(args: string[], env: Record<string, string>): Promise<Footprint> {
  const started = await start(args, env);
  try {
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    return {
      startMs: started.startMs,
      databaseUpMs: started.databaseUpMs,
      rssBytes: rssOf(started.child.pid!),
      companions: descendantsMemory(started.child.pid!),
    };
  } finally {
    await stop(started.child);
  }
}

async function start(args: string[], env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The server says when its embedded PostgreSQL is up: the start splits into the database's part and the rest.
  let databaseUpMs: number | null = null;
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (databaseUpMs === null && output.includes('Started embedded PostgreSQL'))
      databaseUpMs = performance.now() - spawnedAt;
  });
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${args[0]} exited with ${child.exitCode} before it was ready:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${args[0]} was not ready within 180 s:\n${output}`);
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return { child, startMs: performance.now() - spawnedAt, databaseUpMs };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/** VmRSS of one process, in bytes. */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * The processes a server started (the embedded PostgreSQL's), summed as PSS: shared pages are
 * counted once among them, where summed RSS would count PostgreSQL's shared buffers per backend.
 */
function descendantsMemory(pid: number): { processes: number; pssBytes: number } {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended meanwhile
    }
  }
  const isDescendant = (candidate: number): boolean => {
    for (let parent = parentOf.get(candidate); parent !== undefined && parent > 1; parent = parentOf.get(parent))
      if (parent === pid) return true;
    return false;
  };
  const descendants = [...parentOf.keys()].filter(isDescendant);
  const pssBytes = descendants.reduce((sum, descendant) => {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${descendant}/smaps_rollup`, 'utf8'));
      return sum + (match ? Number(match[1]) * 1024 : 0);
    } catch {
      return sum;
    }
  }, 0);
  return { processes: descendants.length, pssBytes };
}

const databasePart = ({ databaseUpMs }: Footprint) =>
  databaseUpMs === null ? '' : ` (embedded PostgreSQL up at ${seconds(databaseUpMs)})`;
const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(2)} s`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
