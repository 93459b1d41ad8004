import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RequestContext } from '../src/domain/shared/context';
import { ApiResponse, TestMerchant, TestServer, startTestServer } from './support/harness';
import { card, chargingMerchant, expectLedgerBalanced, waitFor } from './support/payments';
import { freePort, spawnBudget, spawnTs } from './support/process';

/**
 * Finding 2: a crash during a charge must not cause a double charge despite `Idempotency-Key`.
 * A retry with the same key, whenever it comes, never repeats an effect that may have happened:
 * once the payment is recorded, the key answers from that payment.
 */

const CHARGE = '/api/v1/business/payment/charge';

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}
const deferred = (): Deferred => {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
};

describe('finding 2: a charge interrupted at any step is never captured twice for one Idempotency-Key', () => {
  let server: TestServer;
  let scratch: string;

  beforeAll(async () => {
    server = await startTestServer({ paymentSettlementDelaySeconds: 3600 });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-crash-'));
  });
  afterAll(async () => {
    fs.rmSync(scratch, { recursive: true, force: true });
    await server.close();
  });

  const sql = (query: string, params: unknown[] = []) => server.runtime.dataSource.query(query, params);
  const body = (email: string) => ({ amount: 25, currency: 'usd', card: card(), email });
  const headers = (merchant: TestMerchant, key: string) => ({ 'x-api-key': merchant.apiKey, 'idempotency-key': key });
  const retry = (merchant: TestMerchant, key: string, email: string) =>
    server.request('POST', CHARGE, { headers: headers(merchant, key), body: body(email) });

  /** Six minutes pass for the key and the merchant's payments: past the 5-minute lease and the 60-second de-duplication. */
  async function sixMinutesPass(merchant: TestMerchant, key: string) {
    await sql(
      `UPDATE idempotency_keys SET created_at = created_at - interval '6 minutes', leased_until = leased_until - interval '6 minutes' WHERE key = $1`,
      [key],
    );
    await sql(`UPDATE payments SET created_at = created_at - interval '6 minutes' WHERE business_id = $1`, [
      merchant.businessId,
    ]);
  }

  async function ledgerOf(merchant: TestMerchant) {
    const [row] = await sql(
      `SELECT (SELECT count(*)::int FROM payments WHERE business_id = $1) AS payments,
              (SELECT count(*)::int FROM journal_transactions WHERE business_id = $1 AND kind = 'card_capture') AS captures,
              (SELECT count(*)::int FROM events WHERE business_id = $1 AND type = 'payment.completed') AS completed`,
      [merchant.businessId],
    );
    return row as { payments: number; captures: number; completed: number };
  }

  const expectInProgress = (response: ApiResponse) => {
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
  };

  /** The real server in a child process, killed with SIGKILL at `point` of the charge it is sent. */
  async function chargeOnServerKilledAt(point: string, merchant: TestMerchant, key: string, email: string) {
    const port = await freePort();
    const child = spawnTs('test/support/crashing-server.ts', [], {
      DATABASE_URL: server.databaseUrl,
      PORT: String(port),
      TESSERA_MASTER_KEY: 'test-master-key',
      JWT_SECRET: 'test-jwt-secret',
      TESSERA_DATA_DIR: path.join(scratch, point),
      WORKER_IN_PROCESS: 'false',
      SEED_SANDBOX_BUSINESS: 'false',
      TESSERA_TEST_CRASH_AT: point,
    });
    await child.waitFor(/Ready on/);
    const answer = fetch(`http://127.0.0.1:${port}${CHARGE}`, {
      method: 'POST',
      headers: { ...headers(merchant, key), 'content-type': 'application/json' },
      body: JSON.stringify(body(email)),
    }).then(
      (response) => `HTTP ${response.status}`,
      () => 'connection lost',
    );
    expect(await child.exited).toBeNull(); // killed by a signal
    expect(await answer).toBe('connection lost');
  }

  test.each([
    ['before-payment-commits', false],
    ['before-answer-recorded', true],
    ['before-response-stored', true],
  ])(
    'killed %s: a retry after the lease returns the one payment, captured once',
    async (point, paymentCommitted) => {
      const merchant = await chargingMerchant(server);
      const key = `crash-${point}-${crypto.randomUUID()}`;
      const email = `${point}@example.com`;
      await chargeOnServerKilledAt(point, merchant, key, email);
      const left: Array<{ id: string; status: string }> = await sql(
        `SELECT id, status FROM payments WHERE business_id = $1`,
        [merchant.businessId],
      );
      expect(left).toHaveLength(paymentCommitted ? 1 : 0);

      expectInProgress(await retry(merchant, key, email)); // within the lease: the holder may still be alive
      await sixMinutesPass(merchant, key);

      if (point === 'before-answer-recorded') {
        expect(left[0].status).toBe('PENDING');
        expectInProgress(await retry(merchant, key, email)); // the payment exists but its outcome is not known yet
        expect(
          await server.runtime.core.payments.reconcilePending(RequestContext.system(server.runtime.dataSource, 'test')),
        ).toBe(1);
      }
      const answered = await retry(merchant, key, email);
      expect(answered.status).toBe(201);
      expect(answered.headers.get('idempotent-replayed')).toBeNull();
      expect(answered.body.data).toMatchObject({ status: 'COMPLETED', amount: '25.00', email });
      if (paymentCommitted) expect(answered.body.data.id).toBe(left[0].id);

      const replayed = await retry(merchant, key, email);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body).toEqual(answered.body);
      expect(await ledgerOf(merchant)).toEqual({ payments: 1, captures: 1, completed: 1 });
      await expectLedgerBalanced(server);
    },
    spawnBudget(1),
  );

  test('an acquirer slower than the lease: the retry waits for the answer, the recovery sweep and the first request agree, one capture', async () => {
    const merchant = await chargingMerchant(server);
    const key = `slow-acquirer-${crypto.randomUUID()}`;
    const email = 'slow-acquirer@example.com';
    const acquirer = server.runtime.core.providers.inMode('card-acquirer', 'test');
    const authorize = acquirer.authorize.bind(acquirer);
    const gate = deferred();
    let calls = 0;
    const spy = jest.spyOn(acquirer, 'authorize').mockImplementation(async (request: any) => {
      calls += 1;
      if (calls === 1) await gate.promise; // the first request's call hangs past the lease
      return authorize(request);
    });
    try {
      const first = retry(merchant, key, email);
      await waitFor(
        () => sql(`SELECT id FROM payments WHERE business_id = $1`, [merchant.businessId]),
        (rows: unknown[]) => rows.length === 1 && calls === 1,
      );
      await sixMinutesPass(merchant, key);

      expectInProgress(await retry(merchant, key, email));
      expect(
        await server.runtime.core.payments.reconcilePending(RequestContext.system(server.runtime.dataSource, 'test')),
      ).toBe(1);
      const answered = await retry(merchant, key, email);
      expect(answered.status).toBe(201);
      expect(answered.body.data.status).toBe('COMPLETED');

      gate.resolve();
      const original = await first;
      expect(original.status).toBe(201);
      expect(original.body.data).toMatchObject({ id: answered.body.data.id, status: 'COMPLETED' });
      expect(await ledgerOf(merchant)).toEqual({ payments: 1, captures: 1, completed: 1 });
      const replayed = await retry(merchant, key, email);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body.data.id).toBe(answered.body.data.id);
    } finally {
      gate.resolve();
      spy.mockRestore();
    }
    await expectLedgerBalanced(server);
  });

  test('GraphQL chargeCard: a retry while the payment awaits its answer is 409 in progress, not stored; then the payment', async () => {
    const merchant = await chargingMerchant(server);
    const key = `graphql-${crypto.randomUUID()}`;
    const mutation = `mutation($input: ChargeCardInput!) { chargeCard(input: $input) { payment { id status } userErrors { field message code } } }`;
    const variables = { input: { amount: '25.00', currency: 'usd', card: card(), email: 'graphql-retry@example.com' } };
    const send = () => server.graphql(mutation, variables, headers(merchant, key));
    const acquirer = server.runtime.core.providers.inMode('card-acquirer', 'test');
    const authorize = acquirer.authorize.bind(acquirer);
    const gate = deferred();
    const spy = jest.spyOn(acquirer, 'authorize').mockImplementation(async (request: any) => {
      await gate.promise;
      return authorize(request);
    });
    try {
      const first = send();
      await waitFor(
        () => sql(`SELECT id FROM payments WHERE business_id = $1`, [merchant.businessId]),
        (rows: unknown[]) => rows.length === 1,
      );
      await sixMinutesPass(merchant, key);
      const waiting = await send();
      expect(waiting.body.errors?.[0].extensions).toMatchObject({
        code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
        statusCode: 409,
      });
      expect((await send()).body.errors?.[0].extensions.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS'); // not replayed from storage

      gate.resolve();
      const original = await first;
      expect(original.body.data.chargeCard.payment.status).toBe('COMPLETED');
      const after = await send();
      expect(after.body).toEqual(original.body);
      expect(await ledgerOf(merchant)).toEqual({ payments: 1, captures: 1, completed: 1 });
    } finally {
      gate.resolve();
      spy.mockRestore();
    }
  });

  test('a request slower than its lease before the payment is recorded: the retry charges once and the slow request commits nothing', async () => {
    const merchant = await chargingMerchant(server);
    const key = `slow-vault-${crypto.randomUUID()}`;
    const email = 'slow-vault@example.com';
    const acquirer = server.runtime.core.providers.inMode('card-acquirer', 'test');
    const vault = acquirer.vault.bind(acquirer);
    const gate = deferred();
    let calls = 0;
    const spy = jest.spyOn(acquirer, 'vault').mockImplementation(async (details: any) => {
      calls += 1;
      if (calls === 1) await gate.promise;
      return vault(details);
    });
    try {
      const first = retry(merchant, key, email);
      await waitFor(
        async () => calls,
        (count) => count === 1,
      );
      await sixMinutesPass(merchant, key);
      const retried = await retry(merchant, key, email);
      expect(retried.status).toBe(201);
      expect(retried.body.data.status).toBe('COMPLETED');
      // The retried payment is as old as a retry after a lease would find it: past the de-duplication window.
      await sql(`UPDATE payments SET created_at = created_at - interval '2 minutes' WHERE business_id = $1`, [
        merchant.businessId,
      ]);

      gate.resolve();
      const slow = await first;
      expect(slow.status).toBe(409);
      expect(slow.body.error).toMatchObject({
        code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS',
        message: expect.stringMatching(/took it over/),
      });
      expect(await ledgerOf(merchant)).toEqual({ payments: 1, captures: 1, completed: 1 });
      const replayed = await retry(merchant, key, email);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body.data.id).toBe(retried.body.data.id);
    } finally {
      gate.resolve();
      spy.mockRestore();
    }
  });
});
