import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { RequestContext } from '../src/domain/shared/context';
import { Mode } from '../src/domain/shared/modes';
import { CLI } from './support/cli';
import { FakeYellowCard, YC_NETWORKS } from './support/fake-yellowcard';
import { TestMerchant, TestServer } from './support/harness';
import { startYellowCardLive } from './support/yellowcard-live';
import { PAYOUTS, bankDetails } from './support/payouts';
import { spawnBudget, spawnTs } from './support/process';
import { waitFor, waitUntil } from './support/wait';

const COLLECTIONS = '/api/v1/business/collections';
const MTN_GH = YC_NETWORKS[1];

/**
 * Issue 30, daily reconciliation per provider (docs/live.md, "Yellow Card's reconciliation"):
 * Yellow Card's payments and collections of a day (the local fake's lists) against the ledger. A
 * bank payout, a mobile-money payout and a collection completed through Yellow Card reconcile with
 * no difference; one planted difference of each kind is found, and nothing in the books changes.
 */
describe("reconciliation of Yellow Card's payments and collections with the ledger", () => {
  let fake: FakeYellowCard;
  let server: TestServer;
  let merchant: TestMerchant & { liveKey: string };

  const query = <T = any>(sql: string, params: unknown[] = []) => server.runtime.dataSource.query<T[]>(sql, params);
  const operator = () => RequestContext.system(server.runtime.dataSource, 'test', null, Mode.LIVE);
  const live = () => ({ 'x-api-key': merchant.liveKey });
  const post = (url: string, body: Record<string, unknown>) => server.request('POST', url, { headers: live(), body });
  const today = () => new Date().toISOString().slice(0, 10);
  const todaysPeriod = () => {
    const from = new Date(`${today()}T00:00:00Z`);
    return { from, to: new Date(from.getTime() + 86_400_000), provider: 'yellowcard' };
  };
  const reconcile = () => server.runtime.core.reconciliation.reconcile(operator(), todaysPeriod());
  /** What reconciliation must never change: the ledger, payouts and collections, row for row. */
  const booksDigest = async () => {
    const hash = crypto.createHash('sha256');
    for (const table of ['journal_transactions', 'journal_entries', 'ledger_accounts', 'payouts', 'collections'])
      hash.update(JSON.stringify(await query(`SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY 1`)));
    return hash.digest('hex');
  };
  const payoutStatus = async (id: string) =>
    (await server.request('GET', `${PAYOUTS}/${id}`, { headers: live() })).body.data.status as string;

  /** A payout of 10.00 USD to `details`, completed at Yellow Card and SETTLED by its webhook: ids and local amount. */
  const settledPayout = async (details: Record<string, unknown>) => {
    const made = await post(`${PAYOUTS}/recipients`, { label: 'Supplier', details });
    expect([200, 201]).toContain(made.status);
    const response = await post(PAYOUTS, { recipientId: made.body.data.id, amount: '10.00', currency: 'USD' });
    expect(response.status).toBe(201);
    const id = response.body.data.id as string;
    const payment = await waitFor(
      async () => fake.find(id),
      (found) => found?.status === 'processing',
    );
    if (!payment) throw new Error(`Yellow Card never accepted the payment of ${id}`);
    await waitUntil(async () => (await payoutStatus(id)) === 'SUBMITTED', `payout ${id} SUBMITTED`);
    fake.completePayment(payment.id);
    await waitUntil(async () => (await payoutStatus(id)) === 'SETTLED', `payout ${id} SETTLED`);
    return { id, ycId: payment.id, localAmount: payment.localAmount };
  };
  /** A bank collection of 16,000.00 NGN, paid in full at Yellow Card and completed by its webhook. */
  const completedCollection = async () => {
    const created = await post(COLLECTIONS, {
      amount: 1_600_000,
      currency: 'ngn',
      country: 'NG',
      rail: 'bank',
      customer: { email: 'ada@example.com', name: 'Ada Obi' },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const ycId = fake.find(id)!.id;
    fake.completeCollection(ycId);
    await waitUntil(
      async () =>
        (await server.request('GET', `${COLLECTIONS}/${id}`, { headers: live() })).body.data.status === 'completed',
      `collection ${id} completed`,
    );
    return { id, ycId };
  };
  const momo = {
    rail: 'MOBILE_MONEY',
    country: 'GH',
    currency: 'GHS',
    networkId: MTN_GH.id,
    phone: '+233241234567',
    accountName: 'Kofi Mensah',
  };

  beforeAll(async () => {
    ({ fake, server, merchant } = await startYellowCardLive(100_000n)); // 1,000.00 USD
  });
  afterAll(async () => {
    await fake.close();
    await server.close();
  });

  test(
    'a bank payout, a mobile-money payout and a collection match; the daily job and `tessera reconcile --provider yellowcard` run it (exit 0)',
    async () => {
      const bank = await settledPayout(bankDetails('6789'));
      const mobile = await settledPayout(momo);
      await completedCollection();
      // A payout still processing at Yellow Card: listed, not compared.
      const made = await post(`${PAYOUTS}/recipients`, { label: 'Pending', details: bankDetails('4321') });
      const pending = await post(PAYOUTS, { recipientId: made.body.data.id, amount: '1.00', currency: 'USD' });
      await waitFor(
        async () => fake.find(pending.body.data.id as string),
        (found) => found?.status === 'processing',
      );
      expect(bank.localAmount).toBe(15500); // 10.00 USD at 1550 NGN
      expect(mobile.localAmount).toBe(150); // 10.00 USD at 15 GHS

      const report = await reconcile();
      expect(report.differences).toEqual([]);
      expect(report.run).toMatchObject({
        provider: 'yellowcard',
        acquirer: null,
        status: 'compared',
        transactions: 3,
        matched: 3,
        skipped: 1,
        differences: 0,
        fees: {},
      });

      // The daily job's: every configured source, Yellow Card's among them.
      const daily = await server.runtime.core.reconciliation.reconcileEach(operator(), {
        from: todaysPeriod().from,
        to: todaysPeriod().to,
      });
      expect(daily.map(({ run }) => [run.provider, run.matched, run.differences])).toEqual([['yellowcard', 3, 0]]);

      const run = spawnTs(CLI, ['reconcile', '--provider', 'yellowcard', '--from', today()], {
        DATABASE_URL: server.databaseUrl,
        TESSERA_DATA_DIR: path.join(os.tmpdir(), 'tessera-test-data'),
        TESSERA_MASTER_KEY: 'test-master-key',
        JWT_SECRET: 'test-jwt-secret',
        YELLOWCARD_API_KEY: fake.settings.apiKey,
        YELLOWCARD_API_SECRET: fake.settings.apiSecret,
        YELLOWCARD_API_BASE: fake.settings.apiBase,
      });
      expect(await run.exited).toBe(0);
      const printed = JSON.parse(run.output());
      expect(printed.run).toMatchObject({ provider: 'yellowcard', transactions: 3, matched: 3, differences: 0 });
      expect(printed.differences).toEqual([]);
      // The operator's GraphQL shows Yellow Card's runs (three so far: the service's, the job's, the command's).
      const { token } = await server.runtime.core.operatorTokens.issue(
        RequestContext.system(server.runtime.dataSource, 'test'),
        { name: 'reconciliation desk' },
      );
      const answered = await server.graphql(
        `{ operatorReconciliationRuns(provider: "yellowcard") { edges { node { provider matched differenceCount } } } }`,
        {},
        { authorization: `Bearer ${token}` },
      );
      expect(answered.body.data.operatorReconciliationRuns.edges.map((edge: any) => edge.node)).toEqual(
        Array.from({ length: 3 }, () => ({ provider: 'yellowcard', matched: 3, differenceCount: 0 })),
      );
    },
    spawnBudget(1),
  );

  test('one planted difference of each kind is found, with both amounts; nothing in the books changes', async () => {
    const missingAtProvider = await settledPayout(momo);
    const mismatched = await settledPayout(bankDetails('1111'));
    const otherCurrency = await completedCollection();
    // Yellow Card's records differ from what Tessera booked (no webhook tells Tessera).
    fake.forget(missingAtProvider.ycId);
    fake.amend(mismatched.ycId, { localAmount: 15_600 });
    fake.amend(otherCurrency.ycId, { currency: 'GHS' });
    const stray = fake.plant('payment', { localAmount: 5_000, currency: 'NGN' });
    // Many more of Yellow Card's payments than one list page holds, none complete: read, not compared.
    for (let i = 0; i < 120; i++) fake.plant('payment', { localAmount: 1, currency: 'NGN', status: 'failed' });
    const listsBefore = fake.requests.filter((request) => request.method === 'GET' && request.path === '/payments');

    const before = await booksDigest();
    const report = await reconcile();
    expect(await booksDigest()).toBe(before);
    const pages = fake.requests.filter((request) => request.method === 'GET' && request.path === '/payments');
    expect(pages.length - listsBefore.length).toBe(2);
    const found = report.differences.map((difference) => ({
      kind: String(difference.kind),
      type: difference.transactionType,
      acquirerId: difference.acquirerId,
      tesseraId: difference.tesseraId,
      acquirerAmount: difference.acquirerAmount,
      acquirerCurrency: difference.acquirerCurrency,
      ledgerAmount: difference.ledgerAmount,
      ledgerCurrency: difference.ledgerCurrency,
    }));
    const byKind = (kind: string) => found.filter((difference) => difference.kind === kind);
    expect(byKind('missing_in_ledger')).toEqual([
      {
        kind: 'missing_in_ledger',
        type: 'payout',
        acquirerId: stray,
        tesseraId: null,
        acquirerAmount: 500_000n,
        acquirerCurrency: 'NGN',
        ledgerAmount: null,
        ledgerCurrency: null,
      },
    ]);
    expect(byKind('missing_at_acquirer')).toEqual([
      {
        kind: 'missing_at_acquirer',
        type: 'payout',
        acquirerId: missingAtProvider.ycId,
        tesseraId: missingAtProvider.id,
        acquirerAmount: null,
        acquirerCurrency: null,
        ledgerAmount: 15_000n,
        ledgerCurrency: 'GHS',
      },
    ]);
    expect(byKind('amount_mismatch')).toEqual([
      {
        kind: 'amount_mismatch',
        type: 'payout',
        acquirerId: mismatched.ycId,
        tesseraId: mismatched.id,
        acquirerAmount: 1_560_000n,
        acquirerCurrency: 'NGN',
        ledgerAmount: 1_550_000n,
        ledgerCurrency: 'NGN',
      },
    ]);
    expect(byKind('currency_mismatch')).toEqual([
      {
        kind: 'currency_mismatch',
        type: 'collection',
        acquirerId: otherCurrency.ycId,
        tesseraId: otherCurrency.id,
        acquirerAmount: 1_600_000n,
        acquirerCurrency: 'GHS',
        ledgerAmount: 1_600_000n,
        ledgerCurrency: 'NGN',
      },
    ]);
    expect(found).toHaveLength(4);
    // The first test's three still match; the forgotten payout is no longer listed.
    expect(report.run).toMatchObject({ provider: 'yellowcard', transactions: 6, matched: 3, differences: 4 });
    const recorded = await query(
      `SELECT kind, transaction_type, provider FROM reconciliation_differences WHERE run_id = $1 ORDER BY kind`,
      [report.run.id],
    );
    expect(recorded.map((row) => [row.kind, row.transaction_type, row.provider])).toEqual([
      ['amount_mismatch', 'payout', 'yellowcard'],
      ['currency_mismatch', 'collection', 'yellowcard'],
      ['missing_at_acquirer', 'payout', 'yellowcard'],
      ['missing_in_ledger', 'payout', 'yellowcard'],
    ]);
  });

  test('Yellow Card not answering its list: the run fails SERVICE_UNAVAILABLE and records nothing', async () => {
    const [{ n: before }] = await query(`SELECT count(*)::int AS n FROM reconciliation_runs`);
    fake.failNext(1, 503, '/collections');
    await expect(reconcile()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect((await query(`SELECT count(*)::int AS n FROM reconciliation_runs`))[0].n).toBe(before);
  });
});
