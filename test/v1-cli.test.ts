import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, dropTestDatabase } from './support/harness';
import { CLI, exitsZero, lastJsonLine, migrateWithCli } from './support/cli';
import { spawnBudget, spawnTs } from './support/process';

// Each spawn goes through ts-node (seconds of CPU on a shared machine): deadlines, not timings.
describe('operator CLI: /v1 keys and verification', () => {
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
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-v1-cli-'));
    await migrateWithCli(env());
  }, 180_000);
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await dropTestDatabase(databaseUrl);
  });

  test(
    'v1-key create refuses an unverified business; business update --verified on; then it prints the key once, and reissuing revokes the previous key',
    async () => {
      const created = spawnTs(
        CLI,
        ['business', 'create', '--name', 'Alt Co', '--email', 'ops@alt.test', '--password', 'long enough password'],
        env(),
      );
      await exitsZero(created);
      const { businessId } = JSON.parse(created.output());

      const refused = spawnTs(CLI, ['v1-key', 'create', businessId], env());
      expect(await refused.exited).toBe(1);
      expect(lastJsonLine(refused).error).toMatch(/verified/);

      const verified = spawnTs(CLI, ['business', 'update', businessId, '--verified', 'on'], env());
      await exitsZero(verified);
      expect(JSON.parse(verified.output())).toMatchObject({ id: businessId, verified: true });

      const first = spawnTs(CLI, ['v1-key', 'create', businessId], env());
      await exitsZero(first);
      const issued = JSON.parse(first.output());
      expect(issued).toEqual({
        businessId,
        mode: 'test',
        apiKey: expect.stringMatching(/^tessera_test_sk_/),
        createdAt: expect.any(String),
      });

      const second = spawnTs(CLI, ['v1-key', 'create', businessId], env());
      await exitsZero(second);
      const reissued = JSON.parse(second.output());

      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const { rows } = await client.query(
          'SELECT key_hash, revoked_at FROM v1_api_keys WHERE business_id = $1 ORDER BY created_at',
          [businessId],
        );
        const hash = (key: string) => crypto.createHash('sha256').update(key).digest('hex');
        expect(rows.map((row) => [row.key_hash, row.revoked_at === null])).toEqual([
          [hash(issued.apiKey), false],
          [hash(reissued.apiKey), true],
        ]);
      } finally {
        await client.end();
      }
    },
    spawnBudget(5),
  );

  test(
    'v1-webhook-url sets where /v1 events go, per mode, apart from the main webhook URL; off removes it; a bad URL is refused',
    async () => {
      const created = spawnTs(
        CLI,
        ['business', 'create', '--name', 'Hooks Co', '--email', 'ops@hooks.test', '--password', 'long enough password'],
        env(),
      );
      await exitsZero(created);
      const { businessId } = JSON.parse(created.output());

      const set = spawnTs(CLI, ['v1-webhook-url', businessId, 'http://127.0.0.1:9/v1-hooks'], env());
      await exitsZero(set);
      expect(JSON.parse(set.output())).toEqual({ businessId, mode: 'test', webhookUrl: 'http://127.0.0.1:9/v1-hooks' });
      const refused = spawnTs(CLI, ['v1-webhook-url', businessId, 'ftp://example.com'], env());
      expect(await refused.exited).toBe(1);
      expect(lastJsonLine(refused).errors).toMatchObject({ webhookUrl: expect.any(Array) });

      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        const read = () =>
          client.query(
            'SELECT livemode, webhook_url, v1_webhook_url FROM business_settings WHERE business_id = $1 ORDER BY livemode',
            [businessId],
          );
        expect((await read()).rows).toEqual([
          { livemode: false, webhook_url: null, v1_webhook_url: 'http://127.0.0.1:9/v1-hooks' },
          { livemode: true, webhook_url: null, v1_webhook_url: null },
        ]);
        const off = spawnTs(CLI, ['v1-webhook-url', businessId, 'off'], env());
        await exitsZero(off);
        expect((await read()).rows[0].v1_webhook_url).toBeNull();
      } finally {
        await client.end();
      }
    },
    spawnBudget(4),
  );
});
