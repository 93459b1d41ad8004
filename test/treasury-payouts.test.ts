import crypto from 'node:crypto';
import { LedgerService } from '../src/domain/ledger/ledger.service';
import { Mode } from '../src/domain/shared/modes';
import { RequestContext } from '../src/domain/shared/context';
import { TestMerchant, TestServer, startDeliveringServer, waitFor } from './support/harness';
import { eventsOf, walletBalance } from './support/payments';
import { Receiver, deliveriesAtRest, verifiesServiceSignature } from './support/receiver';
import {
  TREASURY,
  TREASURY_PAYOUTS,
  USERS,
  activeEndUser,
  apiKey,
  bankDestination,
  countOf,
  createWallet,
  fundedWallet,
  ledgerBalanceOf,
  payoutBody,
} from './support/treasury';

const PAYOUT_FIELDS = [
  'id',
  'partnerId',
  'partnerEndUserId',
  'amount',
  'currency',
  'destinationType',
  'destinationDetails',
  'status',
  'createdAt',
  'updatedAt',
  'partnerWalletId',
  'failureReason',
];
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TREASURY_EVENTS = [
  'treasury.end_user.created',
  'treasury.kyc.approved',
  'treasury.wallet.created',
  'treasury.deposit.received',
  'treasury.payout.created',
];

