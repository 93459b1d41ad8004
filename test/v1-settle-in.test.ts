import { Mode } from '../src/domain/shared/modes';
import { LedgerService } from '../src/domain/ledger/ledger.service';
import { FxPairNotQuoted } from '../src/providers/fx/port';
import { RATE_SCALE, SANDBOX_MID_RATES, SANDBOX_SPREAD_BPS, SandboxFxProvider } from '../src/providers/fx/sandbox';
import { TestServer, startTestServer } from './support/harness';
import { CARDS, cardForm, page, pathOf } from './support/checkout';
import { eventsOf } from './support/payments';
import { V1Merchant, countRows, issueV1Key, paymentBody, v1, v1Merchant } from './support/v1';

/**
 * `settle_in` (docs/alt-v1.md, Settlement in another currency): a /v1 payment in one currency
 * settling in another is converted at the sandbox FX provider's rate of settlement time and
 * credited to the wallet of `settle_in`, once, in one balanced journal transaction.
 */

const EXPONENT: Record<string, number> = { USD: 2, EUR: 2, NGN: 2, USDC: 6, JPY: 0 };

/** A plain decimal ("0.92") as units at `scale` digits, without float arithmetic. */
function unitsAt(text: string, scale: number): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(scale, '0').slice(0, scale));
}

/**
 * The documented sandbox rate (docs/payouts.md, FX): mid = perUsd(to) / perUsd(from) to 8 decimals
 * rounded down, less the 0.5% spread rounded down; as units of 10^-8.
 */
function sandboxRateUnits(from: string, to: string, perUsd: Record<string, string> = SANDBOX_MID_RATES): bigint {
  const scale = 10n ** BigInt(RATE_SCALE);
  const mid = (unitsAt(perUsd[to], RATE_SCALE) * scale) / unitsAt(perUsd[from], RATE_SCALE);
  return (mid * BigInt(10_000 - SANDBOX_SPREAD_BPS)) / 10_000n;
}

/** net minor units of `from` at the rate, rounded down to the minor unit of `to`. */
/** Units of 10^-8 as the 8-decimal text Tessera shows a rate in. */
const rateText = (units: bigint) =>
  `${units / 10n ** BigInt(RATE_SCALE)}.${(units % 10n ** BigInt(RATE_SCALE)).toString().padStart(RATE_SCALE, '0')}`;

/** Minor units as the major-unit decimal text of the main surface ("12.34"). */
const major = (minor: bigint, currency: string) => {
  const exponent = EXPONENT[currency];
  if (exponent === 0) return minor.toString();
  const scale = 10n ** BigInt(exponent);
  return `${minor / scale}.${(minor % scale).toString().padStart(exponent, '0')}`;
};

const converted = (net: bigint, from: string, to: string, rateUnits: bigint) =>
  (net * rateUnits * 10n ** BigInt(EXPONENT[to])) / 10n ** BigInt(RATE_SCALE + EXPONENT[from]);

