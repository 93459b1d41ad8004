import { Command, InvalidArgumentError } from 'commander';
import { Business, OperatorBusinessUpdate } from '../../domain/identity';
import { BusinessSettings } from '../../domain/shared/business-settings.entity';
import { Mode } from '../../domain/shared/modes';
import { toMajor, toMinor } from '../../domain/shared/money';
import { operatorContext, print, withDatabase, withRuntime } from '../shared/run';

/** `tessera business …`: create, list, show, rotate-test-credentials and update a business. */
export function businessCommands(program: Command) {
  const business = program.command('business').description('Manage businesses');
  business
    .command('create')
    .requiredOption('--name <name>', 'business name')
    .requiredOption('--email <email>', "owner's email (dashboard login)")
    .requiredOption('--password <password>', "owner's dashboard password (at least 10 characters)")
    .description('Create a business, its OWNER account and its test credentials (printed once)')
    .action(async (options: { name: string; email: string; password: string }) => {
      const { newAccountSchema } = require('../../wire/accounts') as typeof import('../../wire/accounts');
      const { parseInput } = require('../../wire/validation') as typeof import('../../wire/validation');
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
      const { hintOf } = require('../../domain/identity') as typeof import('../../domain/identity');
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

  updateCommand(business);
}

function businessDirectory() {
  const { BusinessDirectory } = require('../../domain/identity') as typeof import('../../domain/identity');
  return new BusinessDirectory();
}

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

function updateCommand(business: Command) {
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
}
