import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { TestServer } from './harness';

/** Today's UTC day, as `tessera reconcile --from` takes it. */
export const today = () => new Date().toISOString().slice(0, 10);

/** Today's period, as the daily job and `tessera reconcile --from <today>` take it. */
export function todaysPeriod(): { from: Date; to: Date } {
  const from = new Date(`${today()}T00:00:00Z`);
  return { from, to: new Date(from.getTime() + 86_400_000) };
}

/**
 * A digest of every row of `tables`: what reconciliation must never change (the ledger and the rows
 * whose postings it compares), taken before and after a run.
 */
export async function booksDigest(server: TestServer, tables: string[]): Promise<string> {
  const hash = crypto.createHash('sha256');
  for (const table of tables)
    hash.update(
      JSON.stringify(
        await server.runtime.dataSource.query(`SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY 1`),
      ),
    );
  return hash.digest('hex');
}

/** The environment of `tessera reconcile` against the test server's database, with the provider's variables. */
export const reconcileCliEnv = (server: TestServer, provider: Record<string, string>) => ({
  DATABASE_URL: server.databaseUrl,
  TESSERA_DATA_DIR: path.join(os.tmpdir(), 'tessera-test-data'),
  TESSERA_MASTER_KEY: 'test-master-key',
  JWT_SECRET: 'test-jwt-secret',
  ...provider,
});
