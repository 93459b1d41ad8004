// Starts one PostgreSQL for the whole run: the server at DATABASE_URL when set, otherwise the
// embedded one (src/db/embedded.ts, the same code `npm start` uses) in a throwaway cluster. Each
// test file then creates its own fresh database on it and builds the schema with the migrations.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded';
import { loadConfig } from '../../src/config';
import { Client } from 'pg';
import { ROOT, freePort } from './process';

declare global {
  var __TESSERA_EMBEDDED_PG__: { db: EmbeddedDatabase; dataDir: string } | undefined;
}

/**
 * Builds dist/ when its sources changed (scripts/launch.js, what `npm start` runs), so the processes
 * tests start load the built code instead of compiling the sources through ts-node each time.
 */
function buildForSpawnedProcesses(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ensureBuilt } = require('../../scripts/launch.js') as {
    ensureBuilt: (options?: { log?: (line: string) => void }) => boolean;
  };
  if (ensureBuilt({ log: (line) => console.log(`[tests] ${line}`) })) process.env.TESSERA_TEST_DIST = 'current';
  else console.warn('[tests] the build failed: spawned processes run through ts-node');
}

/**
 * One database built by the migrations (the built CLI's `migrate`), which test servers copy with
 * CREATE DATABASE … TEMPLATE (about 0.1 s) instead of each migrating an empty one (1 – 3 s).
 * Without a build, each test database is migrated on its own, as before.
 */
async function buildTemplateDatabase(adminUrl: string): Promise<void> {
  if (process.env.TESSERA_TEST_DIST !== 'current') return;
  const name = `tessera_template_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const migrate = spawnSync(process.execPath, [`${ROOT}/dist/src/cli/index.js`, 'migrate'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: url.toString(),
        TESSERA_MASTER_KEY: 'test-master-key',
        JWT_SECRET: 'test-jwt-secret',
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
    });
    if (migrate.status === 0) {
      process.env.TESSERA_TEST_TEMPLATE_DB = name;
      console.log(`[tests] test databases are copies of ${name}, built by the migrations`);
      return;
    }
    console.warn(
      `[tests] the template database could not be migrated; each test database migrates on its own:\n${migrate.stderr}`,
    );
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  } finally {
    await admin.end();
  }
}

export default async function globalSetup() {
  buildForSpawnedProcesses();
  await startPostgres();
  await buildTemplateDatabase(process.env.TESSERA_TEST_ADMIN_URL!);
}

async function startPostgres(): Promise<void> {
  if (process.env.DATABASE_URL) {
    process.env.TESSERA_TEST_ADMIN_URL = process.env.DATABASE_URL;
    console.log(`\n[tests] using PostgreSQL at DATABASE_URL (${new URL(process.env.DATABASE_URL).host})`);
    return;
  }
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-test-pg-'));
  const db = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    systemDir: config.systemDir,
    systemUser: config.embeddedPgSystemUser,
    database: 'postgres',
    persistent: false,
    settings: { max_connections: '300', fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' },
  });
  globalThis.__TESSERA_EMBEDDED_PG__ = { db, dataDir };
  process.env.TESSERA_TEST_ADMIN_URL = db.url;
  console.log(`\n[tests] embedded PostgreSQL on port ${new URL(db.url).port} (data in ${db.clusterDir})`);
}
