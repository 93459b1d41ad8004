import crypto from 'node:crypto';
import { LedgerService } from '../src/domain/ledger/ledger.service';
import { RequestContext } from '../src/domain/shared/context';
import { TestMerchant, TestServer, sleep, startDeliveringServer, waitFor } from './support/harness';
import { PAYOUTS, apiKey, bankDetails, createPayout, createRecipient, dashboard, fundWallet } from './support/payouts';
import { eventsOf, expectLedgerBalanced, walletBalance } from './support/payments';
import { Receiver, deliveriesAtRest, verifiesServiceSignature } from './support/receiver';

const RECIPIENTS = `${PAYOUTS}/recipients`;
const BATCHES = `${PAYOUTS}/batches`;
const ADVANCE = (id: string) => `/api/v1/business/sandbox/payouts/${id}/advance`;

const RECIPIENT_FIELDS = [
  'id',
  'businessId',
  'label',
  'rail',
  'detailsMasked',
  'createdAt',
  'updatedAt',
  'screenedAt',
  'archivedAt',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const mobileDetails = (overrides: Record<string, unknown> = {}) => ({
  rail: 'MOBILE_MONEY',
  country: 'UG',
  currency: 'UGX',
  networkId: 'mtn-ug',
  phone: '+256771234567',
  accountName: 'Kato Musoke',
  ...overrides,
});
const cryptoDetails = (overrides: Record<string, unknown> = {}) => ({
  rail: 'CRYPTO',
  chain: 'ethereum',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  currency: 'USDC',
  ...overrides,
});

/** Payouts over REST (design section 8; interface document: Payout recipient, Business payout, payout.* events). */
describe('Payouts', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer({ payoutSandboxSettleMs: 200 });
  });
  afterAll(async () => server.close());

  const db = () => server.runtime.dataSource;
  const countOf = async (table: string, businessId: string) =>
    Number((await db().query(`SELECT count(*) AS n FROM ${table} WHERE business_id = $1`, [businessId]))[0].n);
  const reversalsOf = async (payoutId: string) =>
    Number(
      (
        await db().query(
          `SELECT count(*) AS n FROM journal_transactions WHERE reference_type = 'payout' AND reference_id = $1 AND kind = 'payout_reverse'`,
          [payoutId],
        )
      )[0].n,
    );
  const read = (merchant: TestMerchant, id: string) =>
    server.request('GET', `${PAYOUTS}/${id}`, { headers: apiKey(merchant) });
  const untilStatus = (
    merchant: TestMerchant,
    id: string,
    status: string,
    done = (body: any) => body.data.status === status,
  ) =>
    waitFor(
      () => read(merchant, id),
      (response) => done(response.body),
    );
  const advance = (merchant: TestMerchant, id: string, body: Record<string, unknown>) =>
    server.request('POST', ADVANCE(id), { headers: apiKey(merchant), body });
  const fundedMerchant = async (amount = '100.00') => {
    const merchant = await server.signUp();
    await fundWallet(server, merchant, amount);
    return merchant;
  };
  /** A recipient whose account number ends in `ending` (the sandbox rail's magic values), and a payout to it. */
  const payoutTo = async (
    merchant: TestMerchant,
    ending: string,
    amount = '10.00',
    extra: Record<string, unknown> = {},
  ) => {
    const recipient = await createRecipient(server, merchant, bankDetails(ending));
    const response = await createPayout(server, merchant, { recipientId: recipient.id, amount, ...extra });
    if (response.status !== 201) throw new Error(`payout failed: ${JSON.stringify(response.body)}`);
    return response.body.data;
  };
  /**
   * A payout made after the one a test watches, by another merchant, dispatched and settled: the
   * worker has had its turn at everything queued before it, so a payout that must not be dispatched
   * would have been by now.
   */
  const laterPayoutSettled = async () => {
    const bystander = await fundedMerchant();
    const later = await payoutTo(bystander, '6789');
    expect((await untilStatus(bystander, later.id, 'SETTLED')).body.data.status).toBe('SETTLED');
  };
  const setReviewThreshold = (businessId: string, usdMinor: bigint | null) =>
    server.runtime.core.identity.businesses.updateAsOperator(RequestContext.system(db(), 'test', businessId), {
      payoutReviewThresholdUsdMinor: usdMinor,
    });
  /** Status 400 VALIDATION_ERROR naming `field`. */
  const expectFieldError = (response: { status: number; body: any }, field: string) => {
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 400 } });
    expect(Object.keys(response.body.error.errors)).toContain(field);
  };

  describe('recipients', () => {
    test('a recipient is created as documented: { success, data: Recipient }, the account number masked to its last 4', async () => {
      const merchant = await server.signUp();
      const response = await server.request('POST', RECIPIENTS, {
        headers: apiKey(merchant),
        body: { label: 'Supplier', details: bankDetails('6789') },
      });
      expect(response.status).toBe(201);
      expect(Object.keys(response.body)).toEqual(['success', 'data']);
      expect(response.body.success).toBe(true);
      const recipient = response.body.data;
      expect(Object.keys(recipient).sort()).toEqual([...RECIPIENT_FIELDS].sort());
      expect(recipient).toEqual({
        id: expect.any(String),
        businessId: merchant.businessId,
        label: 'Supplier',
        rail: 'LOCAL_BANK',
        detailsMasked: {
          rail: 'LOCAL_BANK',
          country: 'NG',
          currency: 'ngn',
          bankCode: '058',
          bankName: 'GTBank',
          accountNumber: '****6789',
          accountName: 'Ada Obi',
        },
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        screenedAt: null,
        archivedAt: null,
      });
      expect(JSON.stringify(response.body)).not.toContain('0123456789');
      const [row] = await db().query(`SELECT row_to_json(r)::text AS json FROM payout_recipients r WHERE id = $1`, [
        recipient.id,
      ]);
      expect(row.json).not.toContain('0123456789');
      const fetched = await server.request('GET', `${RECIPIENTS}/${recipient.id}`, { headers: apiKey(merchant) });
      expect(fetched.body.data).toEqual(recipient);
    });

    test('phones and crypto addresses are masked to their last 4 characters too', async () => {
      const merchant = await server.signUp();
      const mobile = await server.request('POST', RECIPIENTS, {
        headers: apiKey(merchant),
        body: { label: 'Agent', details: mobileDetails() },
      });
      expect(mobile.status).toBe(201);
      expect(mobile.body.data.detailsMasked).toEqual({
        rail: 'MOBILE_MONEY',
        country: 'UG',
        currency: 'ugx',
        networkId: 'mtn-ug',
        phone: '****4567',
        accountName: 'Kato Musoke',
      });
      const wallet = await server.request('POST', RECIPIENTS, {
        headers: apiKey(merchant),
        body: { label: 'Treasury', details: cryptoDetails() },
      });
      expect(wallet.status).toBe(201);
      expect(wallet.body.data.detailsMasked).toEqual({
        rail: 'CRYPTO',
        chain: 'ethereum',
        currency: 'usdc',
        address: '****9ee7',
      });
      expect(JSON.stringify([mobile.body, wallet.body])).not.toMatch(/771234567|52908400098527886/i);
    });

    test('the same destination returns the existing recipient with 200, even under 20 concurrent identical creates', async () => {
      const merchant = await server.signUp();
      const body = { label: 'Supplier', details: bankDetails('5555') };
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => server.request('POST', RECIPIENTS, { headers: apiKey(merchant), body })),
      );
      expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
      expect(responses.filter((response) => response.status === 200)).toHaveLength(19);
      expect(new Set(responses.map((response) => response.body.data.id)).size).toBe(1);
      expect(await countOf('payout_recipients', merchant.businessId)).toBe(1);

      const again = await server.request('POST', RECIPIENTS, {
        headers: apiKey(merchant),
        body: { label: 'Another label', details: bankDetails('5555', { accountName: 'Someone Else' }) },
      });
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({ id: responses[0].body.data.id, label: 'Supplier' });
      expect(await countOf('payout_recipients', merchant.businessId)).toBe(1);
    });

    test('account details are normalised: spaces and dashes in an account number, phone spacing and address case are the same destination', async () => {
      const merchant = await server.signUp();
      const bank = await createRecipient(server, merchant, bankDetails('5678'));
      const spaced = await server.request('POST', RECIPIENTS, {
        headers: apiKey(merchant),
        body: { label: 'Supplier', details: bankDetails('', { accountNumber: ' 0123-45 5678 ' }) },
      });
      expect(spaced.status).toBe(200);
      expect(spaced.body.data.id).toBe(bank.id);
      const phone = await createRecipient(server, merchant, mobileDetails());
      const spacedPhone = await server.request('POST', RECIPIENTS, {
        headers: apiKey(merchant),
        body: { label: 'Agent', details: mobileDetails({ phone: '256 771-234 567' }) },
      });
      expect([spacedPhone.status, spacedPhone.body.data.id]).toEqual([200, phone.id]);
      const address = await createRecipient(server, merchant, cryptoDetails());
      const lower = await server.request('POST', RECIPIENTS, {
        headers: apiKey(merchant),
        body: {
          label: 'T',
          details: cryptoDetails({ address: '0x52908400098527886e0f7030069857d2e4169ee7', chain: 'Ethereum' }),
        },
      });
      expect([lower.status, lower.body.data.id]).toEqual([200, address.id]);
      expect(await countOf('payout_recipients', merchant.businessId)).toBe(3);
    });

    test.each([
      ['the label', { label: 'Sanctioned Trading Ltd', details: bankDetails('6789') }],
      [
        "the account holder's name (any case)",
        { label: 'Supplier', details: bankDetails('6789', { accountName: 'ACME sanctioned co' }) },
      ],
    ])(
      'a dashboard create with the word SANCTIONED in %s is refused with 403 SANCTIONS_MATCH and stores nothing',
      async (_where, body) => {
        const merchant = await server.signUp();
        const response = await server.request('POST', RECIPIENTS, { headers: dashboard(merchant), body });
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ success: false, error: { code: 'SANCTIONS_MATCH', statusCode: 403 } });
        expect(await countOf('payout_recipients', merchant.businessId)).toBe(0);
      },
    );

    test('a clean dashboard create is screened (screenedAt set); an API-key create is never screened nor refused (screenedAt null)', async () => {
      const merchant = await server.signUp();
      const clean = await server.request('POST', RECIPIENTS, {
        headers: dashboard(merchant),
        body: { label: 'Supplier', details: bankDetails('6789') },
      });
      expect(clean.status).toBe(201);
      expect(clean.body.data.screenedAt).toMatch(ISO);
      const byKey = await server.request('POST', RECIPIENTS, {
        headers: apiKey(merchant),
        body: { label: 'SANCTIONED partner', details: bankDetails('9876', { accountName: 'Sanctioned Person' }) },
      });
      expect(byKey.status).toBe(201);
      expect(byKey.body.data).toMatchObject({ label: 'SANCTIONED partner', screenedAt: null });
      expect(await countOf('payout_recipients', merchant.businessId)).toBe(2);
    });

    test('a dashboard create of a destination an API key stored under a sanctioned name is 403 SANCTIONS_MATCH and leaves it unscreened; a clean stored one is screened', async () => {
      const merchant = await server.signUp();
      const stored = await server.request('POST', RECIPIENTS, {
        headers: apiKey(merchant),
        body: { label: 'SANCTIONED partner', details: bankDetails('9876', { accountName: 'Sanctioned Person' }) },
      });
      expect([stored.status, stored.body.data.screenedAt]).toEqual([201, null]);
      // The request's own names are clean; the recipient it would answer with is not.
      const refused = await server.request('POST', RECIPIENTS, {
        headers: dashboard(merchant),
        body: { label: 'Supplier', details: bankDetails('9876') },
      });
      expect([refused.status, refused.body.error?.code]).toEqual([403, 'SANCTIONS_MATCH']);
      expect(
        (await server.request('GET', `${RECIPIENTS}/${stored.body.data.id}`, { headers: apiKey(merchant) })).body.data,
      ).toEqual(stored.body.data);

      const clean = (
        await server.request('POST', RECIPIENTS, {
          headers: apiKey(merchant),
          body: { label: 'Supplier', details: bankDetails('9877') },
        })
      ).body.data;
      const again = await server.request('POST', RECIPIENTS, {
        headers: dashboard(merchant),
        body: { label: 'Main supplier', details: bankDetails('9877') },
      });
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({
        id: clean.id,
        label: 'Supplier',
        screenedAt: expect.stringMatching(ISO),
      });
      expect(await countOf('payout_recipients', merchant.businessId)).toBe(2);
    });

    test('the recipient list is { items, total, skip, take }, newest first; archived recipients are listed only with includeArchived', async () => {
      const merchant = await server.signUp();
      const ids: string[] = [];
      for (const ending of ['1001', '1002', '1003'])
        ids.push((await createRecipient(server, merchant, bankDetails(ending))).id);
      const archived = await server.request('DELETE', `${RECIPIENTS}/${ids[1]}`, { headers: apiKey(merchant) });
      expect(archived.status).toBe(200);
      expect(archived.body.data).toMatchObject({ id: ids[1], archivedAt: expect.stringMatching(ISO) });

      const listed = await server.request('GET', RECIPIENTS, { headers: apiKey(merchant) });
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual({
        items: [expect.objectContaining({ id: ids[2] }), expect.objectContaining({ id: ids[0] })],
        total: 2,
        skip: 0,
        take: 20,
      });
      const all = await server.request('GET', `${RECIPIENTS}?includeArchived=true&skip=1&take=1`, {
        headers: apiKey(merchant),
      });
      expect(all.body.data).toEqual({
        items: [expect.objectContaining({ id: ids[1], archivedAt: archived.body.data.archivedAt })],
        total: 3,
        skip: 1,
        take: 1,
      });
    });

    test('an archived recipient still reads but takes no payouts (404), and archiving again changes nothing', async () => {
      const merchant = await fundedMerchant();
      const recipient = await createRecipient(server, merchant);
      const first = await server.request('DELETE', `${RECIPIENTS}/${recipient.id}`, { headers: apiKey(merchant) });
      const again = await server.request('DELETE', `${RECIPIENTS}/${recipient.id}`, { headers: apiKey(merchant) });
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(first.body.data);
      const fetched = await server.request('GET', `${RECIPIENTS}/${recipient.id}`, { headers: apiKey(merchant) });
      expect(fetched.body.data.archivedAt).toBe(first.body.data.archivedAt);

      const payout = await createPayout(server, merchant, { recipientId: recipient.id, amount: '1.00' });
      expect(payout.status).toBe(404);
      expect(payout.body.error.code).toBe('NOT_FOUND');
      expect(await countOf('payouts', merchant.businessId)).toBe(0);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);
    });

    test("another business's recipient is 404 on read, archive and payout", async () => {
      const owner = await server.signUp();
      const stranger = await fundedMerchant();
      const recipient = await createRecipient(server, owner);
      for (const [method, path] of [
        ['GET', `${RECIPIENTS}/${recipient.id}`],
        ['DELETE', `${RECIPIENTS}/${recipient.id}`],
      ] as const) {
        const response = await server.request(method, path, { headers: apiKey(stranger) });
        expect([method, response.status, response.body.error.code]).toEqual([method, 404, 'NOT_FOUND']);
      }
      const payout = await createPayout(server, stranger, { recipientId: recipient.id, amount: '1.00' });
      expect(payout.status).toBe(404);
      expect((await server.request('GET', RECIPIENTS, { headers: apiKey(stranger) })).body.data.total).toBe(0);
      expect(
        (await server.request('GET', `${RECIPIENTS}/${recipient.id}`, { headers: apiKey(owner) })).body.data.archivedAt,
      ).toBeNull();
      expect(await countOf('payouts', stranger.businessId)).toBe(0);
    });

    test('test and live mode are apart: a test recipient is 404 with the live key; live mode has no rail, so live quotes and payouts are 422', async () => {
      const merchant = await fundedMerchant();
      const live = { 'x-api-key': await server.liveKeyOf(merchant) };
      const testRecipient = await createRecipient(server, merchant);
      expect((await server.request('GET', `${RECIPIENTS}/${testRecipient.id}`, { headers: live })).status).toBe(404);
      expect((await server.request('GET', RECIPIENTS, { headers: live })).body.data.total).toBe(0);

      // The same destination in live mode is a recipient of its own (API keys are never screened).
      const liveRecipient = await server.request('POST', RECIPIENTS, {
        headers: live,
        body: { label: 'Supplier', details: bankDetails() },
      });
      expect(liveRecipient.status).toBe(201);
      expect(liveRecipient.body.data.id).not.toBe(testRecipient.id);
      expect(
        (await server.request('GET', `${RECIPIENTS}/${liveRecipient.body.data.id}`, { headers: apiKey(merchant) }))
          .status,
      ).toBe(404);

      const payout = await server.request('POST', PAYOUTS, {
        headers: live,
        body: { recipientId: liveRecipient.body.data.id, amount: '1.00', currency: 'USD' },
      });
      expect(payout.status).toBe(422);
      expect(payout.body.error).toMatchObject({
        code: 'UNPROCESSABLE',
        message: expect.stringMatching(/No payout rail is configured for live mode/),
      });
      const quote = await server.request('POST', `${PAYOUTS}/quote`, {
        headers: live,
        body: { amount: '1.00', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' },
      });
      expect(quote.status).toBe(422);
      expect(await countOf('payouts', merchant.businessId)).toBe(0);

      const testPayout = await payoutTo(merchant, '3333', '1.00');
      expect((await server.request('GET', `${PAYOUTS}/${testPayout.id}`, { headers: live })).status).toBe(404);
      expect((await server.request('POST', `${PAYOUTS}/${testPayout.id}/cancel`, { headers: live })).status).toBe(404);
      expect((await server.request('GET', PAYOUTS, { headers: live })).body.data.total).toBe(0);
    });
  });

  describe('quotes', () => {
    const quote = (merchant: TestMerchant, body: Record<string, unknown>) =>
      server.request('POST', `${PAYOUTS}/quote`, { headers: apiKey(merchant), body });

    test('a quote answers id, amount, currency, dstAmount, rate, serviceFee, destinationCurrency, country and expiresAt as strings, valid 5 minutes', async () => {
      const merchant = await server.signUp();
      const before = Date.now();
      const response = await quote(merchant, {
        amount: '10.00',
        currency: 'USD',
        destinationCurrency: 'NGN',
        country: 'NG',
        rail: 'LOCAL_BANK',
      });
      expect(response.status).toBe(201);
      const data = response.body.data;
      expect(data).toEqual({
        id: expect.any(String),
        amount: '10.00',
        currency: 'usd',
        dstAmount: '15422.50',
        rate: '1542.25000000',
        serviceFee: '0.10',
        serviceFeeCurrency: 'usd',
        destinationCurrency: 'ngn',
        country: 'NG',
        rail: 'LOCAL_BANK',
        expiresAt: expect.stringMatching(ISO),
      });
      for (const key of [
        'id',
        'amount',
        'currency',
        'dstAmount',
        'rate',
        'serviceFee',
        'serviceFeeCurrency',
        'destinationCurrency',
        'country',
        'expiresAt',
      ])
        expect(typeof data[key]).toBe('string');
      const ttl = Date.parse(data.expiresAt) - before;
      expect(ttl).toBeGreaterThan(299_000);
      expect(ttl).toBeLessThanOrEqual(301_000);
    });

    test('amount rule (docs/payouts.md): a decimal of the wallet currency in major units, a JSON number or a string alike; more decimals than the currency has is 400 on amount', async () => {
      const merchant = await server.signUp();
      const body = { currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' };
      const asNumber = await quote(merchant, { ...body, amount: 10.5 });
      const asString = await quote(merchant, { ...body, amount: '10.50' });
      expect(asNumber.status).toBe(201);
      expect(asString.status).toBe(201);
      const terms = (data: Record<string, unknown>) => ({
        amount: data.amount,
        dstAmount: data.dstAmount,
        serviceFee: data.serviceFee,
      });
      expect(terms(asNumber.body.data)).toEqual(terms(asString.body.data));
      expect(asNumber.body.data.amount).toBe('10.50');
      for (const amount of ['10.505', 10.505]) expectFieldError(await quote(merchant, { ...body, amount }), 'amount');
    });

    // Mid rates per USD (sandbox): NGN 1550, UGX 3750, XOF 605, USDC 1, EUR 0.92, KES 129; spread 0.5%, rate truncated to 8
    // decimals; dstAmount rounded down to the destination's minor unit; fee 1% / 1.5% / 0.5% rounded up to the source's.
    test.each([
      [
        'USD → NGN by bank',
        { amount: '10.00', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' },
        { rate: '1542.25000000', dstAmount: '15422.50', serviceFee: '0.10' },
      ],
      [
        'USD → UGX (no minor unit) by mobile money',
        { amount: '10.01', currency: 'USD', destinationCurrency: 'UGX', country: 'UG', rail: 'MOBILE_MONEY' },
        { rate: '3731.25000000', dstAmount: '37349', serviceFee: '0.16' },
      ],
      [
        'USD → XOF (no minor unit) by mobile money',
        { amount: '1.00', currency: 'USD', destinationCurrency: 'XOF', country: 'SN', rail: 'MOBILE_MONEY' },
        { rate: '601.97500000', dstAmount: '601', serviceFee: '0.02' },
      ],
      [
        'USD → USDC (6 decimals) by crypto, no country',
        { amount: '12.34', currency: 'USD', destinationCurrency: 'USDC', rail: 'CRYPTO' },
        { rate: '0.99500000', dstAmount: '12.278300', serviceFee: '0.07', country: '' },
      ],
      [
        'EUR → NGN (a cross rate)',
        { amount: '100.00', currency: 'EUR', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' },
        { rate: '1676.35869564', dstAmount: '167635.86', serviceFee: '1.00' },
      ],
      [
        'UGX → KES (a source without minor unit: the fee rounds up to a whole shilling)',
        { amount: '1234', currency: 'UGX', destinationCurrency: 'KES', country: 'KE', rail: 'LOCAL_BANK' },
        { rate: '0.03422800', dstAmount: '42.23', serviceFee: '13' },
      ],
    ])('%s is exact', async (_name, body, expected) => {
      const merchant = await server.signUp();
      const response = await quote(merchant, body);
      expect(response.status).toBe(201);
      expect(response.body.data).toMatchObject({
        amount: body.amount,
        currency: body.currency.toLowerCase(),
        destinationCurrency: body.destinationCurrency.toLowerCase(),
        ...expected,
      });
      // the fee is in the source (wallet) currency, never the destination's: it says so (issue 27, finding 2)
      expect(response.body.data.serviceFeeCurrency).toBe(body.currency.toLowerCase());
    });

    test('a payout with an expired or unknown quote is a 400 on quoteId and writes nothing', async () => {
      const merchant = await fundedMerchant();
      const recipient = await createRecipient(server, merchant);
      const made = await quote(merchant, {
        amount: '10.00',
        currency: 'USD',
        destinationCurrency: 'NGN',
        country: 'NG',
        rail: 'LOCAL_BANK',
      });
      await db().query(`UPDATE payout_quotes SET expires_at = now() - interval '1 second' WHERE id = $1`, [
        made.body.data.id,
      ]);
      for (const quoteId of [made.body.data.id, crypto.randomUUID(), 'not-a-quote']) {
        const response = await createPayout(server, merchant, { recipientId: recipient.id, amount: '10.00', quoteId });
        expectFieldError(response, 'quoteId');
      }
      expect(await countOf('payouts', merchant.businessId)).toBe(0);
      expect(await countOf('events', merchant.businessId)).toBe(1); // wallet.funded
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);
    });

    test("another business's quote is unknown (400 on quoteId)", async () => {
      const merchant = await fundedMerchant();
      const other = await server.signUp();
      const recipient = await createRecipient(server, merchant);
      const theirs = await quote(other, {
        amount: '10.00',
        currency: 'USD',
        destinationCurrency: 'NGN',
        country: 'NG',
        rail: 'LOCAL_BANK',
      });
      expectFieldError(
        await createPayout(server, merchant, {
          recipientId: recipient.id,
          amount: '10.00',
          quoteId: theirs.body.data.id,
        }),
        'quoteId',
      );
    });

    test("a payout takes its quote's terms; a quote pays one payout only, and one that does not match the payout is refused", async () => {
      const merchant = await fundedMerchant();
      const recipient = await createRecipient(server, merchant, bankDetails('3333'));
      const made = (
        await quote(merchant, {
          amount: '20.00',
          currency: 'USD',
          destinationCurrency: 'NGN',
          country: 'NG',
          rail: 'LOCAL_BANK',
        })
      ).body.data;
      const mismatch = await createPayout(server, merchant, {
        recipientId: recipient.id,
        amount: '19.99',
        quoteId: made.id,
      });
      expectFieldError(mismatch, 'quoteId');

      const first = await createPayout(server, merchant, {
        recipientId: recipient.id,
        amount: '20.00',
        quoteId: made.id,
      });
      expect(first.status).toBe(201);
      expect(first.body.data.quote).toEqual({
        dstAmount: made.dstAmount,
        rate: made.rate,
        serviceFee: made.serviceFee,
        serviceFeeCurrency: 'usd',
        currency: 'ngn',
        country: 'NG',
      });
      const second = await createPayout(server, merchant, {
        recipientId: recipient.id,
        amount: '20.00',
        quoteId: made.id,
      });
      expectFieldError(second, 'quoteId');
      expect(await countOf('payouts', merchant.businessId)).toBe(1);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 2020n);
    });
  });

  describe('payouts', () => {
    test('a payout reads as the documented Business payout, field for field, amounts as strings; GET /v1/business/payouts/{id} answers the same', async () => {
      const merchant = await fundedMerchant();
      const recipient = await createRecipient(server, merchant, bankDetails('3333'));
      const created = await createPayout(server, merchant, {
        recipientId: recipient.id,
        amount: '10.00',
        reference: 'INV-42',
        metadata: { order: '42' },
      });
      expect(created.status).toBe(201);
      const expected = {
        id: expect.any(String),
        object: 'payout',
        status: 'CREATED',
        rail: 'LOCAL_BANK',
        amount: '10.00',
        currency: 'usd',
        recipientId: recipient.id,
        destinationMasked: { country: 'NG', accountNumber: '****3333', bankName: 'GTBank' },
        providerRef: null,
        settledAt: null,
        quote: {
          dstAmount: '15422.50',
          rate: '1542.25000000',
          serviceFee: '0.10',
          serviceFeeCurrency: 'usd',
          currency: 'ngn',
          country: 'NG',
        },
        failureReason: null,
        reference: 'INV-42',
        metadata: { order: '42' },
        batchId: null,
        livemode: false,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      };
      expect(created.body.data).toEqual(expected);
      expect(JSON.stringify(created.body)).not.toContain('0123453333');
      const fetched = await read(merchant, created.body.data.id);
      expect(fetched.body).toEqual({ success: true, data: created.body.data });
      const literal = await server.request('GET', `/v1/business/payouts/${created.body.data.id}`, {
        headers: apiKey(merchant),
      });
      expect(literal.status).toBe(200);
      expect(literal.body).toEqual(fetched.body);
      const byJwt = await server.request('GET', `/v1/business/payouts/${created.body.data.id}`, {
        headers: dashboard(merchant),
      });
      expect(byJwt.body).toEqual(fetched.body);
      expect((await server.request('GET', `/v1/business/payouts/${created.body.data.id}`)).status).toBe(401);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 1010n);
    });

    test("another business's payout is 404 on read, cancel and the advance helper", async () => {
      const owner = await fundedMerchant();
      const stranger = await server.signUp();
      const payout = await payoutTo(owner, '3333', '1.00');
      for (const [method, path, body] of [
        ['GET', `${PAYOUTS}/${payout.id}`, undefined],
        ['GET', `/v1/business/payouts/${payout.id}`, undefined],
        ['POST', `${PAYOUTS}/${payout.id}/cancel`, undefined],
        ['POST', ADVANCE(payout.id), { status: 'FAILED' }],
      ] as const) {
        const response = await server.request(method, path, { headers: apiKey(stranger), body });
        expect([path, response.status]).toEqual([path, 404]);
      }
      expect((await read(owner, payout.id)).body.data.status).toBe('CREATED');
    });

    test('200 concurrent payouts against a balance that covers 50: exactly 50 accepted, 150 × 422 INSUFFICIENT_FUNDS, never overdrawn, nothing written for the refused', async () => {
      const merchant = await fundedMerchant('50.50'); // 50 × (1.00 + 0.01 fee)
      const recipient = await createRecipient(server, merchant, bankDetails('3333')); // stays CREATED: no dispatch traffic
      const eventsBefore = await countOf('events', merchant.businessId);
      let lowest = 5050n;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const balance = await walletBalance(server, merchant.businessId);
          if (balance < lowest) lowest = balance;
          await sleep(5);
        }
      })();
      const responses = await Promise.all(
        Array.from({ length: 200 }, () =>
          createPayout(server, merchant, { recipientId: recipient.id, amount: '1.00' }),
        ),
      );
      sampling = false;
      await sampler;

      const accepted = responses.filter((response) => response.status === 201);
      const refused = responses.filter((response) => response.status !== 201);
      expect(accepted).toHaveLength(50);
      expect(refused).toHaveLength(150);
      for (const response of refused) {
        expect(response.status).toBe(422);
        expect(response.body.error.code).toBe('INSUFFICIENT_FUNDS');
      }
      expect(lowest).toBeGreaterThanOrEqual(0n);
      expect(await walletBalance(server, merchant.businessId)).toBe(0n);
      expect(await countOf('payouts', merchant.businessId)).toBe(50);
      expect((await countOf('events', merchant.businessId)) - eventsBefore).toBe(50);
      expect(
        Number(
          (
            await db().query(
              `SELECT count(*) AS n FROM journal_transactions WHERE business_id = $1 AND kind = 'payout_debit'`,
              [merchant.businessId],
            )
          )[0].n,
        ),
      ).toBe(50);
      const check = await LedgerService.check(db());
      expect(check.balanced).toBe(true);
    });

    test('a FAILED rail report delivered 3 times concurrently is applied once: one reversal, one payout.failed', async () => {
      const merchant = await fundedMerchant();
      const payout = await payoutTo(merchant, '4444');
      await untilStatus(
        merchant,
        payout.id,
        'SUBMITTED',
        (body) => body.data.status === 'SUBMITTED' && body.data.providerRef !== null,
      );
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 1010n);

      const ctx = RequestContext.system(db(), 'test', merchant.businessId);
      const outcomes = await Promise.all(
        [1, 2, 3].map(() =>
          server.runtime.core.payouts.applyRailOutcome(ctx, payout.id, { status: 'FAILED', reason: 'x' }),
        ),
      );
      expect(outcomes.filter((outcome) => outcome !== null)).toHaveLength(1);
      expect(await reversalsOf(payout.id)).toBe(1);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);
      expect((await read(merchant, payout.id)).body.data).toMatchObject({ status: 'FAILED', failureReason: 'x' });
      expect(await eventsOf(server, merchant.businessId, 'payout.failed')).toHaveLength(1);
      await expectLedgerBalanced(server);
    });

    test('the advance helper applies one legal transition: concurrent repeats apply once, repeating the current status is a no-op 200, an illegal one is 409', async () => {
      const merchant = await fundedMerchant();
      const payout = await payoutTo(merchant, '4444');
      await untilStatus(
        merchant,
        payout.id,
        'SUBMITTED',
        (body) => body.data.status === 'SUBMITTED' && body.data.providerRef !== null,
      );
      const responses = await Promise.all(
        [1, 2, 3].map(() => advance(merchant, payout.id, { status: 'FAILED', reason: 'bank_closed' })),
      );
      expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
      for (const response of responses)
        expect(response.body.data).toMatchObject({ status: 'FAILED', failureReason: 'bank_closed' });
      expect(await reversalsOf(payout.id)).toBe(1);
      expect(await eventsOf(server, merchant.businessId, 'payout.failed')).toHaveLength(1);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);

      const repeat = await advance(merchant, payout.id, { status: 'FAILED' });
      expect(repeat.status).toBe(200);
      expect(repeat.body.data).toEqual((await read(merchant, payout.id)).body.data);
      const illegal = await advance(merchant, payout.id, { status: 'SETTLED' });
      expect(illegal.status).toBe(409);
      expect(illegal.body.error.code).toBe('CONFLICT');

      const other = await payoutTo(merchant, '4444', '2.00');
      await untilStatus(merchant, other.id, 'SUBMITTED', (body) => body.data.providerRef !== null);
      const settled = await advance(merchant, other.id, { status: 'SETTLED' });
      expect(settled.status).toBe(200);
      expect(settled.body.data).toMatchObject({
        status: 'SETTLED',
        settledAt: expect.stringMatching(ISO),
        providerRef: expect.stringMatching(/^sbx_po_/),
      });
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 202n);
      await expectLedgerBalanced(server);
    });

    test('an account ending 3333 stays CREATED until advanced; the advance helper submits it', async () => {
      const merchant = await fundedMerchant();
      const payout = await payoutTo(merchant, '3333');
      await laterPayoutSettled();
      expect((await read(merchant, payout.id)).body.data.status).toBe('CREATED');
      const submitted = await advance(merchant, payout.id, { status: 'SUBMITTED' });
      expect(submitted.status).toBe(200);
      expect(submitted.body.data).toMatchObject({
        status: 'SUBMITTED',
        providerRef: expect.stringMatching(/^sbx_po_/),
      });
      expect((await eventsOf(server, merchant.businessId)).map((event) => event.type)).toEqual([
        'wallet.funded',
        'payout.initiated',
        'payout.submitted',
      ]);
    });

    test('cancel works only from CREATED: CANCELLED with the debit reversed and payout.cancelled; any other state is 409 CONFLICT and changes nothing', async () => {
      const merchant = await fundedMerchant();
      const payout = await payoutTo(merchant, '3333');
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 1010n);
      const cancelled = await server.request('POST', `${PAYOUTS}/${payout.id}/cancel`, { headers: apiKey(merchant) });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toEqual({ ...payout, status: 'CANCELLED', updatedAt: expect.stringMatching(ISO) });
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);
      expect(await reversalsOf(payout.id)).toBe(1);
      const events = await eventsOf(server, merchant.businessId, 'payout.cancelled');
      expect(events.map((event) => event.data)).toEqual([{ object: cancelled.body.data, livemode: false }]);
      const again = await server.request('POST', `${PAYOUTS}/${payout.id}/cancel`, { headers: apiKey(merchant) });
      expect([again.status, again.body.error?.code]).toEqual([409, 'CONFLICT']);
      expect(await reversalsOf(payout.id)).toBe(1);

      const submitted = await payoutTo(merchant, '4444');
      const before = (await untilStatus(merchant, submitted.id, 'SUBMITTED', (body) => body.data.providerRef !== null))
        .body.data;
      const refused = await server.request('POST', `${PAYOUTS}/${submitted.id}/cancel`, { headers: apiKey(merchant) });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/Only a CREATED payout can be cancelled/),
      });
      expect((await read(merchant, submitted.id)).body.data).toEqual(before);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 1010n);
      expect(await eventsOf(server, merchant.businessId, 'payout.cancelled')).toHaveLength(1);
    });

    test('concurrent cancels of one payout: one succeeds, the others are 409, one reversal', async () => {
      const merchant = await fundedMerchant();
      const payout = await payoutTo(merchant, '3333');
      const responses = await Promise.all(
        Array.from({ length: 5 }, () =>
          server.request('POST', `${PAYOUTS}/${payout.id}/cancel`, { headers: apiKey(merchant) }),
        ),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409]);
      expect(await reversalsOf(payout.id)).toBe(1);
      expect(await eventsOf(server, merchant.businessId, 'payout.cancelled')).toHaveLength(1);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);
    });

    test('a VIEWER reads recipients and payouts but may not create, cancel or advance them (403)', async () => {
      const owner = await fundedMerchant();
      const viewer = await server.signUp();
      await server.addTeamMember(owner, viewer, 'VIEWER');
      const headers = { authorization: `Bearer ${viewer.token}`, 'x-service-business-id': owner.businessId };
      const payout = await payoutTo(owner, '3333');
      expect((await server.request('GET', `${PAYOUTS}/${payout.id}`, { headers })).body.data).toEqual(payout);
      expect((await server.request('GET', RECIPIENTS, { headers })).body.data.total).toBe(1);
      for (const [method, path, body] of [
        ['POST', RECIPIENTS, { label: 'X', details: bankDetails('8888') }],
        ['POST', PAYOUTS, { recipientId: payout.recipientId, amount: '1.00', currency: 'USD' }],
        ['POST', `${PAYOUTS}/${payout.id}/cancel`, undefined],
        ['POST', ADVANCE(payout.id), { status: 'SUBMITTED' }],
        ['DELETE', `${RECIPIENTS}/${payout.recipientId}`, undefined],
      ] as const) {
        const response = await server.request(method, path, { headers, body });
        expect([method, path, response.status]).toEqual([method, path, 403]);
      }
      expect(await countOf('payouts', owner.businessId)).toBe(1);
      expect(await countOf('payout_recipients', owner.businessId)).toBe(1);
      expect((await read(owner, payout.id)).body.data.status).toBe('CREATED');
    });

    test('an account ending 1111 fails after SUBMITTED with failureReason account_invalid, and the wallet gets amount + fee back', async () => {
      const merchant = await fundedMerchant();
      const payout = await payoutTo(merchant, '1111');
      const failed = await untilStatus(merchant, payout.id, 'FAILED');
      expect(failed.body.data).toMatchObject({
        status: 'FAILED',
        failureReason: 'account_invalid',
        settledAt: null,
        providerRef: expect.stringMatching(/^sbx_po_/),
      });
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);
      expect((await eventsOf(server, merchant.businessId)).map((event) => event.type)).toEqual([
        'wallet.funded',
        'payout.initiated',
        'payout.submitted',
        'payout.failed',
      ]);
      await expectLedgerBalanced(server);
    });

    test('any other account settles after SUBMITTED: settledAt and providerRef set, the wallet stays debited', async () => {
      const merchant = await fundedMerchant();
      const payout = await payoutTo(merchant, '6789');
      const settled = await untilStatus(merchant, payout.id, 'SETTLED');
      expect(settled.body.data).toMatchObject({
        status: 'SETTLED',
        settledAt: expect.stringMatching(ISO),
        providerRef: expect.stringMatching(/^sbx_po_/),
        failureReason: null,
      });
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 1010n);
      expect((await eventsOf(server, merchant.businessId)).map((event) => event.type)).toEqual([
        'wallet.funded',
        'payout.initiated',
        'payout.submitted',
        'payout.settled',
      ]);
    });
  });

  describe('review', () => {
    const approve = (headers: Record<string, string>, id: string) =>
      server.request('POST', `${PAYOUTS}/${id}/approve`, { headers });
    const reject = (headers: Record<string, string>, id: string, reason = 'Unknown supplier') =>
      server.request('POST', `${PAYOUTS}/${id}/reject`, { headers, body: { reason } });

    test('an account ending 2222 is held: PENDING_REVIEW, payout.initiated then payout.review, not dispatched', async () => {
      const merchant = await fundedMerchant();
      const payout = await payoutTo(merchant, '2222');
      expect(payout.status).toBe('PENDING_REVIEW');
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 1010n);
      await laterPayoutSettled();
      expect((await read(merchant, payout.id)).body.data).toEqual(payout);
      // Both are written in the payout's transaction (one created_at): compared by type, not by order.
      const events = await eventsOf(server, merchant.businessId);
      expect(events.map((event) => event.type).sort()).toEqual(['payout.initiated', 'payout.review', 'wallet.funded']);
      expect(events.find((event) => event.type === 'payout.initiated')!.data).toEqual({
        object: { ...payout, status: 'CREATED' },
        livemode: false,
      });
      expect(events.find((event) => event.type === 'payout.review')!.data).toEqual({ object: payout, livemode: false });
    });

    test("a payout worth at least the business's review threshold in USD is held; below it is not", async () => {
      const merchant = await fundedMerchant('200.00');
      await setReviewThreshold(merchant.businessId, 5000n);
      const below = await payoutTo(merchant, '3333', '49.99');
      const at = await payoutTo(merchant, '3333', '50.00');
      expect([below.status, at.status]).toEqual(['CREATED', 'PENDING_REVIEW']);
      expect(
        (await eventsOf(server, merchant.businessId, 'payout.review')).map((event) => event.data.object.id),
      ).toEqual([at.id]);
      await setReviewThreshold(merchant.businessId, null);
      const afterOff = await payoutTo(merchant, '3333', '50.00');
      expect(afterOff.status).toBe('CREATED');
    });

    test("the review threshold compares the payout's USD value at the mid rate: 46.00 EUR (50.00 USD at 0.92 EUR per USD) is held, 45.99 EUR is not", async () => {
      const merchant = await server.signUp();
      await fundWallet(server, merchant, '200.00', 'EUR');
      await setReviewThreshold(merchant.businessId, 5000n);
      const recipient = await createRecipient(
        server,
        merchant,
        bankDetails('3333', { country: 'DE', currency: 'EUR', bankCode: 'DEUT', bankName: 'Deutsche' }),
      );
      const below = await createPayout(server, merchant, {
        recipientId: recipient.id,
        amount: '45.99',
        currency: 'EUR',
      });
      const at = await createPayout(server, merchant, { recipientId: recipient.id, amount: '46.00', currency: 'EUR' });
      expect([below.status, below.body.data.status, at.status, at.body.data.status]).toEqual([
        201,
        'CREATED',
        201,
        'PENDING_REVIEW',
      ]);
      expect(
        (await eventsOf(server, merchant.businessId, 'payout.review')).map((event) => event.data.object.id),
      ).toEqual([at.body.data.id]);
    });

    test('an OWNER approves a held payout and it goes on to SUBMITTED and SETTLED', async () => {
      const merchant = await fundedMerchant();
      const payout = await payoutTo(merchant, '2222');
      const approved = await approve(dashboard(merchant), payout.id);
      expect(approved.status).toBe(200);
      expect(approved.body.data).toMatchObject({ id: payout.id, status: 'CREATED' });
      const settled = await untilStatus(merchant, payout.id, 'SETTLED');
      expect(settled.body.data).toMatchObject({ status: 'SETTLED', settledAt: expect.stringMatching(ISO) });
      const types = (await eventsOf(server, merchant.businessId)).map((event) => event.type);
      // payout.initiated and payout.review share the payout's transaction (one created_at): their order is not asserted.
      expect([types[0], types.slice(1, 3).sort(), ...types.slice(3)]).toEqual([
        'wallet.funded',
        ['payout.initiated', 'payout.review'],
        'payout.submitted',
        'payout.settled',
      ]);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 1010n);
      const again = await approve(dashboard(merchant), payout.id);
      expect([again.status, again.body.error.code]).toEqual([409, 'CONFLICT']);
    });

    test('an ADMIN rejects a held payout: FAILED with the reason as failureReason, the debit reversed, payout.failed', async () => {
      const owner = await fundedMerchant();
      const admin = await server.signUp();
      await server.addTeamMember(owner, admin, 'ADMIN');
      const payout = await payoutTo(owner, '2222');
      const rejected = await reject(
        { authorization: `Bearer ${admin.token}`, 'x-service-business-id': owner.businessId },
        payout.id,
        'Unknown supplier',
      );
      expect(rejected.status).toBe(200);
      expect(rejected.body.data).toEqual({
        ...payout,
        status: 'FAILED',
        failureReason: 'Unknown supplier',
        updatedAt: expect.stringMatching(ISO),
      });
      expect(await walletBalance(server, owner.businessId)).toBe(10000n);
      expect(await reversalsOf(payout.id)).toBe(1);
      expect((await eventsOf(server, owner.businessId, 'payout.failed')).map((event) => event.data)).toEqual([
        { object: rejected.body.data, livemode: false },
      ]);
      await expectLedgerBalanced(server);
    });

    test('approve and reject accept only a dashboard JWT of an OWNER or ADMIN: API keys, DEVELOPER and VIEWER are 403 and nothing changes', async () => {
      const owner = await fundedMerchant();
      const payout = await payoutTo(owner, '2222');
      const callers: Array<[string, Record<string, string>]> = [['an API key', apiKey(owner)]];
      for (const role of ['DEVELOPER', 'VIEWER']) {
        const member = await server.signUp();
        await server.addTeamMember(owner, member, role);
        callers.push([role, { authorization: `Bearer ${member.token}`, 'x-service-business-id': owner.businessId }]);
      }
      for (const [who, headers] of callers) {
        for (const response of [await approve(headers, payout.id), await reject(headers, payout.id)]) {
          expect([who, response.status, response.body.error.code]).toEqual([who, 403, 'FORBIDDEN']);
        }
      }
      expect((await read(owner, payout.id)).body.data).toEqual(payout);
      expect(await reversalsOf(payout.id)).toBe(0);
      expect(await walletBalance(server, owner.businessId)).toBe(10000n - 1010n);
    });

    test('approve and reject of a payout not held for review are 409 CONFLICT; a reject without a reason is 400', async () => {
      const merchant = await fundedMerchant();
      const payout = await payoutTo(merchant, '3333');
      for (const response of [
        await approve(dashboard(merchant), payout.id),
        await reject(dashboard(merchant), payout.id),
      ]) {
        expect([response.status, response.body.error.code]).toEqual([409, 'CONFLICT']);
      }
      const held = await payoutTo(merchant, '2222');
      expectFieldError(await reject(dashboard(merchant), held.id, '   '), 'reason');
      expect((await read(merchant, held.id)).body.data.status).toBe('PENDING_REVIEW');
      expect((await read(merchant, payout.id)).body.data.status).toBe('CREATED');
    });
  });

  describe('events', () => {
    const receiver = new Receiver();
    beforeAll(async () => receiver.start());
    afterAll(async () => receiver.close());

    test('every payout.* event reaches the webhook receiver signed, as { object, livemode } with object equal to the read shape at that moment', async () => {
      const merchant = await fundedMerchant();
      const path = `/payouts-${crypto.randomBytes(3).toString('hex')}`;
      const configured = await server.request('PUT', '/api/v1/business/config', {
        headers: apiKey(merchant),
        body: { webhookUrl: receiver.url(path) },
      });
      expect(configured.status).toBe(200);

      const settling = await payoutTo(merchant, '6789');
      const failing = await payoutTo(merchant, '1111');
      const held = await payoutTo(merchant, '2222');
      const staying = await payoutTo(merchant, '4444');
      const cancelling = await payoutTo(merchant, '3333');
      const cancelled = (
        await server.request('POST', `${PAYOUTS}/${cancelling.id}/cancel`, { headers: apiKey(merchant) })
      ).body.data;
      const settled = (await untilStatus(merchant, settling.id, 'SETTLED')).body.data;
      const failed = (await untilStatus(merchant, failing.id, 'FAILED')).body.data;
      const submitted = (await untilStatus(merchant, staying.id, 'SUBMITTED', (body) => body.data.providerRef !== null))
        .body.data;

      const expected: Array<[string, any]> = [
        ['payout.initiated', settling],
        [
          'payout.submitted',
          { ...settled, status: 'SUBMITTED', settledAt: null, updatedAt: expect.stringMatching(ISO) },
        ],
        ['payout.settled', settled],
        ['payout.initiated', failing],
        [
          'payout.submitted',
          { ...failed, status: 'SUBMITTED', failureReason: null, updatedAt: expect.stringMatching(ISO) },
        ],
        ['payout.failed', failed],
        ['payout.initiated', { ...held, status: 'CREATED' }],
        ['payout.review', held],
        ['payout.initiated', staying],
        ['payout.submitted', submitted],
        ['payout.initiated', cancelling],
        ['payout.cancelled', cancelled],
      ];
      const payoutRequests = () =>
        receiver.at(path).filter((request) => String(request.headers['x-service-event']).startsWith('payout.'));
      await waitFor(
        async () => payoutRequests().length,
        (count) => count >= expected.length,
      );
      await deliveriesAtRest(server, merchant.businessId); // anything sent twice has arrived by now
      const received = payoutRequests();
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
        expect([type, matching.map((body) => body.data)]).toEqual([type, [{ object, livemode: false }]]);
      }
    });
  });

  describe('batches', () => {
    const createBatch = (merchant: TestMerchant, body: unknown) =>
      server.request('POST', BATCHES, { headers: apiKey(merchant), body });
    const item = (recipientId: string, amount = '2.00', extra: Record<string, unknown> = {}) => ({
      recipientId,
      amount,
      currency: 'USD',
      ...extra,
    });

    test('a batch is created with 201 as { id, name, status, itemCount, totalAmount, currency, counts, createdAt, updatedAt }; each item is an ordinary payout', async () => {
      const merchant = await fundedMerchant();
      const recipient = await createRecipient(server, merchant, bankDetails('3333'));
      const response = await createBatch(merchant, {
        name: 'March suppliers',
        items: [item(recipient.id, '2.00', { reference: 'A' }), item(recipient.id, '3.00'), item(recipient.id, '1.50')],
      });
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        success: true,
        data: {
          id: expect.any(String),
          name: 'March suppliers',
          status: 'PROCESSING',
          itemCount: 3,
          totalAmount: '6.50',
          currency: 'usd',
          counts: { created: 3, submitted: 0, settled: 0, failed: 0, cancelled: 0, pendingReview: 0 },
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      });
      // Fees: 0.02 + 0.03 + 0.02 (1%, rounded up per payout).
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 650n - 7n);
      const payouts = await server.request('GET', `${BATCHES}/${response.body.data.id}/payouts`, {
        headers: apiKey(merchant),
      });
      expect(payouts.body.data.total).toBe(3);
      expect(
        payouts.body.data.items
          .map((payout: any) => [payout.amount, payout.batchId, payout.status, payout.reference])
          .sort(),
      ).toEqual([
        ['1.50', response.body.data.id, 'CREATED', null],
        ['2.00', response.body.data.id, 'CREATED', 'A'],
        ['3.00', response.body.data.id, 'CREATED', null],
      ]);
      expect(await eventsOf(server, merchant.businessId, 'payout.initiated')).toHaveLength(3);
    });

    test("a batch's status and counts follow its payouts to SETTLED and FAILED; batches list, read and list their payouts", async () => {
      const merchant = await fundedMerchant();
      const good = await createRecipient(server, merchant, bankDetails('6789'));
      const bad = await createRecipient(server, merchant, bankDetails('1111'));
      const mixed = (await createBatch(merchant, { items: [item(good.id), item(good.id), item(bad.id)] })).body.data;
      const clean = (await createBatch(merchant, { name: 'one', items: [item(good.id, '1.00')] })).body.data;
      const finished = (batch: any) => batch.status !== 'PROCESSING';
      const mixedDone = await waitFor(
        () => server.request('GET', `${BATCHES}/${mixed.id}`, { headers: apiKey(merchant) }),
        (response) => finished(response.body.data),
      );
      const cleanDone = await waitFor(
        () => server.request('GET', `${BATCHES}/${clean.id}`, { headers: apiKey(merchant) }),
        (response) => finished(response.body.data),
      );
      expect(mixedDone.body.data).toMatchObject({
        status: 'PARTIALLY_COMPLETED',
        counts: { created: 0, submitted: 0, settled: 2, failed: 1, cancelled: 0, pendingReview: 0 },
      });
      expect(cleanDone.body.data).toMatchObject({
        status: 'COMPLETED',
        counts: { created: 0, submitted: 0, settled: 1, failed: 0, cancelled: 0, pendingReview: 0 },
      });

      const list = await server.request('GET', BATCHES, { headers: apiKey(merchant) });
      expect(list.body.data).toEqual({
        items: [cleanDone.body.data, mixedDone.body.data],
        total: 2,
        skip: 0,
        take: 20,
      });
      const failedOnly = await server.request('GET', `${BATCHES}/${mixed.id}/payouts?status=FAILED`, {
        headers: apiKey(merchant),
      });
      expect(failedOnly.body.data.items).toEqual([
        expect.objectContaining({ recipientId: bad.id, status: 'FAILED', failureReason: 'account_invalid' }),
      ]);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 3n * 202n - 101n + 202n);
      const stranger = await server.signUp();
      for (const path of [`${BATCHES}/${mixed.id}`, `${BATCHES}/${mixed.id}/payouts`]) {
        expect((await server.request('GET', path, { headers: apiKey(stranger) })).status).toBe(404);
      }
      expect((await server.request('GET', BATCHES, { headers: apiKey(stranger) })).body.data.total).toBe(0);
    });

    test('a batch with any bad item is a 400 with errors keyed items.N.field, and creates nothing', async () => {
      const merchant = await fundedMerchant();
      const recipient = await createRecipient(server, merchant);
      const archived = await createRecipient(server, merchant, bankDetails('7777'));
      await server.request('DELETE', `${RECIPIENTS}/${archived.id}`, { headers: apiKey(merchant) });
      const decimals = await createBatch(merchant, {
        items: [
          item(recipient.id),
          item(recipient.id),
          item(recipient.id),
          item(recipient.id, '1.234'),
          item(recipient.id, '1.23456'),
        ],
      });
      expectFieldError(decimals, 'items.3.amount');
      expect(Object.keys(decimals.body.error.errors).sort()).toEqual(['items.3.amount', 'items.4.amount']);
      const shape = await createBatch(merchant, {
        items: [item(recipient.id), { amount: '1.00', currency: 'USD' }, item(recipient.id, '-1'), 'x'],
      });
      expect(Object.keys(shape.body.error.errors).sort()).toEqual(['items.1.recipientId', 'items.2.amount', 'items.3']);
      const rules = await createBatch(merchant, {
        items: [
          item(recipient.id),
          item(crypto.randomUUID()),
          item(archived.id),
          item(recipient.id, '0'),
          item(recipient.id, '1.00', { currency: 'EUR' }),
        ],
      });
      expect(rules.status).toBe(400);
      expect(Object.keys(rules.body.error.errors).sort()).toEqual([
        'items.1.recipientId',
        'items.2.recipientId',
        'items.3.amount',
        'items.4.currency',
      ]);
      expectFieldError(await createBatch(merchant, { items: [] }), 'items');
      expectFieldError(await createBatch(merchant, { name: 'no items' }), 'items');
      expect(await countOf('payout_batches', merchant.businessId)).toBe(0);
      expect(await countOf('payouts', merchant.businessId)).toBe(0);
      expect(await countOf('events', merchant.businessId)).toBe(1);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);
    });

    test('a batch takes 1 to 1,000 items: 1,001 is a 400 on items and creates nothing', async () => {
      const merchant = await fundedMerchant('100.00');
      const recipient = await createRecipient(server, merchant, bankDetails('3333'));
      const response = await createBatch(merchant, {
        items: Array.from({ length: 1001 }, () => item(recipient.id, '0.01')),
      });
      expectFieldError(response, 'items');
      expect(await countOf('payout_batches', merchant.businessId)).toBe(0);
      expect(await countOf('payouts', merchant.businessId)).toBe(0);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);
    });

    test('a batch whose total debit does not fit the balance is a 422 INSUFFICIENT_FUNDS and creates nothing', async () => {
      const merchant = await fundedMerchant('10.00');
      const recipient = await createRecipient(server, merchant, bankDetails('3333'));
      // 4.00 + 0.04, 4.00 + 0.04, 1.92 + 0.02 = 10.02 (fees included): 0.02 too much; with 1.90 it is exactly 10.00.
      const response = await createBatch(merchant, {
        items: [item(recipient.id, '4.00'), item(recipient.id, '4.00'), item(recipient.id, '1.92')],
      });
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('INSUFFICIENT_FUNDS');
      expect(await countOf('payout_batches', merchant.businessId)).toBe(0);
      expect(await countOf('payouts', merchant.businessId)).toBe(0);
      expect(await countOf('events', merchant.businessId)).toBe(1);
      expect(await walletBalance(server, merchant.businessId)).toBe(1000n);
      const fits = await createBatch(merchant, {
        items: [item(recipient.id, '4.00'), item(recipient.id, '4.00'), item(recipient.id, '1.90')],
      });
      expect(fits.status).toBe(201);
      expect(await walletBalance(server, merchant.businessId)).toBe(0n);
    });
  });

  describe('bad input', () => {
    test.each([
      ['an unknown rail', 'details.rail', { label: 'X', details: bankDetails('6789', { rail: 'SWIFT' }) }],
      ['no rail', 'details.rail', { label: 'X', details: { accountNumber: '0123456789' } }],
      [
        'a bank account without its account number',
        'details.accountNumber',
        { label: 'X', details: bankDetails('6789', { accountNumber: undefined }) },
      ],
      [
        'a bank account without its bank code',
        'details.bankCode',
        { label: 'X', details: bankDetails('6789', { bankCode: undefined }) },
      ],
      [
        'a mobile wallet without its phone',
        'details.phone',
        { label: 'X', details: mobileDetails({ phone: undefined }) },
      ],
      [
        'a crypto wallet without its address',
        'details.address',
        { label: 'X', details: cryptoDetails({ address: undefined }) },
      ],
      [
        'an EVM address that is not 0x + 40 hex digits',
        'details.address',
        { label: 'X', details: cryptoDetails({ address: '0x1234' }) },
      ],
      [
        'a crypto currency other than USDC',
        'details.currency',
        { label: 'X', details: cryptoDetails({ currency: 'USD' }) },
      ],
      [
        'a country that is not a 2-letter code',
        'details.country',
        { label: 'X', details: bankDetails('6789', { country: 'N1' }) },
      ],
      [
        'an account number of punctuation',
        'details.accountNumber',
        { label: 'X', details: bankDetails('6789', { accountNumber: '!!!!!!' }) },
      ],
      ['no label', 'label', { details: bankDetails('6789') }],
      ['no details', 'details', { label: 'X' }],
    ])('a recipient with %s is a 400 on %s and stores nothing', async (_name, field, body) => {
      const merchant = await server.signUp();
      expectFieldError(await server.request('POST', RECIPIENTS, { headers: apiKey(merchant), body }), field);
      expect(await countOf('payout_recipients', merchant.businessId)).toBe(0);
    });

    test.each([
      ['no recipientId', 'recipientId', { recipientId: undefined }],
      ['a zero amount', 'amount', { amount: '0.00' }],
      ['a negative amount', 'amount', { amount: '-5.00' }],
      ['three decimals in USD', 'amount', { amount: '1.234' }],
      ['an amount that is not a number', 'amount', { amount: 'ten' }],
      ['a currency the business holds no wallet in', 'currency', { currency: 'EUR' }],
      ['an unknown currency', 'currency', { currency: 'XYZ' }],
      ['no currency', 'currency', { currency: undefined }],
      ['metadata that is not an object', 'metadata', { metadata: 'x' }],
      ['a reference over 200 characters', 'reference', { reference: 'r'.repeat(201) }],
    ])('a payout with %s is a 400 on %s and writes nothing', async (_name, field, overrides) => {
      const merchant = await fundedMerchant();
      const recipient = await createRecipient(server, merchant);
      const response = await server.request('POST', PAYOUTS, {
        headers: apiKey(merchant),
        body: { recipientId: recipient.id, amount: '1.00', currency: 'USD', ...overrides },
      });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body.error.errors)).toContain(field);
      expect(await countOf('payouts', merchant.businessId)).toBe(0);
      expect(await countOf('events', merchant.businessId)).toBe(1);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);
    });

    test.each([
      [
        'decimals in a currency without minor unit (UGX)',
        'amount',
        { amount: '10.5', currency: 'UGX', destinationCurrency: 'KES', country: 'KE', rail: 'LOCAL_BANK' },
      ],
      [
        '7 decimals of USDC',
        'amount',
        { amount: '1.1234567', currency: 'USDC', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' },
      ],
      [
        'a zero amount',
        'amount',
        { amount: '0', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' },
      ],
      [
        'an unknown rail',
        'rail',
        { amount: '1.00', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'SWIFT' },
      ],
      [
        'no country for a bank rail',
        'country',
        { amount: '1.00', currency: 'USD', destinationCurrency: 'NGN', rail: 'LOCAL_BANK' },
      ],
      [
        'an unknown destination currency',
        'destinationCurrency',
        { amount: '1.00', currency: 'USD', destinationCurrency: 'ABC', country: 'NG', rail: 'LOCAL_BANK' },
      ],
    ])('a quote with %s is a 400 on %s and stores nothing', async (_name, field, body) => {
      const merchant = await server.signUp();
      const response = await server.request('POST', `${PAYOUTS}/quote`, { headers: apiKey(merchant), body });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body.error.errors)).toContain(field);
      expect(await countOf('payout_quotes', merchant.businessId)).toBe(0);
    });

    test('malformed JSON is a 400 BAD_REQUEST on every payouts write, and writes nothing', async () => {
      const merchant = await fundedMerchant();
      for (const path of [RECIPIENTS, PAYOUTS, BATCHES, `${PAYOUTS}/quote`]) {
        const response = await server.request('POST', path, {
          rawBody: '{"label": "X", "amount": "1.00"',
          headers: { ...apiKey(merchant), 'content-type': 'application/json' },
        });
        expect([path, response.status, response.body.error.code]).toEqual([path, 400, 'BAD_REQUEST']);
      }
      for (const table of ['payout_recipients', 'payouts', 'payout_batches', 'payout_quotes'])
        expect(await countOf(table, merchant.businessId)).toBe(0);
      expect(await walletBalance(server, merchant.businessId)).toBe(10000n);
    });

    test('an unknown payout recipient is 404 and writes nothing', async () => {
      const merchant = await fundedMerchant();
      const response = await createPayout(server, merchant, { recipientId: crypto.randomUUID(), amount: '1.00' });
      expect([response.status, response.body.error.code]).toEqual([404, 'NOT_FOUND']);
      expect(await countOf('payouts', merchant.businessId)).toBe(0);
    });
  });

  describe('lists', () => {
    test('the payout list is { items, total, skip, take }, newest first, filtered by status and recipientId; skip 0 and take 20 by default, take capped at 100', async () => {
      const merchant = await fundedMerchant('10.00');
      const many = await createRecipient(server, merchant, bankDetails('3333'));
      const one = await createRecipient(server, merchant, bankDetails('4444'));
      const batch = await server.request('POST', BATCHES, {
        headers: apiKey(merchant),
        body: { items: Array.from({ length: 105 }, () => ({ recipientId: many.id, amount: '0.01', currency: 'USD' })) },
      });
      expect(batch.status).toBe(201);
      const cancelled = await payoutTo(merchant, '3333', '1.00');
      await server.request('POST', `${PAYOUTS}/${cancelled.id}/cancel`, { headers: apiKey(merchant) });
      const last = (await createPayout(server, merchant, { recipientId: one.id, amount: '1.00' })).body.data;
      const list = (query = '') => server.request('GET', `${PAYOUTS}${query}`, { headers: apiKey(merchant) });

      const first = await list();
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ total: 107, skip: 0, take: 20 });
      expect(first.body.data.items).toHaveLength(20);
      expect(first.body.data.items[0].id).toBe(last.id);
      expect(first.body.data.items[1].id).toBe(cancelled.id);
      const capped = await list('?take=500');
      expect(capped.body.data).toMatchObject({ total: 107, skip: 0, take: 100 });
      expect(capped.body.data.items).toHaveLength(100);
      const rest = await list('?skip=100&take=100');
      expect(rest.body.data.items).toHaveLength(7);
      const seen = new Set([...capped.body.data.items, ...rest.body.data.items].map((payout: any) => payout.id));
      expect(seen.size).toBe(107);

      expect((await list('?status=CANCELLED')).body.data).toEqual({
        items: [expect.objectContaining({ id: cancelled.id, status: 'CANCELLED' })],
        total: 1,
        skip: 0,
        take: 20,
      });
      expect((await list(`?recipientId=${one.id}`)).body.data).toMatchObject({
        items: [expect.objectContaining({ id: last.id })],
        total: 1,
      });
      expect((await list(`?recipientId=${many.id}&status=CREATED&take=1`)).body.data).toMatchObject({
        total: 105,
        take: 1,
      });
      for (const [query, field] of [
        ['?status=NOPE', 'status'],
        ['?take=0', 'take'],
        ['?skip=-1', 'skip'],
        ['?recipientId=nope', 'recipientId'],
      ]) {
        expectFieldError(await list(query), field);
      }
    });
  });
});
