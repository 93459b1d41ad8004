import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded';
import { ROOT, SPAWN_PATIENCE_MS, Spawned, freePort, spawnBudget, spawnTs } from './support/process';
import { waitUntil } from './support/wait';

/**
 * `npm start` without DATABASE_URL, as a newcomer runs it: from any directory, as root or as an
 * ordinary user, and every way the embedded PostgreSQL can fail to start ends in one line that
 * names the cause and the fix, a non-zero exit and no stack trace.
 */
const MAIN = 'src/main.ts';
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

function canMount(): boolean {
  if (!asRoot) return false;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}
const mountable = canMount();
if (!asRoot)
  console.warn(
    '[embedded-postgres] the suite does not run as root: the root-only start-up cases (0700 checkout, system user) are skipped',
  );
else if (!mountable)
  console.warn(
    '[embedded-postgres] this machine does not allow mounting a tmpfs: the full and read-only disk cases are skipped',
  );
const rootTest = asRoot ? test : test.skip;
const mountTest = mountable ? test : test.skip;

const made: string[] = [];
/** A scratch directory with the given mode (the suite's own, so setting its mode loosens nothing of the user's). */
function scratch(prefix: string, mode = 0o755): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `tessera-${prefix}-`));
  fs.chmodSync(dir, mode);
  made.push(dir);
  return dir;
}
const mounts: string[] = [];
afterAll(() => {
  for (const mount of mounts) {
    try {
      execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
    } catch {
      /* already gone */
    }
  }
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

async function embeddedEnv(overrides: Record<string, string | undefined> = {}) {
  return {
    DATABASE_URL: undefined,
    TESSERA_DATA_DIR: path.join(scratch('data'), '.data'),
    TESSERA_SYSTEM_DIR: scratch('system'),
    PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
    ...overrides,
  };
}

/** Runs a start that must fail: returns the exit code and the lines on stderr. */
async function failedStart(env: Record<string, string | undefined>, options: Parameters<typeof spawnTs>[3] = {}) {
  const run = spawnTs(MAIN, [], env, options);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), SPAWN_PATIENCE_MS);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, errorLines: run.errorOutput().trim().split('\n'), output: run.output() };
}

function expectOneClearLine(result: { code: number | null; errorLines: string[]; output: string }, cause: RegExp) {
  expect(result.code).toBe(1);
  expect(result.errorLines).toHaveLength(1);
  expect(result.errorLines[0]).toMatch(/^\[tessera\] /);
  expect(result.errorLines[0]).toMatch(cause);
  expect(result.output).not.toMatch(/^\s+at /m);
}

async function ready(run: Spawned, port: string) {
  await run.waitFor(/Ready on/);
  expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  return /Started embedded PostgreSQL \(data in (\S+),/.exec(run.output())![1];
}

async function stopped(run: Spawned) {
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
}

/** A copy of the checkout (node_modules hard-linked) at `dir`, as a fresh clone would be. */
function copyCheckout(dir: string) {
  // dist/ too when the run built it: the copy's processes then load the built code (test/support/process.ts).
  for (const entry of [
    'src',
    'migrations',
    'package.json',
    'tsconfig.json',
    ...(process.env.TESSERA_TEST_DIST === 'current' ? ['dist'] : []),
  ]) {
    fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  }
  try {
    execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules')]);
  } catch {
    fs.cpSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), {
      recursive: true,
      verbatimSymlinks: true,
    });
  }
}

