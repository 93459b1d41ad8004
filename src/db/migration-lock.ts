import { Client } from 'pg';

/**
 * Neither TypeORM's migrations nor graphile-worker's take a lock: two processes migrating one
 * database at once (the first start of two API processes, a worker started beside a server) both
 * run the same migration, and one fails on a duplicate. Each migration run holds this
 * session-level advisory lock on a connection of its own, so the second waits, then finds nothing
 * left to do. A process that dies while migrating loses its session, and with it the lock.
 */
export async function whileHoldingMigrationLock<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  const holder = new Client({ connectionString: databaseUrl, application_name: 'tessera-migration-lock' });
  await holder.connect();
  try {
    await holder.query(`SELECT pg_advisory_lock(hashtext('tessera:migrations'))`);
    return await work();
  } finally {
    await holder.end();
  }
}
