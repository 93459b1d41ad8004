import fs from 'node:fs';
import { Client } from 'pg';

export default async function globalTeardown() {
  const embedded = globalThis.__TESSERA_EMBEDDED_PG__;
  if (embedded) {
    await embedded.db.stop(); // the template database goes with the throwaway cluster
    fs.rmSync(embedded.dataDir, { recursive: true, force: true });
    return;
  }
  // On a server of the developer's (DATABASE_URL), the run's template database is dropped.
  const template = process.env.TESSERA_TEST_TEMPLATE_DB;
  if (!template || !process.env.TESSERA_TEST_ADMIN_URL) return;
  const admin = new Client({ connectionString: process.env.TESSERA_TEST_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