/** Treasury payouts over REST (design section 10; interface document: Treasury payout, Treasury payout status, Treasury webhook registry). */
describe('Treasury payouts', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer({ payoutSandboxSettleMs: 100 });
  });
  afterAll(async () => server.close());

  const db = () => server.runtime.dataSource;
  const create = (partner: TestMerchant, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    server.request('POST', TREASURY_PAYOUTS, { headers: { ...apiKey(partner), ...headers }, body });
  const read = (partner: TestMerchant, id: string) =>
    server.request('GET', `${TREASURY_PAYOUTS}/${id}`, { headers: apiKey(partner) });
  const untilStatus = (partner: TestMerchant, id: string, status: string) =>
    waitFor(
      () => read(partner, id),
      (response) => response.body.data.status === status,
    );
  const reversalsOf = async (payoutId: string) =>
    Number(
      (
        await db().query(
          `SELECT count(*) AS n FROM journal_transactions WHERE reference_type = 'treasury_payout' AND reference_id = $1 AND kind = 'treasury_payout_reverse'`,
          [payoutId],
        )
      )[0].n,
    );
  const expectLedgerBalanced = async () => {
    const check = await LedgerService.check(db());
    expect(check).toMatchObject({
      balanced: true,
      unbalancedTransactions: [],
      cachedBalanceMismatches: [],
      negativeBalances: [],
    });
  };
  const expectFieldError = (response: { status: number; body: any }, field: string) => {
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 400 } });
    expect(Object.keys(response.body.error.errors)).toContain(field);
  };

  test('a payout is created as documented: 201, exactly the documented fields, PENDING, the wallet debited in the same transaction, treasury.payout.created', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '100.00');
    const response = await create(
      partner,
      payoutBody(user.id, wallet.id, {
        amount: '25.5',
        idempotencyKey: 'order-7781',
        metadata: { orderId: '7781', test_outcome: 'pending' },
      }),
    );
    expect(response.status).toBe(201);
    const payout = response.body.data;
    expect(Object.keys(payout).sort()).toEqual([...PAYOUT_FIELDS].sort());
    expect(payout).toEqual({
      id: expect.any(String),
      partnerId: partner.businessId,
      partnerEndUserId: user.id,
      amount: '25.50',
      currency: 'usd',
      destinationType: 'bank_account',
      destinationDetails: {
        accountNumber: '****6789',
        routingNumber: '021000021',
        accountName: 'Amara Obi',
        country: 'US',
      },
      status: 'PENDING',
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      partnerWalletId: wallet.id,
      failureReason: null,
    });
    expect(JSON.stringify(response.body)).not.toContain('000123456789');
    expect((await read(partner, payout.id)).body.data).toEqual(payout);
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(7450n);
    const [row] = await db().query(`SELECT metadata, destination_sealed FROM treasury_payouts WHERE id = $1`, [
      payout.id,
    ]);
    expect(row.metadata).toEqual({ orderId: '7781', test_outcome: 'pending', idempotencyKey: 'order-7781' });
    expect(row.destination_sealed).not.toContain('000123456789');
    const lines = await db().query(
      `SELECT a.kind, e.amount::text AS amount FROM journal_entries e JOIN journal_transactions t ON t.id = e.transaction_id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.reference_id = $1 ORDER BY a.kind`,
      [payout.id],
    );
    expect(lines).toEqual([
      { kind: 'end_user_wallet', amount: '-2550' },
      { kind: 'payout_in_flight', amount: '2550' },
    ]);
    const [event] = await eventsOf(server, partner.businessId, 'treasury.payout.created');
    expect(event.data).toEqual({ livemode: false, object: payout });
    const list = await server.request('GET', `${TREASURY_PAYOUTS}?partnerWalletId=${wallet.id}&status=pending`, {
      headers: apiKey(partner),
    });
    expect(list.body.data).toMatchObject({ total: 1, skip: 0, take: 20, items: [payout] });
  });

  test('each destination type is validated and shown with its own fields: mobile_money and crypto (phones and addresses masked)', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '50.00');
    const mobile = await create(
      partner,
      payoutBody(user.id, wallet.id, {
        destinationType: 'mobile_money',
        destination: { phone: '+233241234567', networkId: 'mtn-gh', country: 'gh' },
        metadata: { test_outcome: 'pending' },
      }),
    );
    expect(mobile.status).toBe(201);
    expect(mobile.body.data).toMatchObject({
      destinationType: 'mobile_money',
      destinationDetails: { phone: '****4567', networkId: 'mtn-gh', country: 'GH' },
    });
    const chain = await create(
      partner,
      payoutBody(user.id, wallet.id, {
        destinationType: 'crypto',
        destination: { address: '0x52908400098527886E0F7030069857D2E4169EE7', chain: 'ethereum' },
        metadata: { test_outcome: 'pending' },
      }),
    );
    expect(chain.status).toBe(201);
    expect(chain.body.data.destinationDetails).toEqual({ address: '****9EE7', chain: 'ethereum' });
    const bankCode = await create(
      partner,
      payoutBody(user.id, wallet.id, {
        destination: { accountNumber: '0123456789', bankCode: '058', accountName: 'Ada Obi', country: 'NG' },
        metadata: { test_outcome: 'pending' },
      }),
    );
    expect(bankCode.status).toBe(201);
  });

  test('the sandbox default (test_outcome success) goes PENDING -> PROCESSING -> COMPLETED through the durable job, with treasury.payout.completed', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '100.00');
    const created = (await create(partner, payoutBody(user.id, wallet.id, { amount: '40.00' }))).body.data;
    const done = await untilStatus(partner, created.id, 'COMPLETED');
    expect(done.body.data).toMatchObject({ status: 'COMPLETED', failureReason: null, amount: '40.00' });
    const [row] = await db().query(
      `SELECT provider_ref, processing_at, completed_at FROM treasury_payouts WHERE id = $1`,
      [created.id],
    );
    expect(row.provider_ref).toMatch(/^sbx_tpo_/);
    expect(row.processing_at).not.toBeNull();
    expect(row.completed_at).not.toBeNull();
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(6000n);
    expect(await reversalsOf(created.id)).toBe(0);
    const completed = await waitFor(
      () => eventsOf(server, partner.businessId, 'treasury.payout.completed'),
      (events) => events.length === 1,
    );
    expect(completed[0].data).toEqual({ livemode: false, object: done.body.data });
    await expectLedgerBalanced();
  });

  test('test_outcome failed ends FAILED with failureReason, the debit reversed exactly once, and treasury.payout.failed', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '100.00');
    const created = (
      await create(partner, payoutBody(user.id, wallet.id, { amount: '30.00', metadata: { test_outcome: 'failed' } }))
    ).body.data;
    expect(created.status).toBe('PENDING');
    const failed = await untilStatus(partner, created.id, 'FAILED');
    expect(failed.body.data).toMatchObject({ status: 'FAILED', failureReason: 'sandbox_test_outcome_failed' });
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(10000n);
    expect(await reversalsOf(created.id)).toBe(1);
    // The rail's report delivered again changes nothing.
    const ctx = RequestContext.system(db(), 'test', partner.businessId, Mode.TEST);
    expect(
      await server.runtime.core.treasuryPayouts.applyRailOutcome(ctx, created.id, {
        status: 'FAILED',
        reason: 'again',
      }),
    ).toBeNull();
    expect(await reversalsOf(created.id)).toBe(1);
    const events = await waitFor(
      () => eventsOf(server, partner.businessId, 'treasury.payout.failed'),
      (found) => found.length === 1,
    );
    expect(events[0].data.object).toMatchObject({
      id: created.id,
      status: 'FAILED',
      failureReason: 'sandbox_test_outcome_failed',
    });
    expect(
      (await server.request('POST', `${TREASURY_PAYOUTS}/${created.id}/cancel`, { headers: apiKey(partner) })).status,
    ).toBe(409);
    await expectLedgerBalanced();
  });

  test('test_outcome pending stays PENDING (no dispatch job) and can be cancelled: CANCELLED, reversed once, treasury.payout.cancelled; cancelling again is 409', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '20.00');
    const created = (
      await create(partner, payoutBody(user.id, wallet.id, { amount: '20.00', metadata: { test_outcome: 'pending' } }))
    ).body.data;
    const jobs = await db().query(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE key = $1`, [
      `dispatch_treasury_payout:${created.id}`,
    ]);
    expect(Number(jobs[0].n)).toBe(0);
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(0n);
    const cancelled = await server.request('POST', `${TREASURY_PAYOUTS}/${created.id}/cancel`, {
      headers: apiKey(partner),
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id: created.id, status: 'CANCELLED', failureReason: null });
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(2000n);
    const again = await server.request('POST', `${TREASURY_PAYOUTS}/${created.id}/cancel`, {
      headers: apiKey(partner),
    });
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', statusCode: 409 });
    expect(await reversalsOf(created.id)).toBe(1);
    const [event] = await eventsOf(server, partner.businessId, 'treasury.payout.cancelled');
    expect(event.data).toEqual({ livemode: false, object: cancelled.body.data });
    const completedOne = (await create(partner, payoutBody(user.id, wallet.id, { amount: '1.00' }))).body.data;
    await untilStatus(partner, completedOne.id, 'COMPLETED');
    expect(
      (await server.request('POST', `${TREASURY_PAYOUTS}/${completedOne.id}/cancel`, { headers: apiKey(partner) }))
        .status,
    ).toBe(409);
  });

  test('a dispatch that dies after the rail took the payout but before its reference was recorded is retried safely: the same payout id at the rail, one reference, one settlement', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '10.00');
    const created = (
      await create(partner, payoutBody(user.id, wallet.id, { amount: '4.00', metadata: { test_outcome: 'pending' } }))
    ).body.data;
    const ctx = RequestContext.system(db(), 'test', partner.businessId, Mode.TEST);
    const { treasuryPayouts, providers } = server.runtime.core;
    const rail = providers.providerFor(ctx, 'treasury-rail');
    const realSubmit = rail.submit.bind(rail);
    const submittedIds: string[] = [];
    let died = false;
    // Only this payout's first submission "dies" after the rail answered (other tests' jobs pass through).
    const spy = jest.spyOn(rail, 'submit').mockImplementation(async (submission) => {
      const acceptance = await realSubmit(submission);
      if (submission.payoutId !== created.id) return acceptance;
      submittedIds.push(submission.payoutId);
      if (!died) {
        died = true;
        throw new Error('the process died after the rail took the payout');
      }
      return acceptance;
    });
    try {
      await expect(treasuryPayouts.dispatch(ctx, created.id)).rejects.toThrow('the process died');
      const [claimed] = await db().query(
        `SELECT status::text AS status, provider_ref FROM treasury_payouts WHERE id = $1`,
        [created.id],
      );
      expect(claimed).toEqual({ status: 'PROCESSING', provider_ref: null });
      expect(
        (await server.request('POST', `${TREASURY_PAYOUTS}/${created.id}/cancel`, { headers: apiKey(partner) })).status,
      ).toBe(409);
      const retried = await treasuryPayouts.dispatch(ctx, created.id);
      expect(retried?.providerRef).toMatch(/^sbx_tpo_/);
      expect(await treasuryPayouts.dispatch(ctx, created.id)).toBeNull();
    } finally {
      spy.mockRestore();
    }
    expect(submittedIds).toEqual([created.id, created.id]);
    await untilStatus(partner, created.id, 'COMPLETED');
    const settlements = await db().query(
      `SELECT count(*)::int AS n FROM journal_transactions WHERE reference_type = 'treasury_payout' AND reference_id = $1 AND kind = 'treasury_payout_settle'`,
      [created.id],
    );
    expect(settlements[0].n).toBe(1);
    expect(await reversalsOf(created.id)).toBe(0);
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(600n);
    await expectLedgerBalanced();
  });

  test('a cancel racing the dispatch resolves to exactly one outcome per payout, and the ledger stays balanced', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '100.00');
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1)
      ids.push(
        (
          await create(
            partner,
            payoutBody(user.id, wallet.id, { amount: '5.00', metadata: { test_outcome: 'pending' } }),
          )
        ).body.data.id,
      );
    const ctx = RequestContext.system(db(), 'test', partner.businessId, Mode.TEST);
    const { treasuryPayouts } = server.runtime.core;
    const outcomes = await Promise.all(
      ids.map(async (id, index) => {
        // Both in-process and started together, in alternating order, so that each side wins some.
        const dispatch = () => treasuryPayouts.dispatch(ctx, id);
        const cancel = () =>
          treasuryPayouts.cancel(ctx, id).then(
            () => 200,
            (error: { code?: string }) => (error.code === 'CONFLICT' ? 409 : 500),
          );
        const [dispatched, cancelStatus] =
          index % 2 === 0
            ? await Promise.all([dispatch(), cancel()])
            : await Promise.all([cancel(), dispatch()]).then(([c, d]) => [d, c] as const);
        return { id, dispatched: dispatched !== null, cancelled: cancelStatus === 200, cancelStatus };
      }),
    );
    for (const outcome of outcomes) {
      expect(outcome.dispatched !== outcome.cancelled).toBe(true);
      if (!outcome.cancelled) expect(outcome.cancelStatus).toBe(409);
    }
    for (const outcome of outcomes.filter((one) => !one.cancelled)) await untilStatus(partner, outcome.id, 'COMPLETED');
    const rows: Array<{ id: string; status: string; provider_ref: string | null }> = await db().query(
      `SELECT id, status, provider_ref FROM treasury_payouts WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    for (const row of rows) {
      const outcome = outcomes.find((one) => one.id === row.id)!;
      expect(row.status).toBe(outcome.cancelled ? 'CANCELLED' : 'COMPLETED');
      expect(row.provider_ref === null).toBe(outcome.cancelled);
      expect(await reversalsOf(row.id)).toBe(outcome.cancelled ? 1 : 0);
    }
    const cancelledCount = outcomes.filter((one) => one.cancelled).length;
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(10000n - 500n * BigInt(ids.length - cancelledCount));
    await expectLedgerBalanced();
  });

  test('100 concurrent payouts against one wallet never overdraw: exactly what the balance covers is accepted, the rest is 422 with nothing written', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '50.00');
    const responses = await Promise.all(
      Array.from({ length: 100 }, () =>
        create(partner, payoutBody(user.id, wallet.id, { amount: '1.00', metadata: { test_outcome: 'pending' } })),
      ),
    );
    const accepted = responses.filter((response) => response.status === 201);
    const refused = responses.filter((response) => response.status === 422);
    expect(accepted).toHaveLength(50);
    expect(refused).toHaveLength(50);
    for (const response of refused)
      expect(response.body.error).toMatchObject({ code: 'INSUFFICIENT_FUNDS', statusCode: 422 });
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(0n);
    expect(await countOf(server, 'treasury_payouts', partner.businessId)).toBe(50);
    expect(await eventsOf(server, partner.businessId, 'treasury.payout.created')).toHaveLength(50);
    await expectLedgerBalanced();
  });

  test('too little balance is 422 INSUFFICIENT_FUNDS and writes nothing (no payout, no event, no posting)', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '10.00');
    const response = await create(partner, payoutBody(user.id, wallet.id, { amount: '10.01' }));
    expect(response.body.error).toMatchObject({ code: 'INSUFFICIENT_FUNDS', statusCode: 422 });
    expect(await countOf(server, 'treasury_payouts', partner.businessId)).toBe(0);
    expect(await eventsOf(server, partner.businessId, 'treasury.payout.created')).toHaveLength(0);
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(1000n);
  });

  test('bad payout input is a 400 VALIDATION_ERROR naming the field, and writes nothing', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '10.00');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ partnerEndUserId: 'short' }, 'partnerEndUserId'],
      [{ partnerWalletId: '1234567' }, 'partnerWalletId'],
      [{ partnerEndUserId: undefined }, 'partnerEndUserId'],
      [{ amount: '1.2.3' }, 'amount'],
      [{ amount: '-5' }, 'amount'],
      [{ amount: 5 }, 'amount'],
      [{ amount: '1.234' }, 'amount'],
      [{ amount: '0' }, 'amount'],
      [{ destinationType: 'cheque' }, 'destinationType'],
      [{ destinationType: undefined }, 'destinationType'],
      [{ destination: undefined }, 'destination'],
      [{ destination: bankDestination({ accountNumber: undefined }) }, 'destination.accountNumber'],
      [{ destination: bankDestination({ routingNumber: undefined }) }, 'destination.routingNumber'],
      [{ destination: bankDestination({ accountName: undefined }) }, 'destination.accountName'],
      [{ destination: bankDestination({ country: undefined }) }, 'destination.country'],
      [{ destinationType: 'mobile_money', destination: { networkId: 'mtn-gh', country: 'GH' } }, 'destination.phone'],
      [
        { destinationType: 'mobile_money', destination: { phone: '+233241234567', country: 'GH' } },
        'destination.networkId',
      ],
      [
        { destinationType: 'mobile_money', destination: { phone: '+233241234567', networkId: 'mtn-gh' } },
        'destination.country',
      ],
      [{ destinationType: 'crypto', destination: { chain: 'ethereum' } }, 'destination.address'],
      [{ destinationType: 'crypto', destination: { address: '0xabc' } }, 'destination.chain'],
      [{ destinationType: 'crypto', destination: bankDestination() }, 'destination.address'],
      [{ metadata: { test_outcome: 'maybe' } }, 'metadata.test_outcome'],
      [{ idempotencyKey: 42 }, 'idempotencyKey'],
    ];
    for (const [override, field] of cases) {
      const body = payoutBody(user.id, wallet.id, override);
      expectFieldError(await create(partner, body), field);
    }
    expect(await countOf(server, 'treasury_payouts', partner.businessId)).toBe(0);
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(1000n);
    expect(await eventsOf(server, partner.businessId, 'treasury.payout.created')).toHaveLength(0);
  });

  test('a wallet of another end-user or another partner is 404, a payout of another partner is 404, live credentials have no treasury rail (422): nothing written', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '10.00');
    const otherUser = await activeEndUser(server, partner);
    await createWallet(server, partner, otherUser.id, 'usd');
    const other = await fundedWallet(server, '10.00');
    for (const body of [
      payoutBody(otherUser.id, wallet.id),
      payoutBody(user.id, other.wallet.id),
      payoutBody(other.user.id, other.wallet.id),
    ]) {
      const response = await create(partner, body);
      expect(response.body.error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    }
    const theirs = (
      await create(other.partner, payoutBody(other.user.id, other.wallet.id, { metadata: { test_outcome: 'pending' } }))
    ).body.data;
    expect((await read(partner, theirs.id)).status).toBe(404);
    expect(
      (await server.request('POST', `${TREASURY_PAYOUTS}/${theirs.id}/cancel`, { headers: apiKey(partner) })).status,
    ).toBe(404);
    expect((await read(other.partner, theirs.id)).body.data.status).toBe('PENDING');
    const liveKey = await server.liveKeyOf(partner);
    const live = await server.request('POST', TREASURY_PAYOUTS, {
      headers: { 'x-api-key': liveKey },
      body: payoutBody(user.id, wallet.id),
    });
    expect(live.body.error).toMatchObject({ code: 'UNPROCESSABLE', statusCode: 422 });
    expect(
      (await server.request('GET', `${TREASURY_PAYOUTS}/${theirs.id}`, { headers: { 'x-api-key': liveKey } })).status,
    ).toBe(404);
    expect(await countOf(server, 'treasury_payouts', partner.businessId)).toBe(0);
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(1000n);
  });

  test('the Idempotency-Key header replays the first answer: one payout, one debit', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '10.00');
    const key = crypto.randomUUID();
    const body = payoutBody(user.id, wallet.id, { amount: '4.00', metadata: { test_outcome: 'pending' } });
    const first = await create(partner, body, { 'idempotency-key': key });
    const second = await create(partner, body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(await countOf(server, 'treasury_payouts', partner.businessId)).toBe(1);
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(600n);
  });

  test('a VIEWER of the partner reads end-users, wallets and payouts with a dashboard JWT but may not create, cancel or use sandbox helpers (403)', async () => {
    const { partner, user, wallet } = await fundedWallet(server, '10.00');
    const payout = (
      await create(partner, payoutBody(user.id, wallet.id, { amount: '1.00', metadata: { test_outcome: 'pending' } }))
    ).body.data;
    const viewer = await server.signUp();
    await server.addTeamMember(partner, viewer, 'VIEWER');
    const headers = { authorization: `Bearer ${viewer.token}`, 'x-service-business-id': partner.businessId };
    expect((await server.request('GET', `${TREASURY_PAYOUTS}/${payout.id}`, { headers })).body.data).toEqual(payout);
    expect(
      (await server.request('GET', `${USERS}/${user.id}/wallets/${wallet.id}`, { headers })).body.data.balance,
    ).toBe('9.00');
    expect((await server.request('GET', USERS, { headers })).body.data.total).toBe(1);
    for (const [path, body] of [
      [USERS, { externalId: 'v-1', email: 'v@example.com' }],
      [TREASURY_PAYOUTS, payoutBody(user.id, wallet.id)],
      [`${TREASURY_PAYOUTS}/${payout.id}/cancel`, undefined],
      [`${USERS}/${user.id}/wallets`, { currency: 'eur' }],
      [`${TREASURY}/sandbox/users/${user.id}/wallets/${wallet.id}/deposit`, { amount: '1.00' }],
    ] as const) {
      const response = await server.request('POST', path, { headers, body });
      expect([path, response.status, response.body.error?.code]).toEqual([path, 403, 'FORBIDDEN']);
    }
    expect((await read(partner, payout.id)).body.data.status).toBe('PENDING');
    expect(await countOf(server, 'treasury_end_users', partner.businessId)).toBe(1);
    expect(await ledgerBalanceOf(server, wallet.id)).toBe(900n);
  });

  test("the domain's byIds batches (GraphQL loaders) answer only the context's partner and mode", async () => {
    const { partner, user, wallet } = await fundedWallet(server, '10.00');
    const payout = (
      await create(partner, payoutBody(user.id, wallet.id, { amount: '1.00', metadata: { test_outcome: 'pending' } }))
    ).body.data;
    const check = (await server.request('GET', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner) })).body.data;
    const other = await fundedWallet(server, '1.00');
    const { treasuryEndUsers, treasuryKyc, treasuryWallets, treasuryPayouts } = server.runtime.core;
    const ctxOf = (businessId: string, mode = Mode.TEST) => RequestContext.system(db(), 'test', businessId, mode);
    const mine = ctxOf(partner.businessId);
    expect((await treasuryEndUsers.byIds(mine, [user.id, other.user.id, 'nope'])).map((row) => row.id)).toEqual([
      user.id,
    ]);
    expect((await treasuryKyc.byIds(mine, [check.id])).map((row) => row.status)).toEqual(['APPROVED']);
    expect(
      (await treasuryWallets.byIds(mine, [wallet.id, other.wallet.id])).map((view) => [view.wallet.id, view.balance]),
    ).toEqual([[wallet.id, 900n]]);
    expect((await treasuryPayouts.byIds(mine, [payout.id])).map((row) => row.id)).toEqual([payout.id]);
    expect(await treasuryPayouts.byIds(ctxOf(other.partner.businessId), [payout.id])).toEqual([]);
    expect(await treasuryEndUsers.byIds(ctxOf(partner.businessId, Mode.LIVE), [user.id])).toEqual([]);
    expect(await treasuryKyc.byIds(ctxOf(other.partner.businessId), [check.id])).toEqual([]);
  });

  describe('events', () => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = new Receiver();
      await receiver.start();
    });
    afterAll(async () => receiver.close());

    test("treasury events reach only the treasury registry's endpoints (by name or *), signed with their secret; never the webhookUrl nor merchant endpoints, which still get other events", async () => {
      const partner = await server.signUp();
      await server.setTreasury(partner.businessId, true);
      const tag = crypto.randomBytes(3).toString('hex');
      const paths = {
        url: `/${tag}/webhook-url`,
        merchant: `/${tag}/merchant-star`,
        star: `/${tag}/treasury-star`,
        created: `/${tag}/treasury-created`,
      };
      expect(
        (
          await server.request('PUT', '/api/v1/business/config', {
            headers: apiKey(partner),
            body: { webhookUrl: receiver.url(paths.url) },
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await server.request('POST', '/api/v1/webhook-endpoints', {
            headers: apiKey(partner),
            body: { url: receiver.url(paths.merchant), events: ['*'] },
          })
        ).status,
      ).toBe(201);
      const star = (
        await server.request('POST', `${TREASURY}/webhook-endpoints`, {
          headers: apiKey(partner),
          body: { url: receiver.url(paths.star), events: ['*'] },
        })
      ).body.data;
      const named = (
        await server.request('POST', `${TREASURY}/webhook-endpoints`, {
          headers: apiKey(partner),
          body: { url: receiver.url(paths.created), events: ['treasury.payout.created'] },
        })
      ).body.data;

      const user = await activeEndUser(server, partner);
      const wallet = await createWallet(server, partner, user.id, 'usd');
      await server.request('POST', `${TREASURY}/sandbox/users/${user.id}/wallets/${wallet.id}/deposit`, {
        headers: apiKey(partner),
        body: { amount: '10.00' },
      });
      const payout = (
        await create(partner, payoutBody(user.id, wallet.id, { amount: '1.00', metadata: { test_outcome: 'pending' } }))
      ).body.data;
      // A merchant event after the treasury ones: once it has reached the webhookUrl, the treasury ones would have too.
      await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
        headers: apiKey(partner),
        body: { amount: '1.00', currency: 'USD' },
      });

      await waitFor(
        async () => receiver.at(paths.star).length,
        (count) => count >= TREASURY_EVENTS.length + 1,
      );
      await waitFor(
        async () => receiver.at(paths.url).length + receiver.at(paths.merchant).length,
        (count) => count >= 2,
      );
      await deliveriesAtRest(server, partner.businessId);
      const typesAt = (path: string) =>
        receiver
          .at(path)
          .map((request) => JSON.parse(request.body).event)
          .sort();
      expect(typesAt(paths.url)).toEqual(['wallet.funded']);
      expect(typesAt(paths.merchant)).toEqual(['wallet.funded']);
      expect(typesAt(paths.star)).toEqual([...TREASURY_EVENTS, 'wallet.funded'].sort());
      expect(typesAt(paths.created)).toEqual(['treasury.payout.created']);

      const [createdAtNamed] = receiver.at(paths.created);
      expect(verifiesServiceSignature(createdAtNamed, named.signingSecret)).toBe(true);
      expect(verifiesServiceSignature(createdAtNamed, partner.apiSecret)).toBe(false);
      expect(createdAtNamed.headers['x-service-event']).toBe('treasury.payout.created');
      const body = JSON.parse(createdAtNamed.body);
      expect(body).toEqual({
        event: 'treasury.payout.created',
        timestamp: expect.stringMatching(ISO),
        data: { livemode: false, object: payout },
      });
      for (const request of receiver.at(paths.star))
        expect(verifiesServiceSignature(request, star.signingSecret)).toBe(true);

      const misdirected = await db().query(
        `SELECT count(*) AS n FROM webhook_deliveries WHERE business_id = $1 AND event_type LIKE 'treasury.%' AND (partner_id IS NULL OR endpoint_id IS NULL)`,
        [partner.businessId],
      );
      expect(Number(misdirected[0].n)).toBe(0);

      // A replay keeps the rule: a treasury event goes again to a treasury endpoint, never to the webhookUrl or a merchant endpoint.
      const [createdEvent] = await db().query(
        `SELECT id FROM events WHERE business_id = $1 AND type = 'treasury.payout.created'`,
        [partner.businessId],
      );
      const [{ id: merchantEndpointId }] = await db().query(
        `SELECT id FROM webhook_endpoints WHERE business_id = $1 AND registry = 'merchant'`,
        [partner.businessId],
      );
      const deliveriesBefore = await db().query(`SELECT count(*) AS n FROM webhook_deliveries WHERE business_id = $1`, [
        partner.businessId,
      ]);
      for (const body of [{}, { endpointId: merchantEndpointId }]) {
        const refused = await server.request('POST', `/api/v1/events/${createdEvent.id}/replay`, {
          headers: apiKey(partner),
          body,
        });
        expect([refused.status, refused.body.error?.code]).toEqual([409, 'CONFLICT']);
      }
      expect(
        await db().query(`SELECT count(*) AS n FROM webhook_deliveries WHERE business_id = $1`, [partner.businessId]),
      ).toEqual(deliveriesBefore);
      const replayed = await server.request('POST', `/api/v1/events/${createdEvent.id}/replay`, {
        headers: apiKey(partner),
        body: { endpointId: named.endpoint.id },
      });
      expect(replayed.status).toBe(201);
      expect(replayed.body.data).toMatchObject({ endpointId: named.endpoint.id, partnerId: partner.businessId });
    });
  });

  test('bad list queries on every treasury list (status, skip, take, id filters) are a 400 VALIDATION_ERROR naming the parameter', async () => {
    const { partner, user } = await fundedWallet(server, '1.00');
    const cases: Array<[string, string]> = [
      [`${USERS}?status=bogus`, 'status'],
      [`${USERS}?take=0`, 'take'],
      [`${USERS}?skip=-1`, 'skip'],
      [`${USERS}/${user.id}/wallets?take=abc`, 'take'],
      [`${TREASURY_PAYOUTS}?status=bogus`, 'status'],
      [`${TREASURY_PAYOUTS}?partnerWalletId=nope`, 'partnerWalletId'],
      [`${TREASURY_PAYOUTS}?partnerEndUserId=nope`, 'partnerEndUserId'],
      [`${TREASURY_PAYOUTS}?skip=x`, 'skip'],
    ];
    for (const [url, field] of cases) {
      const response = await server.request('GET', url, { headers: apiKey(partner) });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', statusCode: 400 } });
      expect(Object.keys(response.body.error.errors)).toContain(field);
    }
  });

  test('a partner reads only its own mode and partner in lists; payouts of other partners never appear', async () => {
    const first = await fundedWallet(server, '10.00');
    const second = await fundedWallet(server, '10.00');
    await create(
      first.partner,
      payoutBody(first.user.id, first.wallet.id, { amount: '1.00', metadata: { test_outcome: 'pending' } }),
    );
    await create(
      second.partner,
      payoutBody(second.user.id, second.wallet.id, { amount: '2.00', metadata: { test_outcome: 'pending' } }),
    );
    const list = await server.request('GET', TREASURY_PAYOUTS, { headers: apiKey(first.partner) });
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.items[0]).toMatchObject({ partnerId: first.partner.businessId, amount: '1.00' });
    const byUser = await server.request('GET', `${TREASURY_PAYOUTS}?partnerEndUserId=${second.user.id}`, {
      headers: apiKey(first.partner),
    });
    expect(byUser.body.data.total).toBe(0);
    expect(
      (await server.request('GET', `${TREASURY_PAYOUTS}?partnerEndUserId=nope`, { headers: apiKey(first.partner) }))
        .status,
    ).toBe(400);
    expect(await walletBalance(server, first.partner.businessId)).toBe(0n);
    expect(
      (
        await server.request('GET', `${USERS}/${first.user.id}/wallets/${first.wallet.id}`, {
          headers: apiKey(first.partner),
        })
      ).body.data.balance,
    ).toBe('9.00');
  });
});
