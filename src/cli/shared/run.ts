import type { Command } from 'commander';
import { loadConfig } from '../../config';
import { Mode } from '../../domain/shared/modes';
import { RequestContext } from '../../domain/shared/context';
import type { Database } from '../../db/database';
import type { Runtime } from '../../runtime';

/*
 * What every command's action runs in. Each command loads what it needs when it runs (`require` in
 * its action): a command that only reads opens the database and nothing else (no domain services,
 * no job queue, no GraphQL, no HTTP server).
 *
 * No command creates a database, a data directory or a key: where the project's database or
 * master key does not exist they refuse with one line (only `npm start` initialises them). Only
 * `migrate` and `worker` migrate; every other command refuses a schema with pending migrations.
 */

/** Prints a command's answer: JSON on stdout, one value. */
export const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/**
 * Opens the existing database (nothing else), refuses it when migrations are pending (unless
 * `migrating`), runs `work`, and always closes it.
 */
export async function withDatabase(
  work: (database: Database) => Promise<void>,
  { migrating = false } = {},
): Promise<void> {
  const { openDatabase, requireCurrentSchema } = require('../../db/database') as typeof import('../../db/database');
  const database = await openDatabase(loadConfig(), { create: false });
  try {
    if (!migrating) await requireCurrentSchema(database.dataSource);
    await work(database);
  } finally {
    await database.close();
  }
}

/** Opens the runtime on the existing database, its schema current and its master key known, runs `work`, and always closes it. */
export async function withRuntime(work: (runtime: Runtime) => Promise<void>): Promise<void> {
  const { openRuntime } = require('../../runtime') as typeof import('../../runtime');
  const runtime = await openRuntime(loadConfig(), { create: false, migrate: false });
  try {
    await work(runtime);
  } finally {
    await runtime.close();
  }
}

/** The operator's context for a business and mode (`--live` or test). */
export const operatorContext = (dataSource: Database['dataSource'], businessId: string | null, live?: boolean) =>
  RequestContext.system(dataSource, 'cli', businessId, live ? Mode.LIVE : Mode.TEST);

/** A command another area declared (an area's commands are declared in the order of src/areas.ts). */
export function commandNamed(program: Command, name: string): Command {
  const found = program.commands.find((command) => command.name() === name);
  if (!found) throw new Error(`The operator CLI has no '${name}' command (its area comes later in src/areas.ts?)`);
  return found;
}
