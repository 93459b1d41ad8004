import { Worker, startWorker, stopWorker } from '../src/jobs/worker';
import { TestMerchant, TestServer, collect, startTestServer } from './support/harness';
import {
  CARDS,
  card,
  charge,
  chargingMerchant,
  expectLedgerBalanced,
  waitFor,
  walletBalance,
} from './support/payments';

/** Payments list and detail (REST `GET /api/v1/business/payments`, GraphQL `payments`), and the payment status subscription. */
describe('payments list, detail and live status', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer({ paymentSettlementDelaySeconds: 3600, sandbox3dsAutoCompleteMs: 3_600_000 });
    merchant = await chargingMerchant(server);
    const pay = async (name: string, number: string, email: string, amount = 10) =>
      (ids[name] = (
        await charge(server, merchant, { amount, currency: 'usd', card: card(number), email })
      ).body.data.id);
    await pay('a', CARDS.success, 'alice@example.com', 10);
    await pay('b', CARDS.declined, 'bob@example.com', 11);
    await pay('c', CARDS.success, 'alice@example.com', 12);
    await pay('d', CARDS.threeDsSuccess, 'carol@example.com', 13);
    await server.request('POST', `/api/v1/business/payments/${ids.c}/refunds`, {
      headers: as(merchant),
      body: { amount: 2 },
    });
  });
  afterAll(async () => server.close());

  const as = (who: TestMerchant) => ({ 'x-api-key': who.apiKey });
  const list = (query = '', who = merchant) =>
    server.request('GET', `/api/v1/business/payments${query}`, { headers: as(who) });

  test('lists newest first as { items, total, page, limit }', async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ total: 4, page: 1, limit: 20 });
    expect(response.body.data.items.map((item: any) => item.id)).toEqual([ids.d, ids.c, ids.b, ids.a]);
  });

  test('filters by status, customer email and date range, and paginates', async () => {
    expect((await list('?status=FAILED')).body.data.items.map((item: any) => item.id)).toEqual([ids.b]);
    expect((await list('?email=ALICE@example.com')).body.data.items.map((item: any) => item.id)).toEqual([
      ids.c,
      ids.a,
    ]);
    const page2 = (await list('?limit=3&page=2')).body.data;
    expect(page2).toMatchObject({ total: 4, page: 2, limit: 3 });
    expect(page2.items.map((item: any) => item.id)).toEqual([ids.a]);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list(`?from=${encodeURIComponent(future)}`)).body.data.total).toBe(0);
    expect((await list(`?to=${encodeURIComponent(future)}`)).body.data.total).toBe(4);
  });

  test('the status filter accepts any letter case: ?status=failed and ?status=Failed filter like FAILED', async () => {
    for (const status of ['failed', 'Failed', ' FAILED ']) {
      const response = await list(`?status=${encodeURIComponent(status)}`);
      expect([status, response.status, response.body.data.items.map((item: any) => item.id)]).toEqual([
        status,
        200,
        [ids.b],
      ]);
    }
  });

  test.each([
    ['status', '?status=DONE'],
    ['limit', '?limit=101'],
    ['page', '?page=0'],
    ['email', '?email=nope'],
    ['from', '?from=yesterday'],
  ])('a bad %s is a 400 VALIDATION_ERROR', async (field, query) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(response.body.error.errors)).toEqual([field]);
  });

  test('another business sees none of these payments', async () => {
    const stranger = await chargingMerchant(server);
    expect((await list('', stranger)).body.data).toMatchObject({ items: [], total: 0 });
  });

  test('the detail carries refunds and disputes', async () => {
    const response = await server.request('GET', `/api/v1/business/payments/${ids.c}`, { headers: as(merchant) });
    expect(response.body.data).toMatchObject({
      id: ids.c,
      status: 'COMPLETED',
      amountRefunded: '2.00',
      refunds: [{ amount: '2.00', paymentId: ids.c }],
      disputes: [],
    });
  });

  test('GraphQL payments connection with filters, nested refunds and cursors', async () => {
    const query = `query($after: String, $filter: PaymentFilter) { payments(first: 2, after: $after, filter: $filter) {
      edges { cursor node { id status amount { amount currency } card { last4 } refunds { amount { amount } } disputes { id } } }
      pageInfo { hasNextPage endCursor } } }`;
    const first = await server.graphql(query, {}, as(merchant));
    expect(first.body.data.payments.edges.map((edge: any) => edge.node.id)).toEqual([ids.d, ids.c]);
    expect(first.body.data.payments.edges[1].node.refunds).toEqual([{ amount: { amount: '2.00' } }]);
    expect(first.body.data.payments.pageInfo.hasNextPage).toBe(true);
    const second = await server.graphql(query, { after: first.body.data.payments.pageInfo.endCursor }, as(merchant));
    expect(second.body.data.payments.edges.map((edge: any) => edge.node.id)).toEqual([ids.b, ids.a]);
    expect(second.body.data.payments.pageInfo.hasNextPage).toBe(false);
    const filtered = await server.graphql(query, { filter: { status: 'FAILED' } }, as(merchant));
    expect(filtered.body.data.payments.edges.map((edge: any) => edge.node.id)).toEqual([ids.b]);
    const replayed = await server.graphql(
      query,
      { after: first.body.data.payments.pageInfo.endCursor, filter: { status: 'FAILED' } },
      as(merchant),
    );
    expect(replayed.body.errors![0].extensions.code).toBe('BAD_USER_INPUT');
  });

  test('GraphQL Payment.customer resolves the stored profile (linked by email when it is created)', async () => {
    const created = await server.request('POST', '/api/v1/business/customers', {
      headers: as(merchant),
      body: { email: 'alice@example.com', firstName: 'Alice' },
    });
    expect(created.status).toBe(201);
    const response = await server.graphql(
      '{ payments(first: 10) { edges { node { id email customer { email firstName } } } } }',
      {},
      as(merchant),
    );
    const byId = new Map(response.body.data.payments.edges.map((edge: any) => [edge.node.id, edge.node.customer]));
    expect(byId.get(ids.a)).toEqual({ email: 'alice@example.com', firstName: 'Alice' });
    expect(byId.get(ids.c)).toEqual({ email: 'alice@example.com', firstName: 'Alice' });
    expect(byId.get(ids.b)).toBeNull();
  });

  test('GraphQL payment of another business is NOT_FOUND', async () => {
    const stranger = await chargingMerchant(server);
    const response = await server.graphql('query($id: ID!) { payment(id: $id) { id } }', { id: ids.a }, as(stranger));
    expect(response.body.errors![0].extensions.code).toBe('NOT_FOUND');
  });

  test('GraphQL mutations: chargeCard and refundPayment follow the same rules as REST, refusals as userErrors that write nothing', async () => {
    const charged = await server.graphql(
      'mutation($input: ChargeCardInput!) { chargeCard(input: $input) { payment { id status amount { amount currency } } userErrors { field message code } } }',
      { input: { amount: '7.00', currency: 'usd', card: card(CARDS.success), email: 'gql@example.com' } },
      as(merchant),
    );
    expect(charged.body.data.chargeCard).toMatchObject({
      payment: { status: 'COMPLETED', amount: { amount: '7.00', currency: 'USD' } },
      userErrors: [],
    });
    const paymentId = charged.body.data.chargeCard.payment.id;
    const refunds = async () =>
      Number(
        (
          await server.runtime.dataSource.query(`SELECT count(*) AS n FROM refunds WHERE payment_id = $1`, [paymentId])
        )[0].n,
      );
    const refunded = await server.graphql(
      'mutation($id: ID!) { refundPayment(input: { paymentId: $id, amount: "8.00" }) { refund { id } payment { id } userErrors { field message code } } }',
      { id: paymentId },
      as(merchant),
    );
    expect(refunded.body.errors).toBeUndefined();
    expect(refunded.body.data.refundPayment).toEqual({
      refund: null,
      payment: null,
      userErrors: [
        { field: ['input', 'amount'], message: expect.stringMatching(/at most 7.00/), code: 'VALIDATION_ERROR' },
      ],
    });
    expect(await refunds()).toBe(0);
    const unknown = await server.graphql(
      'mutation($id: ID!) { refundPayment(input: { paymentId: $id }) { refund { id } userErrors { field message code } } }',
      { id: '00000000-0000-4000-8000-000000000000' },
      as(merchant),
    );
    expect(unknown.body.data.refundPayment).toEqual({
      refund: null,
      userErrors: [{ field: null, message: 'Payment not found', code: 'NOT_FOUND' }],
    });
    const part = await server.graphql(
      'mutation($id: ID!) { refundPayment(input: { paymentId: $id, amount: "2.00", reason: "requested" }) { refund { paymentId amount { amount } reason } payment { status amountRefunded { amount } } userErrors { code } } }',
      { id: paymentId },
      as(merchant),
    );
    expect(part.body.data.refundPayment).toEqual({
      refund: { paymentId, amount: { amount: '2.00' }, reason: 'requested' },
      payment: { status: 'COMPLETED', amountRefunded: { amount: '2.00' } },
      userErrors: [],
    });
    const invalid = await server.graphql(
      'mutation($input: ChargeCardInput!) { chargeCard(input: $input) { payment { id } userErrors { field message code } } }',
      { input: { amount: '7.00', currency: 'usd', card: card('4242424242424241'), email: 'gql-invalid@example.com' } },
      as(merchant),
    );
    expect(invalid.body.data.chargeCard).toEqual({
      payment: null,
      userErrors: [{ field: ['input', 'card', 'number'], message: expect.any(String), code: 'VALIDATION_ERROR' }],
    });
    expect(
      Number(
        (
          await server.runtime.dataSource.query(
            `SELECT count(*) AS n FROM payments WHERE email = 'gql-invalid@example.com'`,
          )
        )[0].n,
      ),
    ).toBe(0);
  });

  test('GraphQL 3-D Secure completion, sandbox settlement and disputes; another business gets NOT_FOUND', async () => {
    const owner = await chargingMerchant(server);
    const stranger = await chargingMerchant(server);
    const payment = (
      await charge(server, owner, {
        amount: 40,
        currency: 'usd',
        card: card(CARDS.threeDsSuccess),
        email: 'g@example.com',
      })
    ).body.data;
    // Waiting for 3-D Secure, GraphQL shows what REST's nextAction does: no page to send the payer to in the sandbox.
    expect(
      (
        await server.graphql(
          'query($id: ID!) { payment(id: $id) { status nextAction { type redirectUrl } } }',
          { id: payment.id },
          as(owner),
        )
      ).body.data.payment,
    ).toEqual({ status: 'REQUIRES_ACTION', nextAction: { type: 'three_d_secure', redirectUrl: null } });
    const notFound = (what: string) => ({ field: null, message: `${what} not found`, code: 'NOT_FOUND' });
    const complete =
      'mutation($id: ID!) { completeThreeDSecure(input: { id: $id }) { payment { status threeDSecure nextAction { type } } userErrors { field message code } } }';
    expect((await server.graphql(complete, { id: payment.id }, as(stranger))).body.data.completeThreeDSecure).toEqual({
      payment: null,
      userErrors: [notFound('Payment')],
    });
    expect((await server.graphql(complete, { id: payment.id }, as(owner))).body.data.completeThreeDSecure).toEqual({
      payment: { status: 'COMPLETED', threeDSecure: 'succeeded', nextAction: null },
      userErrors: [],
    });
    const settle =
      'mutation($id: ID!) { sandboxSettlePayment(input: { id: $id }) { payment { status fee { amount } } userErrors { field message code } } }';
    expect((await server.graphql(settle, { id: payment.id }, as(stranger))).body.data.sandboxSettlePayment).toEqual({
      payment: null,
      userErrors: [notFound('Payment')],
    });
    expect((await server.graphql(settle, { id: payment.id }, as(owner))).body.data.sandboxSettlePayment).toEqual({
      payment: { status: 'SETTLED', fee: { amount: '1.46' } },
      userErrors: [],
    });
    await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: as(owner),
      body: { currency: 'usd', amount: '50.00' },
    });
    const open = `mutation($id: ID!) { sandboxOpenDispute(input: { paymentId: $id, reason: "product_not_received" }) {
      dispute { id status reason amount { amount } fee { amount } } payment { amountDisputed { amount } } userErrors { field message code } } }`;
    expect((await server.graphql(open, { id: payment.id }, as(stranger))).body.data.sandboxOpenDispute).toEqual({
      dispute: null,
      payment: null,
      userErrors: [notFound('Payment')],
    });
    const opened = (await server.graphql(open, { id: payment.id }, as(owner))).body.data.sandboxOpenDispute;
    expect(opened).toMatchObject({
      dispute: {
        status: 'OPEN',
        reason: 'product_not_received',
        amount: { amount: '40.00' },
        fee: { amount: '15.00' },
      },
      payment: { amountDisputed: { amount: '40.00' } },
      userErrors: [],
    });
    const resolve =
      'mutation($id: ID!) { sandboxResolveDispute(input: { disputeId: $id, won: true }) { dispute { status } payment { amountDisputed { amount } } userErrors { field message code } } }';
    expect(
      (await server.graphql(resolve, { id: opened.dispute.id }, as(stranger))).body.data.sandboxResolveDispute,
    ).toEqual({ dispute: null, payment: null, userErrors: [notFound('Dispute')] });
    expect(
      (await server.graphql(resolve, { id: opened.dispute.id }, as(owner))).body.data.sandboxResolveDispute,
    ).toEqual({ dispute: { status: 'WON' }, payment: { amountDisputed: { amount: '0.00' } }, userErrors: [] });
    const disputes = async () =>
      Number(
        (
          await server.runtime.dataSource.query(`SELECT count(*) AS n FROM disputes WHERE payment_id = $1`, [
            payment.id,
          ])
        )[0].n,
      );
    const badReason = await server.graphql(
      'mutation($id: ID!) { sandboxOpenDispute(input: { paymentId: $id, reason: "" }) { dispute { id } userErrors { field message code } } }',
      { id: payment.id },
      as(owner),
    );
    expect(badReason.body.data.sandboxOpenDispute).toEqual({
      dispute: null,
      userErrors: [{ field: ['input', 'reason'], message: 'must not be empty', code: 'VALIDATION_ERROR' }],
    });
    expect(await disputes()).toBe(1);
    await expectLedgerBalanced(server);
  });

  test("paymentUpdated delivers each change of the subscriber's payments once, with previousStatus and changedFields, and nothing of another business", async () => {
    const stranger = await chargingMerchant(server);
    const query = 'subscription { paymentUpdated { payment { id } previousStatus changedFields } }';
    const mine = collect(server.subscribe({ 'x-api-key': merchant.apiKey }), query, 3);
    const theirs = collect(server.subscribe({ 'x-api-key': stranger.apiKey }), query, 1);
    await Promise.all([mine.ready, theirs.ready]);
    const payment = (
      await charge(server, merchant, {
        amount: 5,
        currency: 'usd',
        card: card(CARDS.threeDsSuccess),
        email: 'sub@example.com',
      })
    ).body.data;
    await server.request('POST', `/api/v1/business/payments/${payment.id}/3ds/complete`, { headers: as(merchant) });
    const updates = await mine.done;
    expect(updates.map((update) => update.paymentUpdated)).toEqual([
      {
        payment: { id: payment.id },
        previousStatus: null,
        changedFields: expect.arrayContaining(['id', 'status', 'amount', 'email', 'card', 'source', 'createdAt']),
      },
      { payment: { id: payment.id }, previousStatus: 'PENDING', changedFields: ['status', 'threeDSecure'] },
      {
        payment: { id: payment.id },
        previousStatus: 'REQUIRES_ACTION',
        changedFields: ['status', 'threeDSecure', 'capturedAt'],
      },
    ]);
    expect(updates[0].paymentUpdated.changedFields).not.toContain('capturedAt');
    // Published after all of mine: the stranger's first message is its own payment, never mine.
    const own = (
      await charge(server, stranger, {
        amount: 6,
        currency: 'usd',
        card: card(CARDS.success),
        email: 'own@example.com',
      })
    ).body.data;
    expect(await theirs.done).toEqual([
      { paymentUpdated: { payment: { id: own.id }, previousStatus: null, changedFields: expect.any(Array) } },
    ]);
  });

  test('paymentUpdated says what a refund, a settlement and a dispute changed, once each', async () => {
    const owner = await chargingMerchant(server);
    const payment = (
      await charge(server, owner, {
        amount: 20,
        currency: 'usd',
        card: card(CARDS.success),
        email: 'changes@example.com',
      })
    ).body.data;
    const query = `subscription { paymentUpdated(paymentId: "${payment.id}") { payment { id } previousStatus changedFields } }`;
    const updates = collect(server.subscribe({ 'x-api-key': owner.apiKey }), query, 4);
    await updates.ready;
    await server.request('POST', `/api/v1/business/payments/${payment.id}/refunds`, {
      headers: as(owner),
      body: { amount: 5 },
    });
    await server.graphql(
      'mutation($id: ID!) { sandboxSettlePayment(input: { id: $id }) { payment { id } } }',
      { id: payment.id },
      as(owner),
    );
    await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: as(owner),
      body: { currency: 'usd', amount: '50.00' },
    });
    const opened = await server.graphql(
      'mutation($id: ID!) { sandboxOpenDispute(input: { paymentId: $id }) { dispute { id } } }',
      { id: payment.id },
      as(owner),
    );
    await server.graphql(
      'mutation($id: ID!) { sandboxResolveDispute(input: { disputeId: $id, won: false }) { dispute { id } } }',
      { id: opened.body.data.sandboxOpenDispute.dispute.id },
      as(owner),
    );
    expect(
      (await updates.done).map((update) => ({
        previousStatus: update.paymentUpdated.previousStatus,
        changedFields: update.paymentUpdated.changedFields,
      })),
    ).toEqual([
      { previousStatus: 'COMPLETED', changedFields: ['amountRefunded', 'refunds'] },
      { previousStatus: 'COMPLETED', changedFields: ['status', 'fee', 'settledAt'] },
      { previousStatus: 'SETTLED', changedFields: ['amountDisputed', 'disputes'] },
      { previousStatus: 'SETTLED', changedFields: ['disputes'] },
    ]);
  });
});

