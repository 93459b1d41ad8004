import { CARDS, card, charge, enableCharging } from './support/charges';
import { TestMerchant, TestServer, startTestServer } from './support/harness';

/**
 * paymentVolume (docs/graphql-api.md, Payment volume): the captured volume of the caller's business
 * and mode, per currency, in buckets aligned in a time zone, over real HTTP against the migrated
 * database. Payments are charged in the sandbox, then their capture time is set where each rule
 * needs it.
 */
describe('paymentVolume (GraphQL)', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  const DECLINED = '4000000000000002';
  const VOLUME = `query($from: DateTimeISO!, $to: DateTimeISO!, $interval: VolumeInterval, $timeZone: String) {
    paymentVolume(from: $from, to: $to, interval: $interval, timeZone: $timeZone) {
      from to interval timeZone
      buckets { start currency count amount { amount amountMinor currency } refunded { amount currency } }
      totals { currency count amount { amount amountMinor currency } refunded { amount currency } }
    }
  }`;
  const volume = (variables: Record<string, unknown>, headers: Record<string, string> = bearer(merchant)) =>
    server.graphql(VOLUME, variables, headers);
  const bearer = (who: TestMerchant) => ({ authorization: `Bearer ${who.token}` });

  /** A sandbox charge of the merchant, captured (or, declined, created) at `at`. */
  async function paid(amount: string, currency: string, at: string, number: string = CARDS.visa): Promise<string> {
    const payment = await charge(server, merchant.apiKey, {
      amount,
      currency,
      card: card(number),
      email: 'payer@example.com',
    });
    await server.runtime.dataSource.query(
      `UPDATE payments SET created_at = $2, captured_at = CASE WHEN captured_at IS NULL THEN NULL ELSE $2::timestamptz END WHERE id = $1`,
      [payment.id, at],
    );
    return payment.id;
  }

  async function refund(paymentId: string, amount?: string): Promise<void> {
    const response = await server.graphql(
      'mutation($input: RefundPaymentInput!) { refundPayment(input: $input) { refund { id } userErrors { field message code } } }',
      { input: { paymentId, amount } },
      bearer(merchant),
    );
    expect(response.body.data.refundPayment.userErrors).toEqual([]);
  }

  const figures = (currency: string, count: number, amount: string, refunded = '0.00') => ({
    currency,
    count,
    amount: expect.objectContaining({ amount, currency }),
    refunded: { amount: refunded, currency },
  });
  const bucket = (start: string, currency: string, count: number, amount: string, refunded = '0.00') => ({
    start,
    ...figures(currency, count, amount, refunded),
  });

  beforeAll(async () => {
    server = await startTestServer({ paymentSettlementDelaySeconds: 3600 });
    merchant = await server.signUp();
    await enableCharging(server, merchant);

    await paid('10.00', 'usd', '2026-03-10T12:00:00Z');
    // 23:30 UTC on the 10th is 08:30 on the 11th in Tokyo.
    await paid('5.50', 'usd', '2026-03-10T23:30:00Z');
    await refund(await paid('3.00', 'usd', '2026-03-11T10:00:00Z'));
    await refund(await paid('20.00', 'eur', '2026-03-12T09:00:00Z'), '5.00');
    // Declined: never captured, whenever it was made.
    await paid('99.00', 'usd', '2026-03-11T12:00:00Z', DECLINED);
    // 01:30 UTC on 25 October 2026 is 02:30 CET in Paris, the second time its clocks show 02:30 that night.
    await paid('1.00', 'usd', '2026-10-25T01:30:00Z');
    // The same business's live mode: one GBP payment captured on the 11th.
    await server.runtime.dataSource.query(
      `INSERT INTO payments (business_id, livemode, amount, currency, status, email, card_brand, card_last4,
         card_expiry_month, card_expiry_year, card_fingerprint, card_country, card_provider_ref, captured_at, created_at)
       VALUES ($1, true, 70000, 'GBP', 'COMPLETED', 'payer@example.com', 'visa', '4242', 12, 2030, 'fp', 'GB', 'ref',
         '2026-03-11T15:00:00Z', '2026-03-11T15:00:00Z')`,
      [merchant.businessId],
    );
  });
  afterAll(async () => server.close());

  test('days in UTC: dense per currency with volume, captured payments only, refunds of those payments shown, never summed across currencies', async () => {
    const response = await volume({ from: '2026-03-10T00:00:00Z', to: '2026-03-13T00:00:00Z' });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.paymentVolume).toEqual({
      from: '2026-03-10T00:00:00.000Z',
      to: '2026-03-13T00:00:00.000Z',
      interval: 'DAY',
      timeZone: 'UTC',
      buckets: [
        bucket('2026-03-10T00:00:00.000Z', 'EUR', 0, '0.00'),
        bucket('2026-03-10T00:00:00.000Z', 'USD', 2, '15.50'),
        bucket('2026-03-11T00:00:00.000Z', 'EUR', 0, '0.00'),
        bucket('2026-03-11T00:00:00.000Z', 'USD', 1, '3.00', '3.00'),
        bucket('2026-03-12T00:00:00.000Z', 'EUR', 1, '20.00', '5.00'),
        bucket('2026-03-12T00:00:00.000Z', 'USD', 0, '0.00'),
      ],
      totals: [figures('EUR', 1, '20.00', '5.00'), figures('USD', 3, '18.50', '3.00')],
    });
    expect(response.body.data.paymentVolume.totals[1].amount).toEqual({
      amount: '18.50',
      amountMinor: '1850',
      currency: 'USD',
    });
  });

  test("a time zone moves a payment across a day boundary: Tokyo's days start at 15:00 UTC", async () => {
    const response = await volume({
      from: '2026-03-09T15:00:00Z',
      to: '2026-03-12T15:00:00Z',
      interval: 'DAY',
      timeZone: 'Asia/Tokyo',
    });
    expect(response.body.errors).toBeUndefined();
    const { buckets, timeZone } = response.body.data.paymentVolume;
    expect(timeZone).toBe('Asia/Tokyo');
    expect(buckets.filter((row: { currency: string }) => row.currency === 'USD')).toEqual([
      bucket('2026-03-09T15:00:00.000Z', 'USD', 1, '10.00'),
      bucket('2026-03-10T15:00:00.000Z', 'USD', 2, '8.50', '3.00'),
      bucket('2026-03-11T15:00:00.000Z', 'USD', 0, '0.00'),
    ]);
  });

  test("docs/graphql-api.md's example: Paris days of 10 to 12 March (UTC+1) start at 23:00 UTC the day before", async () => {
    const response = await volume({
      from: '2026-03-09T23:00:00Z',
      to: '2026-03-12T23:00:00Z',
      interval: 'DAY',
      timeZone: 'Europe/Paris',
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.paymentVolume.buckets).toEqual([
      bucket('2026-03-09T23:00:00.000Z', 'EUR', 0, '0.00'),
      bucket('2026-03-09T23:00:00.000Z', 'USD', 1, '10.00'),
      bucket('2026-03-10T23:00:00.000Z', 'EUR', 0, '0.00'),
      bucket('2026-03-10T23:00:00.000Z', 'USD', 2, '8.50', '3.00'),
      bucket('2026-03-11T23:00:00.000Z', 'EUR', 1, '20.00', '5.00'),
      bucket('2026-03-11T23:00:00.000Z', 'USD', 0, '0.00'),
    ]);
    expect(response.body.data.paymentVolume.totals).toEqual([
      figures('EUR', 1, '20.00', '5.00'),
      figures('USD', 3, '18.50', '3.00'),
    ]);
  });

  test('hours follow the clock: the hour Paris repeats in autumn is two buckets, and that day has 25 hours', async () => {
    const hours = await volume({
      from: '2026-10-25T00:00:00Z',
      to: '2026-10-25T03:00:00Z',
      interval: 'HOUR',
      timeZone: 'Europe/Paris',
    });
    expect(hours.body.errors).toBeUndefined();
    expect(hours.body.data.paymentVolume.buckets).toEqual([
      bucket('2026-10-25T00:00:00.000Z', 'USD', 0, '0.00'),
      bucket('2026-10-25T01:00:00.000Z', 'USD', 1, '1.00'),
      bucket('2026-10-25T02:00:00.000Z', 'USD', 0, '0.00'),
    ]);
    const days = await volume({
      from: '2026-10-24T22:00:00Z',
      to: '2026-10-26T23:00:00Z',
      interval: 'DAY',
      timeZone: 'Europe/Paris',
    });
    expect(days.body.data.paymentVolume.buckets).toEqual([
      bucket('2026-10-24T22:00:00.000Z', 'USD', 1, '1.00'),
      bucket('2026-10-25T23:00:00.000Z', 'USD', 0, '0.00'),
    ]);
  });

  test('weeks start on Monday (the first bucket may start before from), months on the first', async () => {
    const weeks = await volume({ from: '2026-03-10T00:00:00Z', to: '2026-03-13T00:00:00Z', interval: 'WEEK' });
    expect(weeks.body.data.paymentVolume.buckets).toEqual([
      bucket('2026-03-09T00:00:00.000Z', 'EUR', 1, '20.00', '5.00'),
      bucket('2026-03-09T00:00:00.000Z', 'USD', 3, '18.50', '3.00'),
    ]);
    const months = await volume({
      from: '2026-01-01T00:00:00Z',
      to: '2026-04-01T00:00:00Z',
      interval: 'MONTH',
      timeZone: 'UTC',
    });
    expect(months.body.data.paymentVolume.buckets.map((row: { start: string }) => row.start)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
    expect(months.body.data.paymentVolume.totals).toEqual([
      figures('EUR', 1, '20.00', '5.00'),
      figures('USD', 3, '18.50', '3.00'),
    ]);
  });

  test('each mode sees its own payments: live mode answers the live GBP payment, test mode never shows it', async () => {
    const range = { from: '2026-03-01T00:00:00Z', to: '2026-04-01T00:00:00Z', interval: 'MONTH' };
    const live = await volume(range, { ...bearer(merchant), 'x-service-mode': 'live' });
    expect(live.body.errors).toBeUndefined();
    expect(live.body.data.paymentVolume.totals).toEqual([figures('GBP', 1, '700.00')]);
    expect(live.body.data.paymentVolume.buckets).toEqual([bucket('2026-03-01T00:00:00.000Z', 'GBP', 1, '700.00')]);
    const test = await volume(range, { 'x-api-key': merchant.apiKey });
    expect(test.body.errors).toBeUndefined();
    expect(test.body.data.paymentVolume.totals.map((row: { currency: string }) => row.currency)).toEqual([
      'EUR',
      'USD',
    ]);
  });

  test('a VIEWER and an API key read it; another business sees none of these payments', async () => {
    const range = { from: '2026-03-10T00:00:00Z', to: '2026-03-13T00:00:00Z' };
    const viewer = await server.signUp();
    await server.addTeamMember(merchant, viewer, 'VIEWER');
    const asViewer = await volume(range, { ...bearer(viewer), 'x-service-business-id': merchant.businessId });
    expect(asViewer.body.errors).toBeUndefined();
    expect(asViewer.body.data.paymentVolume.totals).toEqual([
      figures('EUR', 1, '20.00', '5.00'),
      figures('USD', 3, '18.50', '3.00'),
    ]);
    const asKey = await volume(range, { 'x-api-key': merchant.apiKey });
    expect(asKey.body.data.paymentVolume.totals).toEqual(asViewer.body.data.paymentVolume.totals);

    // The viewer's own business, and its API key: nothing there.
    for (const headers of [bearer(viewer), { 'x-api-key': viewer.apiKey }]) {
      const theirs = await volume(range, headers);
      expect(theirs.body.errors).toBeUndefined();
      expect(theirs.body.data.paymentVolume).toMatchObject({ buckets: [], totals: [] });
    }
    const anonymous = await server.graphql(VOLUME, range);
    expect(anonymous.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  test.each([
    ['an unknown zone', { timeZone: 'Mars/Olympus' }, 'timeZone'],
    ['an abbreviation PostgreSQL would read without summer time', { timeZone: 'CET' }, 'timeZone'],
    ['a POSIX offset, whose sign PostgreSQL reads backwards', { timeZone: 'UTC+3' }, 'timeZone'],
    ['an empty zone', { timeZone: '' }, 'timeZone'],
    ['to equal to from', { to: '2026-03-10T00:00:00Z' }, 'to'],
    ['to before from', { to: '2026-03-09T00:00:00Z' }, 'to'],
    ['1,001 hours', { to: '2026-04-20T16:00:00.001Z', interval: 'HOUR' }, 'to'],
    ['ten years of days', { to: '2036-03-10T00:00:00Z', interval: 'DAY' }, 'to'],
    [
      'ten thousand years of months',
      { from: '0001-01-01T00:00:00Z', to: '9999-01-01T00:00:00Z', interval: 'MONTH' },
      'to',
    ],
  ])('%s is BAD_USER_INPUT naming the field, never a 500', async (_case, change, field) => {
    const response = await volume({ from: '2026-03-10T00:00:00Z', to: '2026-03-13T00:00:00Z', ...change });
    expect(response.status).toBe(200);
    expect(response.body.data).toBeNull();
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors?.[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      domainCode: 'VALIDATION_ERROR',
      errors: { [field]: [expect.any(String)] },
    });
  });

  test('the cap is exact: 1,000 buckets are answered, the 1,001st is refused with a message that says why', async () => {
    // 2026-03-10T00:00Z plus 1,000 hours is 2026-04-20T16:00Z: exactly 1,000 hour buckets.
    const fits = await volume({ from: '2026-03-10T00:00:00Z', to: '2026-04-20T16:00:00Z', interval: 'HOUR' });
    expect(fits.body.errors).toBeUndefined();
    const starts = new Set(fits.body.data.paymentVolume.buckets.map((row: { start: string }) => row.start));
    expect(starts.size).toBe(1_000);
    const over = await volume({ from: '2026-03-10T00:00:00Z', to: '2026-04-20T16:00:00.001Z', interval: 'HOUR' });
    expect(over.body.errors?.[0].extensions.errors.to).toEqual([
      'is too far from from: at most 1,000 HOUR buckets; ask for a shorter range or a longer interval',
    ]);
    const badZone = await volume({
      from: '2026-03-10T00:00:00Z',
      to: '2026-03-13T00:00:00Z',
      timeZone: 'Mars/Olympus',
    });
    expect(badZone.body.errors?.[0].extensions.errors.timeZone).toEqual([
      'must be an IANA time zone name such as Europe/Paris, America/New_York or UTC',
    ]);
  });

  test('a from that is not a date is GraphQL’s own variable error', async () => {
    const response = await volume({ from: 'yesterday', to: '2026-03-13T00:00:00Z' });
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
