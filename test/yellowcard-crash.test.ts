import { startWorker, stopWorker } from '../src/jobs/worker';
import { FakeYellowCard } from './support/fake-yellowcard';
import { fundLiveFloat } from './support/yellowcard-live';
import { TestMerchant, TestServer, jobsAtRest, startTestServer } from './support/harness';
import { expectLedgerBalanced } from './support/payments';
import { PAYOUTS, bankDetails } from './support/payouts';
import { spawnBudget, spawnTs } from './support/process';
import { waitUntil } from './support/wait';

const STALL_AFTER_MS = 1500;

/**
 * Issue 30: "no double payout under retries or a crash (kill -9 between the request and the
 * answer)". A real worker process (the operator CLI's `worker`), with YELLOWCARD_* at the local
 * fake, dispatches a live payout; Yellow Card makes the payment and its answer is held while the
 * worker is killed with SIGKILL. A worker started once the dead one's lock is stale runs the
 * dispatch again: it asks Yellow Card for the payment by sequence id (the payout's id), finds the
 * one made, accepts it, and never submits a second. The payout settles once from the webhook.
 */
describe('kill -9 of the worker while Yellow Card has not answered a payout', () => {
  let fake: FakeYellowCard;
  let server: TestServer;
  let merchant: TestMerchant & { liveKey: string };
  const query = <T = any>(sql: string, params: unknown[] = []) => server.runtime.dataSource.query<T[]>(sql, params);

  beforeAll(async () => {
    fake = await new FakeYellowCard().start();
    server = await startTestServer({
      yellowcard: fake.settings,
      jobStallAfterMs: STALL_AFTER_MS,
      workerPollIntervalMs: 50,
    });
    fake.deliverTo(`${server.baseUrl}/providers/yellowcard/webhooks`);
    const signedUp = await server.signUp();
    merchant = { ...signedUp, liveKey: await server.liveKeyOf(signedUp) };
    await fundLiveFloat(server, merchant.businessId, 10_000n);
  });
  afterAll(async () => {
    await fake.close();
    await server?.close();
  });

  test(
    'the retry finds the payment by sequence id: one payment at Yellow Card, one debit, one settlement',
    async () => {
      const live = { 'x-api-key': merchant.liveKey };
      const recipient = await server.request('POST', `${PAYOUTS}/recipients`, {
        headers: live,
        body: { label: 'Supplier', details: bankDetails('7777') },
      });
      const held = fake.holdNext('/payments');
      const created = await server.request('POST', PAYOUTS, {
        headers: live,
        body: { recipientId: recipient.body.data.id, amount: '10.00', currency: 'USD' },
      });
      expect(created.status).toBe(201);
      const payoutId = created.body.data.id as string;

      const doomed = spawnTs('src/cli/index.ts', ['worker'], {
        DATABASE_URL: server.databaseUrl,
        TESSERA_MASTER_KEY: 'test-master-key',
        JWT_SECRET: 'test-jwt-secret',
        YELLOWCARD_API_KEY: fake.apiKey,
        YELLOWCARD_API_SECRET: fake.apiSecret,
        YELLOWCARD_API_BASE: fake.baseUrl,
        WORKER_POLL_INTERVAL_MS: '50',
      });
      const arrived = await held.arrived; // Yellow Card made the payment; its answer is held
      expect(arrived).toMatchObject({ method: 'POST', path: '/payments', status: 200 });
      expect(fake.payments().filter((payment) => payment.sequenceId === payoutId)).toHaveLength(1);
      doomed.child.kill('SIGKILL');
      expect(await doomed.exited).toBeNull();
      held.release();

      const [claimed] = await query(`SELECT status, provider_ref FROM payouts WHERE id = $1`, [payoutId]);
      expect(claimed).toEqual({ status: 'SUBMITTED', provider_ref: null });

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
      const replacement = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
      try {
        const payment = fake.payments().find((item) => item.sequenceId === payoutId)!;
        await waitUntil(
          async () =>
            (await query(`SELECT provider_ref FROM payouts WHERE id = $1`, [payoutId]))[0].provider_ref === payment.id,
          "Yellow Card's payment recorded as the payout's reference",
        );
        expect(fake.payments().filter((item) => item.sequenceId === payoutId)).toHaveLength(1);
        expect(
          fake.requests.filter((request) => request.method === 'POST' && request.path === '/payments'),
        ).toHaveLength(1);
        expect(fake.find(payment.id)?.status).toBe('processing'); // the quote accepted by the retry

        fake.completePayment(payment.id);
        await waitUntil(
          async () => (await query(`SELECT status FROM payouts WHERE id = $1`, [payoutId]))[0].status === 'SETTLED',
          'the payout SETTLED by the webhook',
        );
        await jobsAtRest(server);
      } finally {
        await stopWorker(replacement);
      }
      const postings = await query(`SELECT kind FROM journal_transactions WHERE reference_id = $1 ORDER BY kind`, [
        payoutId,
      ]);
      expect(postings.map((row) => row.kind)).toEqual(['payout_debit', 'payout_settle']);
      await expectLedgerBalanced(server);
    },
    spawnBudget(1) + 60_000,
  );
});
