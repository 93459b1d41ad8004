import Stripe from 'stripe';
import { RequestContext } from '../src/domain/shared/context';
import { Mode } from '../src/domain/shared/modes';
import { CLI } from './support/cli';
import { FakeStripe } from './support/fake-stripe';
import { TestServer, startDeliveringServer } from './support/harness';
import { completedLiveCharge, liveChargingMerchant } from './support/payments';
import { spawnTs } from './support/process';
import { booksDigest, reconcileCliEnv, today, todaysPeriod } from './support/reconciliation';
import { waitFor, waitUntil } from './support/wait';

const WEBHOOK_SECRET = 'whsec_reconciliation_fake';
const WEBHOOKS_PATH = '/providers/stripe/webhooks';

/**
 * Issue 29, Reconciliation (docs/live.md): Stripe's balance transactions of a period against the
 * ledger. A live charge, a partial refund and a dispute go through a Tessera server pointed at the
 * local fake of Stripe; reconciling the day finds nothing; a charge Stripe has and Tessera never
 * recorded is exactly the one difference, shown by `tessera reconcile` (exit 1), and nothing else
 * in the database changes.
 */
describe("reconciliation of Stripe's balance with the ledger", () => {
  let fake: FakeStripe;
  let server: TestServer;

  beforeAll(async () => {
    fake = await new FakeStripe().start();
    server = await startDeliveringServer({
      paymentSettlementDelaySeconds: 0,
      stripe: { secretKey: fake.secretKey, webhookSecret: WEBHOOK_SECRET, apiBase: fake.baseUrl },
    });
    fake.deliverTo(`${server.baseUrl}${WEBHOOKS_PATH}`, WEBHOOK_SECRET);
  });
  afterAll(async () => {
    await fake.close();
    await server.close();
  });

  const query = <T = any>(sql: string, params: unknown[] = []) => server.runtime.dataSource.query<T[]>(sql, params);
  const operator = () => RequestContext.system(server.runtime.dataSource, 'test', null, Mode.LIVE);
  /** What reconciliation must never change: every row of the ledger, payments, refunds and disputes. */
  const booksDigestOf = () =>
    booksDigest(server, [
      'journal_transactions',
      'journal_entries',
      'ledger_accounts',
      'payments',
      'refunds',
      'disputes',
    ]);
  const cliEnv = () =>
    reconcileCliEnv(server, {
      STRIPE_SECRET_KEY: fake.secretKey,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.baseUrl,
    });
  const reconcileWithCli = async () => {
    const run = spawnTs(CLI, ['reconcile', '--from', today()], cliEnv());
    const exit = await run.exited;
    return { exit, report: JSON.parse(run.output()) };
  };

  test('a charge, a partial refund and a dispute reconcile with no difference; a charge Tessera never recorded is the one difference (CLI exit 1), nothing changed', async () => {
    const merchant = await liveChargingMerchant(server);
    const { liveKey } = merchant;
    const liveCharge = (amount: number) => completedLiveCharge(server, liveKey, amount);
    const refunded = await liveCharge(100);
    const disputed = await liveCharge(25.5);
    await waitUntil(
      async () =>
        (
          await query(`SELECT count(*)::int AS n FROM payments WHERE business_id = $1 AND status = 'SETTLED'`, [
            merchant.businessId,
          ])
        )[0].n === 2,
      'both live payments settled',
    );
    const partial = await server.request('POST', `/api/v1/business/payments/${refunded}/refunds`, {
      headers: { 'x-api-key': liveKey },
      body: { amount: 30 },
    });
    expect(partial.status).toBe(201);
    const [{ acquirer_reference: intent }] = await query(`SELECT acquirer_reference FROM payments WHERE id = $1`, [
      disputed,
    ]);
    const dispute = fake.createDispute(intent, { amount: 2000 });
    const [tesseraDispute] = await waitFor(
      () => query(`SELECT id FROM disputes WHERE acquirer_dispute_id = $1`, [dispute.id]),
      (rows) => rows.length === 1,
    );

    const clean = await server.runtime.core.reconciliation.reconcile(operator(), todaysPeriod());
    expect(clean.differences).toEqual([]);
    // Two charges, one refund, one dispute: each found with its posting, same amount and currency.
    expect(clean.run).toMatchObject({
      acquirer: 'stripe',
      status: 'compared',
      transactions: 4,
      matched: 4,
      differences: 0,
    });
    const stripeFees = fake
      .list('balance_transaction')
      .reduce((total, transaction) => total + (transaction.fee as number), 0);
    expect(clean.run.fees).toEqual({ USD: String(stripeFees) });
    const fees = await query(
      `SELECT transaction_type, tessera_id, fee::int FROM reconciliation_fees WHERE run_id = $1 ORDER BY transaction_type, fee`,
      [clean.run.id],
    );
    expect(fees).toEqual([
      { transaction_type: 'charge', tessera_id: disputed, fee: Math.round(2550 * 0.029) + 30 },
      { transaction_type: 'charge', tessera_id: refunded, fee: Math.round(10000 * 0.029) + 30 },
      { transaction_type: 'dispute', tessera_id: tesseraDispute.id, fee: 1500 },
    ]);
    const cleanCli = await reconcileWithCli();
    expect(cleanCli).toMatchObject({ exit: 0, report: { run: { transactions: 4, matched: 4, differences: 0 } } });
    expect(cleanCli.report.differences).toEqual([]);

    // Planted: a charge made on the Stripe account outside Tessera (the dashboard, another system).
    const stripe = new Stripe(fake.secretKey, {
      host: '127.0.0.1',
      port: Number(new URL(fake.baseUrl).port),
      protocol: 'http',
    });
    const method = await stripe.paymentMethods.create({
      type: 'card',
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2040, cvc: '123' },
    });
    const stray = await stripe.paymentIntents.create({
      amount: 4200,
      currency: 'usd',
      payment_method: method.id,
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    });
    expect(stray.status).toBe('succeeded');
    const strayTransaction = fake
      .list('balance_transaction')
      .find((transaction) => transaction.source === stray.latest_charge)!;

    const before = await booksDigestOf();
    const planted = await reconcileWithCli();
    expect(planted.exit).toBe(1);
    expect(planted.report.run).toMatchObject({ transactions: 5, matched: 4, differences: 1 });
    expect(planted.report.differences).toEqual([
      {
        kind: 'missing_in_ledger',
        type: 'charge',
        acquirerTransactionId: strayTransaction.id,
        acquirerId: stray.id,
        tesseraId: null,
        acquirerAmount: '42.00',
        acquirerCurrency: 'USD',
        ledgerAmount: null,
        ledgerCurrency: null,
      },
    ]);
    const recorded = await query(
      `SELECT kind, transaction_type, acquirer_id, tessera_id, acquirer_amount::int, ledger_amount
         FROM reconciliation_differences WHERE run_id = $1`,
      [planted.report.run.id],
    );
    expect(recorded).toEqual([
      {
        kind: 'missing_in_ledger',
        transaction_type: 'charge',
        acquirer_id: stray.id,
        tessera_id: null,
        acquirer_amount: 4200,
        ledger_amount: null,
      },
    ]);
    expect(await booksDigestOf()).toBe(before);
  });
  test('a wrong reference is missing at Stripe and in the ledger, and an amount Stripe captured differently is an amount mismatch; nothing changed', async () => {
    const merchant = await liveChargingMerchant(server);
    const { liveKey } = merchant;
    const liveCharge = (amount: number) => completedLiveCharge(server, liveKey, amount);
    const misreferenced = await liveCharge(12);
    const mismatched = await liveCharge(13);
    // Settled first, so the worker's settlement does not move the books while they are compared.
    await waitUntil(
      async () =>
        (
          await query(`SELECT count(*)::int AS n FROM payments WHERE business_id = $1 AND status = 'SETTLED'`, [
            merchant.businessId,
          ])
        )[0].n === 2,
      'both live payments settled',
    );
    const referenceOf = async (paymentId: string) =>
      (await query(`SELECT acquirer_reference FROM payments WHERE id = $1`, [paymentId]))[0]
        .acquirer_reference as string;
    const realIntent = await referenceOf(misreferenced);
    const mismatchedIntent = fake.object(await referenceOf(mismatched))!;

    // Planted: the payment names an intent Stripe does not have, and Stripe captured 13.01, not 13.00.
    await query(`UPDATE payments SET acquirer_reference = 'pi_not_at_stripe' WHERE id = $1`, [misreferenced]);
    fake.alter(mismatchedIntent.latest_charge as string, { amount: 1301, amount_captured: 1301 });
    fake.alter(mismatchedIntent.id, { amount: 1301, amount_received: 1301 });

    const before = await booksDigestOf();
    const { run, differences } = await server.runtime.core.reconciliation.reconcile(operator(), todaysPeriod());
    const about = (id: string) =>
      differences
        .filter((difference) => difference.tesseraId === id || difference.acquirerId === id)
        .map(({ kind, transactionType, acquirerId, tesseraId, acquirerAmount, ledgerAmount }) => ({
          kind,
          type: transactionType,
          acquirerId,
          tesseraId,
          acquirerAmount,
          ledgerAmount,
        }));
    expect(about(misreferenced)).toEqual([
      {
        kind: 'missing_at_acquirer',
        type: 'charge',
        acquirerId: 'pi_not_at_stripe',
        tesseraId: misreferenced,
        acquirerAmount: null,
        ledgerAmount: 1200n,
      },
    ]);
    expect(about(realIntent)).toEqual([
      {
        kind: 'missing_in_ledger',
        type: 'charge',
        acquirerId: realIntent,
        tesseraId: null,
        acquirerAmount: 1200n,
        ledgerAmount: null,
      },
    ]);
    expect(about(mismatched)).toEqual([
      {
        kind: 'amount_mismatch',
        type: 'charge',
        acquirerId: mismatchedIntent.id,
        tesseraId: mismatched,
        acquirerAmount: 1301n,
        ledgerAmount: 1300n,
      },
    ]);
    expect(run.differences).toBe(differences.length);
    expect(await booksDigestOf()).toBe(before);
  });
  test('a charge Stripe holds in another currency than the ledger booked is a currency mismatch, with both amounts and currencies; nothing changed', async () => {
    const merchant = await liveChargingMerchant(server);
    const charged = await completedLiveCharge(server, merchant.liveKey, 14);
    await waitUntil(
      async () => (await query(`SELECT status FROM payments WHERE id = $1`, [charged]))[0].status === 'SETTLED',
      'the live payment settled',
    );
    const [{ acquirer_reference: intentId }] = await query(`SELECT acquirer_reference FROM payments WHERE id = $1`, [
      charged,
    ]);
    const intent = fake.object(intentId)!;
    // Planted: Stripe recorded the charge in euros (the same 14.00), Tessera booked dollars.
    fake.alter(intent.latest_charge as string, { currency: 'eur' });
    fake.alter(intent.id, { currency: 'eur' });

    const before = await booksDigestOf();
    const { run, differences } = await server.runtime.core.reconciliation.reconcile(operator(), todaysPeriod());
    const [chargeTransaction] = fake
      .list('balance_transaction')
      .filter((transaction) => transaction.source === intent.latest_charge);
    expect(differences.filter((difference) => difference.tesseraId === charged)).toEqual([
      expect.objectContaining({
        runId: run.id,
        kind: 'currency_mismatch',
        transactionType: 'charge',
        acquirerTransactionId: chargeTransaction.id,
        acquirerId: intent.id,
        tesseraId: charged,
        acquirerAmount: 1400n,
        acquirerCurrency: 'EUR',
        ledgerAmount: 1400n,
        ledgerCurrency: 'USD',
      }),
    ]);
    const [recorded] = await query(
      `SELECT kind, acquirer_amount::int, acquirer_currency, ledger_amount::int, ledger_currency
         FROM reconciliation_differences WHERE run_id = $1 AND tessera_id = $2`,
      [run.id, charged],
    );
    expect(recorded).toEqual({
      kind: 'currency_mismatch',
      acquirer_amount: 1400,
      acquirer_currency: 'EUR',
      ledger_amount: 1400,
      ledger_currency: 'USD',
    });
    expect(await booksDigestOf()).toBe(before);
  });

  test("a day whose balance transactions span several of Stripe's pages is read whole (has_more, starting_after): the same run as one page", async () => {
    const merchant = await liveChargingMerchant(server);
    for (const amount of [3, 4, 5]) await completedLiveCharge(server, merchant.liveKey, amount);
    await waitUntil(
      async () =>
        (
          await query(`SELECT count(*)::int AS n FROM payments WHERE business_id = $1 AND status = 'SETTLED'`, [
            merchant.businessId,
          ])
        )[0].n === 3,
      'the live payments settled',
    );
    const period = todaysPeriod();
    const inPeriod = fake.list('balance_transaction').filter((transaction) => {
      const at = (transaction.created as number) * 1000;
      return at >= period.from.getTime() && at < period.to.getTime();
    });
    expect(inPeriod.length).toBeGreaterThan(6);
    const summary = ({ run, differences }: Awaited<ReturnType<typeof reconcile>>) => ({
      counts: [run.transactions, run.matched, run.skipped, run.differences],
      fees: run.fees,
      differences: differences
        .map((difference) => `${difference.kind} ${difference.acquirerId} ${difference.tesseraId}`)
        .sort(),
    });
    const reconcile = () => server.runtime.core.reconciliation.reconcile(operator(), period);
    const listRequests = () => fake.requests.filter((request) => request.path === '/v1/balance_transactions');

    const onePage = await reconcile();
    expect(onePage.run.transactions + onePage.run.skipped).toBe(inPeriod.length);

    fake.balanceTransactionPageSize = 2;
    try {
      const seen = listRequests().length;
      const paged = await reconcile();
      const pages = listRequests().slice(seen);
      // Every transaction around the period (an hour beyond each end), two a page, each page after the last one's end.
      expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(inPeriod.length / 2));
      expect(pages[0].query.starting_after).toBeUndefined();
      for (const page of pages.slice(1)) expect(page.query.starting_after).toMatch(/^txn_/);
      expect(summary(paged)).toEqual(summary(onePage));
      expect(paged.run.transactions + paged.run.skipped).toBe(inPeriod.length);
    } finally {
      fake.balanceTransactionPageSize = null;
    }
  });
  test("each configured provider's balance is a run under its name: the daily job's runs Stripe's (the sandbox keeps none), the differences carry it; an unknown --provider is refused", async () => {
    const period = todaysPeriod();
    const reports = await server.runtime.core.reconciliation.reconcileEach(operator(), period);
    expect(reports.map(({ run }) => [run.provider, run.acquirer, run.status])).toEqual([
      ['stripe', 'stripe', 'compared'],
    ]);
    const [{ run, differences }] = reports;
    expect(differences.length).toBeGreaterThan(0);
    expect(await query(`SELECT DISTINCT provider FROM reconciliation_differences WHERE run_id = $1`, [run.id])).toEqual(
      [{ provider: 'stripe' }],
    );
    const named = await server.runtime.core.reconciliation.reconcile(operator(), { ...period, provider: 'stripe' });
    expect(named.run).toMatchObject({ provider: 'stripe', differences: run.differences });

    const runs = async () => (await query(`SELECT count(*)::int AS n FROM reconciliation_runs`))[0].n as number;
    const before = await runs();
    await expect(
      server.runtime.core.reconciliation.reconcile(operator(), { ...period, provider: 'bridge' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(
        /^No reconciliation source is configured for provider 'bridge' \(configured: stripe/,
      ),
    });
    const cli = spawnTs(CLI, ['reconcile', '--from', today(), '--provider', 'bridge'], cliEnv());
    expect(await cli.exited).toBe(1);
    expect(cli.errorOutput()).toContain("No reconciliation source is configured for provider 'bridge'");
    expect(await runs()).toBe(before);
  });

  test('the CLI refuses a day that is not one, and a period over 31 days or ending before it starts: one line, exit 1, no run recorded', async () => {
    const runs = async () => (await query(`SELECT count(*)::int AS n FROM reconciliation_runs`))[0].n as number;
    const before = await runs();
    for (const [args, said] of [
      [['--from', '2026-13-45'], '--from must be a day, YYYY-MM-DD'],
      [['--from', '2026-01-01', '--to', '2026-03-01'], 'at most 31 days'],
      [['--from', '2026-03-02', '--to', '2026-03-01'], 'must end after it starts'],
    ] as const) {
      const run = spawnTs(CLI, ['reconcile', ...args], cliEnv());
      expect(await run.exited).toBe(1);
      expect(run.errorOutput()).toContain(said);
      expect(run.errorOutput()).not.toMatch(/\n\s+at /); // no stack trace
    }
    expect(await runs()).toBe(before);
  });
});
