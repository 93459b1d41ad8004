import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, dropTestDatabase } from './support/harness';
import { CLI, exitsZero, lastJsonLine, migrateWithCli } from './support/cli';
import { spawnBudget, spawnTs } from './support/process';

// Each spawn goes through ts-node (seconds of CPU on a shared machine): deadlines, not timings.
describe('operator CLI: wallet low-balance thresholds', () => {
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
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-low-balance-cli-'));
    await migrateWithCli(env());
  }, 180_000);
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await dropTestDatabase(databaseUrl);
  });

  test(
    "business low-balance-threshold sets a currency's threshold per mode (--live), refuses a bad amount, and off removes it",
    async () => {
      const created = spawnTs(
        CLI,
        ['business', 'create', '--name', 'Low Co', '--email', 'ops@low.test', '--password', 'long enough password'],
        env(),
      );
      await exitsZero(created);
      const { businessId } = JSON.parse(created.output());

      const set = spawnTs(CLI, ['business', 'low-balance-threshold', businessId, 'usd', '250.50'], env());
      await exitsZero(set);
      expect(JSON.parse(set.output())).toEqual({ businessId, mode: 'test', currency: 'USD', threshold: '250.50' });

      const live = spawnTs(CLI, ['business', 'low-balance-threshold', businessId, 'USD', '1000', '--live'], env());
      await exitsZero(live);
      expect(JSON.parse(live.output())).toEqual({ businessId, mode: 'live', currency: 'USD', threshold: '1000.00' });

      const bad = spawnTs(CLI, ['business', 'low-balance-threshold', businessId, 'USD', '1.234'], env());
      expect(await bad.exited).toBe(1);
      expect(lastJsonLine(bad).errors).toHaveProperty('threshold');

      const removed = spawnTs(CLI, ['business', 'low-balance-threshold', businessId, 'USD', 'off'], env());
      await exitsZero(removed);
      expect(JSON.parse(removed.output())).toEqual({ businessId, mode: 'test', currency: 'USD', threshold: null });

      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query(
          'SELECT livemode, currency, threshold::text AS threshold FROM wallet_low_balance_thresholds WHERE business_id = $1',
          [businessId],
        );
        expect(rows).toEqual([{ livemode: true, currency: 'USD', threshold: '100000' }]);
      } finally {
        await client.end();
      }
    },
    spawnBudget(5),
  );
});
