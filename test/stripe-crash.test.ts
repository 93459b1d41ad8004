import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RequestContext } from '../src/domain/shared/context';
import { FakeStripe, HeldRequest } from './support/fake-stripe';
import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { CARDS, card, chargingMerchant, expectLedgerBalanced } from './support/payments';
import { Spawned, freePort, spawnBudget, spawnTs } from './support/process';

const WEBHOOK_SECRET = 'whsec_test_crash';
const CHARGE = '/api/v1/business/payment/charge';

interface Answer {
  status: number;
  body: any;
  replayed: boolean;
}

/**
 * Issue 29: "No double charge under any retry or crash (test with kill -9 between the request and
 * the answer)." A real server process, with STRIPE_* at the local fake, is killed with SIGKILL while
 * the fake holds its requests: two charges Stripe applied (their answers on the way), one charge
 * still on its way to Stripe (lost with the process), and a refund Stripe applied. A second server
 * process on the same database then takes the merchant's retries, and the recovery sweep asks Stripe
 * about what was left PENDING. Every charge is one PaymentIntent at most, captured once.
 */
describe('kill -9 of the server while Stripe has not answered', () => {
  let fake: FakeStripe;
  let server: TestServer;
  let scratch: string;
  let merchant: TestMerchant & { liveKey: string };
  let second: { process: Spawned; port: number };
  /** What the killed server was doing, by the merchant's Idempotency-Key. */
  const keys = {
    applied: 'crash-applied', // Stripe made the PaymentIntent; the merchant retries
    swept: 'crash-swept', // Stripe made the PaymentIntent; nobody retries, the sweep finds it
    lost: 'crash-lost', // the request died with the process before Stripe saw it
    refund: 'crash-refund', // Stripe made the Refund; the merchant retries
  };
  /** The payment (the first charge, COMPLETED before the kill) the held refund is of. */
  let refunded: { id: string; intent: string };
  const payments: Record<'applied' | 'swept' | 'lost', string> = { applied: '', swept: '', lost: '' };

  const sql = (query: string, params: unknown[] = []) => server.runtime.dataSource.query(query, params);

  const startServer = async (name: string): Promise<{ process: Spawned; port: number }> => {
    const port = await freePort();
    const spawned = spawnTs('src/main.ts', [], {
      DATABASE_URL: server.databaseUrl,
      PORT: String(port),
      TESSERA_MASTER_KEY: 'test-master-key',
      JWT_SECRET: 'test-jwt-secret',
      TESSERA_DATA_DIR: path.join(scratch, name),
      WORKER_IN_PROCESS: 'false',
      SEED_SANDBOX_BUSINESS: 'false',
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.baseUrl,
    });
    await spawned.waitFor(/Ready on/);
    return { process: spawned, port };
  };

  const send = async (port: number, urlPath: string, key: string, body: object): Promise<Answer> => {
    const response = await fetch(`http://127.0.0.1:${port}${urlPath}`, {
      method: 'POST',
      headers: { 'x-api-key': merchant.liveKey, 'idempotency-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: await response.json(),
      replayed: response.headers.get('idempotent-replayed') === 'true',
    };
  };
  const chargeBody = (email: string) => ({ amount: 25.5, currency: 'usd', card: card(CARDS.success), email });
  const refundPath = () => `/api/v1/business/payments/${refunded.id}/refunds`;
  const retry = (name: keyof typeof keys) =>
    name === 'refund'
      ? send(second.port, refundPath(), keys.refund, { amount: 5 })
      : send(second.port, CHARGE, keys[name], chargeBody(`${name}@example.com`));

  /** The key's lease (5 minutes) is over: the killed holder can no longer be alive. */
  const leaseEnds = (key: string) =>
    sql(
      `UPDATE idempotency_keys SET created_at = created_at - interval '6 minutes', leased_until = now() - interval '1 second' WHERE key = $1`,
      [key],
    );
  const resourceOf = async (key: string): Promise<string> =>
    (await sql(`SELECT resource_id FROM idempotency_keys WHERE key = $1`, [key]))[0].resource_id;
  const intentsOf = (paymentId: string) =>
    fake
      .list('payment_intent')
      .filter((intent) => (intent.metadata as Record<string, string>).tessera_payment_id === paymentId);
  const intentRequestsOf = (paymentId: string) =>
    fake.requests.filter((request) => request.path === '/v1/payment_intents' && request.idempotencyKey === paymentId);
  const postingsOf = async (kind: string, referenceId: string): Promise<number> =>
    (
      await sql(`SELECT count(*)::int AS n FROM journal_transactions WHERE kind = $1 AND reference_id = $2`, [
        kind,
        referenceId,
      ])
    )[0].n;
  const expectInProgress = (answer: Answer) => {
    expect(answer.status).toBe(409);
    expect(answer.body.error.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
  };

  beforeAll(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-stripe-crash-'));
    fake = await new FakeStripe().start();
    server = await startTestServer({
      paymentSettlementDelaySeconds: 3600,
      stripe: { secretKey: fake.secretKey, webhookSecret: WEBHOOK_SECRET, apiBase: fake.baseUrl },
    });
    const charging = await chargingMerchant(server);
    const liveKey = await server.liveKeyOf(charging);
    await sql(`UPDATE business_settings SET server_to_server_charging = true WHERE business_id = $1 AND livemode`, [
      charging.businessId,
    ]);
    merchant = { ...charging, liveKey };

    const first = await startServer('first');
    const done = await send(first.port, CHARGE, 'crash-paid', chargeBody('paid@example.com'));
    expect(done.body.data.status).toBe('COMPLETED');
    refunded = { id: done.body.data.id, intent: intentsOf(done.body.data.id)[0].id };

    // One request at a time, each held at Stripe before the next is sent (a hold takes the next request to its path).
    const held: HeldRequest[] = [];
    const sent: Array<Promise<string>> = [];
    const hold = async (stripePath: string, applied: boolean, request: () => Promise<Answer>) => {
      const holding = fake.holdNext(stripePath, { applied });
      sent.push(
        request().then(
          (answer) => `HTTP ${answer.status}`,
          () => 'connection lost',
        ),
      );
      await holding.arrived;
      held.push(holding);
    };
    await hold('/v1/payment_intents', true, () =>
      send(first.port, CHARGE, keys.applied, chargeBody('applied@example.com')),
    );
    await hold('/v1/payment_intents', true, () =>
      send(first.port, CHARGE, keys.swept, chargeBody('swept@example.com')),
    );
    await hold('/v1/payment_intents', false, () => send(first.port, CHARGE, keys.lost, chargeBody('lost@example.com')));
    await hold('/v1/refunds', true, () => send(first.port, refundPath(), keys.refund, { amount: 5 }));

    first.process.child.kill('SIGKILL');
    expect(await first.process.exited).toBeNull(); // killed by a signal
    expect(await Promise.all(sent)).toEqual(Array(4).fill('connection lost'));
    await Promise.all(held.map((request) => request.clientGone));
    for (const request of held) request.release();

    for (const name of ['applied', 'swept', 'lost'] as const) payments[name] = await resourceOf(keys[name]);
    second = await startServer('second');
  }, spawnBudget(2));

  afterAll(async () => {
    if (second) {
      second.process.child.kill('SIGKILL');
      await second.process.exited;
    }
    await server?.close();
    await fake?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  test('what the kill left: the charges PENDING on their keys, Stripe holding one PaymentIntent each for the two it received and none for the lost one', async () => {
    const rows: Array<{ id: string; status: string; acquirer_reference: string | null }> = await sql(
      `SELECT id, status, acquirer_reference FROM payments WHERE id = ANY($1) ORDER BY id`,
      [Object.values(payments)],
    );
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.status === 'PENDING' && row.acquirer_reference === null)).toBe(true);
    expect(intentsOf(payments.applied)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    expect(intentsOf(payments.swept)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    expect(intentsOf(payments.lost)).toEqual([]);
    expect(intentRequestsOf(payments.lost)).toEqual([expect.objectContaining({ status: 0 })]);
    const [refund] = await sql(`SELECT status FROM refunds WHERE payment_id = $1`, [refunded.id]);
    expect(refund.status).toBe('pending');
    expect(fake.list('refund').filter((item) => item.payment_intent === refunded.intent)).toHaveLength(1);
    for (const id of Object.values(payments)) expect(await postingsOf('card_capture', id)).toBe(0);
  });

  test("the merchant's retries before the sweep: 409 in progress (within the lease, then while PENDING), nothing sent to Stripe again", async () => {
    const before = fake.requests.length;
    expectInProgress(await retry('applied'));
    expectInProgress(await retry('lost'));
    await leaseEnds(keys.applied);
    await leaseEnds(keys.lost);
    const waiting = await retry('applied');
    expectInProgress(waiting);
    expect(waiting.body.error.message).toMatch(/waiting for the acquirer's answer/);
    expectInProgress(await retry('lost'));
    // (A retry vaults its card again, as every charge does first: a PaymentMethod, never a charge.)
    expect(fake.requests.slice(before).filter((request) => request.path !== '/v1/payment_methods')).toEqual([]);
  });

  test('the recovery sweep asks Stripe (searches, never sends): the two it received COMPLETED with their intent, the lost one FAILED, one capture each', async () => {
    await sql(`UPDATE payments SET created_at = now() - interval '5 minutes' WHERE id = ANY($1)`, [
      Object.values(payments),
    ]);
    const before = fake.requests.length;
    const system = RequestContext.system(server.runtime.dataSource, 'test');
    expect(await server.runtime.core.payments.reconcilePending(system)).toBe(3);
    expect(fake.requests.slice(before).filter((request) => request.method === 'POST')).toEqual([]);

    for (const name of ['applied', 'swept'] as const) {
      const [row] = await sql(`SELECT status, acquirer_reference FROM payments WHERE id = $1`, [payments[name]]);
      const intents = intentsOf(payments[name]);
      expect(intents).toHaveLength(1);
      expect(row).toEqual({ status: 'COMPLETED', acquirer_reference: intents[0].id });
      expect(intentRequestsOf(payments[name])).toHaveLength(1);
      expect(await postingsOf('card_capture', payments[name])).toBe(1);
    }
    const [lost] = await sql(`SELECT status, failure_reason, acquirer_reference FROM payments WHERE id = $1`, [
      payments.lost,
    ]);
    expect(lost).toEqual({ status: 'FAILED', failure_reason: 'processing_error', acquirer_reference: null });
    expect(intentsOf(payments.lost)).toEqual([]);
    expect(await postingsOf('card_capture', payments.lost)).toBe(0);
  });

  test('the retry after the sweep answers the one charge (201 COMPLETED, then replayed); the lost one answers FAILED; Stripe still holds one intent', async () => {
    const answered = await retry('applied');
    expect(answered.status).toBe(201);
    expect(answered.replayed).toBe(false);
    expect(answered.body.data).toMatchObject({ id: payments.applied, status: 'COMPLETED', amount: '25.50' });
    const again = await retry('applied');
    expect(again.replayed).toBe(true);
    expect(again.body).toEqual(answered.body);

    const lost = await retry('lost');
    expect(lost.body.data).toMatchObject({ id: payments.lost, status: 'FAILED', failureReason: 'processing_error' });
    for (const id of Object.values(payments)) expect(intentRequestsOf(id)).toHaveLength(1);
    expect(intentsOf(payments.applied)).toHaveLength(1);
    expect(intentsOf(payments.lost)).toEqual([]);
    const rows = await sql(`SELECT count(*)::int AS n FROM payments WHERE business_id = $1 AND livemode`, [
      merchant.businessId,
    ]);
    expect(rows[0].n).toBe(4); // the one paid before the kill and the three the kill interrupted: no other
  });

  test('the refund Stripe applied: the retry of the key refunds once at Stripe (its replay) and books it once', async () => {
    expectInProgress(await retry('refund'));
    await leaseEnds(keys.refund);
    const answered = await retry('refund');
    expect(answered.status).toBe(201);
    expect(answered.body.data).toMatchObject({
      amount: '5.00',
      status: 'succeeded',
      payment: { id: refunded.id, amountRefunded: '5.00' },
    });
    const refundId = answered.body.data.id as string;
    const atStripe = fake.list('refund').filter((item) => item.payment_intent === refunded.intent);
    expect(atStripe).toEqual([expect.objectContaining({ amount: 500, metadata: { tessera_refund_id: refundId } })]);
    const sent = fake.requests.filter(
      (request) => request.path === '/v1/refunds' && request.idempotencyKey === refundId,
    );
    expect(sent.map((request) => request.replayed)).toEqual([false, true]);
    expect(await postingsOf('card_refund', refundId)).toBe(1);

    const again = await retry('refund');
    expect(again.replayed).toBe(true);
    expect(again.body.data.id).toBe(refundId);
    expect(await postingsOf('card_refund', refundId)).toBe(1);
    await expectLedgerBalanced(server);
  });
});
