import crypto from 'node:crypto';
import { Mode } from '../src/domain/shared/modes';
import { RequestContext } from '../src/domain/shared/context';
import { TestMerchant, TestServer, startDeliveringServer, waitFor } from './support/harness';
import { apiKey } from './support/payouts';
import { advanceCompleted } from './support/schedules';
import { eventsOf, expectLedgerBalanced, walletBalance } from './support/payments';
import { Receiver, deliveriesAtRest, verifiesServiceSignature } from './support/receiver';
import { page as hostedPage, pathOf } from './support/checkout';

const COLLECTIONS = '/api/v1/business/collections';
const PAY = (id: string) => `/api/v1/business/sandbox/collections/${id}/pay`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const COLLECTION_FIELDS = [
  'id',
  'object',
  'status',
  'amount',
  'currency',
  'country',
  'expiresAt',
  'channel',
  'instructions',
  'metadata',
  'businessPaymentId',
  'source',
  'createdAt',
  'livemode',
  'updatedAt',
  'amountReceived',
  'failureReason',
  'settlement',
].sort();

/** A Nigerian bank-transfer collection of 50,000.00 NGN (5,000,000 kobo). */
const ngBank = (overrides: Record<string, unknown> = {}) => ({
  amount: 5_000_000,
  currency: 'ngn',
  country: 'NG',
  rail: 'bank',
  customer: { email: 'ada@example.com', name: 'Ada Obi' },
  metadata: { orderId: 'A-1' },
  ...overrides,
});
/** A Ghanaian mobile-money collection of 50.00 GHS on MTN. */
const ghMomo = (overrides: Record<string, unknown> = {}) => ({
  amount: 5_000,
  currency: 'ghs',
  country: 'GH',
  rail: 'momo',
  customer: { phone: '+233241234567', networkId: 'mtn-gh' },
  ...overrides,
});

