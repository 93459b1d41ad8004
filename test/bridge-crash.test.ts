import { startWorker, stopWorker } from '../src/jobs/worker';
import { FakeBridge } from './support/fake-bridge';
import { TestServer, jobsAtRest, startTestServer, waitFor, waitUntil } from './support/harness';
import { expectLedgerBalanced } from './support/payments';
import { spawnBudget, spawnTs } from './support/process';
import { TREASURY_PAYOUTS, USERS, treasuryPartner } from './support/treasury';

const STALL_AFTER_MS = 1500;

/**
 * Issue 30: "no double payout under retries or a crash (kill -9 between the request and the
 * answer)". The worker process (the operator CLI's `worker`, BRIDGE_* at the local fake) is killed
 * with SIGKILL while Bridge holds its `POST /v0/transfers`, which Bridge has applied: the transfer
 * exists at Bridge, its answer never reached Tessera, the payout is PROCESSING without a reference.
 * A worker started once the dead one's lock is stale runs the dispatch again: it asks Bridge for a
 * transfer of the payout id first, finds it, records it, and sends nothing again. One transfer;
 * Bridge's webhook completes the payout; the ledger is exact.
 */
describe('kill -9 of the worker while Bridge has not answered a treasury payout', () => {
  let fake: FakeBridge;
  let server: TestServer;

  beforeAll(async () => {
    fake = await new FakeBridge().start();
    server = await startTestServer({
      bridge: fake.settings,
      jobStallAfterMs: STALL_AFTER_MS,
      workerPollIntervalMs: 50,
    });
    fake.deliverTo(`${server.baseUrl}/providers/bridge/webhooks`);
  });
  afterAll(async () => {
    await fake?.close();
    await server?.close();
  });

  const query = <T = any>(sql: string, params: unknown[] = []) => server.runtime.dataSource.query<T[]>(sql, params);
  /** Runs the server's jobs in this process until `until` holds. */
  const withWorker = async (until: () => Promise<void>) => {
    const worker = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
    try {
      await until();
      await jobsAtRest(server);
    } finally {
      await stopWorker(worker);
    }
  };

  test(
    'one transfer at Bridge, found by the payout id after the crash, completed once',
    async () => {
      const partner = await treasuryPartner(server);
      const headers = { 'x-api-key': await server.liveKeyOf(partner) };
      const post = (path: string, body: unknown) => server.request('POST', path, { headers, body });
      const get = (path: string) => server.request('GET', path, { headers });
      const userId = (await post(USERS, { externalId: 'crash-1', email: 'crash@example.com', name: 'Crash Test' })).body
        .data.id as string;
      expect((await post(`${USERS}/${userId}/kyc`, {})).status).toBe(201);
      const customerId = fake.list('kyc_link').at(-1)!.customer_id as string;
      await withWorker(async () => {
        fake.decideKyc(customerId, 'approved');
        await waitUntil(async () => (await get(`${USERS}/${userId}`)).body.data.status === 'active', 'approved');
      });
      const walletId = (await post(`${USERS}/${userId}/wallets`, { currency: 'usd' })).body.data.id as string;
      const [{ refs }] = await query(
        `SELECT deposit_account -> 'providerRefs' AS refs FROM treasury_wallets WHERE id = $1`,
        [walletId],
      );
      const balance = async () => (await get(`${USERS}/${userId}/wallets/${walletId}`)).body.data.balance as string;
      await withWorker(async () => {
        fake.depositToVirtualAccount(refs.virtualAccountId, '80.00');
        await waitUntil(async () => (await balance()) === '80.00', 'funded');
      });

      const created = await post(TREASURY_PAYOUTS, {
        partnerEndUserId: userId,
        partnerWalletId: walletId,
        amount: '30.00',
        destinationType: 'bank_account',
        destination: {
          accountNumber: '215268129123',
          routingNumber: '101019644',
          accountName: 'Crash Test',
          country: 'US',
        },
      });
      expect(created.status).toBe(201);
      const payoutId = created.body.data.id as string;

      const held = fake.holdNext('/v0/transfers', { applied: true });
      const doomed = spawnTs('src/cli/index.ts', ['worker'], {
        DATABASE_URL: server.databaseUrl,
        TESSERA_MASTER_KEY: 'test-master-key',
        JWT_SECRET: 'test-jwt-secret',
        BRIDGE_API_KEY: fake.apiKey,
        BRIDGE_WEBHOOK_PUBLIC_KEY: fake.publicKeyPem,
        BRIDGE_API_BASE: fake.baseUrl,
        WORKER_POLL_INTERVAL_MS: '50',
      });
      const arrived = await held.arrived;
      expect(arrived.idempotencyKey).toBe(payoutId);
      doomed.child.kill('SIGKILL');
      expect(await doomed.exited).toBeNull();
      await held.clientGone;
      held.release();

      // What the kill left: Bridge made the transfer; Tessera has the payout claimed, without its reference.
      const transfersOf = () => fake.list('transfer').filter((transfer) => transfer.client_reference_id === payoutId);
      expect(transfersOf()).toHaveLength(1);
      expect(await query(`SELECT status, provider_ref FROM treasury_payouts WHERE id = $1`, [payoutId])).toEqual([
        { status: 'PROCESSING', provider_ref: null },
      ]);
      expect(await balance()).toBe('50.00');

      await waitUntil(
        async () =>
          (
            await query(
              `SELECT count(*)::int AS n FROM graphile_worker.jobs
                WHERE locked_at IS NOT NULL AND locked_at > now() - make_interval(secs => $1)`,
              [STALL_AFTER_MS / 1000],
            )
          )[0].n === 0,
        "the killed worker's lock going stale",
      );
      const [transfer] = transfersOf();
      await withWorker(async () => {
        await waitUntil(
          async () =>
            (await query(`SELECT provider_ref FROM treasury_payouts WHERE id = $1`, [payoutId]))[0].provider_ref ===
            transfer.id,
          'the retry recorded the transfer Bridge made',
        );
        fake.completeTransfer(transfer.id);
        const payout = await waitFor(
          async () => (await get(`${TREASURY_PAYOUTS}/${payoutId}`)).body.data,
          (found) => found.status === 'COMPLETED',
        );
        expect(payout.status).toBe('COMPLETED');
      });
      expect(transfersOf()).toHaveLength(1);
      expect(
        fake.requests.filter((request) => request.path === '/v0/transfers' && request.idempotencyKey === payoutId),
      ).toHaveLength(1);
      expect(await balance()).toBe('50.00');
      const postings = await query(
        `SELECT kind, count(*)::int AS n FROM journal_transactions WHERE reference_id = $1 GROUP BY kind ORDER BY kind`,
        [payoutId],
      );
      expect(postings).toEqual([
        { kind: 'treasury_payout_debit', n: 1 },
        { kind: 'treasury_payout_settle', n: 1 },
      ]);
      await expectLedgerBalanced(server);
    },
    spawnBudget(1),
  );
});
