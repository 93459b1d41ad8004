import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { RequestContext } from '../src/domain/shared/context';
import { Mode } from '../src/domain/shared/modes';
import { CLI } from './support/cli';
import { FakeBridge } from './support/fake-bridge';
import { TestMerchant, TestServer, startDeliveringServer } from './support/harness';
import { expectLedgerBalanced } from './support/payments';
import { spawnTs } from './support/process';
import { TREASURY_PAYOUTS, USERS, treasuryPartner } from './support/treasury';
import { waitFor, waitUntil } from './support/wait';

const WEBHOOKS_PATH = '/providers/bridge/webhooks';

/**
 * Issue 30, reconciliation of Bridge (docs/live.md, "Reconciliation of Bridge"): Bridge's transfers
 * completed in a period against the treasury payouts' settlement postings. Live treasury payouts go
 * through a Tessera server pointed at the local fake of Bridge and are completed by Bridge's
 * webhooks; reconciling the day under `--provider bridge` finds nothing; then one planted
 * difference of each kind is found exactly, and nothing else in the database changes.
 */
describe("reconciliation of Bridge's transfers with the ledger", () => {
  let fake: FakeBridge;
  let server: TestServer;
  let partner: TestMerchant;
  let live: Record<string, string>;

  beforeAll(async () => {
    fake = await new FakeBridge().start();
    server = await startDeliveringServer({ bridge: fake.settings });
    fake.deliverTo(`${server.baseUrl}${WEBHOOKS_PATH}`);
    partner = await treasuryPartner(server);
    live = { 'x-api-key': await server.liveKeyOf(partner) };
  });
  afterAll(async () => {
    await fake?.close();
    await server?.close();
  });

  const query = <T = any>(sql: string, params: unknown[] = []) => server.runtime.dataSource.query<T[]>(sql, params);
  const post = (url: string, body: unknown) => server.request('POST', url, { headers: live, body });
  const get = (url: string) => server.request('GET', url, { headers: live });
  const operator = () => RequestContext.system(server.runtime.dataSource, 'test', null, Mode.LIVE);
  const today = () => new Date().toISOString().slice(0, 10);
  const todaysPeriod = () => {
    const from = new Date(`${today()}T00:00:00Z`);
    return { from, to: new Date(from.getTime() + 86_400_000), provider: 'bridge' };
  };
  /** What reconciliation must never change: the ledger, the treasury payouts and wallets. */
  const booksDigest = async () => {
    const tables = [
      'journal_transactions',
      'journal_entries',
      'ledger_accounts',
      'treasury_payouts',
      'treasury_wallets',
    ];
    const hash = crypto.createHash('sha256');
    for (const table of tables)
      hash.update(JSON.stringify(await query(`SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY 1`)));
    return hash.digest('hex');
  };
  const cliEnv = () => ({
    DATABASE_URL: server.databaseUrl,
    TESSERA_DATA_DIR: path.join(os.tmpdir(), 'tessera-test-data'),
    TESSERA_MASTER_KEY: 'test-master-key',
    JWT_SECRET: 'test-jwt-secret',
    BRIDGE_API_KEY: fake.apiKey,
    BRIDGE_WEBHOOK_PUBLIC_KEY: fake.publicKeyPem,
    BRIDGE_API_BASE: fake.baseUrl,
  });

  let externalId = 0;
  /** A live end-user approved by Bridge with a wallet of `currency` funded with 100.00. */
  const fundedWallet = async (currency: 'usd' | 'eur') => {
    externalId += 1;
    const user = await post(USERS, {
      externalId: `recon-${externalId}`,
      email: `r${externalId}@example.com`,
      name: 'Ada Lovelace',
    });
    expect(user.status).toBe(201);
    const userId = user.body.data.id as string;
    expect((await post(`${USERS}/${userId}/kyc`, {})).status).toBe(201);
    fake.decideKyc(fake.list('kyc_link').at(-1)!.customer_id as string, 'approved');
    await waitUntil(async () => (await get(`${USERS}/${userId}`)).body.data.status === 'active', 'KYC approved');
    const wallet = await post(`${USERS}/${userId}/wallets`, { currency });
    expect(wallet.status).toBe(201);
    const walletId = wallet.body.data.id as string;
    const [{ refs }] = await query(
      `SELECT deposit_account -> 'providerRefs' AS refs FROM treasury_wallets WHERE id = $1`,
      [walletId],
    );
    fake.depositToVirtualAccount(refs.virtualAccountId, '100.00');
    await waitUntil(
      async () => (await get(`${USERS}/${userId}/wallets/${walletId}`)).body.data.balance === '100.00',
      'funded',
    );
    return { userId, walletId };
  };
  /** A live bank payout of `amount` that Bridge takes: its id and Bridge's transfer, recorded as the payout's reference. */
  const takenPayout = async (currency: 'usd' | 'eur', amount: string) => {
    const { userId, walletId } = await fundedWallet(currency);
    const destination =
      currency === 'usd'
        ? { accountNumber: '215268129123', routingNumber: '101019644', accountName: 'Ada Lovelace', country: 'US' }
        : {
            accountNumber: 'DE89370400440532013000',
            bankCode: 'COBADEFFXXX',
            accountName: 'Ada Lovelace',
            country: 'DE',
          };
    const created = await post(TREASURY_PAYOUTS, {
      partnerEndUserId: userId,
      partnerWalletId: walletId,
      amount,
      destinationType: 'bank_account',
      destination,
    });
    expect(created.status).toBe(201);
    const payoutId = created.body.data.id as string;
    const [transfer] = await waitFor(
      async () => fake.list('transfer').filter((item) => item.client_reference_id === payoutId),
      (found) => found.length === 1,
    );
    await waitUntil(
      async () =>
        (await query(`SELECT provider_ref FROM treasury_payouts WHERE id = $1`, [payoutId]))[0].provider_ref ===
        transfer.id,
      'the transfer recorded',
    );
    return { payoutId, transfer };
  };
  const statusOf = (payoutId: string, status: string) =>
    waitUntil(
      async () => (await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data.status === status,
      `payout ${status}`,
    );
  /** A payout Bridge completed, announced by its webhooks. */
  const completedPayout = async (currency: 'usd' | 'eur', amount: string) => {
    const taken = await takenPayout(currency, amount);
    fake.completeTransfer(taken.transfer.id);
    await statusOf(taken.payoutId, 'COMPLETED');
    return taken;
  };

  test('a day of completed and returned treasury payouts reconciles with no difference under --provider bridge (CLI exit 0); nothing changed', async () => {
    await completedPayout('usd', '40.00');
    await completedPayout('eur', '15.50');
    const returned = await takenPayout('usd', '5.00');
    fake.returnTransfer(returned.transfer.id);
    await statusOf(returned.payoutId, 'FAILED');

    const before = await booksDigest();
    const clean = await server.runtime.core.reconciliation.reconcile(operator(), todaysPeriod());
    expect(clean.differences).toEqual([]);
    // The two completed transfers, each found with its settlement, same amount and currency; the returned one is not Bridge's completed money.
    expect(clean.run).toMatchObject({
      provider: 'bridge',
      acquirer: null,
      status: 'compared',
      transactions: 2,
      matched: 2,
      skipped: 0,
      differences: 0,
      fees: {},
    });
    const run = spawnTs(CLI, ['reconcile', '--from', today(), '--provider', 'bridge'], cliEnv());
    expect(await run.exited).toBe(0);
    expect(JSON.parse(run.output()).run).toMatchObject({
      provider: 'bridge',
      transactions: 2,
      matched: 2,
      differences: 0,
    });
    expect(await booksDigest()).toBe(before);
    // The daily job's run of every source includes Bridge's.
    const reports = await server.runtime.core.reconciliation.reconcileEach(operator(), todaysPeriod());
    expect(reports.map(({ run: each }) => [each.provider, each.status, each.differences])).toEqual([
      ['bridge', 'compared', 0],
    ]);
    await expectLedgerBalanced(server);
  });

  test('one planted difference of each kind is found exactly (CLI exit 1), with both sides; nothing changed', async () => {
    // A transfer made at Bridge outside Tessera: money Bridge moved that the ledger has no posting of.
    const stray = fake.plantTransfer({ amount: '12.34', currency: 'usd' });
    // Bridge returned a completed transfer without a word: Tessera's settlement has no completed transfer.
    const unseen = await completedPayout('usd', '7.00');
    fake.alterTransfer(unseen.transfer.id, { state: 'returned' });
    // Bridge paid another amount than the payout's, and another currency.
    const otherAmount = await completedPayout('usd', '20.00');
    fake.alterTransfer(otherAmount.transfer.id, { amount: '21.00' });
    const otherCurrency = await completedPayout('usd', '9.00');
    fake.alterTransfer(otherCurrency.transfer.id, {
      destination: { ...(fake.object(otherCurrency.transfer.id)!.destination as object), currency: 'eur' },
    });

    const before = await booksDigest();
    const run = spawnTs(CLI, ['reconcile', '--from', today(), '--provider', 'bridge'], cliEnv());
    expect(await run.exited).toBe(1);
    const report = JSON.parse(run.output());
    // Completed at Bridge: the two of the first test, the stray, the two altered; the returned one is not listed.
    expect(report.run).toMatchObject({ provider: 'bridge', transactions: 5, matched: 2, differences: 4 });
    const byKind = Object.fromEntries(report.differences.map((difference: any) => [difference.kind, difference]));
    expect(Object.keys(byKind).sort()).toEqual([
      'amount_mismatch',
      'currency_mismatch',
      'missing_at_acquirer',
      'missing_in_ledger',
    ]);
    expect(byKind.missing_in_ledger).toMatchObject({
      type: 'treasury_payout',
      acquirerTransactionId: stray.id,
      acquirerId: stray.id,
      tesseraId: null,
      acquirerAmount: '12.34',
      acquirerCurrency: 'USD',
      ledgerAmount: null,
    });
    expect(byKind.missing_at_acquirer).toMatchObject({
      type: 'treasury_payout',
      acquirerId: unseen.transfer.id,
      tesseraId: unseen.payoutId,
      acquirerAmount: null,
      ledgerAmount: '7.00',
      ledgerCurrency: 'USD',
    });
    expect(byKind.amount_mismatch).toMatchObject({
      acquirerId: otherAmount.transfer.id,
      tesseraId: otherAmount.payoutId,
      acquirerAmount: '21.00',
      acquirerCurrency: 'USD',
      ledgerAmount: '20.00',
      ledgerCurrency: 'USD',
    });
    expect(byKind.currency_mismatch).toMatchObject({
      acquirerId: otherCurrency.transfer.id,
      tesseraId: otherCurrency.payoutId,
      acquirerAmount: '9.00',
      acquirerCurrency: 'EUR',
      ledgerAmount: '9.00',
      ledgerCurrency: 'USD',
    });
    const recorded = await query(
      `SELECT kind, provider, transaction_type FROM reconciliation_differences WHERE run_id = $1 ORDER BY kind`,
      [report.run.id],
    );
    expect(recorded).toEqual(
      ['amount_mismatch', 'currency_mismatch', 'missing_at_acquirer', 'missing_in_ledger'].map((kind) => ({
        kind,
        provider: 'bridge',
        transaction_type: 'treasury_payout',
      })),
    );
    expect(await booksDigest()).toBe(before);
    // The payouts stay as Bridge's webhooks left them: the operator decides.
    for (const { payoutId } of [unseen, otherAmount, otherCurrency])
      expect((await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data.status).toBe('COMPLETED');
  });
});
