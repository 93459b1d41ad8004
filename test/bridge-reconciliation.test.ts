import { RequestContext } from '../src/domain/shared/context';
import { Mode } from '../src/domain/shared/modes';
import { liveBridgeSuite } from './support/bridge-suite';
import { CLI } from './support/cli';
import { expectLedgerBalanced } from './support/payments';
import { spawnTs } from './support/process';
import { booksDigest, reconcileCliEnv, today, todaysPeriod } from './support/reconciliation';
import { TREASURY_PAYOUTS, USERS } from './support/treasury';
import { waitFor, waitUntil } from './support/wait';

/**
 * Issue 30, reconciliation of Bridge (docs/live.md, "Reconciliation of Bridge"): Bridge's transfers
 * completed in a period against the treasury payouts' settlement postings, and the deposits its
 * virtual accounts received and its liquidation addresses' drains (USDC) against the wallets'
 * credits. Live treasury payouts go
 * through a Tessera server pointed at the local fake of Bridge and are completed by Bridge's
 * webhooks; reconciling the day under `--provider bridge` finds nothing; then one planted
 * difference of each kind is found exactly, and nothing else in the database changes.
 */
describe("reconciliation of Bridge's transfers with the ledger", () => {
  const { suite, query, post, get, approvedEndUser, providerRefsOf } = liveBridgeSuite();
  const operator = () => RequestContext.system(suite.server.runtime.dataSource, 'test', null, Mode.LIVE);
  const bridgePeriod = () => ({ ...todaysPeriod(), provider: 'bridge' });
  /** What reconciliation must never change: the ledger, the treasury payouts and wallets. */
  const booksDigestOf = () =>
    booksDigest(suite.server, [
      'journal_transactions',
      'journal_entries',
      'ledger_accounts',
      'treasury_payouts',
      'treasury_wallets',
    ]);
  const reconcileWithCli = async () => {
    const run = spawnTs(
      CLI,
      ['reconcile', '--from', today(), '--provider', 'bridge'],
      reconcileCliEnv(suite.server, {
        BRIDGE_API_KEY: suite.fake.apiKey,
        BRIDGE_WEBHOOK_PUBLIC_KEY: suite.fake.publicKeyPem,
        BRIDGE_API_BASE: suite.fake.baseUrl,
      }),
    );
    return { exit: await run.exited, report: JSON.parse(run.output()) };
  };

  /** A live end-user approved by Bridge with a wallet of `currency` funded with 100.00. */
  const fundedWallet = async (currency: 'usd' | 'eur') => {
    const { userId } = await approvedEndUser();
    const wallet = await post(`${USERS}/${userId}/wallets`, { currency });
    expect(wallet.status).toBe(201);
    const walletId = wallet.body.data.id as string;
    suite.fake.depositToVirtualAccount((await providerRefsOf(walletId)).virtualAccountId, '100.00');
    await waitUntil(
      async () => (await get(`${USERS}/${userId}/wallets/${walletId}`)).body.data.balance === '100.00',
      'funded',
    );
    return { userId, walletId };
  };
  /** A live end-user's USDC wallet and a drain of `amount` on its liquidation address, announced and credited. */
  const drainedWallet = async (amount: string, balance: string) => {
    const { userId } = await approvedEndUser();
    const wallet = await post(`${USERS}/${userId}/wallets`, { currency: 'usdc' });
    expect(wallet.status).toBe(201);
    const walletId = wallet.body.data.id as string;
    const refs = await providerRefsOf(walletId);
    const drain = suite.fake.depositToLiquidationAddress(refs.liquidationAddressId, amount);
    await waitUntil(
      async () => (await get(`${USERS}/${userId}/wallets/${walletId}`)).body.data.balance === balance,
      'drain credited',
    );
    return { userId, walletId, refs, drain };
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
      async () => suite.fake.list('transfer').filter((item) => item.client_reference_id === payoutId),
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
    suite.fake.completeTransfer(taken.transfer.id);
    await statusOf(taken.payoutId, 'COMPLETED');
    return taken;
  };

  test('a day of completed and returned treasury payouts, deposits and a drain reconciles with no difference under --provider bridge (CLI exit 0); nothing changed', async () => {
    const drained = await drainedWallet('10.5', '10.500000');
    await completedPayout('usd', '40.00');
    await completedPayout('eur', '15.50');
    const returned = await takenPayout('usd', '5.00');
    suite.fake.returnTransfer(returned.transfer.id);
    await statusOf(returned.payoutId, 'FAILED');

    const before = await booksDigestOf();
    const clean = await suite.server.runtime.core.reconciliation.reconcile(operator(), bridgePeriod());
    expect(clean.differences).toEqual([]);
    // The two completed transfers, each found with its settlement, same amount and currency; the returned one is not Bridge's completed money.
    // And the three wallets' deposits (100.00 each, funds_received), each found with its credit,
    // and the USDC wallet's drain, read from its liquidation address's drains, found with its credit.
    expect(clean.run).toMatchObject({
      provider: 'bridge',
      acquirer: null,
      status: 'compared',
      transactions: 6,
      matched: 6,
      skipped: 0,
      differences: 0,
      fees: {},
    });
    const cli = await reconcileWithCli();
    expect(cli.exit).toBe(0);
    expect(cli.report.run).toMatchObject({
      provider: 'bridge',
      transactions: 6,
      matched: 6,
      differences: 0,
    });
    // The drains were read where Bridge lists them: per liquidation address, of its customer.
    expect(
      suite.fake.requests.some(
        (request) =>
          request.method === 'GET' &&
          request.path ===
            `/v0/customers/${drained.refs.customerId}/liquidation_addresses/${drained.refs.liquidationAddressId}/drains`,
      ),
    ).toBe(true);
    expect(await booksDigestOf()).toBe(before);
    // The daily job's run of every source includes Bridge's.
    const reports = await suite.server.runtime.core.reconciliation.reconcileEach(operator(), bridgePeriod());
    expect(reports.map(({ run: each }) => [each.provider, each.status, each.differences])).toEqual([
      ['bridge', 'compared', 0],
    ]);
    await expectLedgerBalanced(suite.server);
  });

  test('one planted difference of each kind is found exactly (CLI exit 1), with both sides; nothing changed', async () => {
    // A transfer made at Bridge outside Tessera: money Bridge moved that the ledger has no posting of.
    const stray = suite.fake.plantTransfer({ amount: '12.34', currency: 'usd' });
    // Bridge returned a completed transfer without a word: Tessera's settlement has no completed transfer.
    const unseen = await completedPayout('usd', '7.00');
    suite.fake.alterTransfer(unseen.transfer.id, { state: 'returned' });
    // Bridge paid another amount than the payout's, and another currency.
    const otherAmount = await completedPayout('usd', '20.00');
    suite.fake.alterTransfer(otherAmount.transfer.id, { amount: '21.00' });
    const otherCurrency = await completedPayout('usd', '9.00');
    suite.fake.alterTransfer(otherCurrency.transfer.id, {
      destination: { ...(suite.fake.object(otherCurrency.transfer.id)!.destination as object), currency: 'eur' },
    });

    const before = await booksDigestOf();
    const { exit, report } = await reconcileWithCli();
    expect(exit).toBe(1);
    // Completed at Bridge: the two of the first test, the stray, the two altered; the returned one is not listed.
    // Deposits: the first test's three and its drain, and this one's three (each payout's wallet funded), all matching.
    expect(report.run).toMatchObject({ provider: 'bridge', transactions: 12, matched: 9, differences: 4 });
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
    expect(await booksDigestOf()).toBe(before);
    // The operator reads Bridge's run and its differences through GraphQL's operator fields.
    const { token } = await suite.server.runtime.core.operatorTokens.issue(
      RequestContext.system(suite.server.runtime.dataSource, 'test'),
      { name: 'bridge-reader' },
    );
    const read = await suite.server.graphql(
      `query($id: ID!) { operatorReconciliationRun(id: $id) { provider differenceCount
        differences { kind transactionType providerId tesseraId } } }`,
      { id: report.run.id },
      { authorization: `Bearer ${token}` },
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.operatorReconciliationRun).toMatchObject({ provider: 'bridge', differenceCount: 4 });
    expect(read.body.data.operatorReconciliationRun.differences).toContainEqual({
      kind: 'AMOUNT_MISMATCH',
      transactionType: 'treasury_payout',
      providerId: otherAmount.transfer.id,
      tesseraId: otherAmount.payoutId,
    });
    // The payouts stay as Bridge's webhooks left them: the operator decides.
    for (const { payoutId } of [unseen, otherAmount, otherCurrency])
      expect((await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data.status).toBe('COMPLETED');
  });

  test("Bridge's deposits: each funds_received found with its wallet's credit; one missing in the ledger, one of another amount, one of another currency found exactly; nothing changed", async () => {
    const reconcileDeposits = async () => {
      const report = await suite.server.runtime.core.reconciliation.reconcile(operator(), bridgePeriod());
      return {
        run: report.run,
        deposits: report.differences.filter((difference) => difference.transactionType === 'treasury_deposit'),
      };
    };
    const earlier = await reconcileDeposits();
    // The earlier tests' deposits all match; only their planted transfers differ.
    expect(earlier.deposits).toEqual([]);

    // A wallet funded on its virtual account (100.00) and again (25.00): both credited and matching.
    const { userId, walletId } = await fundedWallet('usd');
    const virtualAccountId = (await providerRefsOf(walletId)).virtualAccountId;
    suite.fake.depositToVirtualAccount(virtualAccountId, '25.00');
    await waitUntil(
      async () => (await get(`${USERS}/${userId}/wallets/${walletId}`)).body.data.balance === '125.00',
      'second deposit credited',
    );
    const matching = await reconcileDeposits();
    expect(matching.deposits).toEqual([]);
    expect(matching.run).toMatchObject({
      transactions: earlier.run.transactions + 2,
      matched: earlier.run.matched + 2,
      differences: earlier.run.differences,
    });

    // Money Bridge received and never announced: no credit.
    const unheard = suite.fake.depositToVirtualAccount(virtualAccountId, '12.34', { announce: false });
    // Bridge's record of two credited deposits changed silently: another amount, another currency.
    const otherAmount = suite.fake.depositToVirtualAccount(virtualAccountId, '30.00');
    const otherCurrency = suite.fake.depositToVirtualAccount(virtualAccountId, '9.00');
    await waitUntil(
      async () => (await get(`${USERS}/${userId}/wallets/${walletId}`)).body.data.balance === '164.00',
      'both deposits credited',
    );
    suite.fake.alterActivity(otherAmount.id, { amount: '31.00' });
    suite.fake.alterActivity(otherCurrency.id, { currency: 'eur' });

    const before = await booksDigestOf();
    const found = await reconcileDeposits();
    expect(found.run).toMatchObject({
      transactions: matching.run.transactions + 3,
      matched: matching.run.matched,
      differences: matching.run.differences + 3,
    });
    const byKind = Object.fromEntries(found.deposits.map((difference) => [difference.kind, difference]));
    expect(Object.keys(byKind).sort()).toEqual(['amount_mismatch', 'currency_mismatch', 'missing_in_ledger']);
    expect(found.deposits).toHaveLength(3);
    expect(byKind.missing_in_ledger).toMatchObject({
      acquirerTransactionId: unheard.id,
      acquirerId: unheard.deposit_id,
      tesseraId: null,
      acquirerAmount: 1234n,
      acquirerCurrency: 'USD',
      ledgerAmount: null,
      ledgerCurrency: null,
    });
    expect(byKind.amount_mismatch).toMatchObject({
      acquirerTransactionId: otherAmount.id,
      acquirerId: otherAmount.deposit_id,
      tesseraId: walletId,
      acquirerAmount: 3100n,
      acquirerCurrency: 'USD',
      ledgerAmount: 3000n,
      ledgerCurrency: 'USD',
    });
    expect(byKind.currency_mismatch).toMatchObject({
      acquirerId: otherCurrency.deposit_id,
      tesseraId: walletId,
      acquirerAmount: 900n,
      acquirerCurrency: 'EUR',
      ledgerAmount: 900n,
      ledgerCurrency: 'USD',
    });
    expect(await booksDigestOf()).toBe(before);
    // The wallet keeps what its credits gave it: the operator decides.
    expect((await get(`${USERS}/${userId}/wallets/${walletId}`)).body.data.balance).toBe('164.00');
    await expectLedgerBalanced(suite.server);
  });

  test("Bridge's drains: one missing in the ledger, one of another amount, one credited that Bridge lists outside the period found exactly; nothing changed", async () => {
    const reconcileNow = () => suite.server.runtime.core.reconciliation.reconcile(operator(), bridgePeriod());
    const earlier = await reconcileNow();
    // A USDC wallet with a drain of 20 credited and matching.
    const { userId, walletId, refs, drain: matching } = await drainedWallet('20', '20.000000');
    // USDC Bridge received and never announced: no credit.
    const unheard = suite.fake.depositToLiquidationAddress(refs.liquidationAddressId, '5.25', { announce: false });
    // Two drains credited: Bridge's record of one then shows another amount, of the other another day
    // (held in review over the day's end, say): not among the period's drains.
    const otherAmount = suite.fake.depositToLiquidationAddress(refs.liquidationAddressId, '7');
    const unlisted = suite.fake.depositToLiquidationAddress(refs.liquidationAddressId, '3');
    await waitUntil(
      async () => (await get(`${USERS}/${userId}/wallets/${walletId}`)).body.data.balance === '30.000000',
      'both drains credited',
    );
    suite.fake.alterDrain(otherAmount.id, { amount: '7.5' });
    suite.fake.alterDrain(unlisted.id, { created_at: new Date(Date.now() - 2 * 86_400_000).toISOString() });

    const before = await booksDigestOf();
    const found = await reconcileNow();
    // Listed in the period: the matching drain, the unheard one and the altered one.
    expect(found.run).toMatchObject({
      transactions: earlier.run.transactions + 3,
      matched: earlier.run.matched + 1,
      differences: earlier.run.differences + 3,
    });
    const planted = new Set([matching.id, unheard.id, otherAmount.id, unlisted.id]);
    const drains = found.differences.filter((difference) => planted.has(difference.acquirerId ?? ''));
    expect(drains).toHaveLength(3);
    const byKind = Object.fromEntries(drains.map((difference) => [difference.kind, difference]));
    expect(Object.keys(byKind).sort()).toEqual(['amount_mismatch', 'missing_at_acquirer', 'missing_in_ledger']);
    expect(byKind.missing_in_ledger).toMatchObject({
      transactionType: 'treasury_deposit',
      acquirerTransactionId: unheard.id,
      acquirerId: unheard.id,
      tesseraId: null,
      acquirerAmount: 5_250_000n,
      acquirerCurrency: 'USDC',
      ledgerAmount: null,
      ledgerCurrency: null,
    });
    expect(byKind.amount_mismatch).toMatchObject({
      transactionType: 'treasury_deposit',
      acquirerTransactionId: otherAmount.id,
      acquirerId: otherAmount.id,
      tesseraId: walletId,
      acquirerAmount: 7_500_000n,
      acquirerCurrency: 'USDC',
      ledgerAmount: 7_000_000n,
      ledgerCurrency: 'USDC',
    });
    expect(byKind.missing_at_acquirer).toMatchObject({
      transactionType: 'treasury_deposit',
      acquirerTransactionId: null,
      acquirerId: unlisted.id,
      tesseraId: walletId,
      acquirerAmount: null,
      ledgerAmount: 3_000_000n,
      ledgerCurrency: 'USDC',
    });
    expect(await booksDigestOf()).toBe(before);
    // The wallet keeps what its credits gave it: the operator decides.
    expect((await get(`${USERS}/${userId}/wallets/${walletId}`)).body.data.balance).toBe('30.000000');
    await expectLedgerBalanced(suite.server);
  });

  test("an address's drains over more than one page of Bridge's list are all read: 100 a page, the next after the page's last drain", async () => {
    const { refs, drain: credited } = await drainedWallet('1', '1.000000');
    // 120 drains Bridge received and never announced, after the credited one.
    const unheard = Array.from({ length: 120 }, () =>
      suite.fake.depositToLiquidationAddress(refs.liquidationAddressId, '0.01', { announce: false }),
    );
    const path = `/v0/customers/${refs.customerId}/liquidation_addresses/${refs.liquidationAddressId}/drains`;
    const asked = suite.fake.requests.length;
    const report = await suite.server.runtime.core.reconciliation.reconcile(operator(), bridgePeriod());
    // Newest first: the first page ends with the 100th newest (unheard[20]); the second holds the other 21.
    expect(
      suite.fake.requests
        .slice(asked)
        .filter((request) => request.path === path)
        .map((request) => request.query),
    ).toEqual([{ limit: '100' }, { limit: '100', starting_after: unheard[20].id }]);
    const missing = report.differences.filter((difference) => difference.acquirerId?.startsWith('drain_'));
    const unheardIds = new Set(unheard.map((drain) => drain.id));
    expect(
      missing.filter((difference) => unheardIds.has(difference.acquirerId!)).map((difference) => difference.kind),
    ).toEqual(Array(120).fill('missing_in_ledger'));
    // The credited drain, on the second page, matched.
    expect(report.differences.some((difference) => difference.acquirerId === credited.id)).toBe(false);
  });
});
