import { TestMerchant, TestServer, startDeliveringServer } from './support/harness';
import { apiKey, bankDetails, createRecipient, dashboard, fundWallet } from './support/payouts';
import { DAY, SCHEDULES, advanceClock, createSchedule, scheduleBody, setPin } from './support/schedules';

/**
 * Audit of issue 14 (scheduled payouts): tenant and mode isolation on every schedule route and
 * GraphQL operation (API key and dashboard JWT alike), and every illegal transition of a
 * COMPLETED schedule: 409 (GraphQL CONFLICT) and nothing changes.
 */
describe('Scheduled payouts: isolation on every route, and a COMPLETED schedule stays as it is', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer({ payoutSandboxSettleMs: 100 });
  });
  afterAll(async () => server.close());

  const errorOf = (response: { status: number; body: any }) => ({
    status: response.status,
    code: response.body.error?.code,
  });
  const read = async (who: TestMerchant, id: string) =>
    (await server.request('GET', `${SCHEDULES}/${id}`, { headers: apiKey(who) })).body.data;
  const runs = async (who: TestMerchant, id: string) =>
    (await server.request('GET', `${SCHEDULES}/${id}/runs`, { headers: apiKey(who) })).body.data;

  /** An owner with an ACTIVE weekly schedule that has run once, and a COMPLETED ONCE schedule. */
  async function ownerWithSchedules() {
    const owner = await server.signUp();
    await setPin(server, owner);
    await fundWallet(server, owner, '1000.00');
    const payee = (await createRecipient(server, owner, bankDetails('3333'))).id;
    const weekly = (await createSchedule(server, owner, scheduleBody(payee, {}, 60_000))).body.data;
    const once = (await createSchedule(server, owner, scheduleBody(payee, { cadence: 'ONCE', name: 'once' }, 60_000)))
      .body.data;
    await advanceClock(server, owner, 120);
    expect(await read(owner, weekly.id)).toMatchObject({ status: 'ACTIVE', runCount: 1 });
    expect(await read(owner, once.id)).toMatchObject({ status: 'COMPLETED', runCount: 1 });
    return { owner, payee, weekly, once };
  }

  const routesOf = (id: string): Array<['GET' | 'POST' | 'PATCH', string, unknown?]> => [
    ['GET', `${SCHEDULES}/${id}`],
    ['GET', `${SCHEDULES}/${id}/runs`],
    ['PATCH', `${SCHEDULES}/${id}`, { name: 'Not yours' }],
    ['POST', `${SCHEDULES}/${id}/pause`],
    ['POST', `${SCHEDULES}/${id}/resume`],
    ['POST', `${SCHEDULES}/${id}/cancel`],
  ];

  test("another business's OWNER (dashboard JWT) and the owner's live credentials get 404 on every schedule route, list none, and nothing changes", async () => {
    const { owner, weekly } = await ownerWithSchedules();
    const before = { schedule: await read(owner, weekly.id), runs: await runs(owner, weekly.id) };
    const stranger = await server.signUp();
    const callers: Array<[string, Record<string, string>]> = [
      ['stranger OWNER', dashboard(stranger)],
      ['live key', { 'x-api-key': await server.liveKeyOf(owner) }],
      ['live OWNER', { ...dashboard(owner), 'x-service-mode': 'live' }],
    ];
    for (const [who, headers] of callers) {
      for (const [method, path, body] of routesOf(weekly.id)) {
        const response = await server.request(method, path, { headers, body });
        expect([who, method, path, errorOf(response)]).toEqual([who, method, path, { status: 404, code: 'NOT_FOUND' }]);
      }
      for (const query of ['', '?status=ACTIVE', '?status=COMPLETED']) {
        const list = await server.request('GET', `${SCHEDULES}${query}`, { headers });
        expect([who, query, list.status, list.body.data]).toEqual([
          who,
          query,
          200,
          { items: [], total: 0, skip: 0, take: 20 },
        ]);
      }
    }
    expect({ schedule: await read(owner, weekly.id), runs: await runs(owner, weekly.id) }).toEqual(before);
  });

  test('over GraphQL, another business and live mode get NOT_FOUND for a schedule on every operation, list none, and nothing changes', async () => {
    const { owner, weekly } = await ownerWithSchedules();
    const before = await read(owner, weekly.id);
    const stranger = await server.signUp();
    const operations: Array<[string, string, Record<string, unknown>]> = [
      [
        'payoutSchedule',
        'query($id: ID!) { payoutSchedule(id: $id) { id runs { edges { node { id } } } } }',
        { id: weekly.id },
      ],
      [
        'updatePayoutSchedule',
        'mutation($id: ID!) { updatePayoutSchedule(input: { id: $id, name: "Not yours" }) { payoutSchedule { id } userErrors { field code } } }',
        { id: weekly.id },
      ],
      [
        'pausePayoutSchedule',
        'mutation($id: ID!) { pausePayoutSchedule(input: { id: $id }) { payoutSchedule { id } userErrors { field code } } }',
        { id: weekly.id },
      ],
      [
        'resumePayoutSchedule',
        'mutation($id: ID!) { resumePayoutSchedule(input: { id: $id }) { payoutSchedule { id } userErrors { field code } } }',
        { id: weekly.id },
      ],
      [
        'cancelPayoutSchedule',
        'mutation($id: ID!) { cancelPayoutSchedule(input: { id: $id }) { payoutSchedule { id } userErrors { field code } } }',
        { id: weekly.id },
      ],
    ];
    /** A thrown error's code (the read), or a mutation's NOT_FOUND userError, its schedule null. */
    const refusalOf = (name: string, body: any) =>
      name === 'payoutSchedule'
        ? body.errors?.[0]?.extensions?.code
        : body.errors === undefined &&
            body.data[name].payoutSchedule === null &&
            JSON.stringify(body.data[name].userErrors) === '[{"field":null,"code":"NOT_FOUND"}]'
          ? 'NOT_FOUND'
          : JSON.stringify(body);
    const callers: Array<[string, Record<string, string>]> = [
      ['stranger key', apiKey(stranger)],
      ['stranger OWNER', dashboard(stranger)],
      ['live key', { 'x-api-key': await server.liveKeyOf(owner) }],
      ['live OWNER', { ...dashboard(owner), 'x-service-mode': 'live' }],
    ];
    for (const [who, headers] of callers) {
      for (const [name, query, variables] of operations) {
        const response = await server.graphql(query, variables, headers);
        expect([who, name, refusalOf(name, response.body)]).toEqual([who, name, 'NOT_FOUND']);
      }
      const listed = await server.graphql('{ payoutSchedules { edges { node { id } } } }', {}, headers);
      expect([who, listed.body.errors, listed.body.data]).toEqual([who, undefined, { payoutSchedules: { edges: [] } }]);
    }
    expect(await read(owner, weekly.id)).toEqual(before);
  });

  test('a COMPLETED schedule cannot be paused, resumed, cancelled or edited (409 CONFLICT), and nothing changes', async () => {
    const { owner, payee, once } = await ownerWithSchedules();
    const before = await read(owner, once.id);
    for (const action of ['pause', 'resume', 'cancel']) {
      const response = await server.request('POST', `${SCHEDULES}/${once.id}/${action}`, { headers: apiKey(owner) });
      expect([action, errorOf(response)]).toEqual([action, { status: 409, code: 'CONFLICT' }]);
    }
    for (const body of [
      { name: 'Renamed' },
      { endAt: null },
      { payloadKind: 'SINGLE', payload: { recipientId: payee, amount: '1.00', currency: 'USD' }, pin: '246810' },
    ]) {
      const response = await server.request('PATCH', `${SCHEDULES}/${once.id}`, { headers: apiKey(owner), body });
      expect([body, errorOf(response)]).toEqual([body, { status: 409, code: 'CONFLICT' }]);
    }
    const viaGraphql = await server.graphql(
      'mutation($id: ID!) { resumePayoutSchedule(input: { id: $id }) { payoutSchedule { id } userErrors { field code } } }',
      { id: once.id },
      apiKey(owner),
    );
    expect(viaGraphql.body).toEqual({
      data: { resumePayoutSchedule: { payoutSchedule: null, userErrors: [{ field: null, code: 'CONFLICT' }] } },
    });
    expect(await read(owner, once.id)).toEqual(before);
    // A later clock advance does not bring it back.
    await advanceClock(server, owner, 14 * DAY);
    expect(await read(owner, once.id)).toEqual(before);
    expect((await runs(owner, once.id)).total).toBe(1);
  });
});
