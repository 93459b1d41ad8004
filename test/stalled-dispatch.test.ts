import { Mode } from '../src/domain/shared/modes';
import { RequestContext } from '../src/domain/shared/context';
import { TestServer, startDeliveringServer, waitFor } from './support/harness';
import { expectLedgerBalanced } from './support/payments';
import { bankDetails, createPayout, createRecipient, fundWallet } from './support/payouts';
import { TREASURY_PAYOUTS, apiKey, fundedWallet, payoutBody } from './support/treasury';

/**
 * A dispatch that stalls: the payout was claimed for the rail (its amount in flight, no longer
 * cancellable), the rail never took it, and its dispatch job used its last attempt. The sweep
 * (`redispatch_stalled_payouts`, `redispatch_stalled_treasury_payouts`, cron every 5 minutes)
 * gives it a new dispatch job; one still waiting or retrying is left alone, as is one claimed
 * recently or already accepted by the rail.
 */
describe('payouts whose dispatch stalled are sent again', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer({ payoutSandboxSettleMs: 100 });
  });
  afterAll(async () => server.close());

  const db = () => server.runtime.dataSource;
  const system = () => RequestContext.system(db(), 'test');

  interface Case {
    table: 'payouts' | 'treasury_payouts';
    task: string;
    rail: { submit(submission: { payoutId: string }): Promise<unknown> };
    dispatch: (id: string) => Promise<unknown>;
    sweep: (olderThanSeconds: number) => Promise<string[]>;
  }

  /** The payout's dispatch job as a worker leaves it after a failed attempt (due again in an hour), or after its last one. */
  const failedJobOf = async (task: string, id: string, attemptsLeft: boolean) => {
    await db().query(
      `SELECT graphile_worker.add_job($1, json_build_object('payoutId', $2::text), job_key := $1 || ':' || $2,
                        max_attempts := 10, run_at := now() + interval '1 hour')`,
      [task, id],
    );
    await db().query(
      `UPDATE graphile_worker._private_jobs SET attempts = CASE WHEN $2 THEN 1 ELSE max_attempts END, last_error = 'the rail did not answer'
                       WHERE key = $1`,
      [`${task}:${id}`, attemptsLeft],
    );
  };
  const rowOf = async (table: string, id: string) =>
    (await db().query(`SELECT status::text AS status, provider_ref FROM ${table} WHERE id = $1`, [id]))[0] as {
      status: string;
      provider_ref: string | null;
    };

  async function stallsThenIsSent({ table, task, rail, dispatch, sweep }: Case, id: string, claimedStatus: string) {
    const submitted: string[] = [];
    const realSubmit = rail.submit.bind(rail);
    const down = jest.spyOn(rail, 'submit').mockImplementation(async (submission) => {
      if (submission.payoutId !== id) return realSubmit(submission);
      submitted.push(submission.payoutId);
      throw new Error('connect ETIMEDOUT: the rail did not answer');
    });
    try {
      await expect(dispatch(id)).rejects.toThrow('the rail did not answer');
    } finally {
      down.mockRestore();
    }
    expect(await rowOf(table, id)).toEqual({ status: claimedStatus, provider_ref: null });

    // Every submission from here on is counted: the worker may take the new job the moment the sweep adds it.
    const rail2: string[] = [];
    const watch = jest.spyOn(rail, 'submit').mockImplementation(async (submission) => {
      if (submission.payoutId === id) rail2.push(submission.payoutId);
      return realSubmit(submission);
    });
    try {
      // Its job still has attempts left: the sweep leaves it to them.
      await failedJobOf(task, id, true);
      expect(await sweep(0)).not.toContain(id);
      // Out of attempts, but claimed less than 15 minutes ago: not yet.
      await failedJobOf(task, id, false);
      expect(await sweep(15 * 60)).not.toContain(id);

      // Out of attempts and old enough: a new job under the same key, attempts from zero, due now.
      expect(await sweep(0)).toContain(id);
      const sent = await waitFor(
        () => rowOf(table, id),
        (row) => row.provider_ref !== null,
      );
      expect(sent.provider_ref).not.toBeNull();
    } finally {
      watch.mockRestore();
    }
    expect([...submitted, ...rail2]).toEqual([id, id]);
    // Accepted now: nothing more to send, whatever its age.
    expect(await sweep(0)).not.toContain(id);
  }

  test("a merchant payout claimed (SUBMITTED) without the rail's reference, its job out of attempts, is dispatched again and submitted once", async () => {
    const merchant = await server.signUp();
    await fundWallet(server, merchant, '20.00');
    // The account ending 3333: the sandbox rail takes it and reports nothing, so no dispatch job runs by itself.
    const recipient = await createRecipient(server, merchant, bankDetails('3333'));
    const payout = (await createPayout(server, merchant, { recipientId: recipient.id, amount: '5.00' })).body.data;
    const ctx = system().forBusiness(merchant.businessId, Mode.TEST);
    const { payouts, providers } = server.runtime.core;
    await stallsThenIsSent(
      {
        table: 'payouts',
        task: 'dispatch_payout',
        rail: providers.providerFor(ctx, 'payout-rail'),
        dispatch: (id) => payouts.dispatch(ctx, id),
        sweep: (olderThanSeconds) => payouts.redispatchStalled(system(), { olderThanSeconds }),
      },
      payout.id,
      'SUBMITTED',
    );
    expect((await rowOf('payouts', payout.id)).status).toBe('SUBMITTED');
    await expectLedgerBalanced(server);
  });

  test("a treasury payout claimed (PROCESSING) without the rail's reference, its job out of attempts, is dispatched again and completes once", async () => {
    const { partner, user, wallet } = await fundedWallet(server, '10.00');
    // test_outcome pending: no dispatch job of its own; the rail completes it once it is dispatched.
    const payout = (
      await server.request('POST', TREASURY_PAYOUTS, {
        headers: apiKey(partner),
        body: payoutBody(user.id, wallet.id, { amount: '4.00', metadata: { test_outcome: 'pending' } }),
      })
    ).body.data;
    const ctx = system().forBusiness(partner.businessId, Mode.TEST);
    const { treasuryPayouts, providers } = server.runtime.core;
    await stallsThenIsSent(
      {
        table: 'treasury_payouts',
        task: 'dispatch_treasury_payout',
        rail: providers.providerFor(ctx, 'treasury-rail'),
        dispatch: (id) => treasuryPayouts.dispatch(ctx, id),
        sweep: (olderThanSeconds) => treasuryPayouts.redispatchStalled(system(), { olderThanSeconds }),
      },
      payout.id,
      'PROCESSING',
    );
    const done = await waitFor(
      () => rowOf('treasury_payouts', payout.id),
      (row) => row.status === 'COMPLETED',
    );
    expect(done.status).toBe('COMPLETED');
    const settlements = await db().query(
      `SELECT count(*)::int AS n FROM journal_transactions WHERE reference_type = 'treasury_payout' AND reference_id = $1 AND kind = 'treasury_payout_settle'`,
      [payout.id],
    );
    expect(settlements[0].n).toBe(1);
    await expectLedgerBalanced(server);
  });
});
