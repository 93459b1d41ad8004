import crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { Config } from './config';
import { createDataSource, runMigrations } from './db/data-source';
import { EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded';
import { Core, createCore } from './domain/core';
import { createTesseraPubSub } from './domain/events/pubsub';
import { Business, Mode } from './domain/identity/identity.entities';
import { RequestContext } from './domain/shared/context';
import { installJobQueue } from './jobs/worker';
import { resolveSecrets, verifyMasterKey } from './secrets';

export interface Runtime {
  config: Config;
  core: Core;
  dataSource: DataSource;
  databaseUrl: string;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  migrate?: boolean;
  /** The embedded cluster is deleted when the runtime closes (the bench's throwaway database). */
  throwaway?: boolean;
  log?: (line: string) => void;
}

/**
 * Opens the database (DATABASE_URL, or the embedded PostgreSQL: `<dataDir>/pg`, or under the system directory when run as root), runs pending
 * migrations (Tessera's, then the job queue's), refuses a master key the database's secrets were not sealed with, and wires the domain. Used by the server, the workers, the CLI and the tests.
 */
export async function openRuntime(config: Config, { migrate = true, throwaway = false, log = () => undefined }: RuntimeOptions = {}): Promise<Runtime> {
  const secrets = resolveSecrets(config);
  let embedded: EmbeddedDatabase | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir, port: config.embeddedPgPort, systemDir: config.systemDir, systemUser: config.embeddedPgSystemUser, socket: config.embeddedPgSocket, persistent: !throwaway, log,
    });
    log(embedded.sharedWithPid === null
      ? `Started embedded PostgreSQL (data in ${embedded.clusterDir}, port ${embedded.port})`
      : `Connected to the embedded PostgreSQL another Tessera process started (pid ${embedded.sharedWithPid}, data in ${embedded.clusterDir}, port ${embedded.port})`);
    databaseUrl = embedded.url;
  }
  const dataSource = createDataSource({ url: databaseUrl });
  try {
    await dataSource.initialize();
    if (migrate) {
      if (await dataSource.showMigrations()) {
        log('Migrating…');
        const ran = await runMigrations(dataSource);
        if (ran.length > 0) log(`Ran migrations: ${ran.join(', ')}`);
      }
      await installJobQueue(databaseUrl, log);
    }
    await verifyMasterKey(dataSource, secrets);
    secrets.persist();
  } catch (error) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.stop();
    throw error;
  }
  const { pubSub, close: closePubSub } = createTesseraPubSub(config.redisUrl, undefined, config.redisKeyPrefix);
  const core = createCore(config, secrets, dataSource, pubSub, { log });
  return {
    config,
    core,
    dataSource,
    databaseUrl,
    close: async () => {
      await core.webhooks.close();
      await core.mailer.close();
      await closePubSub();
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.stop();
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
  const { business, credentials } = await core.identity.businesses.createBusinessWithOwnerAccount(core.anonymousContext(), {
    name: 'Sandbox Business', email, password,
  });
  const operator = RequestContext.system(core.dataSource, 'first-start', business.id, Mode.TEST);
  await core.identity.businesses.updateAsOperator(operator, { verified: true });
  const v1Key = await core.v1Keys.issue(operator, { mode: Mode.TEST });
  return { business, credentials, v1Key: v1Key.apiKey, email, password };
}
