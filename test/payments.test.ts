import { Client } from 'pg';
import { jobsCtes } from '../src/domain/shared/jobs';
import { TestMerchant, TestServer, startTestServer, waitUntil } from './support/harness';
import { RequestContext } from '../src/domain/shared/context';
import { chargeCommandOf, chargeRequestSchema } from '../src/wire/payments';
import { parseInput } from '../src/wire/validation';
import {
  CARDS,
  card,
  charge,
  chargingMerchant,
  eventsOf,
  expectLedgerBalanced,
  waitFor,
  walletBalance,
} from './support/payments';

/** Interface document: Create a server-to-server charge, Sandbox card outcomes, payment.* events. */
describe('server-to-server card charges', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ paymentSettlementDelaySeconds: 3600, sandbox3dsAutoCompleteMs: 3_600_000 });
  });
  afterAll(async () => server.close());

  const paymentCount = async (businessId: string) =>
    Number(
      (
        await server.runtime.dataSource.query(`SELECT count(*) AS n FROM payments WHERE business_id = $1`, [businessId])
      )[0].n,
    );
  const body = (number: string = CARDS.success, overrides: Record<string, unknown> = {}) => ({
    amount: 25.5,
    currency: 'usd',
    card: card(number),
    email: 'payer@example.com',
    ...overrides,
  });

  test('is refused with 400 and a message saying so while server-to-server charging is off', async () => {
    const merchant = await server.signUp();
    const response = await charge(server, merchant, body());
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'BAD_REQUEST',
        statusCode: 400,
        message: expect.stringMatching(/Server-to-server charging is not enabled/),
      },
    });
    expect(await paymentCount(merchant.businessId)).toBe(0);
  });

  test('an OWNER may enable it in test mode only; API keys and live mode are refused', async () => {
    const merchant = await server.signUp();
    const mutation =
      'mutation { setServerToServerCharging(input: { enabled: true }) { serverToServerCharging userErrors { field message code } } }';
    const byKey = await server.graphql(mutation, {}, { 'x-api-key': merchant.apiKey });
    expect(byKey.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const live = await server.graphql(
      mutation,
      {},
      { authorization: `Bearer ${merchant.token}`, 'x-service-mode': 'live' },
    );
    expect(live.body.errors![0].extensions.code).toBe('FORBIDDEN');
    const rows = await server.runtime.dataSource.query(
      `SELECT livemode, server_to_server_charging FROM business_settings WHERE business_id = $1`,
      [merchant.businessId],
    );
    expect(rows.every((row: any) => row.server_to_server_charging === false)).toBe(true);
  });

  test('4242 4242 4242 4242 captures: PENDING, then COMPLETED, with payment.created and payment.completed', async () => {
    const merchant = await chargingMerchant(server);
    const response = await charge(server, merchant, body());
    expect(response.status).toBe(201);
    const payment = response.body.data;
    expect(payment).toMatchObject({
      paymentId: payment.id,
      status: 'COMPLETED',
      amount: '25.50',
      currency: 'usd',
      email: 'payer@example.com',
      card: {
        brand: 'visa',
        last4: '4242',
        expiryMonth: 12,
        expiryYear: card().expiryYear,
        country: 'US',
        fingerprint: expect.any(String),
      },
      failureReason: null,
      nextAction: null,
      source: 'api',
      livemode: false,
    });
    const events = await eventsOf(server, merchant.businessId);
    expect(events.map((event) => event.type)).toEqual(['payment.created', 'payment.completed']);
    expect(events[0].data).toEqual({ paymentId: payment.id, amount: 25.5, currency: 'usd', status: 'PENDING' });
    expect(events[1].data).toEqual({ paymentId: payment.id, amount: '25.50', currency: 'usd' });
    await expectLedgerBalanced(server);
  });

  test('the card number is never stored or returned', async () => {
    const merchant = await chargingMerchant(server);
    const response = await charge(server, merchant, body());
    expect(JSON.stringify(response.body)).not.toContain('4242424242424242');
    const [row] = await server.runtime.dataSource.query(
      `SELECT row_to_json(p)::text AS json FROM payments p WHERE id = $1`,
      [response.body.data.id],
    );
    expect(row.json).not.toContain('4242424242424242');
    expect(row.json).not.toContain('"123"');
  });

  test.each([
    ['declined', 'card_declined', CARDS.declined],
    ['insufficient funds', 'insufficient_funds', CARDS.insufficientFunds],
  ])('the %s card fails with payment.failed and reason %s', async (_name, reason, number) => {
    const merchant = await chargingMerchant(server);
    const response = await charge(server, merchant, body(number));
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ status: 'FAILED', failureReason: reason });
    const failed = await eventsOf(server, merchant.businessId, 'payment.failed');
    expect(failed.map((event) => event.data)).toEqual([{ paymentId: response.body.data.id, reason }]);
    expect(await eventsOf(server, merchant.businessId, 'payment.completed')).toEqual([]);
    await expectLedgerBalanced(server);
  });

  test.each([
    ['3DS required, succeeds', CARDS.threeDsSuccess, 'COMPLETED', null],
    ['3DS2 required', CARDS.threeDs2, 'COMPLETED', null],
    ['3DS required, fails', CARDS.threeDsFailure, 'FAILED', 'authentication_failed'],
  ])(
    '%s: the payment waits for authentication and the 3-D Secure completion finishes it',
    async (_name, number, finalStatus, reason) => {
      const merchant = await chargingMerchant(server);
      const created = (await charge(server, merchant, body(number))).body.data;
      expect(created).toMatchObject({
        status: 'REQUIRES_ACTION',
        threeDSecure: 'pending',
        nextAction: { type: 'three_d_secure', complete: `POST /api/v1/business/payments/${created.id}/3ds/complete` },
      });
      const completed = await server.request('POST', `/api/v1/business/payments/${created.id}/3ds/complete`, {
        headers: { 'x-api-key': merchant.apiKey },
      });
      expect(completed.status).toBe(200);
      expect(completed.body.data).toMatchObject({
        status: finalStatus,
        failureReason: reason,
        threeDSecure: reason ? 'failed' : 'succeeded',
        nextAction: null,
      });
      const again = await server.request('POST', `/api/v1/business/payments/${created.id}/3ds/complete`, {
        headers: { 'x-api-key': merchant.apiKey },
      });
      expect(again.status).toBe(409);
      const types = (await eventsOf(server, merchant.businessId)).map((event) => event.type);
      expect(types).toEqual(['payment.created', reason ? 'payment.failed' : 'payment.completed']);
    },
  );

  test.each([
    ['an expired card', 'card.expiryYear', { card: card(CARDS.success, { expiryYear: 2020 }) }],
    ['a card number failing the Luhn check', 'card.number', { card: card('4242 4242 4242 4241') }],
    ['a 2-digit CVV', 'card.cvv', { card: card(CARDS.success, { cvv: '12' }) }],
    ['a month of 13', 'card.expiryMonth', { card: card(CARDS.success, { expiryMonth: 13 }) }],
    ['no card', 'card', { card: undefined }],
    ['a zero amount', 'amount', { amount: 0 }],
    ['three decimals', 'amount', { amount: 1.234 }],
    ['an unknown currency', 'currency', { currency: 'xyz' }],
    ['a bad email', 'email', { email: 'not-an-email' }],
  ])('%s is a 400 VALIDATION_ERROR on %s and writes nothing', async (_name, field, overrides) => {
    const merchant = await chargingMerchant(server);
    const response = await charge(server, merchant, body(CARDS.success, overrides));
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(['VALIDATION_ERROR', 'UNSUPPORTED_CURRENCY']).toContain(response.body.error.code);
    expect(Object.keys(response.body.error.errors)).toContain(field);
    expect(await paymentCount(merchant.businessId)).toBe(0);
    expect(await eventsOf(server, merchant.businessId)).toEqual([]);
  });

  test('a bad charge names every bad field in one answer: amount AND email, with the missing currency and card', async () => {
    const merchant = await chargingMerchant(server);
    const response = await charge(server, merchant, { amount: 'abc', email: 'x' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Validation failed',
        statusCode: 400,
        errors: {
          amount: ['must be a positive decimal amount such as "100.50"'],
          email: ['must be a valid email address'],
          currency: ['is required: a currency code such as usd'],
          card: [expect.stringMatching(/^is required: an object with number/)],
        },
      },
    });
    expect(await paymentCount(merchant.businessId)).toBe(0);
  });

  test('a field of the wrong type is "must be a string/number/object", never "is required"', async () => {
    const merchant = await chargingMerchant(server);
    const wrongTypes = await charge(server, merchant, {
      amount: {},
      currency: 5,
      email: 7,
      metadata: 'x',
      card: { number: 4242424242424242, expiryMonth: '12', expiryYear: null, cvv: 123 },
    });
    expect(wrongTypes.body.error.errors).toEqual({
      amount: ['must be a number or a string'],
      currency: ['must be a string'],
      email: ['must be a string'],
      metadata: ['must be a JSON object'],
      'card.number': ['must be a string'],
      'card.expiryMonth': ['must be a number'],
      'card.expiryYear': ['must be a number'],
      'card.cvv': ['must be a string'],
    });
    const notAnObject = await charge(server, merchant, {
      amount: 1,
      currency: 'usd',
      email: 'payer@example.com',
      card: '4242424242424242',
    });
    expect(notAnObject.body.error.errors).toEqual({ card: ['must be an object'] });
    const cardFields = await charge(server, merchant, {
      amount: 1,
      currency: 'usd',
      email: 'payer@example.com',
      card: { number: '4242 4242 4242 4242', expiryMonth: 12, cvv: '1' },
    });
    expect(cardFields.body.error.errors).toEqual({
      'card.expiryYear': ['is required: a four-digit year'],
      'card.cvv': ['must be 3 digits'],
    });
  });

  test('the same request within 60 seconds returns the same paymentId and creates nothing', async () => {
    const merchant = await chargingMerchant(server);
    const first = await charge(server, merchant, body());
    const second = await charge(server, merchant, body());
    expect(second.body.data.paymentId).toBe(first.body.data.paymentId);
    const other = await charge(server, merchant, body(CARDS.success, { amount: 26 }));
    expect(other.body.data.paymentId).not.toBe(first.body.data.paymentId);
    expect(await paymentCount(merchant.businessId)).toBe(2);
    expect(await eventsOf(server, merchant.businessId, 'payment.created')).toHaveLength(2);
  });

  test('concurrent duplicates create one payment', async () => {
    const merchant = await chargingMerchant(server);
    const responses = await Promise.all(Array.from({ length: 10 }, () => charge(server, merchant, body())));
    expect(new Set(responses.map((response) => response.body.data.paymentId)).size).toBe(1);
    expect(await paymentCount(merchant.businessId)).toBe(1);
  });

  test('after the 60-second window the same request is a new charge', async () => {
    const merchant = await chargingMerchant(server);
    const first = await charge(server, merchant, body());
    await server.runtime.dataSource.query(
      `UPDATE payments SET created_at = created_at - interval '61 seconds' WHERE id = $1`,
      [first.body.data.id],
    );
    const second = await charge(server, merchant, body());
    expect(second.body.data.paymentId).not.toBe(first.body.data.paymentId);
  });

  test('after the 60-second window the same request is a new charge, and its repeat returns the new one', async () => {
    const merchant = await chargingMerchant(server);
    const first = await charge(server, merchant, body(CARDS.success, { amount: 27 }));
    await server.runtime.dataSource.query(
      `UPDATE payments SET created_at = created_at - interval '61 seconds' WHERE id = $1`,
      [first.body.data.id],
    );
    await server.runtime.dataSource.query(
      `UPDATE charge_dedupe_claims SET claimed_at = claimed_at - interval '61 seconds' WHERE business_id = $1`,
      [merchant.businessId],
    );
    const second = await charge(server, merchant, body(CARDS.success, { amount: 27 }));
    const repeat = await charge(server, merchant, body(CARDS.success, { amount: 27 }));
    expect(second.body.data.paymentId).not.toBe(first.body.data.paymentId);
    expect(repeat.body.data.paymentId).toBe(second.body.data.paymentId);
    expect(await paymentCount(merchant.businessId)).toBe(2);
  });

  test('de-duplication claims past the 60-second window are purged', async () => {
    const merchant = await chargingMerchant(server);
    await charge(server, merchant, body(CARDS.success, { amount: 28 }));
    await charge(server, merchant, body(CARDS.success, { amount: 29 }));
    const claims = () =>
      server.runtime.dataSource.query(`SELECT dedupe_key FROM charge_dedupe_claims WHERE business_id = $1`, [
        merchant.businessId,
      ]);
    expect(await claims()).toHaveLength(2);
    await server.runtime.dataSource.query(
      `UPDATE charge_dedupe_claims SET claimed_at = claimed_at - interval '61 seconds' WHERE business_id = $1 AND dedupe_key = (SELECT dedupe_key FROM payments WHERE business_id = $1 AND amount = 2800)`,
      [merchant.businessId],
    );
    await server.runtime.core.charges.purgeDedupeClaims(RequestContext.system(server.runtime.dataSource, 'test'));
    expect(await claims()).toHaveLength(1);
  });

  test('a dedupe claim that fails (sent without waiting, ahead of the payment INSERT) fails the charge with its own error, and nothing is written', async () => {
    const merchant = await chargingMerchant(server);
    const { core } = server.runtime;
    const ctx = await core.identity.auth.authenticate(core.anonymousContext(), { apiKey: merchant.apiKey });
    const store = (
      core.charges as unknown as {
        chargeStore: { claimKey: (tx: RequestContext, ...rest: unknown[]) => Promise<boolean> };
      }
    ).chargeStore;
    const claim = store.claimKey;
    // The claim statement fails on the server (as a lock or statement timeout would): the INSERT
    // pipelined behind it answers "current transaction is aborted", which must not hide the cause.
    store.claimKey = async (tx) => (await tx.em.query(`SELECT 1 / 0 AS claimed`)).length > 0;
    try {
      await expect(
        core.charges.charge(ctx, chargeCommandOf(parseInput(chargeRequestSchema, body(CARDS.success, { amount: 31 })))),
      ).rejects.toThrow(/division by zero/);
    } finally {
      store.claimKey = claim;
    }
    expect(await paymentCount(merchant.businessId)).toBe(0);
    await expectLedgerBalanced(server);
  });

  test('a payment left PENDING by a charge interrupted at the acquirer is authorized again by the recovery sweep', async () => {
    const merchant = await chargingMerchant(server);
    const { core } = server.runtime;
    const ctx = await core.identity.auth.authenticate(core.anonymousContext(), { apiKey: merchant.apiKey });
    const acquirer = core.providers.inMode('card-acquirer', 'test');
    const authorize = acquirer.authorize.bind(acquirer);
    acquirer.authorize = () => new Promise(() => undefined); // the process dies while the acquirer answers
    void core.charges.charge(ctx, chargeCommandOf(parseInput(chargeRequestSchema, body())));
    const rows = await waitFor(
      () =>
        server.runtime.dataSource.query(`SELECT id, status FROM payments WHERE business_id = $1`, [
          merchant.businessId,
        ]),
      (found: any[]) => found.length === 1,
    );
    acquirer.authorize = authorize;
    expect(rows[0].status).toBe('PENDING');
    const system = RequestContext.system(server.runtime.dataSource, 'test');
    await core.payments.reconcilePending(system, 3600);
    expect(
      (await server.runtime.dataSource.query(`SELECT status FROM payments WHERE id = $1`, [rows[0].id]))[0].status,
    ).toBe('PENDING');
    expect(await core.payments.reconcilePending(system, 0)).toBeGreaterThanOrEqual(1);
    expect(
      (await server.runtime.dataSource.query(`SELECT status FROM payments WHERE id = $1`, [rows[0].id]))[0].status,
    ).toBe('COMPLETED');
    expect((await eventsOf(server, merchant.businessId)).map((event) => event.type)).toEqual([
      'payment.created',
      'payment.completed',
    ]);
    await expectLedgerBalanced(server);
  });

  test('live mode without a configured acquirer refuses the charge and writes nothing', async () => {
    const merchant = await server.signUp();
    const issued = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const liveKey = issued.body.data.createLiveCredentials.credentials.apiKey;
    await server.runtime.dataSource.query(
      `UPDATE business_settings SET server_to_server_charging = true WHERE business_id = $1 AND livemode`,
      [merchant.businessId],
    );
    const response = await server.request('POST', '/api/v1/business/payment/charge', {
      headers: { 'x-api-key': liveKey },
      body: body(),
    });
    expect(response.status).toBe(422);
    expect(response.body.error.message).toMatch(/No card acquirer is configured for live mode/);
    expect(await paymentCount(merchant.businessId)).toBe(0);
  });
});

