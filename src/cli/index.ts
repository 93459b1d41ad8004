import 'reflect-metadata';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config';
import { TESSERA_VERSION } from '../project';
import { Business } from '../domain/identity/identity.entities';
import { BusinessSettings } from '../domain/shared/business-settings.entity';
import { Mode } from '../domain/shared/modes';
import { OperatorBusinessUpdate } from '../domain/identity/identity.commands';
import { RequestContext } from '../domain/shared/context';
import { toMajor, toMinor } from '../domain/shared/money';
import { SANDBOX_MAIL_READ_LIMIT } from '../providers/mail/sandbox';
import { StartupError } from '../startup-error';
import type { Database } from '../db/database';
import type { Runtime } from '../runtime';

/*
 * Each command loads what it needs when it runs (`require` in its action): a command that only reads opens
 * the database and nothing else (no domain services, no job queue, no GraphQL, no HTTP server).
 *
 * No command creates a database, a data directory or a key: where the project's database or
 * master key does not exist they refuse with one line (only `npm start` initialises them). Only
 * `migrate` and `worker` migrate; every other command refuses a schema with pending migrations.
 */
const program = new Command();
program
  .name('tessera')
  .description('Tessera operator commands (run them as npm run tessera -- <command> in the checkout)')
  .version(TESSERA_VERSION, '-V, --version', "print Tessera's version");

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/**
 * Opens the existing database (nothing else), refuses it when migrations are pending (unless
 * `migrating`), runs `work`, and always closes it.
 */
async function withDatabase(work: (database: Database) => Promise<void>, { migrating = false } = {}): Promise<void> {
  const { openDatabase, requireCurrentSchema } = require('../db/database') as typeof import('../db/database');
  const database = await openDatabase(loadConfig(), { create: false });
  try {
    if (!migrating) await requireCurrentSchema(database.dataSource);
    await work(database);
  } finally {
    await database.close();
  }
}

/** Opens the runtime on the existing database, its schema current and its master key known, runs `work`, and always closes it. */
async function withRuntime(work: (runtime: Runtime) => Promise<void>): Promise<void> {
  const { openRuntime } = require('../runtime') as typeof import('../runtime');
  const runtime = await openRuntime(loadConfig(), { create: false, migrate: false });
  try {
    await work(runtime);
  } finally {
    await runtime.close();
  }
}

/** The operator's context for a business and mode (`--live` or test). */
const operatorContext = (dataSource: Database['dataSource'], businessId: string | null, live?: boolean) =>
  RequestContext.system(dataSource, 'cli', businessId, live ? Mode.LIVE : Mode.TEST);

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
  .description('Run a background worker against the existing database, migrating it first (any number may run at once)')
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

