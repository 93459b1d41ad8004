import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { card } from './support/charges';
import { CLI, cliJson } from './support/cli';
import { TestMerchant, TestServer, startTestServer, within } from './support/harness';
import { spawnTs } from './support/process';

/**
 * The operator's way back to a business's credentials: `business list` and `business show` print
 * what a business is without a secret, and `business rotate-test-credentials` replaces its test
 * credentials and prints the new ones once; the old ones stop working at once.
 */
describe('operator CLI: business list, show and rotate-test-credentials', () => {
  let server: TestServer;
  let dataDir: string;
  let first: TestMerchant;
  let second: TestMerchant;
  const env = () => ({
    DATABASE_URL: server.databaseUrl,
    TESSERA_DATA_DIR: dataDir,
    TESSERA_MASTER_KEY: 'cli-key',
    JWT_SECRET: 'cli-jwt',
  });

  const publishableKeyOf = async (businessId: string): Promise<string> =>
    (
      await server.runtime.dataSource.query(
        'SELECT publishable_key FROM api_credentials WHERE business_id = $1 AND livemode = false',
        [businessId],
      )
    )[0].publishable_key;
  const secretsOf = async (merchant: TestMerchant) => [
    merchant.apiKey,
    merchant.apiSecret,
    await publishableKeyOf(merchant.businessId),
  ];

  // A short re-check: the CLI is another process, and without Redis its revocation reaches the
  // server's sockets at their next re-check.
  beforeAll(async () => {
    server = await startTestServer({ masterKey: 'cli-key', jwtSecret: 'cli-jwt', subscriptionRecheckMs: 1000 });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-cli-businesses-'));
    first = await server.createMerchant();
    second = await server.createMerchant();
  });
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await server.close();
  });

  /** A command that must be refused: exit 1 and one JSON line on stderr. */
  async function refusal(args: string[]) {
    const run = spawnTs(CLI, args, env());
    expect(await run.exited).toBe(1);
    const lines = run.errorOutput().trim().split('\n');
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]).error as string;
  }

  test('business list prints every business, oldest first, with its owners and modes, and no secret', async () => {
    const listed = await cliJson(['business', 'list'], env());
    expect(listed.map((business: { id: string }) => business.id)).toEqual([first.businessId, second.businessId]);
    expect(listed[0]).toEqual({
      id: first.businessId,
      name: expect.any(String),
      email: first.email,
      owners: [first.email],
      verified: false,
      treasuryEnabled: false,
      modes: ['test'],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const printed = JSON.stringify(listed);
    for (const secret of [...(await secretsOf(first)), ...(await secretsOf(second))])
      expect(printed).not.toContain(secret);
  }, 180_000);

  test('business show prints the business, its settings and its credentials by their hints only', async () => {
    const shown = await cliJson(['business', 'show', first.businessId], env());
    expect(shown).toMatchObject({
      id: first.businessId,
      email: first.email,
      owners: [first.email],
      modes: ['test'],
      verified: false,
      settings: { test: { cardFeeBps: 290 }, live: { cardFeeBps: 290 } },
      credentials: [
        {
          mode: 'test',
          keyHint: `${first.apiKey.slice(0, 12)}…`,
          publishableKeyHint: expect.stringMatching(/^pk_test_.{4}…$/),
          keyVersion: 1,
        },
      ],
    });
    const printed = JSON.stringify(shown);
    for (const secret of await secretsOf(first)) expect(printed).not.toContain(secret);
  }, 180_000);

  test('an unknown or malformed business id: one line, exit 1, nothing changed', async () => {
    const before = await server.runtime.dataSource.query(
      'SELECT key_hash, secret_ciphertext, publishable_key FROM api_credentials ORDER BY id',
    );
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-business']) {
      expect(await refusal(['business', 'show', id])).toBe('Business not found');
      expect(await refusal(['business', 'rotate-test-credentials', id])).toBe('Business not found');
    }
    expect(
      await server.runtime.dataSource.query(
        'SELECT key_hash, secret_ciphertext, publishable_key FROM api_credentials ORDER BY id',
      ),
    ).toEqual(before);
  }, 180_000);

  test('rotate-test-credentials prints new credentials once: they work over REST, the old key, its tokens and the old publishable key answer 401, and its open socket is closed', async () => {
    const oldPublishable = await publishableKeyOf(first.businessId);
    const exchange = (apiKey: string, apiSecret: string) =>
      server.request('POST', '/api/v1/business/auth/token', { body: { apiKey, apiSecret } });
    const oldToken = (await exchange(first.apiKey, first.apiSecret)).body.data.accessToken;
    const socket = server.socket({ apiKey: first.apiKey });
    await socket.connected;

    const rotated = await cliJson(['business', 'rotate-test-credentials', first.businessId], env());
    expect(rotated).toEqual({
      businessId: first.businessId,
      testCredentials: {
        apiKey: expect.stringMatching(/^bk_test_/),
        apiSecret: expect.stringMatching(/^bs_test_/),
        publishableKey: expect.stringMatching(/^pk_test_/),
      },
    });
    const { apiKey, apiSecret, publishableKey } = rotated.testCredentials;
    expect([apiKey, apiSecret, publishableKey]).not.toContain(first.apiKey);
    expect(apiSecret).not.toBe(first.apiSecret);
    expect(publishableKey).not.toBe(oldPublishable);

    const wallets = (headers: Record<string, string>) => server.request('GET', '/api/v1/business/wallets', { headers });
    expect((await wallets({ 'x-api-key': apiKey })).status).toBe(200);
    expect((await wallets({ 'x-api-key': first.apiKey })).status).toBe(401);
    expect((await wallets({ authorization: `Bearer ${oldToken}` })).status).toBe(401);
    expect((await exchange(apiKey, apiSecret)).status).toBe(200);
    expect((await exchange(apiKey, first.apiSecret)).status).toBe(401);
    const tokenize = (key: string) =>
      server.request('POST', '/api/v1/tokens', { body: { card: card() }, headers: { 'x-publishable-key': key } });
    expect((await tokenize(publishableKey)).status).toBe(201);
    expect((await tokenize(oldPublishable)).status).toBe(401);
    expect(await within(socket.closed, 60_000, "close of the old key's socket")).toMatchObject({ code: 4403 });

    // The other business keeps its credentials.
    expect((await wallets({ 'x-api-key': second.apiKey })).status).toBe(200);
  }, 180_000);
});
