import crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { Config } from './config';
import { runMigrations } from './db/data-source';
import { openDatabase, requireCurrentSchema } from './db/database';
import { Core, createCore } from './domain/core';
import { AREAS } from './areas';
import { createTesseraPubSub } from './domain/events/pubsub';
import { Business } from './domain/identity';
import { Mode } from './domain/shared/modes';
import { RequestContext } from './domain/shared/context';
import { installJobQueue } from './jobs/worker';
import { ResolvedSecrets, resolveSecrets, verifyMasterKey } from './secrets';

export interface Runtime {
  config: Config;
  core: Core;
  dataSource: DataSource;
  databaseUrl: string;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /**
   * true (the server, the default): may initialise the embedded database and generate the secrets.
   * false (the CLI and workers): opens only a database and a master key that exist, creating nothing.
   */
  create?: boolean;
  /** Runs pending migrations (default); false: refuses a database whose schema is behind the code. */
  migrate?: boolean;
  /** The embedded cluster is deleted when the runtime closes (the bench's throwaway database). */
  throwaway?: boolean;
  log?: (line: string) => void;
}

/**
 * Opens the database (DATABASE_URL, or the embedded PostgreSQL: `<dataDir>/pg`, or under the system directory when run as root), runs pending
 * migrations (Tessera's, then the job queue's), refuses a master key the database's secrets were not sealed with, and wires the domain. Used by the server, the workers, the CLI and the tests.
 */
export async function openRuntime(
  config: Config,
  { create = true, migrate = true, throwaway = false, log = () => undefined }: RuntimeOptions = {},
): Promise<Runtime> {
  // The database first: where a project was never started, it is the cause to name.
  const { dataSource, databaseUrl, close: closeDatabase } = await openDatabase(config, { create, throwaway, log });
  let secrets: ResolvedSecrets;
  try {
    secrets = resolveSecrets(config, { generate: create });
    if (migrate) {
      if (await dataSource.showMigrations()) {
        log('Migrating…');
        const ran = await runMigrations(dataSource);
        if (ran.length > 0) log(`Ran migrations: ${ran.join(', ')}`);
      }
      await installJobQueue(databaseUrl, log);
    } else {
      await requireCurrentSchema(dataSource);
    }
    await verifyMasterKey(dataSource, secrets);
    secrets.persist();
  } catch (error) {
    await closeDatabase();
    throw error;
  }
  const { pubSub, close: closePubSub } = createTesseraPubSub(config.redisUrl, undefined, config.redisKeyPrefix);
  const core = createCore(
    config,
    secrets,
    dataSource,
    pubSub,
    AREAS.map((area) => area.domain),
    { log },
  );
  return {
    config,
    core,
    dataSource,
    databaseUrl,
    close: async () => {
      await core.webhooks.close();
      await core.mailer.close();
      await closePubSub();
      await closeDatabase();
    },
  };
}

/**
 * On the very first start, a sandbox business so a developer can call the API at once: verified,
 * with its test credentials and its `/v1` test key.
 */
export async function seedSandboxBusiness(core: Core) {
  const existing = await core.dataSource.getRepository(Business).count();
  if (existing > 0) return null;
  const password = crypto.randomBytes(12).toString('base64url');
  const email = 'sandbox@tessera.local';
  const { business, credentials } = await core.identity.businesses.createBusinessWithOwnerAccount(
    core.anonymousContext(),
    {
      name: 'Sandbox Business',
      email,
      password,
    },
  );
  const operator = RequestContext.system(core.dataSource, 'first-start', business.id, Mode.TEST);
  await core.identity.businesses.updateAsOperator(operator, { verified: true });
  const v1Key = await core.v1Keys.issue(operator, { mode: Mode.TEST });
  return { business, credentials, v1Key: v1Key.apiKey, email, password };
}