describe('/v1 settle_in: settlement in another currency', () => {
  let server: TestServer;
  let fx: SandboxFxProvider;

  beforeAll(async () => {
    server = await startTestServer();
    fx = server.runtime.core.providers.inMode('fx', 'test') as SandboxFxProvider;
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    jest.restoreAllMocks();
    fx.setRatePerUsd('EUR', null);
  });

  /** Creates a /v1 payment and pays it on its hosted page with a sandbox card; returns the card payment's id. */
  async function paidPayment(
    merchant: V1Merchant,
    body: Record<string, unknown>,
  ): Promise<{ id: string; paymentId: string; created: any }> {
    const created = await v1(server, merchant.testKey)('POST', '/v1/payments', paymentBody(body));
    expect(created.status).toBe(201);
    await page(
      server,
      'POST',
      pathOf(created.body.payment_url),
      cardForm(CARDS.success, { email: 'payer@example.com' }),
    );
    expect((await v1(server, merchant.testKey)('GET', `/v1/payments/${created.body.id}`)).body.status).toBe(
      'completed',
    );
    const [payment] = await server.runtime.dataSource.query(
      `SELECT id FROM payments WHERE source = 'checkout_session' AND source_id = $1 AND status = 'COMPLETED'`,
      [created.body.id],
    );
    return { id: created.body.id, paymentId: payment.id, created: created.body };
  }

  /** The settlement job, as graphile-worker runs it. */
  const runSettlementJob = (paymentId: string) =>
    server.runtime.core.payments.settleDue(server.runtime.core.anonymousContext(), paymentId);

  const walletOf = async (businessId: string, currency: string): Promise<bigint | null> => {
    const [row] = await server.runtime.dataSource.query(
      `SELECT balance::text FROM ledger_accounts WHERE kind = 'merchant_wallet' AND business_id = $1 AND currency = $2 AND livemode = false`,
      [businessId, currency],
    );
    return row ? BigInt(row.balance) : null;
  };

  const paymentRow = async (paymentId: string) =>
    (
      await server.runtime.dataSource.query(
        'SELECT status, amount::text, fee_amount::text FROM payments WHERE id = $1',
        [paymentId],
      )
    )[0];

  /** The settlement's journal entries: account kind, currency, amount. */
  const settlementEntries = (
    paymentId: string,
  ): Promise<Array<{ kind: string; currency: string; amount: string; transaction_id: string }>> =>
    server.runtime.dataSource.query(
      `SELECT a.kind, e.currency, e.amount::text, t.id AS transaction_id FROM journal_transactions t
         JOIN journal_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.kind = 'card_settlement' AND t.reference_id = $1 ORDER BY a.kind::text, e.currency`,
      [paymentId],
    );

  test('a EUR payment with settle_in USD settles into the USD wallet with the net converted at the sandbox rate, once even if the job runs twice or concurrently', async () => {
    const merchant = await v1Merchant(server);
    const { id, paymentId, created } = await paidPayment(merchant, {
      amount: 12_345,
      currency: 'eur',
      settle_in: 'usd',
    });
    expect(created.settle_in).toBe('USD');
    // Two runs at once (a retried job racing the first), then a third: one settlement.
    await Promise.all([runSettlementJob(paymentId), runSettlementJob(paymentId)]);
    await runSettlementJob(paymentId);

    const payment = await paymentRow(paymentId);
    expect(payment.status).toBe('SETTLED');
    const fee = BigInt(payment.fee_amount);
    expect(fee).toBeGreaterThan(0n);
    const net = 12_345n - fee;
    const expected = converted(net, 'EUR', 'USD', sandboxRateUnits('EUR', 'USD'));
    expect(expected).toBeGreaterThan(0n);
    expect(await walletOf(merchant.businessId, 'USD')).toBe(expected);
    expect(await walletOf(merchant.businessId, 'EUR')).toBeNull();

    const entries = await settlementEntries(paymentId);
    expect(new Set(entries.map((entry) => entry.transaction_id)).size).toBe(1);
    expect(entries.map(({ kind, currency, amount }) => ({ kind, currency, amount }))).toEqual([
      { kind: 'fees_revenue', currency: 'EUR', amount: fee.toString() },
      { kind: 'fx_clearing', currency: 'EUR', amount: net.toString() },
      { kind: 'fx_clearing', currency: 'USD', amount: (-expected).toString() },
      { kind: 'merchant_pending', currency: 'EUR', amount: '-12345' },
      { kind: 'merchant_wallet', currency: 'USD', amount: expected.toString() },
    ]);
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
    // One payment.settled: amount is the net in EUR; settlement is what the USD wallet received, and at which rate.
    const settledEvents = await eventsOf(server, merchant.businessId, 'payment.settled');
    expect(settledEvents).toHaveLength(1);
    expect(settledEvents[0].data).toMatchObject({
      paymentId,
      amount: major(net, 'EUR'),
      currency: 'eur',
      fee: major(fee, 'EUR'),
      settlement: { currency: 'usd', amount: major(expected, 'USD'), rate: rateText(sandboxRateUnits('EUR', 'USD')) },
    });
    // The /v1 read shape keeps settle_in; the payment shows completed.
    const read = await v1(server, merchant.testKey)('GET', `/v1/payments/${id}`);
    expect(read.body).toMatchObject({ id, status: 'completed', amount: 12_345, currency: 'EUR', settle_in: 'USD' });
  });

  test("the rate is the FX provider's at settlement time, not at creation", async () => {
    const merchant = await v1Merchant(server);
    const { paymentId } = await paidPayment(merchant, { amount: 50_000, currency: 'EUR', settle_in: 'USD' });
    // The EUR rate moves between creation and settlement.
    fx.setRatePerUsd('EUR', '0.8');
    await runSettlementJob(paymentId);
    const net = 50_000n - BigInt((await paymentRow(paymentId)).fee_amount);
    const expected = converted(net, 'EUR', 'USD', sandboxRateUnits('EUR', 'USD', { ...SANDBOX_MID_RATES, EUR: '0.8' }));
    expect(expected).not.toBe(converted(net, 'EUR', 'USD', sandboxRateUnits('EUR', 'USD')));
    expect(await walletOf(merchant.businessId, 'USD')).toBe(expected);
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
  });

  test('an NGN payment with settle_in USDC settles through the sandbox settle helper into the USDC wallet (exponent 6), and the job then does nothing', async () => {
    const merchant = await v1Merchant(server);
    const { paymentId } = await paidPayment(merchant, { amount: 2_500_000, currency: 'NGN', settle_in: 'USDC' });
    const settled = await server.request('POST', `/api/v1/business/sandbox/payments/${paymentId}/settle`, {
      headers: { 'x-api-key': merchant.apiKey },
    });
    expect(settled.status).toBe(200);
    await runSettlementJob(paymentId);
    const net = 2_500_000n - BigInt((await paymentRow(paymentId)).fee_amount);
    const expected = converted(net, 'NGN', 'USDC', sandboxRateUnits('NGN', 'USDC'));
    expect(await walletOf(merchant.businessId, 'USDC')).toBe(expected);
    expect(await walletOf(merchant.businessId, 'NGN')).toBeNull();
    expect(new Set((await settlementEntries(paymentId)).map((entry) => entry.transaction_id)).size).toBe(1);
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
  });

  test('a dispute on an unsettled converted payment settles it into settle_in first, is paid from that wallet, and a won dispute re-credits it converted', async () => {
    const merchant = await v1Merchant(server);
    const { paymentId } = await paidPayment(merchant, { amount: 40_000, currency: 'EUR', settle_in: 'USD' });
    const fund = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { amount: '1000.00', currency: 'usd' },
    });
    expect(fund.status).toBe(201);
    const disputed = await server.request('POST', `/api/v1/business/sandbox/payments/${paymentId}/dispute`, {
      headers: { 'x-api-key': merchant.apiKey },
      body: {},
    });
    expect(disputed.status).toBe(201);
    const disputeFee = BigInt(
      (await server.runtime.dataSource.query('SELECT fee::text FROM disputes WHERE payment_id = $1', [paymentId]))[0]
        .fee,
    );
    const credited = converted(
      40_000n - BigInt((await paymentRow(paymentId)).fee_amount),
      'EUR',
      'USD',
      sandboxRateUnits('EUR', 'USD'),
    );
    const usdToEur = sandboxRateUnits('USD', 'EUR');
    const cost = ((40_000n + disputeFee) * 10n ** BigInt(RATE_SCALE) + usdToEur - 1n) / usdToEur;
    expect(await walletOf(merchant.businessId, 'USD')).toBe(100_000n + credited - cost);
    expect(await walletOf(merchant.businessId, 'EUR')).toBeNull();

    const won = await server.request('POST', `/api/v1/business/sandbox/disputes/${disputed.body.data.id}/resolve`, {
      headers: { 'x-api-key': merchant.apiKey },
      body: { won: true },
    });
    expect(won.status).toBe(200);
    expect(await walletOf(merchant.businessId, 'USD')).toBe(
      100_000n + credited - cost + converted(40_000n, 'EUR', 'USD', sandboxRateUnits('EUR', 'USD')),
    );
    expect(await walletOf(merchant.businessId, 'EUR')).toBeNull();
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
  });

  test('a refund after a converted settlement is paid from the settle_in wallet at the rate of refund time, rounded up; one it cannot cover is refused', async () => {
    const merchant = await v1Merchant(server);
    const { paymentId } = await paidPayment(merchant, { amount: 10_000, currency: 'EUR', settle_in: 'USD' });
    await runSettlementJob(paymentId);
    const credited = converted(
      10_000n - BigInt((await paymentRow(paymentId)).fee_amount),
      'EUR',
      'USD',
      sandboxRateUnits('EUR', 'USD'),
    );
    expect(await walletOf(merchant.businessId, 'USD')).toBe(credited);
    const refund = (body: Record<string, unknown>) =>
      server.request('POST', `/api/v1/business/payments/${paymentId}/refunds`, {
        headers: { 'x-api-key': merchant.apiKey },
        body,
      });

    // 50.00 EUR back to the cardholder: the USD wallet pays what buys it at the USD -> EUR rate, rounded up.
    expect((await refund({ amount: '50.00' })).status).toBe(201);
    const usdToEur = sandboxRateUnits('USD', 'EUR');
    const cost = (5_000n * 10n ** BigInt(RATE_SCALE) + usdToEur - 1n) / usdToEur;
    expect(converted(cost, 'USD', 'EUR', usdToEur)).toBeGreaterThanOrEqual(5_000n);
    expect(await walletOf(merchant.businessId, 'USD')).toBe(credited - cost);
    expect(await walletOf(merchant.businessId, 'EUR')).toBeNull();

    // The other 50.00 EUR costs more USD than is left: 422 INSUFFICIENT_FUNDS, nothing written.
    const refused = await refund({ amount: '50.00' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await walletOf(merchant.businessId, 'USD')).toBe(credited - cost);
    const [{ n }] = await server.runtime.dataSource.query(
      'SELECT count(*)::int AS n FROM refunds WHERE payment_id = $1',
      [paymentId],
    );
    expect(n).toBe(1);
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
  });

  test.each([
    ['no settle_in', {}],
    ['settle_in equal to the currency', { settle_in: 'eur' }],
  ])(
    "%s settles (and refunds) in the wallet of the payment's own currency as before, without asking the FX provider",
    async (_name, extra) => {
      const merchant = await v1Merchant(server);
      const offer = jest.spyOn(fx, 'offer');
      const { paymentId, created } = await paidPayment(merchant, { amount: 10_000, currency: 'EUR', ...extra });
      expect(created.settle_in).toBe('EUR');
      await runSettlementJob(paymentId);
      await runSettlementJob(paymentId);
      const fee = BigInt((await paymentRow(paymentId)).fee_amount);
      expect(await walletOf(merchant.businessId, 'EUR')).toBe(10_000n - fee);
      expect(
        (await settlementEntries(paymentId)).map(({ kind, currency, amount }) => ({ kind, currency, amount })),
      ).toEqual([
        { kind: 'fees_revenue', currency: 'EUR', amount: fee.toString() },
        { kind: 'merchant_pending', currency: 'EUR', amount: '-10000' },
        { kind: 'merchant_wallet', currency: 'EUR', amount: (10_000n - fee).toString() },
      ]);
      // A refund after settlement comes from the same wallet, as before.
      const refunded = await server.request('POST', `/api/v1/business/payments/${paymentId}/refunds`, {
        headers: { 'x-api-key': merchant.apiKey },
        body: { amount: '10.00' },
      });
      expect(refunded.status).toBe(201);
      expect(await walletOf(merchant.businessId, 'EUR')).toBe(10_000n - fee - 1_000n);
      expect(offer).not.toHaveBeenCalled();
      const [settledEvent] = await eventsOf(server, merchant.businessId, 'payment.settled');
      expect(settledEvent.data.settlement).toBeUndefined();
      expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
    },
  );

  describe('refused settle_in values: 422 validation_failed on settle_in in the /v1 body, nothing written', () => {
    async function expectRefused(key: string, body: Record<string, unknown>) {
      const before = [await countRows(server, 'v1_payments'), await countRows(server, 'checkout_sessions')];
      const response = await v1(server, key)('POST', '/v1/payments', paymentBody(body));
      expect(response.status).toBe(422);
      expect(Object.keys(response.body)).toEqual(['error']);
      expect(response.body.error.code).toBe('validation_failed');
      expect(Object.keys(response.body.error.details)).toEqual(['settle_in']);
      expect([await countRows(server, 'v1_payments'), await countRows(server, 'checkout_sessions')]).toEqual(before);
      return response.body.error;
    }

    test.each([
      ['an unknown code', 'xyz'],
      ['a 2-letter code', 'us'],
      ['an unsupported 4-letter code (USDT)', 'usdt'],
      ['a number', 840],
      ['an empty string', ''],
    ])('%s', async (_name, settleIn) => {
      const merchant = await v1Merchant(server);
      await expectRefused(merchant.testKey, { currency: 'eur', settle_in: settleIn });
    });

    test('a pair the FX provider does not quote', async () => {
      const merchant = await v1Merchant(server);
      jest.spyOn(fx, 'offer').mockRejectedValue(new FxPairNotQuoted('EUR', 'JPY', 'not traded'));
      const error = await expectRefused(merchant.testKey, { currency: 'eur', settle_in: 'jpy' });
      expect(error.details.settle_in[0]).toContain('does not quote EUR to JPY');
    });

    test('a live key, while live mode has no FX provider to convert with', async () => {
      const merchant = await v1Merchant(server);
      const live = await issueV1Key(server, merchant.businessId, Mode.LIVE);
      await expectRefused(live, { currency: 'eur', settle_in: 'usd' });
    });
  });

  test('the sandbox FX provider refuses a currency it has no rate for as a pair it does not quote', async () => {
    await expect(
      new SandboxFxProvider().offer({ sourceCurrency: 'EUR', destinationCurrency: 'XYZ', rail: 'LOCAL_BANK' }),
    ).rejects.toBeInstanceOf(FxPairNotQuoted);
  });
});
