import { TestMerchant, TestServer, startDeliveringServer, waitFor } from './support/harness';
import { walletBalance } from './support/payments';
import { PAYOUTS, apiKey, bankDetails, createPayout, createRecipient, dashboard, fundWallet } from './support/payouts';

/**
 * Audit of issue 13 (payouts): tenant and mode isolation on every payouts route and GraphQL
 * operation, the review permissions for every kind of caller, and cancel only from CREATED for
 * every other status. Another business's ids answer 404 (design 4: ids never leak), test and live
 * mode never see each other's rows, and a refused call changes nothing.
 */

const RECIPIENTS = `${PAYOUTS}/recipients`;
const BATCHES = `${PAYOUTS}/batches`;
const ADVANCE = (id: string) => `/api/v1/business/sandbox/payouts/${id}/advance`;

type Call = [method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown];

describe('Payouts: isolation, review permissions and cancel on every route', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer({ payoutSandboxSettleMs: 100 });
  });
  afterAll(async () => server.close());

  const db = () => server.runtime.dataSource;
  const read = (merchant: TestMerchant, id: string) =>
    server.request('GET', `${PAYOUTS}/${id}`, { headers: apiKey(merchant) });
  const countOf = async (table: string, businessId: string) =>
    Number((await db().query(`SELECT count(*) AS n FROM ${table} WHERE business_id = $1`, [businessId]))[0].n);
  const reversalsOf = async (payoutId: string) =>
    Number(
      (
        await db().query(
          `SELECT count(*) AS n FROM journal_transactions WHERE reference_type = 'payout' AND reference_id = $1 AND kind = 'payout_reverse'`,
          [payoutId],
        )
      )[0].n,
    );

  /** A funded test-mode merchant with a recipient ending 3333 (stays CREATED), a payout to it, a held payout (2222) and a batch. */
  async function ownerWithEverything() {
    const owner = await server.signUp();
    await fundWallet(server, owner, '100.00');
    const recipient = await createRecipient(server, owner, bankDetails('3333'));
    const heldRecipient = await createRecipient(server, owner, bankDetails('2222'));
    const payout = (await createPayout(server, owner, { recipientId: recipient.id, amount: '1.00' })).body.data;
    const held = (await createPayout(server, owner, { recipientId: heldRecipient.id, amount: '1.00' })).body.data;
    const batch = (
      await server.request('POST', BATCHES, {
        headers: apiKey(owner),
        body: { items: [{ recipientId: recipient.id, amount: '1.00', currency: 'USD' }] },
      })
    ).body.data;
    expect([payout.status, held.status, batch.itemCount]).toEqual(['CREATED', 'PENDING_REVIEW', 1]);
    return { owner, recipient, heldRecipient, payout, held, batch };
  }

  /** What the owner can see of its rows, to show a refused call changed nothing. */
  async function snapshot(
    owner: TestMerchant,
    ids: { recipient: { id: string }; payout: { id: string }; held: { id: string }; batch: { id: string } },
  ) {
    return {
      recipient: (await server.request('GET', `${RECIPIENTS}/${ids.recipient.id}`, { headers: apiKey(owner) })).body
        .data,
      payout: (await read(owner, ids.payout.id)).body.data,
      held: (await read(owner, ids.held.id)).body.data,
      batch: (await server.request('GET', `${BATCHES}/${ids.batch.id}`, { headers: apiKey(owner) })).body.data,
      balance: await walletBalance(server, owner.businessId),
      payouts: await countOf('payouts', owner.businessId),
      recipients: await countOf('payout_recipients', owner.businessId),
      batches: await countOf('payout_batches', owner.businessId),
      events: await countOf('events', owner.businessId),
    };
  }

  /** Every payouts route that names an id of the owner's. */
  const idRoutes = (rows: Awaited<ReturnType<typeof ownerWithEverything>>): Call[] => [
    ['GET', `${RECIPIENTS}/${rows.recipient.id}`],
    ['DELETE', `${RECIPIENTS}/${rows.recipient.id}`],
    ['GET', `${PAYOUTS}/${rows.payout.id}`],
    ['GET', `/v1/business/payouts/${rows.payout.id}`],
    ['POST', `${PAYOUTS}/${rows.payout.id}/cancel`],
    ['POST', ADVANCE(rows.payout.id), { status: 'SUBMITTED' }],
    ['GET', `${BATCHES}/${rows.batch.id}`],
    ['GET', `${BATCHES}/${rows.batch.id}/payouts`],
    ['POST', PAYOUTS, { recipientId: rows.recipient.id, amount: '1.00', currency: 'USD' }],
  ];
  const reviewRoutes = (rows: Awaited<ReturnType<typeof ownerWithEverything>>): Call[] => [
    ['POST', `${PAYOUTS}/${rows.held.id}/approve`],
    ['POST', `${PAYOUTS}/${rows.held.id}/reject`, { reason: 'not mine' }],
  ];
  const lists = [RECIPIENTS, `${RECIPIENTS}?includeArchived=true`, PAYOUTS, BATCHES];

  test("another business gets 404 for the owner's ids on every payouts route (its OWNER's JWT on review too), lists none of them, and nothing changes", async () => {
    const rows = await ownerWithEverything();
    const before = await snapshot(rows.owner, rows);
    const stranger = await server.signUp();
    await fundWallet(server, stranger, '100.00');

    for (const [method, path, body] of idRoutes(rows)) {
      const response = await server.request(method, path, { headers: apiKey(stranger), body });
      expect([method, path, response.status, response.body.error?.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    for (const [method, path, body] of reviewRoutes(rows)) {
      const response = await server.request(method, path, { headers: dashboard(stranger), body });
      expect([method, path, response.status, response.body.error?.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    // A batch paying the owner's recipient: the item's recipient is unknown to the stranger.
    const batch = await server.request('POST', BATCHES, {
      headers: apiKey(stranger),
      body: { items: [{ recipientId: rows.recipient.id, amount: '1.00', currency: 'USD' }] },
    });
    expect(batch.status).toBe(400);
    expect(Object.keys(batch.body.error.errors)).toEqual(['items.0.recipientId']);
    for (const path of lists) {
      const response = await server.request('GET', path, { headers: apiKey(stranger) });
      expect([path, response.status, response.body.data.total, response.body.data.items]).toEqual([path, 200, 0, []]);
    }

    expect(await snapshot(rows.owner, rows)).toEqual(before);
    for (const table of ['payouts', 'payout_batches', 'payout_recipients'])
      expect(await countOf(table, stranger.businessId)).toBe(0);
    expect(await walletBalance(server, stranger.businessId)).toBe(10000n);
  });

  test('live credentials (API key, and an OWNER dashboard JWT in live mode) see none of the test rows on any payouts route, and nothing changes', async () => {
    const rows = await ownerWithEverything();
    const liveKey = { 'x-api-key': await server.liveKeyOf(rows.owner) };
    const liveDashboard = { ...dashboard(rows.owner), 'x-service-mode': 'live' };
    const before = await snapshot(rows.owner, rows);

    for (const [method, path, body] of idRoutes(rows)) {
      for (const [who, headers] of [
        ['live key', liveKey],
        ['live dashboard', liveDashboard],
      ] as const) {
        const response = await server.request(method, path, { headers, body });
        // Refused outright in live mode, before any lookup: the sandbox helper, and a new payout (no live rail in this
        // build). Every other route does not find the test row.
        const expected = path.includes('/sandbox/')
          ? [403, 'SANDBOX_ONLY']
          : method === 'POST' && path === PAYOUTS
            ? [422, 'UNPROCESSABLE']
            : [404, 'NOT_FOUND'];
        expect([who, method, path, response.status, response.body.error?.code]).toEqual([
          who,
          method,
          path,
          ...expected,
        ]);
      }
    }
    for (const [method, path, body] of reviewRoutes(rows)) {
      const response = await server.request(method, path, { headers: liveDashboard, body });
      expect([method, path, response.status, response.body.error?.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    for (const path of lists) {
      for (const headers of [liveKey, liveDashboard]) {
        const response = await server.request('GET', path, { headers });
        expect([path, response.status, response.body.data.total]).toEqual([path, 200, 0]);
      }
    }
    expect(await snapshot(rows.owner, rows)).toEqual(before);
    expect(
      Number(
        (
          await db().query(`SELECT count(*) AS n FROM payouts WHERE business_id = $1 AND livemode`, [
            rows.owner.businessId,
          ])
        )[0].n,
      ),
    ).toBe(0);
  });

  test('an ADMIN approves and an OWNER rejects a held payout; an API token from the token exchange is 403 like the API key', async () => {
    const owner = await server.signUp();
    await fundWallet(server, owner, '100.00');
    const admin = await server.signUp();
    await server.addTeamMember(owner, admin, 'ADMIN');
    const recipient = await createRecipient(server, owner, bankDetails('2222'));
    const first = (await createPayout(server, owner, { recipientId: recipient.id, amount: '1.00' })).body.data;
    const second = (await createPayout(server, owner, { recipientId: recipient.id, amount: '2.00' })).body.data;

    const exchanged = await server.request('POST', '/api/v1/business/auth/token', {
      body: { apiKey: owner.apiKey, apiSecret: owner.apiSecret },
    });
    expect(exchanged.status).toBe(200);
    const apiToken = { authorization: `Bearer ${exchanged.body.data.accessToken}` };
    expect((await server.request('GET', `${PAYOUTS}/${first.id}`, { headers: apiToken })).status).toBe(200);
    for (const [path, body] of [
      [`${PAYOUTS}/${first.id}/approve`, undefined],
      [`${PAYOUTS}/${first.id}/reject`, { reason: 'no' }],
    ] as const) {
      const response = await server.request('POST', path, { headers: apiToken, body });
      expect([path, response.status, response.body.error?.code]).toEqual([path, 403, 'FORBIDDEN']);
    }
    expect((await read(owner, first.id)).body.data.status).toBe('PENDING_REVIEW');

    const asAdmin = { authorization: `Bearer ${admin.token}`, 'x-service-business-id': owner.businessId };
    const approved = await server.request('POST', `${PAYOUTS}/${first.id}/approve`, { headers: asAdmin });
    expect([approved.status, approved.body.data?.status]).toEqual([200, 'CREATED']);
    const rejected = await server.request('POST', `${PAYOUTS}/${second.id}/reject`, {
      headers: dashboard(owner),
      body: { reason: 'duplicate invoice' },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'FAILED', failureReason: 'duplicate invoice' });
    expect(await reversalsOf(second.id)).toBe(1);
    expect(await reversalsOf(first.id)).toBe(0);
    // 100.00 less the approved 1.00 + 0.01 fee; the rejected 2.00 + 0.02 is back.
    expect(await walletBalance(server, owner.businessId)).toBe(10000n - 101n);
  });

  test('cancel only from CREATED: a PENDING_REVIEW, SETTLED or FAILED payout is 409 CONFLICT, unchanged, with no further reversal', async () => {
    const merchant = await server.signUp();
    await fundWallet(server, merchant, '100.00');
    const held = (
      await createPayout(server, merchant, {
        recipientId: (await createRecipient(server, merchant, bankDetails('2222'))).id,
        amount: '1.00',
      })
    ).body.data;
    const settling = (
      await createPayout(server, merchant, {
        recipientId: (await createRecipient(server, merchant, bankDetails('6789'))).id,
        amount: '1.00',
      })
    ).body.data;
    const failing = (
      await createPayout(server, merchant, {
        recipientId: (await createRecipient(server, merchant, bankDetails('1111'))).id,
        amount: '1.00',
      })
    ).body.data;
    await waitFor(
      () => read(merchant, settling.id),
      (response) => response.body.data.status === 'SETTLED',
    );
    await waitFor(
      () => read(merchant, failing.id),
      (response) => response.body.data.status === 'FAILED',
    );

    for (const payout of [held, settling, failing]) {
      const before = (await read(merchant, payout.id)).body.data;
      const reversals = await reversalsOf(payout.id);
      const response = await server.request('POST', `${PAYOUTS}/${payout.id}/cancel`, { headers: apiKey(merchant) });
      expect([before.status, response.status, response.body.error?.code]).toEqual([before.status, 409, 'CONFLICT']);
      expect(response.body.error.message).toMatch(/Only a CREATED payout can be cancelled/);
      expect((await read(merchant, payout.id)).body.data).toEqual(before);
      expect(await reversalsOf(payout.id)).toBe(reversals);
    }
    // The held and the settled payouts stay debited; the failed one was reversed once, by the rail.
    expect(await walletBalance(server, merchant.businessId)).toBe(10000n - 2n * 101n);
    expect(
      Number(
        (
          await db().query(`SELECT count(*) AS n FROM events WHERE business_id = $1 AND type = 'payout.cancelled'`, [
            merchant.businessId,
          ])
        )[0].n,
      ),
    ).toBe(0);
  });

  describe('over GraphQL', () => {
    const READS = {
      payout: 'query($id: ID!) { payout(id: $id) { id } }',
      payoutRecipient: 'query($id: ID!) { payoutRecipient(id: $id) { id } }',
      payoutBatch: 'query($id: ID!) { payoutBatch(id: $id) { id } }',
    };
    const LISTS =
      '{ payouts { edges { node { id } } } payoutRecipients(includeArchived: true) { edges { node { id } } } payoutBatches { edges { node { id } } } }';
    const WRITES: Array<
      [string, string, (rows: Awaited<ReturnType<typeof ownerWithEverything>>) => Record<string, unknown>]
    > = [
      [
        'cancelPayout',
        'mutation($input: CancelPayoutInput!) { cancelPayout(input: $input) { payout { id } userErrors { field code } } }',
        (rows) => ({ input: { id: rows.payout.id } }),
      ],
      [
        'archivePayoutRecipient',
        'mutation($input: ArchivePayoutRecipientInput!) { archivePayoutRecipient(input: $input) { recipient { id } userErrors { field code } } }',
        (rows) => ({ input: { id: rows.recipient.id } }),
      ],
      [
        'approvePayout',
        'mutation($input: ApprovePayoutInput!) { approvePayout(input: $input) { payout { id } userErrors { field code } } }',
        (rows) => ({ input: { id: rows.held.id } }),
      ],
      [
        'rejectPayout',
        'mutation($input: RejectPayoutInput!) { rejectPayout(input: $input) { payout { id } userErrors { field code } } }',
        (rows) => ({ input: { id: rows.held.id, reason: 'no' } }),
      ],
      [
        'createPayout',
        'mutation($input: CreatePayoutInput!) { createPayout(input: $input) { payout { id } userErrors { field code } } }',
        (rows) => ({ input: { recipientId: rows.recipient.id, amount: '1.00', currency: 'USD' } }),
      ],
    ];
    /** A thrown error's code, or the payload's only userError (its object null), as `userError CODE`. */
    const refusalOf = (body: any) => {
      if (body.errors) return body.errors[0]?.extensions?.code;
      const [payload]: any[] = Object.values(body.data);
      const [, object] = Object.entries(payload).find(([key]) => key !== 'userErrors')!;
      return object === null && payload.userErrors.length === 1 && payload.userErrors[0].field === null
        ? `userError ${payload.userErrors[0].code}`
        : JSON.stringify(body);
    };

    test("another business and live mode get NOT_FOUND for the owner's payouts, recipients and batches, list none, and change nothing", async () => {
      const rows = await ownerWithEverything();
      const before = await snapshot(rows.owner, rows);
      const stranger = await server.signUp();
      await fundWallet(server, stranger, '100.00');
      const liveKey = await server.liveKeyOf(rows.owner);
      const callers: Array<[string, Record<string, string>]> = [
        ['stranger key', apiKey(stranger)],
        ['stranger OWNER', dashboard(stranger)],
        ['live key', { 'x-api-key': liveKey }],
        ['live OWNER', { ...dashboard(rows.owner), 'x-service-mode': 'live' }],
      ];
      for (const [who, headers] of callers) {
        for (const [name, query] of Object.entries(READS)) {
          const id =
            name === 'payout' ? rows.payout.id : name === 'payoutRecipient' ? rows.recipient.id : rows.batch.id;
          const response = await server.graphql(query, { id }, headers);
          expect([who, name, response.body.errors?.[0]?.extensions?.code]).toEqual([who, name, 'NOT_FOUND']);
        }
        for (const [name, query, variables] of WRITES) {
          // Review mutations need a dashboard JWT: an API key is FORBIDDEN before any lookup.
          if ((name === 'approvePayout' || name === 'rejectPayout') && 'x-api-key' in headers) continue;
          const response = await server.graphql(query, variables(rows), headers);
          // Live mode has no payout rail in this build: a new payout is refused before any lookup.
          const expected =
            name === 'createPayout' && who.startsWith('live') ? 'userError UNPROCESSABLE' : 'userError NOT_FOUND';
          expect([who, name, refusalOf(response.body)]).toEqual([who, name, expected]);
        }
        const listed = await server.graphql(LISTS, {}, headers);
        expect(listed.body.errors).toBeUndefined();
        expect([who, listed.body.data]).toEqual([
          who,
          { payouts: { edges: [] }, payoutRecipients: { edges: [] }, payoutBatches: { edges: [] } },
        ]);
      }
      expect(await snapshot(rows.owner, rows)).toEqual(before);
    });
  });
});
