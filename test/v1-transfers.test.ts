import crypto from 'node:crypto';
import { Mode } from '../src/domain/shared/modes';
import { LedgerService } from '../src/domain/ledger/ledger.service';
import { RequestContext } from '../src/domain/shared/context';
import { TestServer, overSocket, startDeliveringServer, waitFor } from './support/harness';
import { dashboard, fundWallet } from './support/payouts';
import { Receiver } from './support/receiver';
import { V1Merchant, issueV1Key, paymentBody, setV1WebhookUrl, v1, v1Merchant } from './support/v1';

const TRANSFER_FIELDS = [
  'id',
  'status',
  'source_amount',
  'source_currency',
  'destination_amount',
  'destination_currency',
  'rate',
  'fee',
  'recipient',
  'created_at',
].sort();
const LIMITS = { windowMs: 60_000, liveCreate: 100, liveRead: 1000, testCreate: 40, testRead: 400 };

/** A Nigerian bank account; its last 4 digits pick the sandbox rail's behaviour (docs/sandbox.md). */
const transferBody = (overrides: Record<string, unknown> = {}, ending = '6789') => ({
  source_amount: 1000,
  source_currency: 'USD',
  destination_currency: 'NGN',
  recipient: { name: 'Ada Obi', sort_code: '058', account_number: `012345${ending}`, country: 'NG' },
  ...overrides,
});

/** The hex HMAC-SHA256 of the raw body keyed with the /v1 secret key: what a receiver computes to check Service-Signature. */
const signatureOf = (body: string, key: string) => crypto.createHmac('sha256', key).update(body, 'utf8').digest('hex');

