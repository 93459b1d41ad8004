import { Spawned, spawnTs } from './process';

/** The operator CLI's entry point, run through ts-node by the tests. */
export const CLI = 'src/cli/index.ts';

/** The command exits 0; when it does not, the failure shows what it printed. */
export async function exitsZero(run: Spawned) {
  expect({ exit: await run.exited, output: run.output() }).toMatchObject({ exit: 0 });
}

/** The last line the command printed, as JSON (an error line is the last one). */
export const lastJsonLine = (run: Spawned) => JSON.parse(run.output().trim().split('\n').pop()!);

/** Runs `tessera <args>` and returns what it printed as JSON, once it exited 0. */
export async function cliJson(args: string[], env: Record<string, string | undefined>) {
  const run = spawnTs(CLI, args, env);
  await exitsZero(run);
  return JSON.parse(run.output());
}

/** Migrates a database as the operator does (`tessera migrate`): the other commands refuse an unmigrated one. */
export async function migrateWithCli(env: Record<string, string | undefined>) {
  await exitsZero(spawnTs(CLI, ['migrate'], env));
}