/** Jobs: the sandbox's automatic 3-D Secure completion and settlement after the configured delay. */
describe('payment jobs', () => {
  let server: TestServer;
  let worker: Worker;

  beforeAll(async () => {
    server = await startTestServer({
      paymentSettlementDelaySeconds: 1,
      sandbox3dsAutoCompleteMs: 200,
      workerPollIntervalMs: 50,
    });
    worker = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
  });
  afterAll(async () => {
    await stopWorker(worker);
    await server.close();
  });

  const statusOf = async (id: string) =>
    (await server.runtime.dataSource.query(`SELECT status FROM payments WHERE id = $1`, [id]))[0].status;

  test('in the sandbox a 3-D Secure challenge completes automatically', async () => {
    const merchant = await chargingMerchant(server);
    const ok = (
      await charge(server, merchant, {
        amount: 5,
        currency: 'usd',
        card: card(CARDS.threeDsSuccess),
        email: 'a@example.com',
      })
    ).body.data;
    const bad = (
      await charge(server, merchant, {
        amount: 6,
        currency: 'usd',
        card: card(CARDS.threeDsFailure),
        email: 'b@example.com',
      })
    ).body.data;
    expect([ok.status, bad.status]).toEqual(['REQUIRES_ACTION', 'REQUIRES_ACTION']);
    expect(
      await waitFor(
        () => statusOf(bad.id),
        (status) => status === 'FAILED',
      ),
    ).toBe('FAILED');
    expect(
      await waitFor(
        () => statusOf(ok.id),
        (status) => status !== 'REQUIRES_ACTION',
      ),
    ).not.toBe('REQUIRES_ACTION');
  });

  test('a captured payment settles by itself after the settlement delay', async () => {
    const merchant = await chargingMerchant(server);
    const payment = (
      await charge(server, merchant, { amount: 20, currency: 'usd', card: card(), email: 'c@example.com' })
    ).body.data;
    expect(
      await waitFor(
        () => statusOf(payment.id),
        (status) => status === 'SETTLED',
      ),
    ).toBe('SETTLED');
    expect(await walletBalance(server, merchant.businessId)).toBe(2000n - 88n);
    await expectLedgerBalanced(server);
  });
});