describe('npm start with the embedded PostgreSQL, from any directory', () => {
  rootTest(
    'as root, from a checkout inside a 0700 directory: the server runs as the postgres user from its own copy of the binaries, with its data in the system directory',
    async () => {
      const home = scratch('private-home', 0o700); // what mktemp -d and /root look like
      const checkout = path.join(home, 'tessera');
      copyCheckout(checkout);
      const env = await embeddedEnv({ TESSERA_DATA_DIR: undefined });
      const run = spawnTs(MAIN, [], env, { cwd: checkout });
      const clusterDir = await ready(run, env.PORT);

      expect(clusterDir.startsWith(path.join(env.TESSERA_SYSTEM_DIR, 'clusters') + path.sep)).toBe(true);
      const postgresUid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      expect(fs.statSync(clusterDir).uid).toBe(postgresUid);
      expect(fs.statSync(clusterDir).mode & 0o777).toBe(0o700);
      expect(fs.existsSync(path.join(env.TESSERA_SYSTEM_DIR, 'postgresql-18.4.0-beta.17', 'bin', 'postgres'))).toBe(
        true,
      );
      // The user's own directories keep their permissions; secrets stay in the checkout's .data.
      expect(fs.statSync(home).mode & 0o777).toBe(0o700);
      expect(fs.existsSync(path.join(checkout, '.data', 'secrets.json'))).toBe(true);
      await stopped(run);
      expect(fs.existsSync(path.join(clusterDir, 'postmaster.pid'))).toBe(false);

      // The next start finds the same cluster: the sandbox business is not seeded again.
      const again = spawnTs(MAIN, [], { ...env, LOG_LEVEL: 'silent' }, { cwd: checkout });
      expect(await ready(again, env.PORT)).toBe(clusterDir);
      expect(again.output()).not.toMatch(/Created the sandbox business/);
      await stopped(again);
    },
    spawnBudget(2),
  );

  test(
    'as an ordinary user: binaries from node_modules, data in the data directory',
    async () => {
      const home = scratch('user-home', 0o755);
      const env = await embeddedEnv({ TESSERA_DATA_DIR: path.join(home, '.data') });
      let options = {};
      if (asRoot) {
        // Drop to an unprivileged account, with a checkout that account can read.
        const checkout = path.join(home, 'tessera');
        copyCheckout(checkout);
        fs.mkdirSync(env.TESSERA_DATA_DIR);
        fs.chownSync(env.TESSERA_DATA_DIR, NOBODY, NOBODY);
        // The node binary too: it may sit where nobody else can enter (nvm under /root, a private prefix).
        const node = path.join(home, 'node');
        try {
          fs.linkSync(process.execPath, node);
        } catch {
          fs.copyFileSync(process.execPath, node);
        }
        options = { cwd: checkout, uid: NOBODY, gid: NOBODY, node };
      }
      const run = spawnTs(MAIN, [], { ...env, HOME: home }, options);
      const clusterDir = await ready(run, env.PORT);
      expect(clusterDir).toBe(path.join(env.TESSERA_DATA_DIR, 'pg'));
      expect(fs.readdirSync(env.TESSERA_SYSTEM_DIR)).toEqual([]);
      await stopped(run);
    },
    spawnBudget(2),
  );

  test(
    'a stale postmaster.pid left by kill -9 (whose pid now belongs to another program) does not stop the next start',
    async () => {
      const env = await embeddedEnv();
      const first = spawnTs(MAIN, [], env);
      const clusterDir = await ready(first, env.PORT);
      const pidFile = path.join(clusterDir, 'postmaster.pid');
      const postmaster = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
      first.child.kill('SIGKILL');
      process.kill(postmaster, 'SIGKILL');
      await first.exited;
      await waitUntil(
        () => !processAlive(postmaster) && !serverChildrenAlive(clusterDir),
        "the killed cluster's processes gone",
        undefined,
        50,
      );
      // The pid is recycled: another live program (this test process) has it now.
      const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
      lines[0] = String(process.pid);
      fs.writeFileSync(pidFile, lines.join('\n'));

      const second = spawnTs(MAIN, [], env);
      expect(await ready(second, env.PORT)).toBe(clusterDir);
      expect(second.output()).toMatch(/Removed a stale postmaster\.pid/);
      await stopped(second);
    },
    spawnBudget(2),
  );
});

