import { Pool } from 'pg';
import { createTestDatabase, dropTestDatabase } from '../../support/harness';
import { Fleet } from './fleet';
import { Violations } from './figures';

/** The processes of a file and its own connection to their database (for the checks). */
export interface Deployment {
  fleet: Fleet;
  db: Pool;
  databaseUrl: string;
  /** Stops the processes and closes the connections, then `release` (drops the database, or the cluster). */
  close(): Promise<void>;
}

/**
 * Two API processes and a worker on `databaseUrl`, or on a fresh database of the run's PostgreSQL
 * (dropped on close) when none is given.
 */
export async function deploy(
  databaseUrl?: string,
  release: () => Promise<void> = async () => undefined,
): Promise<Deployment> {
  const url = databaseUrl ?? (await createTestDatabase());
  const fleet = await Fleet.start(url);
  const db = new Pool({ connectionString: url, max: 4 });
  db.on('error', () => undefined); // an idle connection dies with a stopped server; the next query opens a new one
  return {
    fleet,
    db,
    databaseUrl: url,
    close: async () => {
      await db.end();
      await fleet.stop();
      if (!databaseUrl) await dropTestDatabase(url);
      await release();
    },
  };
}

/** The file's verdict: every class 0 (the examples say what was found). */
export function expectNoViolations(violations: Violations): void {
  const none = Object.fromEntries(Object.keys(violations.byClass).map((name) => [name, 0]));
  expect({ violations: violations.byClass, examples: violations.examples }).toEqual({ violations: none, examples: [] });
}
