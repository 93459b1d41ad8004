import { Command } from 'commander';
import { AREAS } from '../areas';
import { loadConfig } from '../config';
import { TESSERA_VERSION } from '../project';
import { SANDBOX_MAIL_READ_LIMIT } from '../providers/mail/sandbox';
import { commands as sanctionsCommands } from './sanctions';
import { print, withDatabase } from './shared/run';

/**
 * The operator CLI: the kernel's commands (the database, the worker, the ledger's integrity
 * check, the sandbox mailbox), then each area's (`src/cli/<area>/index.ts`), in the order of
 * src/areas.ts. Declaring them loads no domain service: each action loads what it needs when it
 * runs (src/cli/shared/run.ts).
 */
export function operatorProgram(): Command {
  const program = new Command();
  program
    .name('tessera')
    .description('Tessera operator commands (run them as npm run tessera -- <command> in the checkout)')
    .version(TESSERA_VERSION, '-V, --version', "print Tessera's version");

  program
    .command('migrate')
    .description("Run pending database migrations (Tessera's, then the job queue's) on the existing database")
    .action(async () => {
      const { runMigrations } = require('../db/data-source') as typeof import('../db/data-source');
      const { installJobQueue } = require('../jobs/worker') as typeof import('../jobs/worker');
      await withDatabase(
        async ({ dataSource, databaseUrl }) => {
          const migrated = await runMigrations(dataSource);
          await installJobQueue(databaseUrl);
          print({ migrated });
        },
        { migrating: true },
      );
    });

  program
    .command('migration:generate')
    .argument('<name>', 'migration name, e.g. AddPayments')
    .description('Write a migration for the difference between the entities and the migrated database')
    .action(async (name: string) => {
      const { generateMigration } = require('../db/migration-generator') as typeof import('../db/migration-generator');
      await withDatabase(async ({ dataSource }) => {
        const file = await generateMigration(dataSource, name);
        print(file ? { generated: `migrations/${file}.ts` } : { generated: null, message: 'No schema changes' });
      });
    });

  program
    .command('worker')
    .description(
      'Run a background worker against the existing database, migrating it first (any number may run at once)',
    )
    .action(async () => {
      const { openRuntime } = require('../runtime') as typeof import('../runtime');
      const { startWorker, stopWorker } = require('../jobs/worker') as typeof import('../jobs/worker');
      const say = (line: string) => process.stdout.write(`[tessera-worker] ${line}\n`);
      // The signal handlers come first: a SIGTERM sent as soon as the worker says it runs (or while it
      // starts) must stop it gracefully, never find Node's default handler, which kills the process.
      let started: {
        runtime: Awaited<ReturnType<typeof openRuntime>>;
        worker: Awaited<ReturnType<typeof startWorker>>;
      } | null = null;
      let stopRequested = false;
      let stopping = false;
      const stop = async () => {
        stopRequested = true;
        if (!started || stopping) return; // still starting: stops as soon as it has started
        stopping = true;
        await stopWorker(started.worker);
        await started.runtime.close();
        process.exit(0);
      };
      process.on('SIGTERM', () => void stop());
      process.on('SIGINT', () => void stop());
      const runtime = await openRuntime(loadConfig(), { create: false, log: say });
      started = { runtime, worker: await startWorker(runtime.core, runtime.databaseUrl, say) };
      if (stopRequested) return stop();
      say('Worker running; SIGTERM or SIGINT stops it after the jobs in hand');
    });

  // The whole database's integrity, before any business or actor, as `migrate` is: a kernel command
  // (listed here, before the areas' commands, as it always was).
  program
    .command('ledger:check')
    .description('Check the whole ledger: every transaction balances, cached balances match, none negative')
    .action(async () => {
      const { LedgerService } = require('../domain/ledger') as typeof import('../domain/ledger');
      await withDatabase(async ({ dataSource }) => {
        const result = await LedgerService.check(dataSource);
        print(result);
        if (!result.balanced) process.exitCode = 2;
      });
    });

  const mailLimit = (value: string): number => {
    if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > SANDBOX_MAIL_READ_LIMIT) {
      program.error(`error: --limit must be a whole number from 1 to ${SANDBOX_MAIL_READ_LIMIT}, got '${value}'`);
    }
    return Number(value);
  };

  program
    .command('mail')
    .description(
      `Print the sandbox mailbox (mail kept instead of sent while MAIL_SMTP_URL is unset), newest first, as JSON`,
    )
    .option('--to <email>', 'only messages to this address')
    .option('--limit <n>', `how many messages, 1 to ${SANDBOX_MAIL_READ_LIMIT}`, mailLimit, 10)
    .action(async (options: { to?: string; limit: number }) => {
      const { SandboxMailbox } = require('../providers/mail/sandbox') as typeof import('../providers/mail/sandbox');
      await withDatabase(async ({ dataSource }) => {
        const messages = await new SandboxMailbox(dataSource).messages(options);
        print(
          messages.map(({ recipient, subject, text, createdAt }) => ({
            to: recipient,
            subject,
            text,
            createdAt: createdAt.toISOString(),
          })),
        );
      });
    });

  // The live screening provider's lists (src/providers/screening): a kernel command, as `mail` is.
  sanctionsCommands(program);

  for (const area of AREAS) area.cli?.().commands(program);
  return program;
}