describe('/v1 transfers: payouts underneath, with transfer.* and wallet.low_balance events', () => {
  let server: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    server = await startDeliveringServer({ payoutSandboxSettleMs: 100, v1RateLimits: LIMITS });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  const fundedMerchant = async (amount = '100.00'): Promise<V1Merchant> => {
    const merchant = await v1Merchant(server);
    await fundWallet(server, merchant, amount);
    return merchant;
  };
  const setWebhookUrl = async (merchant: V1Merchant, path: string) => {
    await setV1WebhookUrl(server, merchant, receiver.url(path));
  };
  const balanceOf = async (merchant: V1Merchant, currency = 'USD'): Promise<bigint> => {
    const [row] = await server.runtime.dataSource.query(
      `SELECT balance::text AS balance FROM ledger_accounts WHERE kind = 'merchant_wallet' AND business_id = $1 AND livemode = false AND currency = $2`,
      [merchant.businessId, currency],
    );
    return BigInt(row.balance);
  };
  /** Rows a transfer could write, for the business: none may appear when a transfer is refused. */
  const footprint = async (merchant: V1Merchant) => {
    const counts: Record<string, number> = {};
    for (const table of [
      'payouts',
      'payout_recipients',
      'v1_transfers',
      'journal_transactions',
      'events',
      'payout_quotes',
    ]) {
      const [row] = await server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`,
        [merchant.businessId],
      );
      counts[table] = row.n;
    }
    const [jobs] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM graphile_worker._private_jobs WHERE payload->>'businessId' = $1`,
      [merchant.businessId],
    );
    return { ...counts, jobs: jobs.n, balance: (await balanceOf(merchant)).toString() };
  };
  /** The signed /v1 deliveries a receiver path got (those carrying Service-Signature), with their bodies parsed. */
  const v1DeliveriesAt = (path: string) =>
    receiver
      .at(path)
      .filter((request) => request.headers['service-signature'])
      .map((request) => ({ ...request, json: JSON.parse(request.body) }));
  const setThreshold = (
    merchant: V1Merchant,
    currency: string,
    threshold: string | null,
    headers: Record<string, string> = dashboard(merchant),
  ) =>
    server.graphql<any>(
      'mutation($input: SetWalletLowBalanceThresholdInput!) { setWalletLowBalanceThreshold(input: $input) { walletLowBalanceThreshold { currency threshold } userErrors { field message code } } }',
      { input: { currency, threshold } },
      headers,
    );
  const lowBalanceEvents = async (merchant: V1Merchant): Promise<Array<Record<string, any>>> =>
    (
      await server.runtime.dataSource.query(
        `SELECT data FROM events WHERE business_id = $1 AND type = 'v1.wallet.low_balance' ORDER BY created_at, id`,
        [merchant.businessId],
      )
    ).map((row: { data: Record<string, unknown> }) => row.data);
  const expectLedgerBalanced = async () =>
    expect(await LedgerService.check(server.runtime.dataSource)).toMatchObject({ balanced: true });

  describe('create and read', () => {
    test('POST /v1/transfers answers 201 with the documented fields: integer minor-unit amounts, rate a number, fee in the source currency, recipient masked', async () => {
      const merchant = await fundedMerchant();
      const call = v1(server, merchant.testKey);
      const created = await call('POST', '/v1/transfers', transferBody());
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(TRANSFER_FIELDS);
      const rates = await call('GET', '/v1/rates?from=USD&to=NGN');
      // 10.00 USD at the FX provider's rate (1550 less the 0.5% spread), rounded down to the kobo; fee 1% (fee_pct), rounded up.
      expect(created.body).toMatchObject({
        status: 'pending',
        source_amount: 1000,
        source_currency: 'USD',
        destination_amount: 1542250,
        destination_currency: 'NGN',
        rate: 1542.25,
        fee: 10,
        recipient: { name: 'Ada Obi', sort_code: '058', account_number: '****6789', country: 'NG' },
      });
      expect(created.body.rate).toBe(rates.body.rate);
      expect(created.body.fee).toBe(Math.ceil((1000 * rates.body.fee_pct) / 100));
      for (const field of ['source_amount', 'destination_amount', 'fee'])
        expect(Number.isInteger(created.body[field])).toBe(true);
      expect(new Date(created.body.created_at).toISOString()).toBe(created.body.created_at);
      expect(JSON.stringify(created.body)).not.toContain('0123456789');
      // The wallet was debited source_amount + fee.
      expect(await balanceOf(merchant)).toBe(10_000n - 1010n);

      const read = await call('GET', `/v1/transfers/${created.body.id}`);
      expect(read.status).toBe(200);
      expect(Object.keys(read.body).sort()).toEqual(TRANSFER_FIELDS);
      expect({ ...read.body, status: null }).toEqual({ ...created.body, status: null });
      expect(['pending', 'processing', 'completed']).toContain(read.body.status);
    });

    test('a transfer is a payout of the payouts domain: a LOCAL_BANK recipient (sort_code as its bank code), one per destination, seen on the main surface', async () => {
      const merchant = await fundedMerchant();
      const first = await v1(server, merchant.testKey)('POST', '/v1/transfers', transferBody());
      const second = await v1(server, merchant.testKey)(
        'POST',
        '/v1/transfers',
        transferBody({
          source_amount: 500,
          recipient: { name: 'Ada N. Obi', sort_code: '058', account_number: '0123-45 6789', country: 'ng' },
        }),
      );
      expect([first.status, second.status]).toEqual([201, 201]);
      expect(second.body.recipient).toEqual({
        name: 'Ada N. Obi',
        sort_code: '058',
        account_number: '****6789',
        country: 'NG',
      });
      const recipients = await server.runtime.dataSource.query(
        'SELECT id, rail, currency, country, details_masked FROM payout_recipients WHERE business_id = $1',
        [merchant.businessId],
      );
      expect(recipients).toHaveLength(1);
      expect(recipients[0]).toMatchObject({
        rail: 'LOCAL_BANK',
        currency: 'NGN',
        country: 'NG',
        details_masked: { bankCode: '058', accountNumber: '****6789' },
      });
      const payout = await server.request('GET', `/api/v1/business/payouts/${first.body.id}`, {
        headers: { 'x-api-key': merchant.apiKey },
      });
      expect(payout.status).toBe(200);
      expect(payout.body.data).toMatchObject({
        id: first.body.id,
        amount: '10.00',
        currency: 'usd',
        recipientId: recipients[0].id,
        quote: { serviceFee: '0.10', currency: 'ngn' },
      });
    });

    test("the sandbox rail settles it: status completed, and the business's webhook URL receives transfer.completed signed with Service-Signature", async () => {
      const merchant = await fundedMerchant();
      await setWebhookUrl(merchant, '/completed-hooks');
      const call = v1(server, merchant.testKey);
      const created = await call('POST', '/v1/transfers', transferBody());
      const read = await waitFor(
        () => call('GET', `/v1/transfers/${created.body.id}`),
        (answer) => answer.body.status === 'completed',
      );
      expect(read.body.status).toBe('completed');
      const [delivery] = await waitFor(
        async () => v1DeliveriesAt('/completed-hooks'),
        (found) => found.length > 0,
      );
      expect(delivery.headers['service-signature']).toBe(signatureOf(delivery.body, merchant.testKey));
      expect(Object.keys(delivery.json)).toEqual(['event', 'timestamp', 'data']);
      expect(delivery.json.event).toBe('transfer.completed');
      expect(delivery.json.data).toEqual(read.body);
      expect(v1DeliveriesAt('/completed-hooks').map((request) => request.json.event)).toEqual(['transfer.completed']);
      expect(await balanceOf(merchant)).toBe(10_000n - 1010n);
      await expectLedgerBalanced();
    });

    test('an account ending 1111 fails on the sandbox rail: status failed, amount and fee returned to the wallet, signed transfer.failed', async () => {
      const merchant = await fundedMerchant();
      await setWebhookUrl(merchant, '/failed-hooks');
      const call = v1(server, merchant.testKey);
      const created = await call('POST', '/v1/transfers', transferBody({}, '1111'));
      expect(created.status).toBe(201);
      const read = await waitFor(
        () => call('GET', `/v1/transfers/${created.body.id}`),
        (answer) => answer.body.status === 'failed',
      );
      expect(read.body.status).toBe('failed');
      const [delivery] = await waitFor(
        async () => v1DeliveriesAt('/failed-hooks'),
        (found) => found.length > 0,
      );
      expect(delivery.headers['service-signature']).toBe(signatureOf(delivery.body, merchant.testKey));
      expect(delivery.json).toMatchObject({ event: 'transfer.failed', data: { ...read.body, status: 'failed' } });
      expect(await balanceOf(merchant)).toBe(10_000n);
      await expectLedgerBalanced();
    });

    test('a transfer held for review (2222) and rejected in the dashboard is failed: amount and fee returned, transfer.failed recorded', async () => {
      const merchant = await fundedMerchant();
      const call = v1(server, merchant.testKey);
      const held = await call('POST', '/v1/transfers', transferBody({}, '2222'));
      expect(await balanceOf(merchant)).toBe(10_000n - 1010n);
      const rejected = await server.request('POST', `/api/v1/business/payouts/${held.body.id}/reject`, {
        headers: dashboard(merchant),
        body: { reason: 'unknown supplier' },
      });
      expect(rejected.status).toBe(200);
      expect((await call('GET', `/v1/transfers/${held.body.id}`)).body.status).toBe('failed');
      expect(await balanceOf(merchant)).toBe(10_000n);
      const events = await server.runtime.dataSource.query(
        `SELECT type, data FROM events WHERE business_id = $1 AND type LIKE 'v1.%'`,
        [merchant.businessId],
      );
      expect(events).toEqual([
        { type: 'v1.transfer.failed', data: expect.objectContaining({ id: held.body.id, status: 'failed' }) },
      ]);
    });

    test('the same Idempotency-Key replays the first answer: one transfer, one debit', async () => {
      const merchant = await fundedMerchant();
      const call = v1(server, merchant.testKey);
      const first = await call('POST', '/v1/transfers', transferBody(), { 'idempotency-key': 'transfer-42' });
      const again = await call('POST', '/v1/transfers', transferBody(), { 'idempotency-key': 'transfer-42' });
      expect([first.status, again.status]).toEqual([201, 201]);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await balanceOf(merchant)).toBe(10_000n - 1010n);
      const [rows] = await server.runtime.dataSource.query(
        'SELECT count(*)::int AS n FROM v1_transfers WHERE business_id = $1',
        [merchant.businessId],
      );
      expect(rows.n).toBe(1);
    });

    test('the sandbox magic endings hold a transfer: 2222 pending (held for review), 3333 pending (not dispatched), 4444 processing (submitted)', async () => {
      const merchant = await fundedMerchant();
      const call = v1(server, merchant.testKey);
      const held = await call('POST', '/v1/transfers', transferBody({}, '2222'));
      const stays = await call('POST', '/v1/transfers', transferBody({}, '3333'));
      const submitted = await call('POST', '/v1/transfers', transferBody({}, '4444'));
      const processing = await waitFor(
        () => call('GET', `/v1/transfers/${submitted.body.id}`),
        (answer) => answer.body.status === 'processing',
      );
      expect(processing.body.status).toBe('processing');
      const [heldPayout] = await server.runtime.dataSource.query('SELECT status FROM payouts WHERE id = $1', [
        held.body.id,
      ]);
      expect(heldPayout.status).toBe('PENDING_REVIEW');
      expect((await call('GET', `/v1/transfers/${held.body.id}`)).body.status).toBe('pending');
      expect((await call('GET', `/v1/transfers/${stays.body.id}`)).body.status).toBe('pending');
    });
  });

  describe('refusals write nothing', () => {
    test('too little balance for amount + fee answers 422 insufficient_balance and writes nothing (no recipient, payout, transfer, journal, event or job)', async () => {
      const merchant = await fundedMerchant('10.00');
      const before = await footprint(merchant);
      const refused = await v1(server, merchant.testKey)('POST', '/v1/transfers', transferBody()); // 10.00 + 0.10 fee > 10.00
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({ error: { code: 'insufficient_balance', message: expect.any(String) } });
      expect(await footprint(merchant)).toEqual(before);
      const fits = await v1(server, merchant.testKey)('POST', '/v1/transfers', transferBody({ source_amount: 990 })); // 9.90 + 0.10 = 10.00
      expect(fits.status).toBe(201);
      expect(await balanceOf(merchant)).toBe(0n);
    });

    test('bad input answers 422 validation_failed with the messages of each bad field, and writes nothing', async () => {
      const merchant = await fundedMerchant();
      const call = v1(server, merchant.testKey);
      const before = await footprint(merchant);
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [{}, ['destination_currency', 'recipient', 'source_amount', 'source_currency']],
        [transferBody({ source_amount: 10.5 }), ['source_amount']],
        [transferBody({ source_amount: 0 }), ['source_amount']],
        [transferBody({ source_amount: -100 }), ['source_amount']],
        [transferBody({ source_amount: '1000' }), ['source_amount']],
        [
          transferBody({ source_currency: 'US', destination_currency: 'NGNN' }),
          ['destination_currency', 'source_currency'],
        ],
        [transferBody({ destination_currency: 'XYZ' }), ['destination_currency']],
        [transferBody({ source_currency: 'EUR' }), ['source_currency']], // no EUR wallet
        [
          transferBody({ recipient: { name: 'Ada', sort_code: '058', account_number: '0123456789' } }),
          ['recipient.country'],
        ],
        [
          transferBody({ recipient: { name: ' ', sort_code: '', account_number: '12', country: 'NGA' } }),
          ['recipient.account_number', 'recipient.country', 'recipient.name', 'recipient.sort_code'],
        ],
        [
          transferBody({ recipient: { name: 'Ada', sort_code: '058', account_number: '12', country: 'NG' } }),
          ['recipient.account_number'],
        ],
        [transferBody({ recipient: 'Ada' }), ['recipient']],
        [transferBody({ reference: 'extra' }), ['_']], // an unknown field
      ];
      for (const [body, fields] of cases) {
        const refused = await call('POST', '/v1/transfers', body);
        expect({ body, status: refused.status, code: refused.body.error?.code }).toEqual({
          body,
          status: 422,
          code: 'validation_failed',
        });
        const details = Object.keys(refused.body.error.details ?? {}).sort();
        expect({ body, details }).toEqual({ body, details: fields });
      }
      expect(await footprint(merchant)).toEqual(before);
    });

    test('malformed JSON answers 400 bad_request and writes nothing', async () => {
      const merchant = await fundedMerchant();
      const before = await footprint(merchant);
      const refused = await server.request('POST', '/v1/transfers', {
        rawBody: '{"source_amount": 1',
        headers: { authorization: `Bearer ${merchant.testKey}`, 'content-type': 'application/json' },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('bad_request');
      expect(await footprint(merchant)).toEqual(before);
    });
  });

  describe('separation', () => {
    test("another business's transfer, a live key's view of a test transfer and a malformed id answer 404 not_found", async () => {
      const merchant = await fundedMerchant();
      const stranger = await fundedMerchant();
      const created = await v1(server, merchant.testKey)('POST', '/v1/transfers', transferBody());
      const live = await issueV1Key(server, merchant.businessId, Mode.LIVE);
      for (const [key, id] of [
        [stranger.testKey, created.body.id],
        [live, created.body.id],
        [merchant.testKey, 'not-an-id'],
        [merchant.testKey, crypto.randomUUID()],
      ]) {
        const answer = await v1(server, key)('GET', `/v1/transfers/${id}`);
        expect(answer.status).toBe(404);
        expect(answer.body.error.code).toBe('not_found');
      }
      expect((await v1(server, merchant.testKey)('GET', `/v1/transfers/${created.body.id}`)).status).toBe(200);
    });

    test('a payout made on the main surface is not a /v1 transfer (404)', async () => {
      const merchant = await fundedMerchant();
      const headers = { 'x-api-key': merchant.apiKey };
      const recipient = await server.request('POST', '/api/v1/business/payouts/recipients', {
        headers,
        body: {
          label: 'Supplier',
          details: {
            rail: 'LOCAL_BANK',
            country: 'NG',
            currency: 'NGN',
            bankCode: '058',
            bankName: 'GTBank',
            accountNumber: '0123456789',
            accountName: 'Ada Obi',
          },
        },
      });
      const payout = await server.request('POST', '/api/v1/business/payouts', {
        headers,
        body: { recipientId: recipient.body.data.id, amount: '5.00', currency: 'USD' },
      });
      expect(payout.status).toBe(201);
      const answer = await v1(server, merchant.testKey)('GET', `/v1/transfers/${payout.body.data.id}`);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    });

    test('a live key cannot transfer while no live payout rail exists: 422 unprocessable, nothing written', async () => {
      const merchant = await fundedMerchant();
      const live = await issueV1Key(server, merchant.businessId, Mode.LIVE);
      const before = await footprint(merchant);
      const refused = await v1(server, live)('POST', '/v1/transfers', transferBody());
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('unprocessable');
      expect(await footprint(merchant)).toEqual(before);
      const [rows] = await server.runtime.dataSource.query(
        'SELECT count(*)::int AS n FROM payouts WHERE business_id = $1 AND livemode',
        [merchant.businessId],
      );
      expect(rows.n).toBe(0);
    });

    test('without a /v1 key (none, or a main-surface key) the transfer is refused with 401 invalid_api_key and nothing is written', async () => {
      const merchant = await fundedMerchant();
      const before = await footprint(merchant);
      for (const key of [null, merchant.apiKey]) {
        const refused = await v1(server, key)('POST', '/v1/transfers', transferBody());
        expect(refused.status).toBe(401);
        expect(refused.body.error.code).toBe('invalid_api_key');
      }
      expect(await footprint(merchant)).toEqual(before);
    });

    test('creating a transfer spends the payment-creation budget, reading spends the read budget; X-RateLimit-* on every answer', async () => {
      const merchant = await fundedMerchant();
      const call = v1(server, merchant.testKey);
      const payment = await call('POST', '/v1/payments', paymentBody());
      const transfer = await call('POST', '/v1/transfers', transferBody());
      const refused = await call('POST', '/v1/transfers', transferBody({ source_amount: 0 }));
      const read = await call('GET', `/v1/transfers/${transfer.body.id}`);
      const limitOf = (answer: { headers: Headers }) => [
        Number(answer.headers.get('x-ratelimit-limit')),
        Number(answer.headers.get('x-ratelimit-remaining')),
      ];
      expect(limitOf(payment)).toEqual([LIMITS.testCreate, LIMITS.testCreate - 1]);
      expect(limitOf(transfer)).toEqual([LIMITS.testCreate, LIMITS.testCreate - 2]);
      expect(limitOf(refused)).toEqual([LIMITS.testCreate, LIMITS.testCreate - 3]);
      expect(limitOf(read)).toEqual([LIMITS.testRead, LIMITS.testRead - 1]);
      for (const answer of [payment, transfer, refused, read])
        expect(Number(answer.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    });

    test('the OpenAPI document of /v1 declares POST /v1/transfers and GET /v1/transfers/{id}', async () => {
      const document = await server.request('GET', '/v1/openapi.json');
      expect(Object.keys(document.body.paths['/v1/transfers'])).toEqual(['post']);
      expect(Object.keys(document.body.paths['/v1/transfers/{id}'])).toEqual(['get']);
      expect(document.body.paths['/v1/transfers'].post.responses['201']).toBeDefined();
    });
  });

  describe('wallet.low_balance', () => {
    test('emitted once when a debit takes the balance from at or above the threshold to below it; not again while below; again after it rose and crosses again', async () => {
      const merchant = await fundedMerchant('100.00');
      await setWebhookUrl(merchant, '/low-hooks');
      const set = await setThreshold(merchant, 'usd', '50.00');
      expect(set.body).toEqual({
        data: {
          setWalletLowBalanceThreshold: {
            walletLowBalanceThreshold: { currency: 'USD', threshold: '50.00' },
            userErrors: [],
          },
        },
      });
      const call = v1(server, merchant.testKey);
      const transfer = (amount: number) => call('POST', '/v1/transfers', transferBody({ source_amount: amount }));

      expect((await transfer(3000)).status).toBe(201); // 100.00 → 69.70
      expect(await lowBalanceEvents(merchant)).toEqual([]);
      expect((await transfer(1980)).status).toBe(201); // 69.70 → 49.70: crosses
      expect((await transfer(1000)).status).toBe(201); // 49.70 → 39.60: still below
      const [wallet] = await server.runtime.dataSource.query(
        `SELECT id FROM ledger_accounts WHERE kind = 'merchant_wallet' AND business_id = $1 AND livemode = false AND currency = 'USD'`,
        [merchant.businessId],
      );
      expect(await lowBalanceEvents(merchant)).toEqual([
        { wallet_id: wallet.id, currency: 'USD', balance: 4970, threshold: 5000 },
      ]);

      await fundWallet(server, merchant, '20.00'); // 59.60: above again, no event for a credit
      expect(await lowBalanceEvents(merchant)).toHaveLength(1);
      expect((await transfer(1000)).status).toBe(201); // 59.60 → 49.50: crosses again
      expect((await lowBalanceEvents(merchant)).map((data) => data.balance)).toEqual([4970, 4950]);

      const deliveries = await waitFor(
        async () => v1DeliveriesAt('/low-hooks').filter((request) => request.json.event === 'wallet.low_balance'),
        (found) => found.length === 2,
      );
      expect(deliveries.map((request) => request.json.data.balance)).toEqual([4970, 4950]);
      for (const delivery of deliveries)
        expect(delivery.headers['service-signature']).toBe(signatureOf(delivery.body, merchant.testKey));
    });

    test('a balance that lands exactly on the threshold has not crossed it; a reversal (credit) never emits', async () => {
      const merchant = await fundedMerchant('100.00');
      await setThreshold(merchant, 'USD', '49.50');
      const call = v1(server, merchant.testKey);
      expect((await call('POST', '/v1/transfers', transferBody({ source_amount: 5000 }))).status).toBe(201); // 100.00 → 49.50: at, not below
      expect(await lowBalanceEvents(merchant)).toEqual([]);
      const failing = await call('POST', '/v1/transfers', transferBody({ source_amount: 100 }, '1111')); // 49.50 → 48.49: crosses; then reversed
      await waitFor(
        () => call('GET', `/v1/transfers/${failing.body.id}`),
        (answer) => answer.body.status === 'failed',
      );
      expect((await lowBalanceEvents(merchant)).map((data) => data.balance)).toEqual([4849]);
    });

    test('concurrent debits crossing the threshold produce exactly one wallet.low_balance, from the debit that crossed', async () => {
      const merchant = await fundedMerchant('100.00');
      await setThreshold(merchant, 'USD', '50.00');
      const call = v1(server, merchant.testKey);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => call('POST', '/v1/transfers', transferBody({ source_amount: 900 }))),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
      expect(await balanceOf(merchant)).toBe(10_000n - 10n * 909n);
      const events = await lowBalanceEvents(merchant);
      expect(events).toHaveLength(1);
      // The crossing debit's balance: below the threshold, and at or above it one debit earlier.
      expect(events[0].balance).toBeLessThan(5000);
      expect((events[0].balance as number) + 909).toBeGreaterThanOrEqual(5000);
      await expectLedgerBalanced();
    });

    test('the threshold is per currency and mode, set by an OWNER or ADMIN (not an API credential), and removed with null', async () => {
      const merchant = await fundedMerchant('100.00');
      const byApiKey = await setThreshold(merchant, 'USD', '50.00', { 'x-api-key': merchant.apiKey });
      expect(byApiKey.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const bad = await setThreshold(merchant, 'USD', '-5');
      expect(bad.body.data.setWalletLowBalanceThreshold.userErrors).toEqual([
        { field: ['input', 'threshold'], message: expect.any(String), code: 'VALIDATION_ERROR' },
      ]);
      await setThreshold(merchant, 'NGN', '1000.00');
      const listed = await server.graphql(
        '{ walletLowBalanceThresholds { currency threshold } }',
        {},
        dashboard(merchant),
      );
      expect(listed.body.data.walletLowBalanceThresholds).toEqual([{ currency: 'NGN', threshold: '1000.00' }]);
      // A stable id per business, mode and currency, the same when the threshold changes.
      const idOf = async () =>
        (await server.graphql('{ walletLowBalanceThresholds { id } }', {}, dashboard(merchant))).body.data
          .walletLowBalanceThresholds[0].id;
      expect(await idOf()).toBe(`WalletLowBalanceThreshold:${merchant.businessId}:test:NGN`);
      await setThreshold(merchant, 'NGN', '1000.00');
      expect(await idOf()).toBe(`WalletLowBalanceThreshold:${merchant.businessId}:test:NGN`);
      // No USD threshold: a debit far below 50.00 emits nothing.
      expect(
        (await v1(server, merchant.testKey)('POST', '/v1/transfers', transferBody({ source_amount: 9000 }))).status,
      ).toBe(201);
      expect(await lowBalanceEvents(merchant)).toEqual([]);
      await setThreshold(merchant, 'USD', '50.00');
      const removed = await setThreshold(merchant, 'USD', null);
      expect(removed.body.data.setWalletLowBalanceThreshold).toEqual({
        walletLowBalanceThreshold: null,
        userErrors: [],
      });
      expect(
        (await server.graphql('{ walletLowBalanceThresholds { currency } }', {}, dashboard(merchant))).body.data
          .walletLowBalanceThresholds,
      ).toEqual([{ currency: 'NGN' }]);
    });

    test("the operator setting a threshold for a business that does not exist gets NOT_FOUND (the CLI's path), nothing written", async () => {
      for (const businessId of ['00000000-0000-4000-8000-000000000000', 'not-a-business']) {
        const ctx = RequestContext.system(server.runtime.dataSource, 'cli', businessId, Mode.TEST);
        await expect(
          server.runtime.core.lowBalance.set(ctx, { currency: 'USD', threshold: 5000n }),
        ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      }
      expect(
        await server.runtime.dataSource.query(
          `SELECT 1 FROM wallet_low_balance_thresholds WHERE business_id = '00000000-0000-4000-8000-000000000000'`,
        ),
      ).toEqual([]);
    });

    test('a bad threshold answers a VALIDATION_ERROR userError on its input field and writes nothing', async () => {
      const merchant = await fundedMerchant('100.00');
      const thresholds = () =>
        server.runtime.dataSource.query('SELECT currency FROM wallet_low_balance_thresholds WHERE business_id = $1', [
          merchant.businessId,
        ]);
      for (const [currency, threshold, field] of [
        ['USD', '-5', 'threshold'],
        ['USD', '0', 'threshold'],
        ['USD', '1.005', 'threshold'],
        ['US', '50.00', 'currency'],
        ['USD', 'ten', 'threshold'],
      ]) {
        const refused = await setThreshold(merchant, currency, threshold);
        expect(refused.body).toEqual({
          data: {
            setWalletLowBalanceThreshold: {
              walletLowBalanceThreshold: null,
              userErrors: [{ field: ['input', field], message: expect.any(String), code: 'VALIDATION_ERROR' }],
            },
          },
        });
      }
      expect(await thresholds()).toEqual([]);
    });

    test('over WebSocket as over HTTP: an OWNER sets a threshold, an API key is refused (FORBIDDEN) and writes nothing', async () => {
      const merchant = await fundedMerchant('100.00');
      const mutation =
        'mutation($input: SetWalletLowBalanceThresholdInput!) { setWalletLowBalanceThreshold(input: $input) { walletLowBalanceThreshold { currency threshold } } }';
      const byKey = await overSocket(server.subscribe({ apiKey: merchant.apiKey }), mutation, {
        input: { currency: 'USD', threshold: '50.00' },
      });
      expect(byKey.result?.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(
        await server.runtime.dataSource.query('SELECT 1 FROM wallet_low_balance_thresholds WHERE business_id = $1', [
          merchant.businessId,
        ]),
      ).toEqual([]);
      const byOwner = await overSocket(
        server.subscribe({ authorization: `Bearer ${merchant.token}`, businessId: merchant.businessId }),
        mutation,
        { input: { currency: 'USD', threshold: '50.00' } },
      );
      expect(byOwner.result?.data).toEqual({
        setWalletLowBalanceThreshold: { walletLowBalanceThreshold: { currency: 'USD', threshold: '50.00' } },
      });
    });

    test("another business's OWNER naming a business it is no member of gets NOT_FOUND: sets, removes and reads nothing", async () => {
      const merchant = await fundedMerchant('100.00');
      await setThreshold(merchant, 'USD', '50.00');
      const stranger = await server.signUp();
      const asStranger = { authorization: `Bearer ${stranger.token}`, 'x-service-business-id': merchant.businessId };
      const set = await setThreshold(merchant, 'USD', '10.00', asStranger);
      expect(set.body.data?.setWalletLowBalanceThreshold ?? null).toBeNull();
      expect(set.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const removed = await setThreshold(merchant, 'USD', null, asStranger);
      expect(removed.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const read = await server.graphql('{ walletLowBalanceThresholds { currency threshold } }', {}, asStranger);
      expect(read.body.data?.walletLowBalanceThresholds ?? null).toBeNull();
      expect(read.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      // The stranger's own business sees none of them; the merchant's threshold is unchanged.
      expect(
        (await server.graphql('{ walletLowBalanceThresholds { currency } }', {}, dashboard(stranger))).body.data
          .walletLowBalanceThresholds,
      ).toEqual([]);
      expect(
        (await server.graphql('{ walletLowBalanceThresholds { currency threshold } }', {}, dashboard(merchant))).body
          .data.walletLowBalanceThresholds,
      ).toEqual([{ currency: 'USD', threshold: '50.00' }]);
    });
  });
});