/** Settlement, refunds and disputes: every one a balanced ledger posting. */
describe('settlement, refunds and disputes', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ paymentSettlementDelaySeconds: 3600 });
  });
  afterAll(async () => server.close());

  const as = (merchant: TestMerchant) => ({ headers: { 'x-api-key': merchant.apiKey } });
  const pay = async (merchant: TestMerchant, amount = 100) =>
    (await charge(server, merchant, { amount, currency: 'usd', card: card(), email: `p${Math.random()}@example.com` }))
      .body.data;
  const settle = (merchant: TestMerchant, id: string) =>
    server.request('POST', `/api/v1/business/sandbox/payments/${id}/settle`, as(merchant));
  const refund = (merchant: TestMerchant, id: string, body: unknown = {}) =>
    server.request('POST', `/api/v1/business/payments/${id}/refunds`, { ...as(merchant), body });
  const dispute = (merchant: TestMerchant, id: string) =>
    server.request('POST', `/api/v1/business/sandbox/payments/${id}/dispute`, {
      ...as(merchant),
      body: { reason: 'fraudulent' },
    });
  const resolve = (merchant: TestMerchant, id: string, won: boolean) =>
    server.request('POST', `/api/v1/business/sandbox/disputes/${id}/resolve`, { ...as(merchant), body: { won } });
  const fund = (merchant: TestMerchant, amount: string) =>
    server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      ...as(merchant),
      body: { currency: 'usd', amount },
    });

  test('settlement credits the wallet with the amount minus the fee (2.9% + 0.30 by default) and sends payment.settled', async () => {
    const merchant = await chargingMerchant(server);
    const payment = await pay(merchant);
    expect(await walletBalance(server, merchant.businessId)).toBe(0n);
    const settled = await settle(merchant, payment.id);
    expect(settled.status).toBe(200);
    expect(settled.body.data).toMatchObject({ status: 'SETTLED', fee: '3.20', settledAt: expect.any(String) });
    expect(await walletBalance(server, merchant.businessId)).toBe(9680n);
    const [event] = await eventsOf(server, merchant.businessId, 'payment.settled');
    expect(event.data).toEqual({
      paymentId: payment.id,
      amount: '96.80',
      currency: 'usd',
      settledAt: settled.body.data.settledAt,
      fee: '3.20',
      grossAmount: '100.00',
    });
    expect((await settle(merchant, payment.id)).status).toBe(409);
    await expectLedgerBalanced(server);
  });

  test('the fee schedule is per business: basis points and fixed part come from its settings', async () => {
    const merchant = await chargingMerchant(server);
    await server.runtime.dataSource.query(
      `UPDATE business_settings SET card_fee_bps = 100, card_fee_fixed_minor = 0 WHERE business_id = $1`,
      [merchant.businessId],
    );
    const payment = await pay(merchant, 50);
    await settle(merchant, payment.id);
    expect(await walletBalance(server, merchant.businessId)).toBe(4950n);
  });

  const settlementJobsOf = (
    paymentId: string,
  ): Promise<Array<{ task_identifier: string; run_at: string; max_attempts: number }>> =>
    server.runtime.dataSource.query(
      `SELECT task.identifier AS task_identifier, job.run_at, job.max_attempts
         FROM graphile_worker._private_jobs job JOIN graphile_worker._private_tasks task ON task.id = job.task_id
        WHERE job.payload->>'paymentId' = $1`,
      [paymentId],
    );

  test('capture schedules the settlement job after the configured delay', async () => {
    const merchant = await chargingMerchant(server);
    const payment = await pay(merchant);
    const [job, ...more] = await settlementJobsOf(payment.id);
    expect(more).toEqual([]);
    expect(job.task_identifier).toBe('settle_payment');
    expect(job.max_attempts).toBe(5);
    const delaySeconds = (new Date(job.run_at).getTime() - new Date(payment.capturedAt).getTime()) / 1000;
    expect(delaySeconds).toBeGreaterThan(3590);
    expect(delaySeconds).toBeLessThan(3610);
  });

  test("the settlement job row is written even when graphile-worker's task row is gone (its cleanup removed it)", async () => {
    const merchant = await chargingMerchant(server);
    await server.runtime.dataSource.query(
      `DELETE FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'settle_payment')`,
    );
    await server.runtime.dataSource.query(
      `DELETE FROM graphile_worker._private_tasks WHERE identifier = 'settle_payment'`,
    );
    const payments = await Promise.all([1, 2, 3, 4, 5].map((amount) => pay(merchant, amount)));
    for (const payment of payments)
      expect((await settlementJobsOf(payment.id)).map((job) => job.task_identifier)).toEqual(['settle_payment']);
  });

  test("two transactions writing the first row-only job of a task at once both succeed (the second waits for the first's task row)", async () => {
    const task = `race_task_${Date.now()}`;
    const enqueue = jobsCtes(
      [{ task, payload: { n: 1 }, options: { runAt: new Date(Date.now() + 3_600_000), rowOnly: true } }],
      1,
    );
    const statement = `WITH ${enqueue.sql} SELECT ${enqueue.countSql} AS jobs`;
    const [first, second] = [
      new Client({ connectionString: server.databaseUrl }),
      new Client({ connectionString: server.databaseUrl }),
    ];
    await Promise.all([first.connect(), second.connect()]);
    try {
      await first.query('BEGIN');
      await second.query('BEGIN');
      expect((await first.query(statement, enqueue.params)).rows).toEqual([{ jobs: '1' }]);
      // The second sees no task row in its snapshot, conflicts with the first's uncommitted one and waits.
      const [{ pid }] = (await second.query('SELECT pg_backend_pid() AS pid')).rows;
      const waiting = second.query(statement, enqueue.params);
      await waitUntil(
        async () =>
          (
            await server.runtime.dataSource.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [pid])
          )[0]?.wait_event_type === 'Lock',
        'the second transaction waiting on the first',
      );
      await first.query('COMMIT');
      expect((await waiting).rows).toEqual([{ jobs: '1' }]);
      await second.query('COMMIT');
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    const [{ count }] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS count FROM graphile_worker._private_jobs job JOIN graphile_worker._private_tasks t ON t.id = job.task_id WHERE t.identifier = $1`,
      [task],
    );
    expect(count).toBe(2);
  });

  test('partial and full refunds of a settled payment debit the wallet, never more than captured', async () => {
    const merchant = await chargingMerchant(server);
    const payment = await pay(merchant);
    await settle(merchant, payment.id);
    await fund(merchant, '100.00');
    const partial = await refund(merchant, payment.id, { amount: 30, reason: 'requested_by_customer' });
    expect(partial.status).toBe(201);
    expect(partial.body.data).toMatchObject({
      amount: '30.00',
      currency: 'usd',
      status: 'succeeded',
      payment: { status: 'SETTLED', amountRefunded: '30.00' },
    });
    expect(await walletBalance(server, merchant.businessId)).toBe(9680n + 10000n - 3000n);
    const tooMuch = await refund(merchant, payment.id, { amount: 80 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.errors.amount[0]).toMatch(/at most 70.00/);
    const rest = await refund(merchant, payment.id);
    expect(rest.body.data).toMatchObject({
      amount: '70.00',
      payment: { status: 'REFUNDED', amountRefunded: '100.00' },
    });
    expect((await refund(merchant, payment.id, { amount: 1 })).status).toBe(409);
    const events = await eventsOf(server, merchant.businessId, 'payment.refunded');
    expect(events.map((event) => event.data)).toEqual([
      { paymentId: payment.id, amount: '30.00', currency: 'usd', refundId: partial.body.data.refundId },
      { paymentId: payment.id, amount: '70.00', currency: 'usd', refundId: rest.body.data.refundId },
    ]);
    await expectLedgerBalanced(server);
  });

  test('a refund before settlement comes out of the pending balance; settlement then pays out the rest minus the fee', async () => {
    const merchant = await chargingMerchant(server);
    const payment = await pay(merchant);
    expect((await refund(merchant, payment.id, { amount: '40.00' })).status).toBe(201);
    await settle(merchant, payment.id);
    expect(await walletBalance(server, merchant.businessId)).toBe(6000n - 320n);
    await expectLedgerBalanced(server);
  });

  test('a payment refunded in full before settlement never settles and carries no fee', async () => {
    const merchant = await chargingMerchant(server);
    const payment = await pay(merchant);
    expect((await refund(merchant, payment.id)).body.data.payment.status).toBe('REFUNDED');
    expect((await settle(merchant, payment.id)).status).toBe(409);
    await server.runtime.core.payments.settleDue(server.runtime.core.anonymousContext(), payment.id);
    expect(await walletBalance(server, merchant.businessId)).toBe(0n);
  });

  test('concurrent refunds never refund more than captured', async () => {
    const merchant = await chargingMerchant(server);
    const payment = await pay(merchant);
    const results = await Promise.all(Array.from({ length: 5 }, () => refund(merchant, payment.id, { amount: 30 })));
    expect(results.filter((result) => result.status === 201)).toHaveLength(3);
    expect(results.filter((result) => result.status === 400)).toHaveLength(2);
    const [row] = await server.runtime.dataSource.query(`SELECT amount_refunded::text FROM payments WHERE id = $1`, [
      payment.id,
    ]);
    expect(row.amount_refunded).toBe('9000');
    await expectLedgerBalanced(server);
  });

  test('refunding a failed payment is a 409; a bad refund amount is a 400 that writes nothing', async () => {
    const merchant = await chargingMerchant(server);
    const failed = (
      await charge(server, merchant, {
        amount: 10,
        currency: 'usd',
        card: card(CARDS.declined),
        email: 'x@example.com',
      })
    ).body.data;
    expect((await refund(merchant, failed.id)).status).toBe(409);
    const payment = await pay(merchant);
    for (const amount of [0, -5, 'abc', 1.001]) {
      const response = await refund(merchant, payment.id, { amount });
      expect(response.status).toBe(400);
      expect(response.body.error.errors.amount).toBeDefined();
    }
    expect(
      Number(
        (
          await server.runtime.dataSource.query(`SELECT count(*) AS n FROM refunds WHERE payment_id = $1`, [payment.id])
        )[0].n,
      ),
    ).toBe(0);
  });

  test('opening a dispute debits the full charge amount plus the dispute fee at once; won re-credits the amount, not the fee', async () => {
    const merchant = await chargingMerchant(server);
    const payment = await pay(merchant);
    await settle(merchant, payment.id);
    await fund(merchant, '50.00');
    const before = await walletBalance(server, merchant.businessId);
    const opened = await dispute(merchant, payment.id);
    expect(opened.status).toBe(201);
    expect(opened.body.data).toMatchObject({ status: 'OPEN', amount: '100.00', fee: '15.00', reason: 'fraudulent' });
    expect(await walletBalance(server, merchant.businessId)).toBe(before - 10000n - 1500n);
    const [disputed] = await eventsOf(server, merchant.businessId, 'payment.disputed');
    expect(disputed.data).toEqual({
      paymentId: payment.id,
      disputeId: opened.body.data.id,
      disputeAmount: '100.00',
      disputeFee: '15.00',
      reason: 'fraudulent',
    });
    expect((await refund(merchant, payment.id)).status).toBe(409);
    const won = await resolve(merchant, opened.body.data.id, true);
    expect(won.body.data).toMatchObject({ status: 'WON', resolvedAt: expect.any(String) });
    expect(await walletBalance(server, merchant.businessId)).toBe(before - 1500n);
    const [wonEvent] = await eventsOf(server, merchant.businessId, 'payment.dispute_won');
    expect(wonEvent.data).toEqual({ paymentId: payment.id, won: true, chargeAmount: '100.00' });
    expect((await resolve(merchant, opened.body.data.id, false)).status).toBe(409);
    await expectLedgerBalanced(server);
  });

  test('a lost dispute changes nothing further in the wallet', async () => {
    const merchant = await chargingMerchant(server);
    const payment = await pay(merchant);
    await settle(merchant, payment.id);
    await fund(merchant, '50.00');
    const opened = (await dispute(merchant, payment.id)).body.data;
    const afterOpen = await walletBalance(server, merchant.businessId);
    const lost = await resolve(merchant, opened.id, false);
    expect(lost.body.data.status).toBe('LOST');
    expect(await walletBalance(server, merchant.businessId)).toBe(afterOpen);
    const [lostEvent] = await eventsOf(server, merchant.businessId, 'payment.dispute_lost');
    expect(lostEvent.data).toEqual({ paymentId: payment.id, won: false, chargeAmount: '100.00' });
    await expectLedgerBalanced(server);
  });

  test('finding 16: a won dispute cannot be reopened: 409 CONFLICT, no second dispute, no second fee, nothing changes', async () => {
    const merchant = await chargingMerchant(server);
    const payment = await pay(merchant);
    await settle(merchant, payment.id);
    await fund(merchant, '50.00');
    const opened = (await dispute(merchant, payment.id)).body.data;
    expect((await resolve(merchant, opened.id, true)).body.data.status).toBe('WON');
    const wallet = await walletBalance(server, merchant.businessId);
    const journal = async () =>
      Number(
        (
          await server.runtime.dataSource.query(
            `SELECT count(*) AS n FROM journal_transactions WHERE business_id = $1`,
            [merchant.businessId],
          )
        )[0].n,
      );
    const postings = await journal();

    const reopened = await dispute(merchant, payment.id);
    expect(reopened.status).toBe(409);
    expect(reopened.body.error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/already disputed.*WON/),
    });
    const viaGraphQL = await server.graphql(
      'mutation($id: ID!) { sandboxOpenDispute(input: { paymentId: $id }) { dispute { id } payment { id } userErrors { field message code } } }',
      { id: payment.id },
      { 'x-api-key': merchant.apiKey },
    );
    expect(viaGraphQL.body.errors).toBeUndefined();
    expect(viaGraphQL.body.data.sandboxOpenDispute).toEqual({
      dispute: null,
      payment: null,
      userErrors: [{ field: null, message: expect.stringMatching(/already disputed.*WON/), code: 'CONFLICT' }],
    });

    expect(await walletBalance(server, merchant.businessId)).toBe(wallet);
    expect(await journal()).toBe(postings);
    expect(await eventsOf(server, merchant.businessId, 'payment.disputed')).toHaveLength(1);
    expect(
      Number(
        (
          await server.runtime.dataSource.query(`SELECT count(*) AS n FROM disputes WHERE payment_id = $1`, [
            payment.id,
          ])
        )[0].n,
      ),
    ).toBe(1);
    const detail = await server.request('GET', `/api/v1/business/payments/${payment.id}`, as(merchant));
    expect(detail.body.data).toMatchObject({ status: 'SETTLED', amountDisputed: '0.00' });
    await expectLedgerBalanced(server);
  });

  test('every dispute transition outside OPEN → WON | LOST is a 409 that changes nothing', async () => {
    for (const outcome of [true, false]) {
      const merchant = await chargingMerchant(server);
      const payment = await pay(merchant);
      await settle(merchant, payment.id);
      await fund(merchant, '50.00');
      const opened = (await dispute(merchant, payment.id)).body.data;
      expect((await dispute(merchant, payment.id)).status).toBe(409); // OPEN → open
      expect((await resolve(merchant, opened.id, outcome)).status).toBe(200);
      const wallet = await walletBalance(server, merchant.businessId);
      for (const attempt of [
        () => dispute(merchant, payment.id),
        () => resolve(merchant, opened.id, true),
        () => resolve(merchant, opened.id, false),
      ]) {
        const refused = await attempt();
        expect(refused.status).toBe(409);
        expect(refused.body.error.code).toBe('CONFLICT');
      }
      expect(await walletBalance(server, merchant.businessId)).toBe(wallet);
      const [row] = await server.runtime.dataSource.query(`SELECT status FROM disputes WHERE id = $1`, [opened.id]);
      expect(row.status).toBe(outcome ? 'WON' : 'LOST');
    }
    await expectLedgerBalanced(server);
  });

  test('a dispute the wallet cannot cover is refused with INSUFFICIENT_FUNDS and writes nothing', async () => {
    const merchant = await chargingMerchant(server);
    const payment = await pay(merchant);
    await settle(merchant, payment.id);
    const response = await dispute(merchant, payment.id);
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await eventsOf(server, merchant.businessId, 'payment.disputed')).toEqual([]);
    expect(
      Number(
        (
          await server.runtime.dataSource.query(`SELECT count(*) AS n FROM disputes WHERE payment_id = $1`, [
            payment.id,
          ])
        )[0].n,
      ),
    ).toBe(0);
  });

  test("another business's payment and dispute are 404 to every operation", async () => {
    const owner = await chargingMerchant(server);
    const stranger = await chargingMerchant(server);
    const payment = await pay(owner);
    const opened = await (async () => {
      await settle(owner, payment.id);
      await fund(owner, '50.00');
      return (await dispute(owner, payment.id)).body.data;
    })();
    for (const response of [
      await server.request('GET', `/api/v1/business/payments/${payment.id}`, as(stranger)),
      await refund(stranger, payment.id),
      await settle(stranger, payment.id),
      await dispute(stranger, payment.id),
      await resolve(stranger, opened.id, true),
      await server.request('POST', `/api/v1/business/payments/${payment.id}/3ds/complete`, as(stranger)),
      await server.request('GET', '/api/v1/business/payments/not-a-uuid', as(stranger)),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });

  test('sandbox helpers are refused with live credentials', async () => {
    const merchant = await server.signUp();
    const issued = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const live = { headers: { 'x-api-key': issued.body.data.createLiveCredentials.credentials.apiKey } };
    const id = '00000000-0000-4000-8000-000000000000';
    for (const path of [
      `/api/v1/business/sandbox/payments/${id}/settle`,
      `/api/v1/business/sandbox/payments/${id}/dispute`,
    ]) {
      const response = await server.request('POST', path, { ...live, body: {} });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('SANDBOX_ONLY');
    }
  });
});

describe('dispute list and detail', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ paymentSettlementDelaySeconds: 3600 });
  });
  afterAll(async () => server.close());

  test("lists the business's disputes newest first with status filter; another business gets 404 and an empty list", async () => {
    const merchant = await chargingMerchant(server);
    const headers = { 'x-api-key': merchant.apiKey };
    await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers,
      body: { currency: 'usd', amount: '100.00' },
    });
    const opened: string[] = [];
    for (const amount of [10, 11]) {
      const payment = (
        await charge(server, merchant, { amount, currency: 'usd', card: card(), email: 'd@example.com' })
      ).body.data;
      opened.push(
        (await server.request('POST', `/api/v1/business/sandbox/payments/${payment.id}/dispute`, { headers, body: {} }))
          .body.data.id,
      );
    }
    await server.request('POST', `/api/v1/business/sandbox/disputes/${opened[0]}/resolve`, {
      headers,
      body: { won: true },
    });
    const all = await server.request('GET', '/api/v1/business/disputes', { headers });
    expect(all.body.data).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(all.body.data.items.map((item: any) => item.id)).toEqual([opened[1], opened[0]]);
    const open = await server.request('GET', '/api/v1/business/disputes?status=OPEN', { headers });
    expect(open.body.data.items.map((item: any) => item.id)).toEqual([opened[1]]);
    for (const status of ['open', 'Open']) {
      const anyCase = await server.request('GET', `/api/v1/business/disputes?status=${status}`, { headers });
      expect(anyCase.body.data.items.map((item: any) => item.id)).toEqual([opened[1]]);
    }
    expect((await server.request('GET', '/api/v1/business/disputes?status=CLOSED', { headers })).status).toBe(400);
    const one = await server.request('GET', `/api/v1/business/disputes/${opened[0]}`, { headers });
    expect(one.body.data).toMatchObject({ id: opened[0], status: 'WON', amount: '10.00', fee: '15.00' });
    const stranger = await chargingMerchant(server);
    expect(
      (
        await server.request('GET', `/api/v1/business/disputes/${opened[0]}`, {
          headers: { 'x-api-key': stranger.apiKey },
        })
      ).status,
    ).toBe(404);
    expect(
      (await server.request('GET', '/api/v1/business/disputes', { headers: { 'x-api-key': stranger.apiKey } })).body
        .data.total,
    ).toBe(0);
    const gql = await server.graphql(
      'query($id: ID!) { dispute(id: $id) { status amount { amount } } }',
      { id: opened[1] },
      headers,
    );
    expect(gql.body.data.dispute).toEqual({ status: 'OPEN', amount: { amount: '11.00' } });
    const listed = await server.graphql(
      '{ all: disputes(first: 1) { edges { node { id } } pageInfo { hasNextPage } } won: disputes(status: WON) { edges { node { id } } } }',
      {},
      headers,
    );
    expect(listed.body.data.all).toEqual({ edges: [{ node: { id: opened[1] } }], pageInfo: { hasNextPage: true } });
    expect(listed.body.data.won.edges).toEqual([{ node: { id: opened[0] } }]);
    const theirs = await server.graphql('{ disputes { edges { node { id } } } }', {}, { 'x-api-key': stranger.apiKey });
    expect(theirs.body.data.disputes.edges).toEqual([]);
  });
});