describe('how the application reaches the embedded PostgreSQL', () => {
  /** The server address the application's connection reached: null over a Unix socket. */
  async function serverAddressWith(dataDir: string, systemDir: string, socket?: boolean) {
    const db = await startEmbeddedPostgres({
      dataDir,
      port: await freePort(),
      systemDir,
      systemUser: 'postgres',
      persistent: false,
      socket,
    });
    try {
      const client = new Client({ connectionString: db.url });
      await client.connect();
      try {
        return {
          url: db.url,
          address: (await client.query('SELECT inet_server_addr() AS address')).rows[0].address as string | null,
          clusterDir: db.clusterDir,
        };
      } finally {
        await client.end();
      }
    } finally {
      await db.stop();
    }
  }

  test('over the Unix socket in its cluster directory; over TCP with EMBEDDED_PG_SOCKET=off or when the socket path would be too long', async () => {
    const viaSocket = await serverAddressWith(path.join(scratch('data'), '.data'), scratch('system'));
    expect(viaSocket.address).toBeNull();
    expect(viaSocket.url).toContain(encodeURIComponent(viaSocket.clusterDir));

    const switchedOff = await serverAddressWith(path.join(scratch('data'), '.data'), scratch('system'), false);
    expect(switchedOff.address).toBe('127.0.0.1');

    // sun_path holds about 104 bytes: a cluster directory this deep cannot hold its socket.
    const deep = (root: string) => {
      const dir = path.join(root, 'd'.repeat(60), 'e'.repeat(60));
      fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
      fs.chmodSync(path.dirname(dir), 0o755);
      fs.chmodSync(dir, 0o755);
      return dir;
    };
    const tooLong = await serverAddressWith(path.join(deep(scratch('data')), '.data'), deep(scratch('system')));
    expect(tooLong.address).toBe('127.0.0.1');
  }, 180_000);
});

describe('every way the embedded PostgreSQL cannot start ends in one line with the cause and the fix', () => {
  test(
    'its port is in use by another program',
    async () => {
      const blocker = net.createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      const port = (blocker.address() as net.AddressInfo).port;
      try {
        const result = await failedStart(await embeddedEnv({ EMBEDDED_PG_PORT: String(port) }));
        expectOneClearLine(
          result,
          new RegExp(
            `Port ${port} on 127\\.0\\.0\\.1 is in use by another program.*set EMBEDDED_PG_PORT to a free port`,
          ),
        );
      } finally {
        blocker.close();
      }
    },
    spawnBudget(1),
  );

  test(
    'a data directory made by another PostgreSQL major version',
    async () => {
      const env = await embeddedEnv();
      const clusterDir = path.join(env.TESSERA_DATA_DIR, 'pg');
      fs.mkdirSync(clusterDir, { recursive: true });
      fs.writeFileSync(path.join(clusterDir, 'PG_VERSION'), '16\n');
      const result = await failedStart(env);
      expectOneClearLine(
        result,
        /created by PostgreSQL 16, but Tessera ships PostgreSQL 18\. Move that directory away/,
      );
      expect(fs.readdirSync(clusterDir)).toEqual(['PG_VERSION']);
    },
    spawnBudget(1),
  );

  test(
    'a data directory that cannot be written (a file stands in its path)',
    async () => {
      const file = path.join(scratch('blocked'), 'not-a-directory');
      fs.writeFileSync(file, '');
      const result = await failedStart(await embeddedEnv({ TESSERA_DATA_DIR: path.join(file, '.data') }));
      expectOneClearLine(
        result,
        /cannot write its data directory .*ENOTDIR.*Set TESSERA_DATA_DIR to a directory you can write/,
      );
    },
    spawnBudget(1),
  );

  mountTest(
    'a data directory on a read-only disk',
    async () => {
      const env = await embeddedEnv();
      fs.mkdirSync(env.TESSERA_DATA_DIR);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,ro', 'tmpfs', env.TESSERA_DATA_DIR]);
      mounts.push(env.TESSERA_DATA_DIR);
      const result = await failedStart(env);
      expectOneClearLine(result, /cannot write its data directory .*EROFS: read-only file system/);
    },
    spawnBudget(1),
  );

  mountTest(
    'a full disk under the data',
    async () => {
      const env = await embeddedEnv();
      const clusters = path.join(env.TESSERA_SYSTEM_DIR, 'clusters');
      fs.mkdirSync(clusters);
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0755', 'tmpfs', clusters]);
      mounts.push(clusters);
      const result = await failedStart(env);
      expectOneClearLine(
        result,
        /The disk holding the embedded PostgreSQL data .* is full .*Free some space, or set TESSERA_SYSTEM_DIR to a disk with room/,
      );
    },
    spawnBudget(1),
  );

  rootTest(
    'as root, a missing system user that cannot be created',
    async () => {
      const result = await failedStart(await embeddedEnv({ EMBEDDED_PG_SYSTEM_USER: 'no such:user' }));
      expectOneClearLine(
        result,
        /the system user "no such:user" .* does not exist and could not be created \(.+\)\. Create it .*set DATABASE_URL/,
      );
    },
    spawnBudget(1),
  );
});