/** Collections over local rails (design section 9; interface document: Collection, Collection status, collection.* events). */
describe('Collections', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer();
  });
  afterAll(async () => server.close());

  const db = () => server.runtime.dataSource;
  const create = (merchant: TestMerchant, body: unknown, headers: Record<string, string> = apiKey(merchant)) =>
    server.request('POST', COLLECTIONS, { headers, body });
  const created = async (merchant: TestMerchant, body: unknown) => {
    const response = await create(merchant, body);
    if (response.status !== 201) throw new Error(`collection failed: ${JSON.stringify(response.body)}`);
    return response.body.data;
  };
  const read = async (merchant: TestMerchant, id: string) =>
    (await server.request('GET', `${COLLECTIONS}/${id}`, { headers: apiKey(merchant) })).body.data;
  const pay = (merchant: TestMerchant, id: string, amount: unknown) =>
    server.request('POST', PAY(id), { headers: apiKey(merchant), body: { amount } });
  const countOf = async (businessId: string) =>
    Number((await db().query(`SELECT count(*) AS n FROM collections WHERE business_id = $1`, [businessId]))[0].n);
  const settlementsOf = async (collectionId: string) =>
    Number(
      (
        await db().query(
          `SELECT count(*) AS n FROM journal_transactions WHERE reference_type = 'collection' AND reference_id = $1`,
          [collectionId],
        )
      )[0].n,
    );
  const expectFieldError = (response: { status: number; body: any }, field: string) => {
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 400 } });
    expect(Object.keys(response.body.error.errors)).toContain(field);
  };
  /** Advances the business's test clock and waits for its advance to complete (expiry fires in the background). */
  const advanceClock = async (merchant: TestMerchant, seconds: number) => {
    const response = await server.request('POST', '/api/v1/business/sandbox/clock/advance', {
      headers: apiKey(merchant),
      body: { seconds },
    });
    if (response.status === 200 && response.body.data.advance.status === 'running')
      await advanceCompleted(server, merchant, response.body.data.advance.id);
    return response;
  };

  describe('channels', () => {
    test('the channels list NG bank transfer, GH and KE mobile money with their operator networks, and ZA EFT, each with its limits in minor units', async () => {
      const merchant = await server.signUp();
      const response = await server.request('GET', `${COLLECTIONS}/channels`, { headers: apiKey(merchant) });
      expect(response.status).toBe(200);
      expect(response.body.data.items).toEqual([
        {
          id: 'sbx_ch_ng_bank',
          country: 'NG',
          currency: 'ngn',
          rail: 'bank',
          provider: 'sandbox-bank',
          minAmount: 10_000,
          maxAmount: 1_000_000_000,
        },
        {
          id: 'sbx_ch_gh_momo',
          country: 'GH',
          currency: 'ghs',
          rail: 'momo',
          provider: 'sandbox-momo',
          networkIds: ['mtn-gh', 'vodafone-gh', 'airteltigo-gh'],
          minAmount: 100,
          maxAmount: 2_000_000,
        },
        {
          id: 'sbx_ch_ke_momo',
          country: 'KE',
          currency: 'kes',
          rail: 'momo',
          provider: 'sandbox-momo',
          networkIds: ['safaricom-ke', 'airtel-ke'],
          minAmount: 1_000,
          maxAmount: 15_000_000,
        },
        {
          id: 'sbx_ch_za_eft',
          country: 'ZA',
          currency: 'zar',
          rail: 'eft',
          provider: 'sandbox-eft',
          minAmount: 1_000,
          maxAmount: 100_000_000,
        },
      ]);
    });

    test('?country= filters the channels (any case); a malformed country is 400', async () => {
      const merchant = await server.signUp();
      const ghana = await server.request('GET', `${COLLECTIONS}/channels?country=gh`, { headers: apiKey(merchant) });
      expect(ghana.body.data.items.map((channel: any) => channel.id)).toEqual(['sbx_ch_gh_momo']);
      const none = await server.request('GET', `${COLLECTIONS}/channels?country=US`, { headers: apiKey(merchant) });
      expect(none.body.data.items).toEqual([]);
      expectFieldError(
        await server.request('GET', `${COLLECTIONS}/channels?country=Nigeria`, { headers: apiKey(merchant) }),
        'country',
      );
    });
  });

  describe('create and read', () => {
    test('a bank-transfer collection is created pending with every documented field: integer amount, lowercase currency, channel, bank_transfer instructions', async () => {
      const merchant = await server.signUp();
      const before = Date.now();
      const response = await create(merchant, ngBank({ businessPaymentId: 'order-1001' }));
      expect(response.status).toBe(201);
      expect(Object.keys(response.body)).toEqual(['success', 'data']);
      const collection = response.body.data;
      expect(Object.keys(collection).sort()).toEqual(COLLECTION_FIELDS);
      expect(collection).toEqual({
        id: expect.any(String),
        object: 'collection',
        status: 'pending',
        amount: 5_000_000,
        currency: 'ngn',
        country: 'NG',
        expiresAt: expect.stringMatching(ISO),
        channel: { rail: 'bank', provider: 'sandbox-bank', channelId: 'sbx_ch_ng_bank', networkId: null },
        instructions: {
          kind: 'bank_transfer',
          bankName: 'Sandbox Bank',
          accountNumber: expect.stringMatching(/^99\d{8}$/),
          accountName: expect.stringContaining('via Tessera'),
          reference: null,
        },
        metadata: { orderId: 'A-1' },
        businessPaymentId: 'order-1001',
        source: 'api',
        createdAt: expect.stringMatching(ISO),
        livemode: false,
        updatedAt: expect.stringMatching(ISO),
        amountReceived: null,
        failureReason: null,
        settlement: null,
      });
      expect(Number.isInteger(collection.amount)).toBe(true);
      // Default expiry: one hour.
      const lifetime = Date.parse(collection.expiresAt) - before;
      expect(lifetime).toBeGreaterThan(3600_000 - 60_000);
      expect(lifetime).toBeLessThanOrEqual(3600_000 + 60_000);
    });

    test('GET /business/collections/{id} reads the same object, also at the unprefixed documented path', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ngBank());
      expect(collection.businessPaymentId).toMatch(/^bp_[0-9a-f]{24}$/);
      const prefixed = await server.request('GET', `${COLLECTIONS}/${collection.id}`, { headers: apiKey(merchant) });
      expect(prefixed.status).toBe(200);
      expect(prefixed.body.data).toEqual(collection);
      const unprefixed = await server.request('GET', `/business/collections/${collection.id}`, {
        headers: apiKey(merchant),
      });
      expect(unprefixed.status).toBe(200);
      expect(unprefixed.body).toEqual({ success: true, data: collection });
      expect((await server.request('GET', `/business/collections`, { headers: apiKey(merchant) })).status).toBe(404);
    });

    test('mobile money: channel.networkId echoes customer.networkId, channelId is the provider channel, instructions are a momo_prompt to the phone', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ghMomo());
      expect(collection).toMatchObject({
        amount: 5_000,
        currency: 'ghs',
        country: 'GH',
        channel: { rail: 'momo', provider: 'sandbox-momo', channelId: 'sbx_ch_gh_momo', networkId: 'mtn-gh' },
        instructions: { kind: 'momo_prompt', phone: '+233241234567', prompt: expect.stringContaining('GHS 50.00') },
      });
      expect(Object.keys(collection.instructions).sort()).toEqual(['kind', 'phone', 'prompt']);
      const kenya = await created(merchant, {
        amount: 150_000,
        currency: 'KES',
        country: 'ke',
        rail: 'momo',
        channelId: 'sbx_ch_ke_momo',
        customer: { phone: '+254712345678', networkId: 'safaricom-ke' },
      });
      expect(kenya).toMatchObject({
        currency: 'kes',
        country: 'KE',
        channel: { channelId: 'sbx_ch_ke_momo', networkId: 'safaricom-ke' },
        instructions: { prompt: expect.stringContaining('M-Pesa') },
      });
    });

    test('ZA EFT: hosted_page instructions point at a real page Tessera serves with the account and reference to pay', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, { amount: 25_000, currency: 'zar', country: 'ZA', rail: 'eft' });
      const base = server.runtime.core.config.publicBaseUrl;
      expect(collection.instructions).toEqual({
        kind: 'hosted_page',
        url: expect.stringMatching(/\/collect\/col_test_[A-Za-z0-9_-]{32}$/),
        provider: 'sandbox-eft',
      });
      expect(collection.instructions.url.startsWith(`${base}/collect/`)).toBe(true);
      expect(collection.channel).toEqual({
        rail: 'eft',
        provider: 'sandbox-eft',
        channelId: 'sbx_ch_za_eft',
        networkId: null,
      });
      const page = await hostedPage(server, 'GET', pathOf(collection.instructions.url));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/text\/html/);
      const html = page.body;
      expect(html).toContain('250.00 ZAR');
      expect(html).toMatch(/id="account-number">6200000001</);
      expect(html).toMatch(/id="reference">[0-9A-F]{12}</);
      expect(html).toContain(`data-collection-id="${collection.id}"`);
      expect((await hostedPage(server, 'GET', '/collect/col_test_nope')).status).toBe(404);
    });

    test('metadata is null when none is sent, and channel.networkId is null off mobile money (object or null, as documented)', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, { amount: 25_000, currency: 'zar', country: 'ZA', rail: 'eft' });
      expect(collection.metadata).toBeNull();
      expect(collection.channel.networkId).toBeNull();
      expect(typeof collection.channel.channelId).toBe('string');
      expect(await read(merchant, collection.id)).toEqual(collection);
    });

    test("GET /business/collections lists newest first as { items, total, skip, take }, filters by status, and shows only the caller's business", async () => {
      const merchant = await server.signUp();
      const other = await server.signUp();
      const first = await created(merchant, ngBank());
      const second = await created(merchant, ghMomo());
      await created(other, ngBank());
      await pay(merchant, first.id, 5_000_000);
      const list = await server.request('GET', COLLECTIONS, { headers: apiKey(merchant) });
      expect(list.status).toBe(200);
      expect(list.body.data).toMatchObject({ total: 2, skip: 0, take: 20 });
      expect(list.body.data.items.map((item: any) => item.id)).toEqual([second.id, first.id]);
      expect(list.body.data.items[0]).toEqual(await read(merchant, second.id));
      const completed = await server.request('GET', `${COLLECTIONS}?status=COMPLETED`, { headers: apiKey(merchant) });
      expect(completed.body.data.items.map((item: any) => item.id)).toEqual([first.id]);
      expectFieldError(
        await server.request('GET', `${COLLECTIONS}?status=paid`, { headers: apiKey(merchant) }),
        'status',
      );
    });

    test('a businessPaymentId is unique per business and mode: a second use is 409 and writes nothing', async () => {
      const merchant = await server.signUp();
      await created(merchant, ngBank({ businessPaymentId: 'inv-77' }));
      const again = await create(merchant, ngBank({ businessPaymentId: 'inv-77' }));
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('CONFLICT');
      expect(await countOf(merchant.businessId)).toBe(1);
      const other = await server.signUp();
      expect((await create(other, ngBank({ businessPaymentId: 'inv-77' }))).status).toBe(201);
    });
  });

  describe('bad input: 400 with per-field errors, nothing written', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a fractional amount', ngBank({ amount: 5000.5 }), 'amount'],
      ['an amount sent as a string', ngBank({ amount: '5000000' }), 'amount'],
      ['a zero amount', ngBank({ amount: 0 }), 'amount'],
      ['a negative amount', ngBank({ amount: -100 }), 'amount'],
      ['an amount below the channel minimum', ngBank({ amount: 9_999 }), 'amount'],
      ['an amount above the channel maximum', ghMomo({ amount: 2_000_001 }), 'amount'],
      ['a country without channels', ngBank({ country: 'US', currency: 'usd' }), 'country'],
      ['a malformed country', ngBank({ country: 'NGA' }), 'country'],
      ['a currency the country is not collected in', ngBank({ currency: 'usd' }), 'currency'],
      ['an unsupported currency code', ngBank({ currency: 'xyz' }), 'currency'],
      [
        'a rail not offered for the country',
        ngBank({ rail: 'momo', customer: { phone: '+2348012345678', networkId: 'mtn-gh' } }),
        'rail',
      ],
      ['an unknown rail', ngBank({ rail: 'card' }), 'rail'],
      ['mobile money without a phone', ghMomo({ customer: { networkId: 'mtn-gh' } }), 'customer.phone'],
      ['mobile money without a network', ghMomo({ customer: { phone: '+233241234567' } }), 'customer.networkId'],
      [
        'mobile money on a network the channel does not route to',
        ghMomo({ customer: { phone: '+233241234567', networkId: 'safaricom-ke' } }),
        'customer.networkId',
      ],
      ['a network id on a bank transfer', ngBank({ customer: { networkId: 'mtn-gh' } }), 'customer.networkId'],
      ['an unknown channelId', ngBank({ channelId: 'sbx_ch_nowhere' }), 'channelId'],
      ['a channelId of another country', ngBank({ channelId: 'sbx_ch_za_eft' }), 'channelId'],
      [
        'a channel id sent as customer.networkId',
        ghMomo({ customer: { phone: '+233241234567', networkId: 'sbx_ch_gh_momo' } }),
        'customer.networkId',
      ],
      ['a network id sent as channelId', ghMomo({ channelId: 'mtn-gh' }), 'channelId'],
      ['metadata that is an array', ngBank({ metadata: ['a'] }), 'metadata'],
      ['metadata that is a string', ngBank({ metadata: 'order 1' }), 'metadata'],
      ['metadata over 8 KB of JSON', ngBank({ metadata: { note: 'x'.repeat(8_200) } }), 'metadata'],
      ['an expiry below 5 minutes', ngBank({ expiresInSeconds: 10 }), 'expiresInSeconds'],
      ['a malformed email', ngBank({ customer: { email: 'not-an-email' } }), 'customer.email'],
      ['a malformed businessPaymentId', ngBank({ businessPaymentId: 'has spaces' }), 'businessPaymentId'],
    ];

    test.each(cases)('%s is refused', async (_name, body, field) => {
      const merchant = await server.createMerchant();
      const response = await create(merchant, body);
      expectFieldError(response, field);
      expect(await countOf(merchant.businessId)).toBe(0);
      expect(await eventsOf(server, merchant.businessId, 'collection.created')).toEqual([]);
    });

    test('every bad field is named at once', async () => {
      const merchant = await server.createMerchant();
      const response = await create(merchant, { amount: 1.5, currency: 7, country: 'N', rail: 'pigeon', metadata: 3 });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body.error.errors).sort()).toEqual([
        'amount',
        'country',
        'currency',
        'metadata',
        'rail',
      ]);
      const missing = await create(merchant, {});
      expect(Object.keys(missing.body.error.errors).sort()).toEqual(['amount', 'country', 'currency', 'rail']);
      expect(missing.body.error.errors.amount[0]).toMatch(/^is required/);
      expect(await countOf(merchant.businessId)).toBe(0);
    });

    test('the sandbox pay amount must be a positive integer in minor units', async () => {
      const merchant = await server.createMerchant();
      const collection = await created(merchant, ngBank());
      expectFieldError(await pay(merchant, collection.id, 10.5), 'amount');
      expectFieldError(await pay(merchant, collection.id, '5000000'), 'amount');
      expectFieldError(await pay(merchant, collection.id, 0), 'amount');
      expect((await read(merchant, collection.id)).status).toBe('pending');
    });
  });

  test('an Idempotency-Key replays the first create: one collection, the same answer', async () => {
    const merchant = await server.signUp();
    const headers = { ...apiKey(merchant), 'idempotency-key': `col-${crypto.randomBytes(4).toString('hex')}` };
    const first = await create(merchant, ngBank(), headers);
    const again = await create(merchant, ngBank(), headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(await countOf(merchant.businessId)).toBe(1);
    const reused = await create(merchant, ghMomo(), headers);
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  test('a VIEWER reads collections but cannot create or pay them', async () => {
    const owner = await server.signUp();
    const viewer = await server.signUp();
    await server.addTeamMember(owner, viewer, 'VIEWER');
    const collection = await created(owner, ngBank());
    const asViewer = { authorization: `Bearer ${viewer.token}`, 'x-service-business-id': owner.businessId };
    expect((await server.request('GET', `${COLLECTIONS}/${collection.id}`, { headers: asViewer })).status).toBe(200);
    expect((await create(owner, ngBank(), asViewer)).status).toBe(403);
    expect(
      (await server.request('POST', PAY(collection.id), { headers: asViewer, body: { amount: 5_000_000 } })).status,
    ).toBe(403);
    expect((await read(owner, collection.id)).status).toBe('pending');
  });

  describe('tenancy and modes', () => {
    test("another business's collection is 404 on read and on pay, and so is an id that is not one", async () => {
      const owner = await server.signUp();
      const stranger = await server.signUp();
      const collection = await created(owner, ngBank());
      expect(
        (await server.request('GET', `${COLLECTIONS}/${collection.id}`, { headers: apiKey(stranger) })).status,
      ).toBe(404);
      expect(
        (await server.request('GET', `/business/collections/${collection.id}`, { headers: apiKey(stranger) })).status,
      ).toBe(404);
      const paid = await pay(stranger, collection.id, 5_000_000);
      expect(paid.status).toBe(404);
      expect(paid.body.error.code).toBe('NOT_FOUND');
      expect((await server.request('GET', `${COLLECTIONS}/not-a-uuid`, { headers: apiKey(owner) })).status).toBe(404);
      expect((await read(owner, collection.id)).status).toBe('pending');
    });

    test('live mode has no collection rail: channels and creates are refused with 422 and a clear message, pay with 403; test collections are 404 there', async () => {
      const merchant = await server.signUp();
      const live = { 'x-api-key': await server.liveKeyOf(merchant) };
      const testCollection = await created(merchant, ngBank());
      const refused = await create(merchant, ngBank(), live);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toMatchObject({
        code: 'UNPROCESSABLE',
        message:
          'No collection rail is configured for live mode, so live collections cannot be taken; use test credentials in the sandbox',
      });
      expect((await server.request('GET', `${COLLECTIONS}/channels`, { headers: live })).status).toBe(422);
      expect((await server.request('GET', `${COLLECTIONS}/${testCollection.id}`, { headers: live })).status).toBe(404);
      expect((await server.request('GET', COLLECTIONS, { headers: live })).body.data.total).toBe(0);
      const livePay = await server.request('POST', PAY(testCollection.id), {
        headers: live,
        body: { amount: 5_000_000 },
      });
      expect(livePay.status).toBe(403);
      expect(livePay.body.error.code).toBe('SANDBOX_ONLY');
      expect(
        Number(
          (
            await db().query(`SELECT count(*) AS n FROM collections WHERE business_id = $1 AND livemode`, [
              merchant.businessId,
            ])
          )[0].n,
        ),
      ).toBe(0);
    });
  });

  describe('states and settlement', () => {
    test('paying the exact amount: pending -> processing -> completed; the USDC wallet gets the converted amount less the fee, in one balanced journal transaction', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ngBank());
      const response = await pay(merchant, collection.id, 5_000_000);
      expect(response.status).toBe(200);
      // 50,000.00 NGN at the sandbox's 1550 NGN per USD less the 0.5% spread: rate 0.00064193 (8 decimals, rounded down);
      // 5,000,000 kobo x 0.00064193 = 32.096500 USDC (rounded down to 6 decimals); 1% fee = 0.320965 (rounded up); net 31.775535.
      const rate = ((10n ** 8n / 1550n) * 9950n) / 10_000n;
      expect(rate).toBe(64193n);
      const gross = (5_000_000n * rate * 10n ** 6n) / 10n ** 10n;
      const fee = (gross * 100n + 9_999n) / 10_000n;
      expect([gross, fee]).toEqual([32_096_500n, 320_965n]);
      expect(response.body.data).toMatchObject({
        status: 'completed',
        amountReceived: 5_000_000,
        failureReason: null,
        settlement: {
          currency: 'usdc',
          rate: '0.00064193',
          grossAmount: 32_096_500,
          fee: 320_965,
          netAmount: 31_775_535,
        },
      });
      expect(await read(merchant, collection.id)).toEqual(response.body.data);
      expect(await walletBalance(server, merchant.businessId, 'USDC')).toBe(31_775_535n);
      const entries = await db().query(
        `SELECT a.kind, e.currency, e.amount::text AS amount FROM journal_transactions t JOIN journal_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
          WHERE t.reference_type = 'collection' AND t.reference_id = $1`,
        [collection.id],
      );
      expect(entries.sort((a: any, b: any) => a.kind.localeCompare(b.kind))).toEqual([
        { kind: 'fees_revenue', currency: 'USDC', amount: '320965' },
        { kind: 'merchant_wallet', currency: 'USDC', amount: '31775535' },
        { kind: 'provider_clearing', currency: 'USDC', amount: '-32096500' },
      ]);
      expect(
        (await eventsOf(server, merchant.businessId))
          .filter((event) => event.type.startsWith('collection.'))
          .map((event) => event.type),
      ).toEqual(['collection.created', 'collection.processing', 'collection.completed']);
      await expectLedgerBalanced(server);
    });

    test('mobile money settles with the 1.5% fee, rounded up to the USDC minor unit', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ghMomo());
      const response = await pay(merchant, collection.id, 5_000);
      // 50.00 GHS: rate 0.06546052; gross 3.273026 USDC; fee 1.5% = 0.04909539 -> 0.049096; net 3.223930.
      expect(response.body.data.settlement).toEqual({
        currency: 'usdc',
        rate: '0.06546052',
        grossAmount: 3_273_026,
        fee: 49_096,
        netAmount: 3_223_930,
      });
      expect(await walletBalance(server, merchant.businessId, 'USDC')).toBe(3_223_930n);
    });

    test('paying a different amount: pending -> processing -> failed with amount_mismatch; nothing is credited', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ngBank());
      const response = await pay(merchant, collection.id, 4_999_999);
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        status: 'failed',
        failureReason: 'amount_mismatch',
        amountReceived: 4_999_999,
        settlement: null,
      });
      expect(await settlementsOf(collection.id)).toBe(0);
      expect(await walletBalance(server, merchant.businessId, 'USDC')).toBe(0n);
      expect(
        (await eventsOf(server, merchant.businessId))
          .filter((event) => event.type.startsWith('collection.'))
          .map((event) => event.type),
      ).toEqual(['collection.created', 'collection.processing', 'collection.failed']);
      const again = await pay(merchant, collection.id, 5_000_000);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('CONFLICT');
    });

    test('completion credits exactly once when the rail reports settlement 3 times concurrently', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ngBank());
      const ctx = RequestContext.system(db(), 'rail-callback', merchant.businessId, Mode.TEST);
      const results = await Promise.all(
        [1, 2, 3].map(() =>
          server.runtime.core.collections.applyRailReport(ctx, collection.id, { kind: 'settled', amount: 5_000_000n }),
        ),
      );
      expect(results.filter((result) => result !== null)).toHaveLength(1);
      expect(await settlementsOf(collection.id)).toBe(1);
      expect(await walletBalance(server, merchant.businessId, 'USDC')).toBe(31_775_535n);
      expect(await eventsOf(server, merchant.businessId, 'collection.completed')).toHaveLength(1);
      // A late "funds detected" report after settlement changes nothing either.
      expect(
        await server.runtime.core.collections.applyRailReport(ctx, collection.id, {
          kind: 'received',
          amount: 5_000_000n,
        }),
      ).toBeNull();
      expect((await read(merchant, collection.id)).status).toBe('completed');
      await expectLedgerBalanced(server);
    });

    test("a rail settlement report of another amount than the collection's fails it with amount_mismatch and credits nothing", async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ngBank());
      const ctx = RequestContext.system(db(), 'rail-callback', merchant.businessId, Mode.TEST);
      const failed = await server.runtime.core.collections.applyRailReport(ctx, collection.id, {
        kind: 'settled',
        amount: 4_000_000n,
      });
      expect(failed).not.toBeNull();
      expect(await read(merchant, collection.id)).toMatchObject({
        status: 'failed',
        failureReason: 'amount_mismatch',
        amountReceived: 4_000_000,
        settlement: null,
      });
      expect(await settlementsOf(collection.id)).toBe(0);
      expect(await walletBalance(server, merchant.businessId, 'USDC')).toBe(0n);
      expect(await eventsOf(server, merchant.businessId, 'collection.completed')).toEqual([]);
      expect(await eventsOf(server, merchant.businessId, 'collection.failed')).toHaveLength(1);
    });

    test("a rail's rejection (queued as a rail-report job, run by the worker) fails the collection with the rail's reason; a later settlement is refused and credits nothing", async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ghMomo());
      await db().query(`SELECT graphile_worker.add_job('collection_rail_report', $1::json)`, [
        JSON.stringify({
          collectionId: collection.id,
          businessId: merchant.businessId,
          livemode: false,
          report: { kind: 'failed', reason: 'rejected_by_payer' },
        }),
      ]);
      const failed = await waitFor(
        () => read(merchant, collection.id),
        (current) => current.status === 'failed',
      );
      expect(failed).toMatchObject({ failureReason: 'rejected_by_payer', amountReceived: null, settlement: null });
      const [event] = await eventsOf(server, merchant.businessId, 'collection.failed');
      expect(event.data).toEqual({ livemode: false, object: failed });
      const ctx = RequestContext.system(db(), 'rail-callback', merchant.businessId, Mode.TEST);
      await expect(
        server.runtime.core.collections.applyRailReport(ctx, collection.id, { kind: 'settled', amount: 5_000n }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(await settlementsOf(collection.id)).toBe(0);
      expect(await walletBalance(server, merchant.businessId, 'USDC')).toBe(0n);
    });

    test('a funds-detected report racing a settlement that commits first changes nothing (never a conflict)', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ngBank());
      const ctx = RequestContext.system(db(), 'rail-callback', merchant.businessId, Mode.TEST);
      const settling = db().createQueryRunner();
      await settling.connect();
      try {
        await settling.startTransaction();
        // Stands in for the settlement's transaction: it holds the row, moved on, not yet committed.
        await settling.query(`UPDATE collections SET status = 'completed' WHERE id = $1`, [collection.id]);
        const late = server.runtime.core.collections.applyRailReport(ctx, collection.id, {
          kind: 'received',
          amount: 5_000_000n,
        });
        // The report read "pending" and its conditional UPDATE now waits for the row.
        await waitFor(
          async () =>
            Number(
              (
                await db().query(
                  `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'UPDATE collections SET status = $4%'`,
                )
              )[0].n,
            ),
          (waiting) => waiting >= 1,
        );
        await settling.commitTransaction();
        await expect(late).resolves.toBeNull();
      } finally {
        await settling.release();
      }
      expect((await read(merchant, collection.id)).status).toBe('completed');
      expect(await eventsOf(server, merchant.businessId, 'collection.processing')).toEqual([]);
    });

    test('a settlement whose journal posting fails changes nothing (status, event and credit commit together); the next report credits once', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ngBank());
      const ctx = RequestContext.system(db(), 'rail-callback', merchant.businessId, Mode.TEST);
      await db()
        .query(`CREATE FUNCTION refuse_posting_of_${collection.id.replace(/-/g, '')}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.reference_id = '${collection.id}' THEN RAISE EXCEPTION 'posting refused by the test'; END IF; RETURN NEW; END $$`);
      await db().query(
        `CREATE TRIGGER refuse_posting BEFORE INSERT ON journal_transactions FOR EACH ROW EXECUTE FUNCTION refuse_posting_of_${collection.id.replace(/-/g, '')}()`,
      );
      try {
        await expect(
          server.runtime.core.collections.applyRailReport(ctx, collection.id, { kind: 'settled', amount: 5_000_000n }),
        ).rejects.toThrow(/posting refused by the test/);
      } finally {
        await db().query(`DROP TRIGGER refuse_posting ON journal_transactions`);
      }
      expect(await read(merchant, collection.id)).toMatchObject({
        status: 'pending',
        settlement: null,
        amountReceived: null,
      });
      expect(await eventsOf(server, merchant.businessId, 'collection.completed')).toEqual([]);
      expect(await walletBalance(server, merchant.businessId, 'USDC')).toBe(0n);
      expect(
        await server.runtime.core.collections.applyRailReport(ctx, collection.id, {
          kind: 'settled',
          amount: 5_000_000n,
        }),
      ).not.toBeNull();
      expect(await settlementsOf(collection.id)).toBe(1);
      expect(await walletBalance(server, merchant.businessId, 'USDC')).toBe(31_775_535n);
      expect(await eventsOf(server, merchant.businessId, 'collection.completed')).toHaveLength(1);
      await expectLedgerBalanced(server);
    });

    test('3 concurrent sandbox payments of one collection complete it once and credit the wallet once', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ghMomo());
      const responses = await Promise.all([1, 2, 3].map(() => pay(merchant, collection.id, 5_000)));
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
      expect(responses.every((response) => response.body.data.status === 'completed')).toBe(true);
      expect(await settlementsOf(collection.id)).toBe(1);
      expect(await walletBalance(server, merchant.businessId, 'USDC')).toBe(3_223_930n);
      expect(await eventsOf(server, merchant.businessId, 'collection.processing')).toHaveLength(1);
      expect(await eventsOf(server, merchant.businessId, 'collection.completed')).toHaveLength(1);
    });

    test('expiry by the test clock: advancing past expiresAt expires a pending collection (collection.expired); before it, nothing; an expired one cannot be paid', async () => {
      const merchant = await server.signUp();
      const collection = await created(merchant, ngBank({ expiresInSeconds: 600 }));
      const paid = await created(merchant, ngBank({ expiresInSeconds: 600 }));
      await pay(merchant, paid.id, 5_000_000);
      // A minute short of expiresAt: the wall clock also moves between the create and the read, and
      // on a busy machine that can be seconds (599 s then 2 s failed under load).
      expect((await advanceClock(merchant, 540)).status).toBe(200);
      expect((await read(merchant, collection.id)).status).toBe('pending');
      expect((await advanceClock(merchant, 61)).status).toBe(200);
      expect((await read(merchant, collection.id)).status).toBe('expired');
      expect((await read(merchant, paid.id)).status).toBe('completed');
      const [expired] = await eventsOf(server, merchant.businessId, 'collection.expired');
      expect(expired.data).toEqual({ livemode: false, object: await read(merchant, collection.id) });
      const late = await pay(merchant, collection.id, 5_000_000);
      expect(late.status).toBe(409);
      // Another business's clock is its own.
      const other = await server.signUp();
      const untouched = await created(other, ngBank({ expiresInSeconds: 600 }));
      await advanceClock(merchant, 3600);
      expect((await read(other, untouched.id)).status).toBe('pending');
    });

    test('the expiry job is due at expiresAt on the business clock (wall time less the offset) and re-checks the clock when it runs', async () => {
      const merchant = await server.signUp();
      await advanceClock(merchant, 7200);
      const collection = await created(merchant, ngBank({ expiresInSeconds: 900 }));
      // expiresAt is on the business's clock, two hours ahead; the job waits on the wall clock.
      expect(Date.parse(collection.expiresAt) - Date.now()).toBeGreaterThan(7200_000 + 800_000);
      const [job] = await db().query(`SELECT task_identifier, run_at FROM graphile_worker.jobs WHERE key = $1`, [
        `expire_collection:${collection.id}`,
      ]);
      expect(job.task_identifier).toBe('expire_collection');
      expect(Math.abs(new Date(job.run_at).getTime() - (Date.parse(collection.expiresAt) - 7200_000))).toBeLessThan(
        1000,
      );
      // The job run early (before the clock reaches expiresAt) leaves it pending.
      const ctx = RequestContext.system(db(), 'collections', merchant.businessId, Mode.TEST);
      expect(await server.runtime.core.collections.expireDue(ctx, collection.id)).toBeNull();
      expect((await read(merchant, collection.id)).status).toBe('pending');
      // Once the business's clock is past expiresAt, the job (run by the worker) expires it.
      await db().query(`UPDATE sandbox_clocks SET offset_seconds = offset_seconds + 1000 WHERE business_id = $1`, [
        merchant.businessId,
      ]);
      await db().query(
        `SELECT graphile_worker.add_job('expire_collection', $1::json, run_at := now(), job_key := $2)`,
        [
          JSON.stringify({ collectionId: collection.id, businessId: merchant.businessId, livemode: false }),
          `expire_collection:${collection.id}`,
        ],
      );
      await waitFor(
        () => read(merchant, collection.id),
        (current) => current.status === 'expired',
      );
      expect(await eventsOf(server, merchant.businessId, 'collection.expired')).toHaveLength(1);
    });
  });

  describe('events', () => {
    const receiver = new Receiver();
    beforeAll(async () => receiver.start());
    afterAll(async () => receiver.close());

    test('every collection.* event reaches the webhook receiver signed, as { livemode, object } with object equal to the read shape at that moment', async () => {
      const merchant = await server.signUp();
      const path = `/collections-${crypto.randomBytes(3).toString('hex')}`;
      const configured = await server.request('PUT', '/api/v1/business/config', {
        headers: apiKey(merchant),
        body: { webhookUrl: receiver.url(path) },
      });
      expect(configured.status).toBe(200);

      const completing = await created(merchant, ngBank());
      const failing = await created(merchant, ghMomo());
      const expiring = await created(merchant, ngBank({ expiresInSeconds: 300 }));
      const completed = (await pay(merchant, completing.id, 5_000_000)).body.data;
      const failed = (await pay(merchant, failing.id, 4_000)).body.data;
      await advanceClock(merchant, 301);
      const expired = await read(merchant, expiring.id);
      expect(expired.status).toBe('expired');

      const processingOf = (done: any, failedOrSettled: Record<string, unknown>) => ({
        ...done,
        status: 'processing',
        updatedAt: expect.stringMatching(ISO),
        ...failedOrSettled,
      });
      const expected: Array<[string, any]> = [
        ['collection.created', completing],
        ['collection.processing', processingOf(completed, { settlement: null })],
        ['collection.completed', completed],
        ['collection.created', failing],
        ['collection.processing', processingOf(failed, { failureReason: null })],
        ['collection.failed', failed],
        ['collection.created', expiring],
        ['collection.expired', expired],
      ];
      const requests = () =>
        receiver.at(path).filter((request) => String(request.headers['x-service-event']).startsWith('collection.'));
      await waitFor(
        async () => requests().length,
        (count) => count >= expected.length,
      );
      await deliveriesAtRest(server, merchant.businessId); // anything sent twice has arrived by now
      const received = requests();
      expect(received).toHaveLength(expected.length);
      const bodies = received.map((request) => {
        expect(verifiesServiceSignature(request, merchant.apiSecret)).toBe(true);
        const body = JSON.parse(request.body);
        expect(Object.keys(body)).toEqual(['event', 'timestamp', 'data']);
        expect(request.headers['x-service-event']).toBe(body.event);
        return body;
      });
      for (const [type, object] of expected) {
        const matching = bodies.filter((body) => body.event === type && body.data.object.id === object.id);
        expect([type, matching.map((body) => body.data)]).toEqual([type, [{ livemode: false, object }]]);
      }
    });
  });

  describe('hosted checkout', () => {
    const sessionWith = async (merchant: TestMerchant, body: Record<string, unknown>) =>
      server.request('POST', '/api/v1/business/checkout/session', {
        headers: apiKey(merchant),
        body: { successUrl: 'https://shop.example.com/thanks', ...body },
      });
    const tokenOf = (session: { checkoutUrl: string }) => new URL(session.checkoutUrl).pathname.split('/').pop();

    test('a session offering bank transfer opens a collection with source "session" from the page; paying it completes the session', async () => {
      const merchant = await server.signUp();
      const response = await sessionWith(merchant, { amount: '50000.00', currency: 'ngn', paymentMethods: ['bank'] });
      expect(response.status).toBe(201);
      const session = response.body.data;
      expect(session).toMatchObject({ paymentMethods: ['bank'], collectionId: null });
      const token = tokenOf(session);
      const page = await hostedPage(server, 'GET', `/checkout/${token}`);
      expect(page.status).toBe(200);
      expect(page.body).toContain('id="pay-bank"');
      expect(page.body).not.toContain('id="number"');

      const started = await hostedPage(server, 'POST', `/checkout/${token}/collection`, { rail: 'bank' });
      expect(started.status).toBe(303);
      expect(started.location).toMatch(/^\/collect\/col_test_/);
      // The page again (a second click) answers the same collection.
      const again = await hostedPage(server, 'POST', `/checkout/${token}/collection`, { rail: 'bank' });
      expect(again.location).toBe(started.location);

      const list = (await server.request('GET', COLLECTIONS, { headers: apiKey(merchant) })).body.data;
      expect(list.total).toBe(1);
      const collection = list.items[0];
      expect(collection).toMatchObject({
        source: 'session',
        status: 'pending',
        amount: 5_000_000,
        currency: 'ngn',
        country: 'NG',
        instructions: { kind: 'bank_transfer' },
      });

      await pay(merchant, collection.id, 5_000_000);
      const read = (
        await server.request('GET', `/api/v1/business/checkout/sessions/${session.id}`, { headers: apiKey(merchant) })
      ).body.data;
      expect(read).toMatchObject({ status: 'COMPLETED', collectionId: collection.id, paymentId: null });
      const [completedEvent] = await eventsOf(server, merchant.businessId, 'payment_link.session.completed');
      expect(completedEvent.data).toMatchObject({
        sessionId: session.id,
        collectionId: collection.id,
        paymentId: null,
      });
      const landing = await hostedPage(server, 'GET', started.location!);
      expect(landing.status).toBe(303);
      expect(landing.location).toBe(`https://shop.example.com/thanks?session_id=${session.id}`);
    });

    test("a collection opened on the checkout page after the test clock advanced expires on the business's clock, at most an hour on, and can be paid", async () => {
      const merchant = await server.signUp();
      expect((await advanceClock(merchant, 7200)).status).toBe(200);
      const session = (await sessionWith(merchant, { amount: '50000.00', currency: 'ngn', paymentMethods: ['bank'] }))
        .body.data;
      const started = await hostedPage(server, 'POST', `/checkout/${tokenOf(session)}/collection`, { rail: 'bank' });
      expect(started.status).toBe(303);
      const collection = (await server.request('GET', COLLECTIONS, { headers: apiKey(merchant) })).body.data.items[0];
      const clock = (await server.request('GET', '/api/v1/business/sandbox/clock', { headers: apiKey(merchant) })).body
        .data;
      const lifetime = Date.parse(collection.expiresAt) - Date.parse(clock.now);
      expect(lifetime).toBeGreaterThan(60_000);
      expect(lifetime).toBeLessThanOrEqual(3600_000);
      const page = await hostedPage(server, 'GET', started.location!);
      expect(page.body).toContain('data-status="pending"');
      const paid = await pay(merchant, collection.id, 5_000_000);
      expect(paid.status).toBe(200);
      expect(paid.body.data.status).toBe('completed');
    });

    test("mobile money on the page needs the phone and network (refusals shown on their fields in a payer's words); a session may only offer rails that collect its currency", async () => {
      const merchant = await server.signUp();
      const session = (
        await sessionWith(merchant, { amount: '50.00', currency: 'ghs', paymentMethods: ['card', 'momo'] })
      ).body.data;
      const token = tokenOf(session);
      const page = (await hostedPage(server, 'GET', `/checkout/${token}`)).body;
      expect(page).toContain('id="number"');
      // The networks are offered by name; the value sent is the network id.
      expect(page).toContain('<option value="vodafone-gh">Vodafone Cash</option>');
      const missing = await hostedPage(server, 'POST', `/checkout/${token}/collection`, { rail: 'momo' });
      expect(missing.status).toBe(400);
      // The domain's refusal (customer.phone, customer.networkId) shows on the page's own fields, in a payer's words.
      expect(missing.body).toMatch(
        /<input id="momo-phone" [^>]*aria-invalid="true" aria-describedby="momo-phone-error"[^>]* autofocus>/,
      );
      expect(missing.body).toContain(
        '<div class="field-error" id="momo-phone-error">Enter the phone number of your mobile money account</div>',
      );
      expect(missing.body).toContain(
        '<div class="field-error" id="momo-network-error">Choose the mobile network of your phone number</div>',
      );
      expect(missing.body).not.toContain('is required for mobile money');
      const badPhone = await hostedPage(server, 'POST', `/checkout/${token}/collection`, {
        rail: 'momo',
        phone: '12',
        networkId: 'vodafone-gh',
      });
      expect(badPhone.body).toContain(
        'id="momo-phone-error">Enter your mobile money number with its country code, like +233 24 123 4567</div>',
      );
      expect(badPhone.body).toContain('<option value="vodafone-gh" selected>Vodafone Cash</option>');
      expect(await countOf(merchant.businessId)).toBe(0);
      const started = await hostedPage(server, 'POST', `/checkout/${token}/collection`, {
        rail: 'momo',
        phone: '+233241234567',
        networkId: 'vodafone-gh',
      });
      expect(started.status).toBe(303);
      const collection = (await server.request('GET', COLLECTIONS, { headers: apiKey(merchant) })).body.data.items[0];
      expect(collection).toMatchObject({
        source: 'session',
        channel: { networkId: 'vodafone-gh', channelId: 'sbx_ch_gh_momo' },
        instructions: { kind: 'momo_prompt', phone: '+233241234567' },
      });

      const refused = await sessionWith(merchant, { amount: '50.00', currency: 'usd', paymentMethods: ['bank'] });
      expectFieldError(refused, 'paymentMethods');
      expectFieldError(
        await sessionWith(merchant, { amount: '50.00', currency: 'ngn', paymentMethods: ['cash'] }),
        'paymentMethods.0',
      );
    });
  });
});
