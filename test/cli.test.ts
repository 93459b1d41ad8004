import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, dropTestDatabase } from './support/harness';
import { spawnTs } from './support/process';

const CLI = 'src/cli/index.ts';

describe('operator CLI (tessera)', () => {
  let databaseUrl: string;
  let dataDir: string;
  const env = () => ({ DATABASE_URL: databaseUrl, TESSERA_DATA_DIR: dataDir, TESSERA_MASTER_KEY: 'cli-key', JWT_SECRET: 'cli-jwt' });

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-cli-'));
  });
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await dropTestDatabase(databaseUrl);
  });

  test('migrate runs the migrations, and a second run has nothing to do', async () => {
    const first = spawnTs(CLI, ['migrate'], env());
    expect(await first.exited).toBe(0);
    expect(JSON.parse(first.output()).migrated.length).toBeGreaterThan(0);
    const second = spawnTs(CLI, ['migrate'], env());
    expect(await second.exited).toBe(0);
    expect(JSON.parse(second.output())).toEqual({ migrated: [] });
  }, 60_000);

  test('business create prints JSON with the business id and its test credentials', async () => {
    const run = spawnTs(CLI, ['business', 'create', '--name', 'Acme Ltd', '--email', 'ops@acme.test', '--password', 'long enough password'], env());
    expect(await run.exited).toBe(0);
    const printed = JSON.parse(run.output());
    expect(printed).toEqual({
      businessId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      businessName: 'Acme Ltd',
      ownerUserId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      testCredentials: { apiKey: expect.stringMatching(/^bk_test_/), apiSecret: expect.stringMatching(/^bs_test_/), publishableKey: expect.stringMatching(/^pk_test_/) },
    });
  }, 60_000);

  test('business create with bad input exits non-zero with the per-field errors and creates nothing', async () => {
    const run = spawnTs(CLI, ['business', 'create', '--name', 'Bad', '--email', 'not-an-email', '--password', 'short'], env());
    expect(await run.exited).toBe(1);
    const printed = JSON.parse(run.output().trim().split('\n').pop()!);
    expect(Object.keys(printed.errors).sort()).toEqual(['email', 'password']);
  }, 60_000);

  test('ledger:check reports a balanced ledger and exits 0', async () => {
    const run = spawnTs(CLI, ['ledger:check'], env());
    expect(await run.exited).toBe(0);
    expect(JSON.parse(run.output())).toEqual({
      balanced: true, unbalancedTransactions: [], cachedBalanceMismatches: [], negativeBalances: [],
    });
  }, 60_000);
});
