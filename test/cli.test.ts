import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { TESSERA_VERSION } from '../src/project';
import { createTestDatabase, dropTestDatabase } from './support/harness';
import { CLI, exitsZero } from './support/cli';
import { spawnTs } from './support/process';

// Each CLI spawn goes through ts-node (about 5 s of CPU); with two suites at once on 2 cores a test
// of six spawns takes minutes, and under a load of 20 one spawn takes 20 s: hence deadlines of
// 10 minutes (deadlines, not timings).
const DEADLINE_MS = 600_000;

describe('operator CLI (tessera)', () => {
  let databaseUrl: string;
  let dataDir: string;
  const env = () => ({
    DATABASE_URL: databaseUrl,
    TESSERA_DATA_DIR: dataDir,
    TESSERA_MASTER_KEY: 'cli-key',
    JWT_SECRET: 'cli-jwt',
  });

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-cli-'));
  });
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await dropTestDatabase(databaseUrl);
  });

  const tableCount = async () => {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return Number(
        (
          await client.query(
            `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`,
          )
        ).rows[0].n,
      );
    } finally {
      await client.end();
    }
  };

  test(
    'before migrate, a read and a write refuse with one line naming the pending migrations, and migrate nothing',
    async () => {
      for (const args of [
        ['business', 'list'],
        [
          'business',
          'create',
          '--name',
          'Early Ltd',
          '--email',
          'ops@early.test',
          '--password',
          'long enough password',
        ],
      ]) {
        const run = spawnTs(CLI, args, env());
        expect(await run.exited).toBe(1);
        const lines = run.errorOutput().trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(JSON.parse(lines[0]).error).toMatch(
          /^The database is not migrated to this version of Tessera: \d+ migrations pending \(Initial\d+, .*\)\. Run npm run tessera -- migrate, or start the server/,
        );
      }
      expect(await tableCount()).toBe(0);
    },
    DEADLINE_MS,
  );

  test(
    'migrate runs the migrations, and a second run has nothing to do',
    async () => {
      const first = spawnTs(CLI, ['migrate'], env());
      await exitsZero(first);
      expect(JSON.parse(first.output()).migrated.length).toBeGreaterThan(0);
      const second = spawnTs(CLI, ['migrate'], env());
      await exitsZero(second);
      expect(JSON.parse(second.output())).toEqual({ migrated: [] });
    },
    DEADLINE_MS,
  );

  test(
    'business create prints JSON with the business id and its test credentials',
    async () => {
      const run = spawnTs(
        CLI,
        ['business', 'create', '--name', 'Acme Ltd', '--email', 'ops@acme.test', '--password', 'long enough password'],
        env(),
      );
      await exitsZero(run);
      const printed = JSON.parse(run.output());
      expect(printed).toEqual({
        businessId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        businessName: 'Acme Ltd',
        ownerUserId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        testCredentials: {
          apiKey: expect.stringMatching(/^bk_test_/),
          apiSecret: expect.stringMatching(/^bs_test_/),
          publishableKey: expect.stringMatching(/^pk_test_/),
        },
      });
    },
    DEADLINE_MS,
  );

  test(
    'business create with bad input exits non-zero with the per-field errors and creates nothing',
    async () => {
      const run = spawnTs(
        CLI,
        ['business', 'create', '--name', 'Bad', '--email', 'not-an-email', '--password', 'short'],
        env(),
      );
      expect(await run.exited).toBe(1);
      const printed = JSON.parse(run.output().trim().split('\n').pop()!);
      expect(Object.keys(printed.errors).sort()).toEqual(['email', 'password']);
    },
    DEADLINE_MS,
  );

  test(
    'business update --treasury on|off switches the treasury product and prints the business as JSON',
    async () => {
      const created = spawnTs(
        CLI,
        [
          'business',
          'create',
          '--name',
          'Partner Co',
          '--email',
          'ops@partner.test',
          '--password',
          'long enough password',
        ],
        env(),
      );
      await exitsZero(created);
      const { businessId } = JSON.parse(created.output());
      const treasuryOf = async () => {
        const client = new Client({ connectionString: databaseUrl });
        await client.connect();
        try {
          return (await client.query('SELECT treasury_enabled FROM businesses WHERE id = $1', [businessId])).rows[0]
            .treasury_enabled;
        } finally {
          await client.end();
        }
      };
      expect(await treasuryOf()).toBe(false);

      const on = spawnTs(CLI, ['business', 'update', businessId, '--treasury', 'on'], env());
      await exitsZero(on);
      expect(JSON.parse(on.output())).toEqual({
        id: businessId,
        name: 'Partner Co',
        email: 'ops@partner.test',
        treasuryEnabled: true,
        verified: false,
        settings: {
          test: {
            serverToServerCharging: false,
            cardFeeBps: 290,
            cardFeeFixedMinor: 30,
            disputeFeeMinor: 1500,
            payoutReviewThresholdUsd: null,
          },
          live: {
            serverToServerCharging: false,
            cardFeeBps: 290,
            cardFeeFixedMinor: 30,
            disputeFeeMinor: 1500,
            payoutReviewThresholdUsd: null,
          },
        },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(await treasuryOf()).toBe(true);

      const off = spawnTs(CLI, ['business', 'update', businessId, '--treasury', 'off'], env());
      await exitsZero(off);
      expect(JSON.parse(off.output())).toMatchObject({ id: businessId, treasuryEnabled: false });
      expect(await treasuryOf()).toBe(false);
    },
    DEADLINE_MS,
  );

  test(
    'business update --server-to-server-charging on|off [--live] switches charging per mode',
    async () => {
      const created = spawnTs(
        CLI,
        ['business', 'create', '--name', 'Shop Co', '--email', 'ops@shop.test', '--password', 'long enough password'],
        env(),
      );
      await exitsZero(created);
      const { businessId } = JSON.parse(created.output());
      const test = spawnTs(CLI, ['business', 'update', businessId, '--server-to-server-charging', 'on'], env());
      await exitsZero(test);
      expect(JSON.parse(test.output())).toMatchObject({
        id: businessId,
        settings: { test: { serverToServerCharging: true }, live: { serverToServerCharging: false } },
      });
      const live = spawnTs(
        CLI,
        ['business', 'update', businessId, '--server-to-server-charging', 'on', '--live'],
        env(),
      );
      await exitsZero(live);
      expect(JSON.parse(live.output())).toMatchObject({
        settings: { test: { serverToServerCharging: true }, live: { serverToServerCharging: true } },
      });
      const off = spawnTs(CLI, ['business', 'update', businessId, '--server-to-server-charging', 'off'], env());
      await exitsZero(off);
      expect(JSON.parse(off.output())).toMatchObject({
        settings: { test: { serverToServerCharging: false }, live: { serverToServerCharging: true } },
      });
      const fees = spawnTs(
        CLI,
        [
          'business',
          'update',
          businessId,
          '--card-fee-bps',
          '150',
          '--card-fee-fixed-minor',
          '0',
          '--dispute-fee-minor',
          '2000',
          '--live',
        ],
        env(),
      );
      await exitsZero(fees);
      expect(JSON.parse(fees.output()).settings).toEqual({
        test: {
          serverToServerCharging: false,
          cardFeeBps: 290,
          cardFeeFixedMinor: 30,
          disputeFeeMinor: 1500,
          payoutReviewThresholdUsd: null,
        },
        live: {
          serverToServerCharging: true,
          cardFeeBps: 150,
          cardFeeFixedMinor: 0,
          disputeFeeMinor: 2000,
          payoutReviewThresholdUsd: null,
        },
      });
      const threshold = spawnTs(
        CLI,
        ['business', 'update', businessId, '--payout-review-threshold-usd', '2500.50'],
        env(),
      );
      await exitsZero(threshold);
      expect(JSON.parse(threshold.output()).settings).toMatchObject({
        test: { payoutReviewThresholdUsd: '2500.50' },
        live: { payoutReviewThresholdUsd: null },
      });
      const thresholdOff = spawnTs(
        CLI,
        ['business', 'update', businessId, '--payout-review-threshold-usd', 'off'],
        env(),
      );
      await exitsZero(thresholdOff);
      expect(JSON.parse(thresholdOff.output()).settings.test.payoutReviewThresholdUsd).toBeNull();
      const badThreshold = spawnTs(
        CLI,
        ['business', 'update', businessId, '--payout-review-threshold-usd', '-5'],
        env(),
      );
      expect(await badThreshold.exited).toBe(1);
      expect(badThreshold.output()).toMatch(/Expected a USD amount such as 500.00, or off/);
      const tooHigh = spawnTs(CLI, ['business', 'update', businessId, '--card-fee-bps', '20000'], env());
      expect(await tooHigh.exited).toBe(1);
      expect(JSON.parse(tooHigh.output().trim().split('\n').pop()!)).toMatchObject({
        errors: { cardFeeBps: [expect.stringMatching(/at most 10000/)] },
      });
    },
    DEADLINE_MS,
  );

  test(
    'business update exits 1 with the reason for a value other than on|off, for no setting and for an unknown business',
    async () => {
      const badValue = spawnTs(
        CLI,
        ['business', 'update', '00000000-0000-4000-8000-000000000000', '--treasury', 'yes'],
        env(),
      );
      expect(await badValue.exited).toBe(1);
      expect(badValue.output()).toMatch(
        /option '--treasury <on\|off>' argument 'yes' is invalid\. Expected on or off\./,
      );

      const nothing = spawnTs(CLI, ['business', 'update', '00000000-0000-4000-8000-000000000000'], env());
      expect(await nothing.exited).toBe(1);
      expect(JSON.parse(nothing.output().trim().split('\n').pop()!)).toEqual({
        error: 'Validation failed',
        errors: { _: ['names no setting to change'] },
      });

      const unknown = spawnTs(CLI, ['business', 'update', 'not-a-business', '--treasury', 'on'], env());
      expect(await unknown.exited).toBe(1);
      expect(JSON.parse(unknown.output().trim().split('\n').pop()!)).toEqual({ error: 'Business not found' });
    },
    DEADLINE_MS,
  );

  test(
    'mail prints the sandbox mailbox as JSON, newest first, only to --to and at most --limit messages',
    async () => {
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(
          `INSERT INTO sandbox_mail (recipient, subject, text, created_at) VALUES
           ('dev@example.com', 'first', 'Your code is 111111', now() - interval '3 minutes'),
           ('other@example.com', 'elsewhere', 'not yours', now() - interval '2 minutes'),
           ('dev@example.com', 'second', 'Your code is 222222', now() - interval '1 minute'),
           ('dev@example.com', 'third', 'Your code is 333333', now())`,
        );
      } finally {
        await client.end();
      }
      const run = spawnTs(CLI, ['mail', '--to', 'DEV@example.com', '--limit', '2'], env());
      await exitsZero(run);
      expect(JSON.parse(run.output())).toEqual([
        { to: 'dev@example.com', subject: 'third', text: 'Your code is 333333', createdAt: expect.any(String) },
        { to: 'dev@example.com', subject: 'second', text: 'Your code is 222222', createdAt: expect.any(String) },
      ]);
      const all = spawnTs(CLI, ['mail'], env());
      await exitsZero(all);
      expect(
        JSON.parse(all.output())
          .map((message: { subject: string }) => message.subject)
          .slice(0, 4),
      ).toEqual(['third', 'second', 'elsewhere', 'first']);

      for (const limit of ['0', '101', 'ten']) {
        const bad = spawnTs(CLI, ['mail', '--limit', limit], env());
        expect(await bad.exited).toBe(1);
        expect(bad.errorOutput().trim()).toBe(`error: --limit must be a whole number from 1 to 100, got '${limit}'`);
      }
    },
    DEADLINE_MS,
  );

  test(
    '--version prints the version of package.json',
    async () => {
      const run = spawnTs(CLI, ['--version'], env());
      await exitsZero(run);
      expect(run.output()).toBe(`${TESSERA_VERSION}\n`);
    },
    DEADLINE_MS,
  );

  test(
    'ledger:check reports a balanced ledger and exits 0',
    async () => {
      const run = spawnTs(CLI, ['ledger:check'], env());
      await exitsZero(run);
      expect(JSON.parse(run.output())).toEqual({
        balanced: true,
        unbalancedTransactions: [],
        cachedBalanceMismatches: [],
        negativeBalances: [],
      });
    },
    DEADLINE_MS,
  );
});
