import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { card, chargingMerchant, expectLedgerBalanced } from './support/payments';
import { PAYOUTS, bankDetails, createRecipient, fundWallet } from './support/payouts';
import { freePort, spawnBudget, spawnTs } from './support/process';
import { TREASURY_PAYOUTS, fundedWallet, payoutBody } from './support/treasury';

/**
 * Issue 26, finding 7: a keyed request whose object committed, killed (kill -9) before its response
 * was stored, answered IDEMPOTENCY_REQUEST_INTERRUPTED for the key's 24 hours although its object
 * existed. A retry after the lease now answers from the object the request made (the response it
 * would have stored, with the object as it is now), never making a second one; the answer is then
 * stored and replayed.
 */

interface Case {
  /** The keyed request: a merchant, its POST and body. */
  request: (server: TestServer) => Promise<{ merchant: TestMerchant; path: string; body: Record<string, unknown> }>;
  /** The objects the request makes and their ledger postings, counted for the merchant. */
  table: string;
  postings: string | null;
  /** The id of what the request made, in its answer (`data.id` unless said). */
  idOf?: (data: Record<string, any>) => string;
}

const CASES: Record<string, Case> = {
  payout: {
    request: async (server) => {
      const merchant = await server.signUp();
      await fundWallet(server, merchant, '100.00');
      const recipient = await createRecipient(server, merchant);
      return { merchant, path: PAYOUTS, body: { recipientId: recipient.id, amount: '10.00', currency: 'USD' } };
    },
    table: 'payouts',
    postings: 'payout_debit',
  },
  refund: {
    request: async (server) => {
      const merchant = await chargingMerchant(server);
      const paid = await server.request('POST', '/api/v1/business/payment/charge', {
        headers: { 'x-api-key': merchant.apiKey },
        body: { amount: 25, currency: 'usd', card: card(), email: 'refund@example.com' },
      });
      expect(paid.status).toBe(201);
      return { merchant, path: `/api/v1/business/payments/${paid.body.data.id}/refunds`, body: { amount: '10.00' } };
    },
    table: 'refunds',
    postings: 'card_refund',
  },
  'treasury payout': {
    request: async (server) => {
      const { partner, user, wallet } = await fundedWallet(server);
      return { merchant: partner, path: TREASURY_PAYOUTS, body: payoutBody(user.id, wallet.id) };
    },
    table: 'treasury_payouts',
    postings: null,
  },
  collection: {
    request: async (server) => ({
      merchant: await server.signUp(),
      path: '/api/v1/business/collections',
      body: {
        amount: 5_000_000,
        currency: 'ngn',
        country: 'NG',
        rail: 'bank',
        customer: { email: 'ada@example.com', name: 'Ada Obi' },
      },
    }),
    table: 'collections',
    postings: null,
  },
  // Found by the reliability suite's PostgreSQL restarts (docs/reliability.md): a funding that
  // committed while its answer was lost was retried into 409 IDEMPOTENCY_REQUEST_INTERRUPTED.
  'sandbox funding': {
    request: async (server) => ({
      merchant: await server.signUp(),
      path: '/api/v1/business/sandbox/wallets/fund',
      body: { amount: '2.79', currency: 'usd' },
    }),
    table: 'journal_transactions',
    postings: 'sandbox_funding',
    idOf: (data) => data.transactionId,
  },
  recipient: {
    request: async (server) => ({
      merchant: await server.signUp(),
      path: `${PAYOUTS}/recipients`,
      body: {
        label: 'Supplier',
        details: bankDetails('6789', { accountNumber: `01${crypto.randomInt(10_000_000, 99_999_999)}` }),
      },
    }),
    table: 'payout_recipients',
    postings: null,
  },
};

describe('finding 26.7: a keyed request killed after its object committed answers from that object', () => {
  let server: TestServer;
  let scratch: string;

  beforeAll(async () => {
    server = await startTestServer({ paymentSettlementDelaySeconds: 3600 });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-resume-'));
  });
  afterAll(async () => {
    fs.rmSync(scratch, { recursive: true, force: true });
    await server.close();
  });

  const sql = (query: string, params: unknown[] = []) => server.runtime.dataSource.query(query, params);
  const headers = (merchant: TestMerchant, key: string) => ({ 'x-api-key': merchant.apiKey, 'idempotency-key': key });

  async function made(merchant: TestMerchant, { table, postings }: Case) {
    const [row] = await sql(
      `SELECT (SELECT array_agg(id::text) FROM ${table} WHERE business_id = $1) AS ids,
              (SELECT count(*)::int FROM journal_transactions WHERE business_id = $1 AND kind = $2) AS postings`,
      [merchant.businessId, postings ?? '-'],
    );
    return { ids: (row.ids ?? []) as string[], postings: row.postings as number };
  }

  /** The real server in a child process, killed with SIGKILL once the request committed, before its response is stored. */
  async function sendToServerKilledBeforeTheResponseIsStored(
    name: string,
    merchant: TestMerchant,
    route: string,
    key: string,
    body: unknown,
  ) {
    const port = await freePort();
    const child = spawnTs('test/support/crashing-server.ts', [], {
      DATABASE_URL: server.databaseUrl,
      PORT: String(port),
      TESSERA_MASTER_KEY: 'test-master-key',
      JWT_SECRET: 'test-jwt-secret',
      TESSERA_DATA_DIR: path.join(scratch, name.replace(/\W/g, '-')),
      WORKER_IN_PROCESS: 'false',
      SEED_SANDBOX_BUSINESS: 'false',
      TESSERA_TEST_CRASH_AT: 'before-response-stored',
    });
    await child.waitFor(/Ready on/);
    const answer = fetch(`http://127.0.0.1:${port}${route}`, {
      method: 'POST',
      headers: { ...headers(merchant, key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(
      (response) => `HTTP ${response.status}`,
      () => 'connection lost',
    );
    expect(await child.exited).toBeNull(); // killed by a signal
    expect(await answer).toBe('connection lost');
  }

  test.each(Object.keys(CASES))(
    '%s: killed between its commit and the stored response, a retry after the lease answers 201 from the object, made once',
    async (name) => {
      const kind = CASES[name];
      const { merchant, path: route, body } = await kind.request(server);
      const before = await made(merchant, kind);
      const key = `resume-${name.replace(/\W/g, '-')}-${crypto.randomUUID()}`;
      await sendToServerKilledBeforeTheResponseIsStored(name, merchant, route, key, body);
      const committed = await made(merchant, kind);
      expect(committed.ids).toHaveLength(before.ids.length + 1);
      const [object] = committed.ids.filter((id) => !before.ids.includes(id));

      const retry = () => server.request('POST', route, { headers: headers(merchant, key), body });
      const early = await retry(); // within the lease the holder may still be alive
      expect({ status: early.status, code: early.body.error?.code }).toEqual({
        status: 409,
        code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
      });
      // Six minutes pass for the key: past its 5-minute lease.
      await sql(`UPDATE idempotency_keys SET leased_until = leased_until - interval '6 minutes' WHERE key = $1`, [key]);

      const answered = await retry();
      expect({ status: answered.status, code: answered.body.error?.code }).toEqual({ status: 201, code: undefined });
      expect(answered.headers.get('idempotent-replayed')).toBeNull();
      expect((kind.idOf ?? ((data) => data.id))(answered.body.data)).toBe(object);
      const replayed = await retry();
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body).toEqual(answered.body);
      expect(await made(merchant, kind)).toEqual(committed);
      if (kind.postings) expect(committed.postings).toBe(before.postings + 1);
      await expectLedgerBalanced(server);
    },
    spawnBudget(1),
  );
});
