import { DataSource } from 'typeorm';
import { Config } from '../config';
import { StartupError } from '../startup-error';
import { createDataSource } from './data-source';
import { EmbeddedDatabase, startEmbeddedPostgres } from './embedded';

/** An open database: DATABASE_URL, or the embedded PostgreSQL of the data directory. */
export interface Database {
  dataSource: DataSource;
  databaseUrl: string;
  close: () => Promise<void>;
}

export interface OpenDatabaseOptions {
  /**
   * false (the CLI and workers): open only a database that exists. Without DATABASE_URL, a data
   * directory with no embedded cluster is refused with one line and nothing is created; only the
   * server (true, the default) initialises one.
   */
  create?: boolean;
  /** The embedded cluster is deleted when the database closes (the bench's throwaway database). */
  throwaway?: boolean;
  log?: (line: string) => void;
}

/** Opens the database (no migrations: see runMigrations and requireCurrentSchema). Imports nothing of the domain's services. */
export async function openDatabase(
  config: Config,
  { create = true, throwaway = false, log = () => undefined }: OpenDatabaseOptions = {},
): Promise<Database> {
  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPgPort,
      systemDir: config.systemDir,
      systemUser: config.embeddedPgSystemUser,
      socket: config.embeddedPgSocket,
      persistent: !throwaway,
      create,
      log,
    });
    log(
      embedded.sharedWithPid === null
        ? `Started embedded PostgreSQL (data in ${embedded.clusterDir}, port ${embedded.port})`
        : `Connected to the embedded PostgreSQL another Tessera process started (pid ${embedded.sharedWithPid}, data in ${embedded.clusterDir}, port ${embedded.port})`,
    );
    databaseUrl = embedded.url;
  }
  const dataSource = createDataSource({ url: databaseUrl });
  try {
    await dataSource.initialize();
  } catch (error) {
    await embedded?.stop();
    throw config.databaseUrl ? cannotOpen(config.databaseUrl, error) : error;
  }
  return {
    dataSource,
    databaseUrl,
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.stop();
    },
  };
}

/** DATABASE_URL without its password, for messages. */
function shown(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    url.password = '';
    return url.toString();
  } catch {
    return 'a URL that cannot be parsed';
  }
}

function cannotOpen(databaseUrl: string, error: unknown): StartupError {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return new StartupError(
    `Cannot open the database at DATABASE_URL (${shown(databaseUrl)}): ${reason}. Check that its server runs and that DATABASE_URL names it.`,
  );
}

/** Tessera's migrations this database has not run, in order (all of them on an empty database). */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const [{ present }] = await dataSource.query<Array<{ present: boolean }>>(
    `SELECT to_regclass($1) IS NOT NULL AS present`,
    [table],
  );
  const ran = new Set<string>(
    present
      ? (await dataSource.query<Array<{ name: string }>>(`SELECT name FROM ${dataSource.driver.escape(table)}`)).map(
          (row) => row.name,
        )
      : [],
  );
  return dataSource.migrations
    .map((migration) => migration.name ?? migration.constructor.name)
    .filter((name) => !ran.has(name));
}

/**
 * Refuses a database whose schema is behind the code, with one line: the CLI reads and writes only
 * a current schema and never migrates on its own (`migrate`, the server and workers do).
 */
export async function requireCurrentSchema(dataSource: DataSource): Promise<void> {
  const pending = await pendingMigrations(dataSource);
  if (pending.length === 0) return;
  const names = pending.length > 3 ? `${pending.slice(0, 3).join(', ')}, …` : pending.join(', ');
  throw new StartupError(
    `The database is not migrated to this version of Tessera: ${pending.length} migration${pending.length === 1 ? '' : 's'} pending (${names}). ` +
      'Run npm run tessera -- migrate, or start the server (npm start), which migrates; then try again.',
  );
}