describe('a configuration error at start is one line, without a stack trace', () => {
  test(
    'production without its secrets, public address and mail server',
    async () => {
      const result = await failedStart(
        await embeddedEnv({
          NODE_ENV: 'production',
          TESSERA_MASTER_KEY: '',
          JWT_SECRET: '',
          PUBLIC_BASE_URL: '',
          MAIL_SMTP_URL: '',
        }),
      );
      expectOneClearLine(
        result,
        /Configuration error: NODE_ENV=production requires TESSERA_MASTER_KEY, JWT_SECRET, PUBLIC_BASE_URL, MAIL_SMTP_URL, HOST to be set/,
      );
    },
    spawnBudget(1),
  );

  test(
    'production names its listen address: HOST is required (loopback is only the default outside production)',
    async () => {
      const result = await failedStart(
        await embeddedEnv({
          NODE_ENV: 'production',
          TESSERA_MASTER_KEY: 'k'.repeat(44),
          JWT_SECRET: 'j'.repeat(44),
          PUBLIC_BASE_URL: 'https://pay.example.com',
          MAIL_SMTP_URL: 'smtp://127.0.0.1:2525',
          MAIL_FROM: 'no-reply@pay.example.com',
          HOST: '',
        }),
      );
      expectOneClearLine(
        result,
        /^\[tessera\] Configuration error: NODE_ENV=production requires HOST to be set \(HOST: the address to listen on, such as 0\.0\.0\.0 in a container or behind a proxy; the default outside production is loopback only\)/,
      );
    },
    spawnBudget(1),
  );

  test(
    'production refuses to hand payers localhost links: PUBLIC_BASE_URL is required',
    async () => {
      const result = await failedStart(
        await embeddedEnv({
          NODE_ENV: 'production',
          TESSERA_MASTER_KEY: 'k'.repeat(44),
          JWT_SECRET: 'j'.repeat(44),
          PUBLIC_BASE_URL: '',
          MAIL_SMTP_URL: 'smtp://127.0.0.1:2525',
          MAIL_FROM: 'no-reply@pay.example.com',
          HOST: '0.0.0.0',
        }),
      );
      expectOneClearLine(
        result,
        /requires PUBLIC_BASE_URL to be set \(PUBLIC_BASE_URL: checkout and payment links must not point payers at localhost\)/,
      );
    },
    spawnBudget(1),
  );

  test(
    'a malformed number',
    async () => {
      const result = await failedStart(await embeddedEnv({ PORT: 'eighty' }));
      expectOneClearLine(result, /Configuration error: PORT must be a non-negative integer, got "eighty"/);
    },
    spawnBudget(1),
  );
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Server processes (backends, checkpointer …) of a cluster that may outlive a killed postmaster for a moment. */
function serverChildrenAlive(clusterDir: string): boolean {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/cwd`) === clusterDir; // every server process works inside its data directory
      } catch {
        return false;
      }
    });
}
