// Starts one PostgreSQL for the whole run: the server at DATABASE_URL when set, otherwise the
// embedded one (src/db/embedded.ts, the same code `npm start` uses) in a throwaway cluster. Each
// test file then creates its own fresh database on it and builds the schema with the migrations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedDatabase, startEmbeddedPostgres } from '../../src/db/embedded';
import { loadConfig } from '../../src/config';
import { freePort } from './process';

declare global {
  // eslint-disable-next-line no-var
  var __TESSERA_EMBEDDED_PG__: { db: EmbeddedDatabase; dataDir: string } | undefined;
}

export default async function globalSetup() {
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
