import { PayoutTopic } from '../src/domain/payouts/payouts.topics';
import {
  TestMerchant,
  TestServer,
  collect,
  countStatements,
  heardBefore,
  startDeliveringServer,
  waitFor,
} from './support/harness';
import { apiKey, bankDetails, createRecipient, fundWallet } from './support/payouts';
import { DAY, PIN, SCHEDULES, setPin } from './support/schedules';

/**
 * The GraphQL face of scheduled payouts and of the sandbox test clock (design section 8;
 * docs/schedules.md): the same commands and rules as REST, the documented Schedule field for field,
 * runs through a loader (a constant number of SQL statements per page of schedules),
 * payoutScheduleUpdated over graphql-ws only for the subscriber's own business and mode.
 */

const HOUR_MS = 3_600_000;

const SCHEDULE_FIELDS = `id businessId name cadence dayOfMonth payloadKind status itemCount nextRunAt lastRunAt endAt runCount
  maxRunAmountUsd maxRunLocalCaps { currency amount } authorizedAt createdAt updatedAt`;
const USER_ERRORS = 'userErrors { field message code }';
const CREATE = `mutation($input: CreatePayoutScheduleInput!) { createPayoutSchedule(input: $input) { payoutSchedule { ${SCHEDULE_FIELDS} } ${USER_ERRORS} } }`;
const UPDATE = `mutation($input: UpdatePayoutScheduleInput!) { updatePayoutSchedule(input: $input) { payoutSchedule { ${SCHEDULE_FIELDS} } ${USER_ERRORS} } }`;
const READ = `query($id: ID!) { payoutSchedule(id: $id) { ${SCHEDULE_FIELDS} } }`;
const PAUSE = `mutation($input: PausePayoutScheduleInput!) { pausePayoutSchedule(input: $input) { payoutSchedule { id status nextRunAt } ${USER_ERRORS} } }`;
const RESUME = `mutation($input: ResumePayoutScheduleInput!) { resumePayoutSchedule(input: $input) { payoutSchedule { id status nextRunAt } ${USER_ERRORS} } }`;
const CANCEL = `mutation($input: CancelPayoutScheduleInput!) { cancelPayoutSchedule(input: $input) { payoutSchedule { id status } ${USER_ERRORS} } }`;
const LIST = `query($first: Int, $after: String, $status: PayoutScheduleStatus) { payoutSchedules(first: $first, after: $after, status: $status) {
  edges { cursor node { id name status } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
const RUNS = `query($id: ID!, $first: Int, $after: String) { payoutSchedule(id: $id) { id runCount lastRunAt nextRunAt
  runs(first: $first, after: $after) { edges { cursor node { id runAt status reason payoutIds batchId } } pageInfo { hasNextPage endCursor } } } }`;
const SCHEDULES_WITH_RUNS = `query($first: Int, $runs: Int) { payoutSchedules(first: $first) {
  edges { node { id runs(first: $runs) { edges { node { id runAt status payoutIds } } pageInfo { hasNextPage } } } } } }`;
const CLOCK = '{ sandboxClock { now offsetSeconds advance { id status runsDue runsFired } } }';
const ADVANCE = `mutation($input: AdvanceSandboxClockInput!) { advanceSandboxClock(input: $input) {
  sandboxClock { now offsetSeconds advance { id status runsDue runsFired } } ${USER_ERRORS} } }`;
const SCHEDULE_UPDATED =
  'subscription { payoutScheduleUpdated { payoutSchedule { id status } previousStatus changedFields } }';
/** A schedule's own id as a mutation's input. */
const byId = (id: string) => ({ input: { id } });

describe('Scheduled payouts over GraphQL', () => {
  let server: TestServer;
  // An advance's due runs fire in background jobs: a worker runs them.
  beforeAll(async () => {
    server = await startDeliveringServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const asDashboard = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });

  /** Runs an operation and answers its data, failing the test on any error. */
  async function ok<T = any>(
    query: string,
    variables: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<T> {
    const response = await server.graphql<T>(query, variables, headers);
    expect(response.body.errors).toBeUndefined();
    return response.body.data as T;
  }

  /** The userErrors of a mutation the caller can fix: no GraphQL error, and the payload's object null. */
  async function userErrors(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const data = await ok(query, variables, headers);
    const [payload]: any[] = Object.values(data);
    const object = Object.keys(payload).find((key) => key !== 'userErrors')!;
    expect(payload[object]).toBeNull();
    expect(payload.userErrors.length).toBeGreaterThan(0);
    return payload.userErrors as Array<{ field: string[] | null; message: string; code: string }>;
  }

  /** The first error of an operation that must fail. */
  async function refused(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const response = await server.graphql(query, variables, headers);
    expect(response.body.errors).toHaveLength(1);
    return response.body.errors![0];
  }

  /** Advances the test clock and waits until its advance completed (its runs fire in the background); answers the clock then. */
  async function advanced(seconds: number, headers: Record<string, string>): Promise<any> {
    const started = (await ok(ADVANCE, { input: { seconds } }, headers)).advanceSandboxClock.sandboxClock;
    const clock = await waitFor(
      async () => (await ok(CLOCK, {}, headers)).sandboxClock,
      (current) => current.advance?.status === 'COMPLETED',
    );
    expect(clock.advance).toMatchObject({
      id: started.advance.id,
      status: 'COMPLETED',
      runsFired: started.advance.runsDue,
    });
    return clock;
  }

  /** A merchant with a PIN, a funded USD wallet and a payable NGN recipient. */
  async function readyMerchant(funds = '1000.00'): Promise<{ who: TestMerchant; recipientId: string }> {
    const who = await server.signUp();
    await setPin(server, who);
    await fundWallet(server, who, funds);
    return { who, recipientId: (await createRecipient(server, who)).id };
  }

  /** The business's test-clock time plus `ms` (the wall clock until its clock is advanced). */
  async function clockPlus(who: TestMerchant, ms: number): Promise<string> {
    const { sandboxClock } = await ok(CLOCK, {}, apiKey(who));
    return new Date(Date.parse(sandboxClock.now) + ms).toISOString();
  }

  /** A WEEKLY SINGLE schedule's input, the first run an hour after the business's clock. */
  async function scheduleInput(who: TestMerchant, recipientId: string, overrides: Record<string, unknown> = {}) {
    return {
      name: 'Supplier retainer',
      cadence: 'WEEKLY',
      startAt: await clockPlus(who, HOUR_MS),
      payloadKind: 'SINGLE',
      payload: { recipientId, amount: '10.00', currency: 'USD' },
      maxRunAmountUsd: '1000.00',
      pin: PIN,
      ...overrides,
    };
  }

  async function createSchedule(
    who: TestMerchant,
    recipientId: string,
    overrides: Record<string, unknown> = {},
    headers: Record<string, string> = apiKey(who),
  ) {
    return (await ok(CREATE, { input: await scheduleInput(who, recipientId, overrides) }, headers)).createPayoutSchedule
      .payoutSchedule;
  }

  const countRows = async (table: string, businessId: string) =>
    (
      await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [
        businessId,
      ])
    )[0].n as number;

  describe('creating', () => {
    test('the Schedule read over GraphQL is REST GET /payouts/schedules/{id}, field for field (same names, values and types)', async () => {
      const { who, recipientId } = await readyMerchant();
      const second = await createRecipient(server, who, bankDetails('5678'), 'Second supplier');
      const monthly = await createSchedule(
        who,
        recipientId,
        {
          cadence: 'MONTHLY',
          dayOfMonth: 28,
          startAt: '2099-01-30T10:00:00.000Z',
          endAt: '2099-12-31T00:00:00.000Z',
          payloadKind: 'BATCH',
          payload: {
            items: [
              { recipientId, amount: '5.00', currency: 'USD' },
              { recipientId: second.id, amount: '7.50', currency: 'usd', reference: 'inv-7' },
            ],
          },
          maxRunAmountUsd: '12.5',
          maxRunLocalCaps: [{ currency: 'ngn', amount: '19000.12345678' }],
        },
        asDashboard(who),
      );
      expect(monthly).toMatchObject({
        businessId: who.businessId,
        cadence: 'MONTHLY',
        dayOfMonth: 28,
        payloadKind: 'BATCH',
        status: 'ACTIVE',
        itemCount: 2,
        nextRunAt: '2099-02-28T10:00:00.000Z',
        lastRunAt: null,
        endAt: '2099-12-31T00:00:00.000Z',
        runCount: 0,
        maxRunAmountUsd: '12.5',
        maxRunLocalCaps: [{ currency: 'NGN', amount: '19000.12345678' }],
      });
      const weekly = await createSchedule(who, recipientId);
      expect(weekly).toMatchObject({
        cadence: 'WEEKLY',
        dayOfMonth: null,
        payloadKind: 'SINGLE',
        itemCount: 1,
        endAt: null,
        maxRunLocalCaps: null,
      });

      for (const created of [monthly, weekly]) {
        const rest = await server.request('GET', `${SCHEDULES}/${created.id}`, { headers: apiKey(who) });
        expect(rest.status).toBe(200);
        // The same schedule; only the currency case differs: upper in GraphQL, lower on REST (docs/graphql-api.md, docs/rest-api.md).
        const upperCase = {
          ...rest.body.data,
          maxRunLocalCaps:
            rest.body.data.maxRunLocalCaps?.map((cap: { currency: string }) => ({
              ...cap,
              currency: cap.currency.toUpperCase(),
            })) ?? null,
        };
        expect(created).toEqual(upperCase);
        expect((await ok(READ, { id: created.id }, asDashboard(who))).payoutSchedule).toEqual(upperCase);
      }
    });

    test('a wrong PIN is the userError INVALID_PIN and nothing is stored', async () => {
      const { who, recipientId } = await readyMerchant();
      const errors = await userErrors(
        CREATE,
        { input: await scheduleInput(who, recipientId, { pin: '999999' }) },
        apiKey(who),
      );
      expect(errors).toEqual([{ field: null, code: 'INVALID_PIN', message: expect.any(String) }]);
      expect(await countRows('payout_schedules', who.businessId)).toBe(0);
    });

    test('a recipient matching screening is the userError SANCTIONS_MATCH and nothing is stored, whoever asks', async () => {
      const { who } = await readyMerchant();
      // Created with the API key: never screened then, so it exists; the schedule screens it.
      const flagged = await createRecipient(server, who, bankDetails('4321'), 'SANCTIONED supplier');
      for (const headers of [apiKey(who), asDashboard(who)]) {
        const errors = await userErrors(CREATE, { input: await scheduleInput(who, flagged.id) }, headers);
        expect(errors).toEqual([{ field: null, code: 'SANCTIONS_MATCH', message: expect.any(String) }]);
      }
      expect(await countRows('payout_schedules', who.businessId)).toBe(0);
    });

    test('bad input is VALIDATION_ERROR userErrors on the fields REST names (input.dayOfMonth, input.payload.amount), and nothing is stored', async () => {
      const { who, recipientId } = await readyMerchant();
      const input = await scheduleInput(who, recipientId, {
        cadence: 'MONTHLY',
        payload: { recipientId, amount: '1.001', currency: 'USD' },
      });
      const errors = await userErrors(CREATE, { input }, apiKey(who));
      expect(errors.every((error) => error.code === 'VALIDATION_ERROR' && typeof error.message === 'string')).toBe(
        true,
      );
      expect(errors.map((error) => error.field)).toEqual(expect.arrayContaining([['input', 'payload', 'amount']]));
      const monthlyWithoutDay = await userErrors(
        CREATE,
        { input: await scheduleInput(who, recipientId, { cadence: 'MONTHLY' }) },
        apiKey(who),
      );
      expect(monthlyWithoutDay).toEqual([
        { field: ['input', 'dayOfMonth'], code: 'VALIDATION_ERROR', message: expect.any(String) },
      ]);
      const batchFieldsOnSingle = await userErrors(
        CREATE,
        {
          input: await scheduleInput(who, recipientId, {
            payload: {
              recipientId,
              amount: '1.00',
              currency: 'USD',
              items: [{ recipientId, amount: '1.00', currency: 'USD' }],
            },
          }),
        },
        apiKey(who),
      );
      expect(batchFieldsOnSingle).toEqual([
        { field: ['input', 'payload', 'items'], code: 'VALIDATION_ERROR', message: expect.any(String) },
      ]);
      expect(await countRows('payout_schedules', who.businessId)).toBe(0);
    });
  });

  describe('the list and the lifecycle', () => {
    test('payoutSchedules is a keyset connection, newest first, filtered by status', async () => {
      const { who, recipientId } = await readyMerchant();
      const [first, second, third] = [
        await createSchedule(who, recipientId, { name: 'S1' }),
        await createSchedule(who, recipientId, { name: 'S2' }),
        await createSchedule(who, recipientId, { name: 'S3' }),
      ];
      await ok(PAUSE, byId(second.id), apiKey(who));
      await ok(CANCEL, byId(first.id), apiKey(who));

      const all = (await ok(LIST, {}, apiKey(who))).payoutSchedules;
      expect(all.edges.map((edge: any) => edge.node)).toEqual([
        { id: third.id, name: 'S3', status: 'ACTIVE' },
        { id: second.id, name: 'S2', status: 'PAUSED' },
        { id: first.id, name: 'S1', status: 'CANCELLED' },
      ]);
      expect(all.pageInfo.hasNextPage).toBe(false);
      expect(
        (await ok(LIST, { status: 'PAUSED' }, apiKey(who))).payoutSchedules.edges.map((edge: any) => edge.node.id),
      ).toEqual([second.id]);
      expect((await ok(LIST, { status: 'COMPLETED' }, apiKey(who))).payoutSchedules.edges).toEqual([]);

      const page = (await ok(LIST, { first: 2 }, apiKey(who))).payoutSchedules;
      expect(page.pageInfo).toEqual({
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: page.edges[0].cursor,
        endCursor: page.edges[1].cursor,
      });
      const rest = (await ok(LIST, { first: 2, after: page.pageInfo.endCursor }, apiKey(who))).payoutSchedules;
      expect(rest.edges.map((edge: any) => edge.node.id)).toEqual([first.id]);
      expect(rest.pageInfo).toEqual({
        hasNextPage: false,
        hasPreviousPage: true,
        startCursor: rest.edges[0].cursor,
        endCursor: rest.edges[0].cursor,
      });
      // A cursor carries its filters: it does not page another status.
      expect(
        (await refused(LIST, { first: 2, after: page.pageInfo.endCursor, status: 'ACTIVE' }, apiKey(who))).extensions
          .errors,
      ).toEqual({ after: [expect.any(String)] });
      // Another business sees none of them.
      const other = await server.signUp();
      expect((await ok(LIST, {}, apiKey(other))).payoutSchedules.edges).toEqual([]);
      expect((await refused(READ, { id: first.id }, apiKey(other))).extensions.code).toBe('NOT_FOUND');
    });

    test('pause, resume and cancel move ACTIVE -> PAUSED -> ACTIVE -> CANCELLED; an illegal transition is the userError CONFLICT and changes nothing', async () => {
      const { who, recipientId } = await readyMerchant();
      const schedule = await createSchedule(who, recipientId);
      const conflict = [{ field: null, code: 'CONFLICT', message: expect.any(String) }];
      expect(await userErrors(RESUME, byId(schedule.id), apiKey(who))).toEqual(conflict);
      expect((await ok(PAUSE, byId(schedule.id), apiKey(who))).pausePayoutSchedule).toMatchObject({
        payoutSchedule: { status: 'PAUSED' },
        userErrors: [],
      });
      expect(await userErrors(PAUSE, byId(schedule.id), apiKey(who))).toEqual(conflict);
      const resumed = (await ok(RESUME, byId(schedule.id), asDashboard(who))).resumePayoutSchedule.payoutSchedule;
      expect(resumed).toEqual({ id: schedule.id, status: 'ACTIVE', nextRunAt: schedule.nextRunAt });
      expect((await ok(CANCEL, byId(schedule.id), apiKey(who))).cancelPayoutSchedule.payoutSchedule.status).toBe(
        'CANCELLED',
      );
      for (const operation of [PAUSE, RESUME, CANCEL])
        expect(await userErrors(operation, byId(schedule.id), apiKey(who))).toEqual(conflict);
      expect(await userErrors(UPDATE, { input: { id: schedule.id, name: 'Late' } }, apiKey(who))).toEqual(conflict);
      // Another business's schedule is NOT_FOUND, as an id that names nothing.
      const other = await server.signUp();
      expect(await userErrors(PAUSE, byId(schedule.id), apiKey(other))).toEqual([
        { field: null, code: 'NOT_FOUND', message: expect.any(String) },
      ]);
      expect((await ok(READ, { id: schedule.id }, apiKey(who))).payoutSchedule).toMatchObject({
        status: 'CANCELLED',
        name: 'Supplier retainer',
      });
    });

    test('updatePayoutSchedule changes only the fields given; null clears endAt; a new payload needs the PIN (pin error, then INVALID_PIN)', async () => {
      const { who, recipientId } = await readyMerchant();
      const schedule = await createSchedule(who, recipientId, { endAt: '2099-01-01T00:00:00.000Z' });
      const renamed = (
        await ok(
          UPDATE,
          { input: { id: schedule.id, name: 'Renamed', maxRunLocalCaps: [{ currency: 'NGN', amount: '500000' }] } },
          apiKey(who),
        )
      ).updatePayoutSchedule.payoutSchedule;
      expect(renamed).toMatchObject({
        name: 'Renamed',
        endAt: '2099-01-01T00:00:00.000Z',
        maxRunLocalCaps: [{ currency: 'NGN', amount: '500000' }],
        cadence: 'WEEKLY',
      });
      const cleared = (
        await ok(UPDATE, { input: { id: schedule.id, endAt: null, maxRunLocalCaps: null } }, apiKey(who))
      ).updatePayoutSchedule.payoutSchedule;
      expect(cleared).toMatchObject({ name: 'Renamed', endAt: null, maxRunLocalCaps: null });

      const payload = { items: [{ recipientId, amount: '3.00', currency: 'USD' }] };
      const withoutPin = await userErrors(
        UPDATE,
        { input: { id: schedule.id, payloadKind: 'BATCH', payload } },
        apiKey(who),
      );
      expect(withoutPin).toEqual([{ field: ['input', 'pin'], code: 'VALIDATION_ERROR', message: expect.any(String) }]);
      expect(
        await userErrors(
          UPDATE,
          { input: { id: schedule.id, payloadKind: 'BATCH', payload, pin: '000000' } },
          apiKey(who),
        ),
      ).toEqual([{ field: null, code: 'INVALID_PIN', message: expect.any(String) }]);
      expect((await ok(READ, { id: schedule.id }, apiKey(who))).payoutSchedule).toMatchObject({
        payloadKind: 'SINGLE',
        authorizedAt: schedule.authorizedAt,
      });
      const renewed = (
        await ok(UPDATE, { input: { id: schedule.id, payloadKind: 'BATCH', payload, pin: PIN } }, apiKey(who))
      ).updatePayoutSchedule.payoutSchedule;
      expect(renewed).toMatchObject({ payloadKind: 'BATCH', itemCount: 1 });
      expect(Date.parse(renewed.authorizedAt)).toBeGreaterThan(Date.parse(schedule.authorizedAt));
    });
  });

  describe('the test clock and runs', () => {
    test('advanceSandboxClock fires each run that fell due once; PayoutSchedule.runs lists them, latest first, and pages', async () => {
      const { who, recipientId } = await readyMerchant();
      expect((await ok(CLOCK, {}, apiKey(who))).sandboxClock.offsetSeconds).toBe(0);
      const schedule = await createSchedule(who, recipientId);

      // An hour and a minute, then a week: the first occurrence, then the second.
      const first = await advanced(3_660, apiKey(who));
      expect(first.offsetSeconds).toBe(3_660);
      expect(first.advance).toMatchObject({ runsDue: 1, runsFired: 1 });
      expect(Date.parse(first.now)).toBeGreaterThan(Date.parse(schedule.nextRunAt));
      await advanced(7 * DAY, asDashboard(who));
      // Again a little: nothing more falls due, nothing fires twice.
      expect((await advanced(60, apiKey(who))).advance).toMatchObject({ runsDue: 0, runsFired: 0 });

      const read = (await ok(RUNS, { id: schedule.id }, apiKey(who))).payoutSchedule;
      const runs = read.runs.edges.map((edge: any) => edge.node);
      const firstRunAt = Date.parse(schedule.nextRunAt);
      expect(runs.map((run: any) => run.runAt)).toEqual([
        new Date(firstRunAt + 7 * DAY * 1000).toISOString(),
        schedule.nextRunAt,
      ]);
      expect(
        runs.every(
          (run: any) =>
            run.status === 'SUCCEEDED' && run.reason === null && run.payoutIds.length === 1 && run.batchId === null,
        ),
      ).toBe(true);
      expect(read).toMatchObject({
        runCount: 2,
        lastRunAt: runs[0].runAt,
        nextRunAt: new Date(firstRunAt + 14 * DAY * 1000).toISOString(),
      });
      expect(await countRows('payout_schedule_runs', who.businessId)).toBe(2);
      expect(await countRows('payouts', who.businessId)).toBe(2);
      const payout = await ok(
        'query($id: ID!) { payout(id: $id) { id amount { amount currency } recipientId } }',
        { id: runs[0].payoutIds[0] },
        apiKey(who),
      );
      expect(payout.payout).toEqual({
        id: runs[0].payoutIds[0],
        amount: { amount: '10.00', currency: 'USD' },
        recipientId,
      });

      // The same runs as REST's /runs, and a page continues from its cursor.
      const rest = await server.request('GET', `${SCHEDULES}/${schedule.id}/runs`, { headers: apiKey(who) });
      expect(runs).toEqual(rest.body.data.items);
      const firstPage = (await ok(RUNS, { id: schedule.id, first: 1 }, apiKey(who))).payoutSchedule.runs;
      expect(firstPage.pageInfo.hasNextPage).toBe(true);
      const nextPage = (await ok(RUNS, { id: schedule.id, first: 1, after: firstPage.pageInfo.endCursor }, apiKey(who)))
        .payoutSchedule.runs;
      expect([...firstPage.edges, ...nextPage.edges].map((edge: any) => edge.node.id)).toEqual(
        runs.map((run: any) => run.id),
      );
      expect(nextPage.pageInfo.hasNextPage).toBe(false);
    });

    test('the clock is test mode only: live credentials get SANDBOX_ONLY; a bad advance is a VALIDATION_ERROR userError on input.seconds', async () => {
      const who = await server.signUp();
      const liveKey = await server.liveKeyOf(who);
      expect((await refused(CLOCK, {}, { 'x-api-key': liveKey })).extensions.code).toBe('SANDBOX_ONLY');
      expect((await refused(ADVANCE, { input: { seconds: 60 } }, { 'x-api-key': liveKey })).extensions.code).toBe(
        'SANDBOX_ONLY',
      );
      expect(await userErrors(ADVANCE, { input: { seconds: 0 } }, apiKey(who))).toEqual([
        { field: ['input', 'seconds'], code: 'VALIDATION_ERROR', message: expect.any(String) },
      ]);
      expect((await ok(CLOCK, {}, apiKey(who))).sandboxClock.offsetSeconds).toBe(0);
    });

    test('the runs of a page of schedules cost the same SQL statements for 4 schedules as for 1', async () => {
      const { who, recipientId } = await readyMerchant();
      await createSchedule(who, recipientId);
      await advanced(3_660, apiKey(who));
      const one = await countStatements(server, () => ok(SCHEDULES_WITH_RUNS, { first: 20, runs: 5 }, apiKey(who)));

      for (let index = 0; index < 3; index += 1) await createSchedule(who, recipientId);
      await advanced(3_660, apiKey(who));
      let data: any;
      const four = await countStatements(server, async () => {
        data = await ok(SCHEDULES_WITH_RUNS, { first: 20, runs: 5 }, apiKey(who));
      });
      expect(four).toBe(one);
      const schedules = data.payoutSchedules.edges.map((edge: any) => edge.node);
      expect(schedules).toHaveLength(4);
      for (const schedule of schedules) {
        expect(schedule.runs.edges).toHaveLength(1);
        const rest = await server.request('GET', `${SCHEDULES}/${schedule.id}/runs`, { headers: apiKey(who) });
        expect(schedule.runs.edges.map((edge: any) => edge.node.id)).toEqual(
          rest.body.data.items.map((run: any) => run.id),
        );
      }
    });

    test('each page of schedules is priced by its size: 100 schedules with 100 runs each is QUERY_TOO_COSTLY before any resolver runs', async () => {
      const who = await server.signUp();
      const list = jest.spyOn(server.runtime.core.payoutSchedules, 'list');
      try {
        expect((await refused(SCHEDULES_WITH_RUNS, { first: 100, runs: 100 }, apiKey(who))).extensions.code).toBe(
          'QUERY_TOO_COSTLY',
        );
        expect(list).not.toHaveBeenCalled();
        await ok(SCHEDULES_WITH_RUNS, { first: 10, runs: 5 }, apiKey(who));
        expect(list).toHaveBeenCalledTimes(1);
      } finally {
        list.mockRestore();
      }
    });
  });

  describe('payoutScheduleUpdated', () => {
    test('a subscriber receives the changes of its own business and mode only: nothing of another business or of live mode', async () => {
      const { who: owner, recipientId } = await readyMerchant();
      const { who: other, recipientId: otherRecipient } = await readyMerchant();
      const liveKey = await server.liveKeyOf(owner);

      const mine = collect(server.subscribe({ apiKey: owner.apiKey }), SCHEDULE_UPDATED, 4);
      const theirs = collect(server.subscribe({ apiKey: other.apiKey }), SCHEDULE_UPDATED, 1);
      const live = collect(server.subscribe({ apiKey: liveKey }), SCHEDULE_UPDATED, 1);
      await Promise.all([mine.ready, theirs.ready, live.ready]);

      // The other business's change first: had it leaked, it would be among the owner's messages.
      const ofOther = await createSchedule(other, otherRecipient);
      const schedule = await createSchedule(owner, recipientId);
      await waitFor(
        async () => mine.received.length,
        (count) => count >= 1,
      );
      await ok(PAUSE, byId(schedule.id), apiKey(owner));
      await waitFor(
        async () => mine.received.length,
        (count) => count >= 2,
      );
      await ok(RESUME, byId(schedule.id), apiKey(owner));
      await waitFor(
        async () => mine.received.length,
        (count) => count >= 3,
      );
      await ok(CANCEL, byId(schedule.id), apiKey(owner));

      const received = await mine.done;
      expect(
        received.map(({ payoutScheduleUpdated: update }: any) => [
          update.payoutSchedule.id,
          update.previousStatus,
          update.payoutSchedule.status,
        ]),
      ).toEqual([
        [schedule.id, null, 'ACTIVE'],
        [schedule.id, 'ACTIVE', 'PAUSED'],
        [schedule.id, 'PAUSED', 'ACTIVE'],
        [schedule.id, 'ACTIVE', 'CANCELLED'],
      ]);
      expect(received[0].payoutScheduleUpdated.changedFields).toEqual(
        expect.arrayContaining(['id', 'name', 'status', 'nextRunAt']),
      );
      expect(received.slice(1).map((message: any) => message.payoutScheduleUpdated.changedFields)).toEqual([
        ['status'],
        ['status'],
        ['status'],
      ]);
      expect(await theirs.done).toEqual([
        {
          payoutScheduleUpdated: {
            payoutSchedule: { id: ofOther.id, status: 'ACTIVE' },
            previousStatus: null,
            changedFields: expect.arrayContaining(['status']),
          },
        },
      ]);
      // Live mode cannot create schedules in the sandbox: the live subscriber's silence is ended by a change published last.
      expect(
        await heardBefore(server, live, (pubSub, scheduleId) =>
          pubSub.publish(PayoutTopic.PAYOUT_SCHEDULE, {
            businessId: owner.businessId,
            livemode: true,
            scheduleId,
            previousStatus: null,
            changedFields: null,
          }),
        ),
      ).toEqual([]);
    });

    test('a run is a change too (runCount, lastRunAt, nextRunAt); payoutScheduleUpdated(id) delivers that schedule only', async () => {
      const { who, recipientId } = await readyMerchant();
      const watched = await createSchedule(who, recipientId);
      const unwatched = await createSchedule(who, recipientId);
      const one = collect(
        server.subscribe({ apiKey: who.apiKey }),
        `subscription { payoutScheduleUpdated(id: "${watched.id}") { payoutSchedule { id status runCount } previousStatus changedFields } }`,
        1,
      );
      await one.ready;
      await ok(PAUSE, byId(unwatched.id), apiKey(who));
      await ok(ADVANCE, { input: { seconds: 3_660 } }, apiKey(who));
      expect(await one.done).toEqual([
        {
          payoutScheduleUpdated: {
            payoutSchedule: { id: watched.id, status: 'ACTIVE', runCount: 1 },
            previousStatus: 'ACTIVE',
            changedFields: ['runCount', 'lastRunAt', 'nextRunAt'],
          },
        },
      ]);
    });

    test('an edit says the fields it changed: a new name and caps are ["name", "maxRunLocalCaps"]; the same values again are not listed', async () => {
      const { who, recipientId } = await readyMerchant();
      const schedule = await createSchedule(who, recipientId);
      const two = collect(
        server.subscribe({ apiKey: who.apiKey }),
        `subscription { payoutScheduleUpdated(id: "${schedule.id}") { payoutSchedule { name } previousStatus changedFields } }`,
        2,
      );
      await two.ready;
      await ok(
        UPDATE,
        {
          input: {
            id: schedule.id,
            name: 'Renamed',
            maxRunAmountUsd: schedule.maxRunAmountUsd,
            maxRunLocalCaps: [{ currency: 'NGN', amount: '1000' }],
          },
        },
        apiKey(who),
      );
      await waitFor(
        async () => two.received.length,
        (count) => count >= 1,
      );
      await ok(
        UPDATE,
        { input: { id: schedule.id, name: 'Renamed again', maxRunLocalCaps: [{ currency: 'ngn', amount: '1000' }] } },
        apiKey(who),
      );
      expect(await two.done).toEqual([
        {
          payoutScheduleUpdated: {
            payoutSchedule: { name: 'Renamed' },
            previousStatus: 'ACTIVE',
            changedFields: ['name', 'maxRunLocalCaps'],
          },
        },
        {
          payoutScheduleUpdated: {
            payoutSchedule: { name: 'Renamed again' },
            previousStatus: 'ACTIVE',
            changedFields: ['name'],
          },
        },
      ]);
    });
  });

  describe('node(id:)', () => {
    const NODE = `query($id: ID!) { node(id: $id) { __typename id } }`;

    test('answers a schedule, one of its runs and a clock advance to their owner, and null to another business and to the other mode', async () => {
      const { who, recipientId } = await readyMerchant();
      const other = await server.signUp();
      const liveKey = await server.liveKeyOf(who);
      const schedule = await createSchedule(who, recipientId);
      const clock = await advanced(3_660, apiKey(who));
      const [run] = (await ok(RUNS, { id: schedule.id }, apiKey(who))).payoutSchedule.runs.edges.map(
        (edge: any) => edge.node,
      );
      for (const [typename, id] of [
        ['PayoutSchedule', schedule.id],
        ['PayoutScheduleRun', run.id],
        ['SandboxClockAdvance', clock.advance.id],
      ]) {
        expect((await ok(NODE, { id }, apiKey(who))).node).toEqual({ __typename: typename, id });
        expect((await ok(NODE, { id }, apiKey(other))).node).toBeNull();
        expect((await ok(NODE, { id }, { 'x-api-key': liveKey })).node).toBeNull();
      }
    });

    test('the sandbox clock has a stable id: the same before and after an advance, another for another business', async () => {
      const { who } = await readyMerchant();
      const other = await server.signUp();
      const ID_OF_CLOCK = '{ sandboxClock { id } }';
      const before = (await ok(ID_OF_CLOCK, {}, apiKey(who))).sandboxClock.id;
      const moved = (await ok(ADVANCE, { input: { seconds: 60 } }, apiKey(who))).advanceSandboxClock;
      expect(moved).toEqual({ sandboxClock: expect.objectContaining({ offsetSeconds: 60 }), userErrors: [] });
      expect((await ok(ID_OF_CLOCK, {}, asDashboard(who))).sandboxClock.id).toBe(before);
      expect(before).toBe(`SandboxClock:${who.businessId}`);
      expect((await ok(ID_OF_CLOCK, {}, apiKey(other))).sandboxClock.id).not.toBe(before);
    });
  });
});
