import 'reflect-metadata';
import { Command } from 'commander';
import { loadConfig } from '../config';
import { generateMigration } from '../db/migration-generator';
import { LedgerService } from '../domain/ledger/ledger.service';
import { installJobQueue, startWorker, stopWorker } from '../jobs/worker';
import { openRuntime } from '../runtime';

const program = new Command();
program.name('tessera').description('Tessera operator commands');

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

program
  .command('migrate')
  .description('Run pending database migrations')
  .action(async () => {
    const runtime = await openRuntime(loadConfig(), { migrate: false });
    try {
      const ran = await runtime.dataSource.runMigrations({ transaction: 'each' });
      await installJobQueue(runtime.databaseUrl);
      print({ migrated: ran.map((migration) => migration.name) });
    } finally {
      await runtime.close();
    }
  });

program
  .command('migration:generate')
  .argument('<name>', 'migration name, e.g. AddPayments')
  .description('Write a migration for the difference between the entities and the migrated database')
  .action(async (name: string) => {
    const runtime = await openRuntime(loadConfig());
    try {
      const file = await generateMigration(runtime.dataSource, name);
      print(file ? { generated: `migrations/${file}.ts` } : { generated: null, message: 'No schema changes' });
    } finally {
      await runtime.close();
    }
  });

program
  .command('worker')
  .description('Run a background worker against the database (any number may run at once)')
  .action(async () => {
    const say = (line: string) => process.stdout.write(`[tessera-worker] ${line}\n`);
    const runtime = await openRuntime(loadConfig(), { log: say });
    const worker = await startWorker(runtime.core, runtime.databaseUrl, say);
    say('Worker running; SIGTERM or SIGINT stops it after the jobs in hand');
    const stop = async () => {
      await stopWorker(worker);
      await runtime.close();
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop());
    process.once('SIGINT', () => void stop());
  });

program
  .command('ledger:check')
  .description('Check the whole ledger: every transaction balances, cached balances match, none negative')
  .action(async () => {
    const runtime = await openRuntime(loadConfig());
    try {
      const result = await LedgerService.check(runtime.dataSource);
      print(result);
      if (!result.balanced) process.exitCode = 2;
    } finally {
      await runtime.close();
    }
  });

const business = program.command('business').description('Manage businesses');
business
  .command('create')
  .requiredOption('--name <name>', 'business name')
  .requiredOption('--email <email>', "owner's email (dashboard login)")
  .requiredOption('--password <password>', "owner's dashboard password (at least 10 characters)")
  .description('Create a business, its OWNER account and its test credentials (printed once)')
  .action(async (options: { name: string; email: string; password: string }) => {
    const runtime = await openRuntime(loadConfig());
    try {
      const { business: created, user, credentials } = await runtime.core.identity.createBusinessWithOwnerAccount(
        runtime.core.anonymousContext(), options);
      print({
        businessId: created.id,
        businessName: created.name,
        ownerUserId: user.id,
        testCredentials: { apiKey: credentials.apiKey, apiSecret: credentials.apiSecret, publishableKey: credentials.publishableKey },
      });
    } finally {
      await runtime.close();
    }
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const details = (error as { fieldErrors?: unknown }).fieldErrors;
  process.stderr.write(`${JSON.stringify({ error: message, ...(details ? { errors: details } : {}) })}\n`);
  process.exitCode = 1;
});
