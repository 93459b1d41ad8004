import { TestServer, startTestServer } from './support/harness';
import { PAYOUTS, apiKey, bankDetails, createPayout, createRecipient, fundWallet } from './support/payouts';
import { PIN, SCHEDULES, scheduleBody, setPin } from './support/schedules';
import { TREASURY_PAYOUTS, USERS, fundedWallet, payoutBody } from './support/treasury';
import { card, chargingMerchant } from './support/payments';

/**
 * docs/rest-api.md (Money): currency codes in REST answers are lower case, whatever the family, as
 * the interface document writes them where it says (the Collection, the charge). Requests take any
 * case. GraphQL's `Money.currency` is upper case (its own convention); `/v1` answers upper case.
 */
describe('One currency case on the REST face (issue 27, finding 3)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  /** Every value under a key that names a currency, anywhere in the answer. */
  const currenciesIn = (value: unknown, path = ''): Array<[string, string]> => {
    if (Array.isArray(value)) return value.flatMap((item, index) => currenciesIn(item, `${path}.${index}`));
    if (value === null || typeof value !== 'object') return [];
    return Object.entries(value).flatMap(([key, inner]) =>
      typeof inner === 'string' && /currency$/i.test(key)
        ? [[`${path}.${key}`, inner] as [string, string]]
        : currenciesIn(inner, `${path}.${key}`),
    );
  };
  const expectLowerCase = (family: string, body: unknown, atLeast = 1) => {
    const found = currenciesIn(body);
    expect({ family, count: found.length >= atLeast }).toEqual({ family, count: true });
    expect({ family, upper: found.filter(([, code]) => code !== code.toLowerCase()) }).toEqual({ family, upper: [] });
  };

  test('payouts, quotes, batches, recipients and schedules answer lower-case codes (sent upper case)', async () => {
    const merchant = await server.signUp();
    await fundWallet(server, merchant, '100.00');
    const mobile = await createRecipient(server, merchant, {
      rail: 'MOBILE_MONEY',
      country: 'UG',
      currency: 'UGX',
      networkId: 'mtn-ug',
      phone: '+256771234567',
      accountName: 'Kato Musoke',
    });
    expectLowerCase('recipient', mobile);
    const recipient = await createRecipient(server, merchant, bankDetails('6789'));

    const quote = await server.request('POST', `${PAYOUTS}/quote`, {
      headers: apiKey(merchant),
      body: { amount: '10.00', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' },
    });
    expect(quote.status).toBe(201);
    expect(quote.body.data).toMatchObject({ currency: 'usd', serviceFeeCurrency: 'usd', destinationCurrency: 'ngn' });

    const payout = await createPayout(server, merchant, {
      recipientId: recipient.id,
      amount: '10.00',
      currency: 'USD',
    });
    expect(payout.status).toBe(201);
    expect(payout.body.data).toMatchObject({ currency: 'usd', quote: { serviceFeeCurrency: 'usd', currency: 'ngn' } });
    expectLowerCase(
      'payout',
      (await server.request('GET', `${PAYOUTS}/${payout.body.data.id}`, { headers: apiKey(merchant) })).body,
      3,
    );
    expectLowerCase('payouts list', (await server.request('GET', PAYOUTS, { headers: apiKey(merchant) })).body, 3);

    const batch = await server.request('POST', `${PAYOUTS}/batches`, {
      headers: apiKey(merchant),
      body: { items: [{ recipientId: recipient.id, amount: '1.00', currency: 'USD' }] },
    });
    expect(batch.status).toBe(201);
    expect(batch.body.data.currency).toBe('usd');
    expectLowerCase(
      'batches list',
      (await server.request('GET', `${PAYOUTS}/batches`, { headers: apiKey(merchant) })).body,
    );

    await setPin(server, merchant);
    const schedule = await server.request('POST', SCHEDULES, {
      headers: apiKey(merchant),
      body: scheduleBody(recipient.id, { pin: PIN, maxRunLocalCaps: [{ currency: 'NGN', amount: '100000' }] }),
    });
    expect(schedule.status).toBe(201);
    expect(schedule.body.data.maxRunLocalCaps).toEqual([{ currency: 'ngn', amount: '100000' }]);
  });

  test('treasury wallets, deposit instructions, deposits and payouts answer lower-case codes (sent upper case)', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '100.00', 'USD');
    expect(wallet.currency).toBe('usd');
    const headers = apiKey(partner);
    expectLowerCase(
      'treasury wallet',
      (await server.request('GET', `${USERS}/${user.id}/wallets/${wallet.id}`, { headers })).body,
    );
    expectLowerCase(
      'deposit instructions',
      (await server.request('GET', `${USERS}/${user.id}/wallets/${wallet.id}/deposit_instructions`, { headers })).body,
    );
    const deposit = await server.request(
      'POST',
      `/api/v1/treasury/sandbox/users/${user.id}/wallets/${wallet.id}/deposit`,
      { headers, body: { amount: '1.00' } },
    );
    expect(deposit.status).toBe(201);
    expect(deposit.body.data.currency).toBe('usd');
    const payout = await server.request('POST', TREASURY_PAYOUTS, { headers, body: payoutBody(user.id, wallet.id) });
    expect(payout.status).toBe(201);
    expect(payout.body.data.currency).toBe('usd');
  });

  test('wallets, payments and collections answer lower-case codes too (sent upper case)', async () => {
    const merchant = await chargingMerchant(server);
    const headers = apiKey(merchant);
    expectLowerCase('wallets', (await server.request('GET', '/api/v1/business/wallets', { headers })).body);
    const charged = await server.request('POST', '/api/v1/business/payment/charge', {
      headers,
      body: { amount: 5, currency: 'USD', card: card(), email: 'payer@example.com' },
    });
    expect(charged.status).toBe(201);
    expectLowerCase('payment', charged.body);
    const collection = await server.request('POST', '/api/v1/business/collections', {
      headers,
      body: { amount: 5_000_000, currency: 'NGN', country: 'NG', rail: 'bank', customer: { email: 'ada@example.com' } },
    });
    expect(collection.status).toBe(201);
    expectLowerCase('collection', collection.body);
  });
});