program
  .command('ledger:check')
  .description('Check the whole ledger: every transaction balances, cached balances match, none negative')
  .action(async () => {
    const { LedgerService } =
      require('../domain/ledger/ledger.service') as typeof import('../domain/ledger/ledger.service');
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

const business = program.command('business').description('Manage businesses');
business
  .command('create')
  .requiredOption('--name <name>', 'business name')
  .requiredOption('--email <email>', "owner's email (dashboard login)")
  .requiredOption('--password <password>', "owner's dashboard password (at least 10 characters)")
  .description('Create a business, its OWNER account and its test credentials (printed once)')
  .action(async (options: { name: string; email: string; password: string }) => {
    const { newAccountSchema } = require('../wire/accounts') as typeof import('../wire/accounts');
    const { parseInput } = require('../wire/validation') as typeof import('../wire/validation');
    const account = parseInput(newAccountSchema, {
      email: options.email,
      password: options.password,
      name: options.name,
      businessName: options.name,
    });
    await withRuntime(async (runtime) => {
      const {
        business: created,
        user,
        credentials,
      } = await runtime.core.identity.businesses.createBusinessWithOwnerAccount(runtime.core.anonymousContext(), {
        name: account.name,
        email: account.email,
        password: account.password,
      });
      print({
        businessId: created.id,
        businessName: created.name,
        ownerUserId: user.id,
        testCredentials: {
          apiKey: credentials.apiKey,
          apiSecret: credentials.apiSecret,
          publishableKey: credentials.publishableKey,
        },
      });
    });
  });

function businessDirectory() {
  const { BusinessDirectory } =
    require('../domain/identity/business-directory') as typeof import('../domain/identity/business-directory');
  return new BusinessDirectory();
}

business
  .command('list')
  .description(
    'List the businesses, oldest first, as JSON: id, name, email, owners, verified, treasury, the modes with credentials, created (no secrets)',
  )
  .action(async () => {
    await withDatabase(async ({ dataSource }) => {
      const listings = await businessDirectory().list(operatorContext(dataSource, null));
      print(
        listings.map(({ business: listed, owners, modes }) => ({
          id: listed.id,
          name: listed.name,
          email: listed.email,
          owners,
          verified: listed.verified,
          treasuryEnabled: listed.treasuryEnabled,
          modes,
          createdAt: listed.createdAt.toISOString(),
        })),
      );
    });
  });

business
  .command('show')
  .argument('<id>', 'business id')
  .description(
    "Print a business as JSON: its owners, both modes' settings and its API credentials by their hints (no secrets)",
  )
  .action(async (id: string) => {
    const { hintOf } = require('../domain/identity/credentials') as typeof import('../domain/identity/credentials');
    await withDatabase(async ({ dataSource }) => {
      const {
        business: shown,
        owners,
        modes,
        settings,
        credentials,
      } = await businessDirectory().show(operatorContext(dataSource, id));
      print({
        ...businessJson(shown, settings),
        owners,
        modes,
        credentials: credentials.map((credential) => ({
          mode: credential.livemode ? Mode.LIVE : Mode.TEST,
          keyHint: credential.keyHint,
          publishableKeyHint: hintOf(credential.publishableKey),
          keyVersion: credential.keyVersion,
          lastUsedAt: credential.lastUsedAt?.toISOString() ?? null,
          createdAt: credential.createdAt.toISOString(),
        })),
      });
    });
  });

business
  .command('rotate-test-credentials')
  .argument('<id>', 'business id')
  .description(
    'Replace the test API key, API secret (also the webhook signing secret) and publishable key of a business and print the new ones once; ' +
      'the old ones stop working at once, and sockets using them are closed',
  )
  .action(async (id: string) => {
    await withRuntime(async (runtime) => {
      const rotated = await runtime.core.identity.credentials.rotateTestCredentials(
        operatorContext(runtime.dataSource, id),
      );
      print({
        businessId: id,
        testCredentials: {
          apiKey: rotated.apiKey,
          apiSecret: rotated.apiSecret,
          publishableKey: rotated.publishableKey,
        },
      });
    });
  });

/**
 * The settings of `business update`: `--<option> <value>` sets `field` of the operator update
 * (OperatorBusinessUpdate; each product's settings judge their own values). A new setting is one
 * more row here and one more field of that command. Per-mode settings apply to test mode, or live
 * with `--live`.
 */
const onOff = (value: string): boolean => {
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new InvalidArgumentError('Expected on or off.');
};

const wholeNumber = (value: string): number => {
  if (!/^\d{1,15}$/.test(value)) throw new InvalidArgumentError('Expected a whole number.');
  return Number(value);
};

/** A USD amount such as 500 or 500.00, in cents, or `off` (commander cannot hold a null option value). */
const usdOrOff = (value: string): bigint | 'off' => {
  if (value === 'off') return 'off';
  if (!/^\d{1,13}(\.\d{1,2})?$/.test(value))
    throw new InvalidArgumentError('Expected a USD amount such as 500.00, or off.');
  return toMinor(value, 'USD');
};

const BUSINESS_SETTINGS = [
  {
    option: 'treasury',
    value: '<on|off>',
    parse: onOff,
    field: 'treasuryEnabled',
    description: 'turn on or off the treasury product (the business becomes a treasury partner)',
  },
  {
    option: 'verified',
    value: '<on|off>',
    parse: onOff,
    field: 'verified',
    description: 'mark the business verified or not: only a verified business gets /v1 keys and /v1 access',
  },
  {
    option: 'server-to-server-charging',
    value: '<on|off>',
    parse: onOff,
    field: 'serverToServerCharging',
    description: 'turn on or off server-to-server card charging (POST /business/payment/charge); per mode',
  },
  {
    option: 'card-fee-bps',
    value: '<n>',
    parse: wholeNumber,
    field: 'cardFeeBps',
    description: 'card fee in basis points of the amount (290 = 2.9%); per mode',
  },
  {
    option: 'card-fee-fixed-minor',
    value: '<n>',
    parse: wholeNumber,
    field: 'cardFeeFixedMinor',
    description: "fixed part of the card fee, in minor units of the payment's currency; per mode",
  },
  {
    option: 'dispute-fee-minor',
    value: '<n>',
    parse: wholeNumber,
    field: 'disputeFeeMinor',
    description: "non-refundable dispute fee, in minor units of the payment's currency; per mode",
  },
  {
    option: 'payout-review-threshold-usd',
    value: '<amount|off>',
    parse: usdOrOff,
    field: 'payoutReviewThresholdUsdMinor',
    description: 'payouts worth at least this many USD are held for review (PENDING_REVIEW); off: none; per mode',
  },
] as const;

const businessJson = (updated: Business, settings: BusinessSettings[]) => ({
  id: updated.id,
  name: updated.name,
  email: updated.email,
  treasuryEnabled: updated.treasuryEnabled,
  verified: updated.verified,
  settings: Object.fromEntries(
    settings.map((row) => [
      row.livemode ? 'live' : 'test',
      {
        serverToServerCharging: row.serverToServerCharging,
        cardFeeBps: row.cardFeeBps,
        cardFeeFixedMinor: Number(row.cardFeeFixedMinor),
        disputeFeeMinor: Number(row.disputeFeeMinor),
        payoutReviewThresholdUsd:
          row.payoutReviewThresholdUsdMinor === null ? null : toMajor(row.payoutReviewThresholdUsdMinor, 'USD'),
      },
    ]),
  ),
  createdAt: updated.createdAt.toISOString(),
  updatedAt: updated.updatedAt.toISOString(),
});

const update = business
  .command('update')
  .argument('<id>', 'business id')
  .description("Change a business's products and settings; prints the updated business as JSON");
for (const { option, value, parse, description } of BUSINESS_SETTINGS)
  update.option(`--${option} ${value}`, description, parse as (raw: string) => unknown);
update.option('--live', 'per-mode settings apply to live mode instead of test mode');
update.action(async (id: string, options: Record<string, boolean | number | bigint | string | null | undefined>) => {
  // commander names an option's value after it in camelCase (--server-to-server-charging → serverToServerCharging).
  const valueOf = (option: string) =>
    options[option.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase())];
  const input = Object.fromEntries(BUSINESS_SETTINGS.map(({ option, field }) => [field, valueOf(option)])) as Record<
    (typeof BUSINESS_SETTINGS)[number]['field'],
    boolean | number | bigint | string | null | undefined
  >;
  const minor = (value: boolean | number | bigint | string | null | undefined) =>
    value === undefined ? undefined : BigInt(value as number);
  const update: OperatorBusinessUpdate = {
    treasuryEnabled: input.treasuryEnabled as boolean | undefined,
    serverToServerCharging: input.serverToServerCharging as boolean | undefined,
    cardFeeBps: input.cardFeeBps as number | undefined,
    cardFeeFixedMinor: minor(input.cardFeeFixedMinor),
    disputeFeeMinor: minor(input.disputeFeeMinor),
    payoutReviewThresholdUsdMinor:
      input.payoutReviewThresholdUsdMinor === 'off'
        ? null
        : (input.payoutReviewThresholdUsdMinor as bigint | undefined),
    verified: input.verified as boolean | undefined,
  };
  await withRuntime(async (runtime) => {
    const ctx = operatorContext(runtime.dataSource, id, options.live === true);
    const updated = await runtime.core.identity.businesses.updateAsOperator(ctx, update);
    const settings = await businessDirectory().settings(ctx);
    print(businessJson(updated, settings));
  });
});

business
  .command('low-balance-threshold')
  .argument('<id>', 'business id')
  .argument('<currency>', "the wallet's currency, e.g. USD")
  .argument('<amount|off>', 'a decimal amount in major units such as 100.00, or off to remove the threshold')
  .option('--live', "set the live wallet's threshold instead of the test wallet's")
  .description(
    'Set the low-balance threshold of a wallet: a debit that takes its balance from at or above it to below it emits wallet.low_balance on /v1',
  )
  .action(async (id: string, currency: string, amount: string, options: { live?: boolean }) => {
    const { lowBalanceCommandOf, lowBalanceThresholdSchema } =
      require('../wire/low-balance') as typeof import('../wire/low-balance');
    const { parseInput } = require('../wire/validation') as typeof import('../wire/validation');
    await withRuntime(async (runtime) => {
      const ctx = operatorContext(runtime.dataSource, id, options.live);
      const command = lowBalanceCommandOf(
        parseInput(lowBalanceThresholdSchema, { currency, threshold: amount === 'off' ? null : amount }),
      );
      const saved = await runtime.core.lowBalance.set(ctx, command);
      print({
        businessId: id,
        mode: options.live ? 'live' : 'test',
        currency: currency.toUpperCase(),
        threshold: saved ? toMajor(saved.threshold, saved.currency) : null,
      });
    });
  });

const v1Key = program.command('v1-key').description('Manage the secret keys of the alternate surface /v1');
v1Key
  .command('create')
  .argument('<businessId>', 'business id (the business must be verified)')
  .option('--live', 'issue the live key (tessera_live_sk_…) instead of the test key')
  .description(
    'Issue the /v1 secret key of a business and mode, printed once; the previous key of that mode stops working at once',
  )
  .action(async (businessId: string, options: { live?: boolean }) => {
    await withRuntime(async (runtime) => {
      const mode = options.live ? Mode.LIVE : Mode.TEST;
      const issued = await runtime.core.v1Keys.issue(operatorContext(runtime.dataSource, businessId, options.live), {
        mode,
      });
      print({ businessId, mode: issued.mode, apiKey: issued.apiKey, createdAt: issued.createdAt.toISOString() });
    });
  });

program
  .command('v1-webhook-url')
  .argument('<businessId>', 'business id')
  .argument('<url|off>', "an absolute http(s) URL that receives the business's /v1 events, or off to remove it")
  .option('--live', "set the live mode's URL instead of the test mode's")
  .description(
    "Set where the business's /v1 events go (besides a payment's own webhook_url); the main surface's webhookUrl and endpoints never receive them",
  )
  .action(async (businessId: string, url: string, options: { live?: boolean }) => {
    const { v1WebhookUrlSchema } = require('../wire/accounts') as typeof import('../wire/accounts');
    const { parseInput } = require('../wire/validation') as typeof import('../wire/validation');
    await withRuntime(async (runtime) => {
      const { webhookUrl } = parseInput(v1WebhookUrlSchema, { webhookUrl: url === 'off' ? null : url });
      const saved = await runtime.core.v1Settings.setWebhookUrl(
        operatorContext(runtime.dataSource, businessId, options.live),
        webhookUrl,
      );
      print({ businessId, mode: saved.mode, webhookUrl: saved.webhookUrl });
    });
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  const message =
    error instanceof StartupError
      ? error.message
      : error instanceof Error
        ? error.message.split('\n')[0]
        : String(error);
  const details = (error as { fieldErrors?: unknown }).fieldErrors;
  process.stderr.write(`${JSON.stringify({ error: message, ...(details ? { errors: details } : {}) })}\n`);
  process.exitCode = 1;
});
