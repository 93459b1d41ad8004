import { Topic } from '../src/domain/events/pubsub';
import { TestMerchant, TestServer, collect, countStatements, heardBefore, startDeliveringServer, waitFor } from './support/harness';
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
const CREATE = `mutation($input: CreatePayoutScheduleInput!) { createPayoutSchedule(input: $input) { ${SCHEDULE_FIELDS} } }`;
const UPDATE = `mutation($id: ID!, $input: UpdatePayoutScheduleInput!) { updatePayoutSchedule(id: $id, input: $input) { ${SCHEDULE_FIELDS} } }`;
const READ = `query($id: ID!) { payoutSchedule(id: $id) { ${SCHEDULE_FIELDS} } }`;
const PAUSE = `mutation($id: ID!) { pausePayoutSchedule(id: $id) { id status nextRunAt } }`;
const RESUME = `mutation($id: ID!) { resumePayoutSchedule(id: $id) { id status nextRunAt } }`;
const CANCEL = `mutation($id: ID!) { cancelPayoutSchedule(id: $id) { id status } }`;
const LIST = `query($first: Int, $after: String, $status: PayoutScheduleStatus) { payoutSchedules(first: $first, after: $after, status: $status) {
  edges { cursor node { id name status } } pageInfo { hasNextPage endCursor } } }`;
const RUNS = `query($id: ID!, $first: Int, $after: String) { payoutSchedule(id: $id) { id runCount lastRunAt nextRunAt
  runs(first: $first, after: $after) { edges { cursor node { id runAt status reason payoutIds batchId } } pageInfo { hasNextPage endCursor } } } }`;
const SCHEDULES_WITH_RUNS = `query($first: Int, $runs: Int) { payoutSchedules(first: $first) {
  edges { node { id runs(first: $runs) { edges { node { id runAt status payoutIds } } pageInfo { hasNextPage } } } } } }`;
const CLOCK = '{ sandboxClock { now offsetSeconds advance { id status runsDue runsFired } } }';
const ADVANCE = 'mutation($seconds: Int!) { advanceSandboxClock(seconds: $seconds) { now offsetSeconds advance { id status runsDue runsFired } } }';
const SCHEDULE_UPDATED = 'subscription { payoutScheduleUpdated { id status } }';

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
  async function ok<T = any>(query: string, variables: Record<string, unknown>, headers: Record<string, string>): Promise<T> {
    const response = await server.graphql<T>(query, variables, headers);
    expect(response.body.errors).toBeUndefined();
    return response.body.data as T;
  }

  /** The first error of an operation that must fail. */
  async function refused(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const response = await server.graphql(query, variables, headers);
    expect(response.body.errors).toHaveLength(1);
    return response.body.errors![0];
  }

  /** Advances the test clock and waits until its advance completed (its runs fire in the background); answers the clock then. */
  async function advanced(seconds: number, headers: Record<string, string>): Promise<any> {
    const started = (await ok(ADVANCE, { seconds }, headers)).advanceSandboxClock;
    const clock = await waitFor(async () => (await ok(CLOCK, {}, headers)).sandboxClock, (current) => current.advance?.status === 'COMPLETED');
    expect(clock.advance).toMatchObject({ id: started.advance.id, status: 'COMPLETED', runsFired: started.advance.runsDue });
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
      name: 'Supplier retainer', cadence: 'WEEKLY', startAt: await clockPlus(who, HOUR_MS), payloadKind: 'SINGLE',
      payload: { recipientId, amount: '10.00', currency: 'USD' }, maxRunAmountUsd: '1000.00', pin: PIN, ...overrides,
    };
  }

  async function createSchedule(who: TestMerchant, recipientId: string, overrides: Record<string, unknown> = {}, headers: Record<string, string> = apiKey(who)) {
    return (await ok(CREATE, { input: await scheduleInput(who, recipientId, overrides) }, headers)).createPayoutSchedule;
  }

  const countRows = async (table: string, businessId: string) =>
    (await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [businessId]))[0].n as number;



  describe('creating', () => {
    test('the Schedule read over GraphQL is REST GET /payouts/schedules/{id}, field for field (same names, values and types)', async () => {
      const { who, recipientId } = await readyMerchant();
      const second = await createRecipient(server, who, bankDetails('5678'), 'Second supplier');
      const monthly = await createSchedule(who, recipientId, {
        cadence: 'MONTHLY', dayOfMonth: 28, startAt: '2099-01-30T10:00:00.000Z', endAt: '2099-12-31T00:00:00.000Z', payloadKind: 'BATCH',
        payload: { items: [{ recipientId, amount: '5.00', currency: 'USD' }, { recipientId: second.id, amount: '7.50', currency: 'usd', reference: 'inv-7' }] },
        maxRunAmountUsd: '12.5', maxRunLocalCaps: [{ currency: 'ngn', amount: '19000.12345678' }],
      }, asDashboard(who));
      expect(monthly).toMatchObject({
        businessId: who.businessId, cadence: 'MONTHLY', dayOfMonth: 28, payloadKind: 'BATCH', status: 'ACTIVE', itemCount: 2,
        nextRunAt: '2099-02-28T10:00:00.000Z', lastRunAt: null, endAt: '2099-12-31T00:00:00.000Z', runCount: 0,
        maxRunAmountUsd: '12.5', maxRunLocalCaps: [{ currency: 'NGN', amount: '19000.12345678' }],
      });
      const weekly = await createSchedule(who, recipientId);
      expect(weekly).toMatchObject({ cadence: 'WEEKLY', dayOfMonth: null, payloadKind: 'SINGLE', itemCount: 1, endAt: null, maxRunLocalCaps: null });

      for (const created of [monthly, weekly]) {
        const rest = await server.request('GET', `${SCHEDULES}/${created.id}`, { headers: apiKey(who) });
        expect(rest.status).toBe(200);
        // The same schedule; only the currency case differs: upper in GraphQL, lower on REST (docs/graphql-api.md, docs/rest-api.md).
        const upperCase = { ...rest.body.data, maxRunLocalCaps: rest.body.data.maxRunLocalCaps?.map((cap: { currency: string }) => ({ ...cap, currency: cap.currency.toUpperCase() })) ?? null };
        expect(created).toEqual(upperCase);
        expect((await ok(READ, { id: created.id }, asDashboard(who))).payoutSchedule).toEqual(upperCase);
      }
    });

    test('a wrong PIN is INVALID_PIN and nothing is stored', async () => {
      const { who, recipientId } = await readyMerchant();
      const error = await refused(CREATE, { input: await scheduleInput(who, recipientId, { pin: '999999' }) }, apiKey(who));
      expect(error.extensions.code).toBe('INVALID_PIN');
      expect(await countRows('payout_schedules', who.businessId)).toBe(0);
    });

    test('a recipient matching screening is SANCTIONS_MATCH and nothing is stored, whoever asks', async () => {
      const { who } = await readyMerchant();
      // Created with the API key: never screened then, so it exists; the schedule screens it.
      const flagged = await createRecipient(server, who, bankDetails('4321'), 'SANCTIONED supplier');
      for (const headers of [apiKey(who), asDashboard(who)]) {
        const error = await refused(CREATE, { input: await scheduleInput(who, flagged.id) }, headers);
        expect(error.extensions.code).toBe('SANCTIONS_MATCH');
      }
      expect(await countRows('payout_schedules', who.businessId)).toBe(0);
    });

    test('bad input is VALIDATION_ERROR with the per-field errors REST gives (dayOfMonth, payload.amount), and nothing is stored', async () => {
      const { who, recipientId } = await readyMerchant();
      const input = await scheduleInput(who, recipientId, { cadence: 'MONTHLY', payload: { recipientId, amount: '1.001', currency: 'USD' } });
      const error = await refused(CREATE, { input }, apiKey(who));
      expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'VALIDATION_ERROR' });
      expect(Object.keys(error.extensions.errors)).toEqual(expect.arrayContaining(['payload.amount']));
      const monthlyWithoutDay = await refused(CREATE, { input: await scheduleInput(who, recipientId, { cadence: 'MONTHLY' }) }, apiKey(who));
      expect(monthlyWithoutDay.extensions.errors).toEqual({ dayOfMonth: [expect.any(String)] });
      const batchFieldsOnSingle = await refused(CREATE, {
        input: await scheduleInput(who, recipientId, { payload: { recipientId, amount: '1.00', currency: 'USD', items: [{ recipientId, amount: '1.00', currency: 'USD' }] } }),
      }, apiKey(who));
      expect(batchFieldsOnSingle.extensions.errors).toEqual({ 'payload.items': [expect.any(String)] });
      expect(await countRows('payout_schedules', who.businessId)).toBe(0);
    });
  });

  describe('the list and the lifecycle', () => {
    test('payoutSchedules is a keyset connection, newest first, filtered by status', async () => {
      const { who, recipientId } = await readyMerchant();
      const [first, second, third] = [
        await createSchedule(who, recipientId, { name: 'S1' }), await createSchedule(who, recipientId, { name: 'S2' }), await createSchedule(who, recipientId, { name: 'S3' }),
      ];
      await ok(PAUSE, { id: second.id }, apiKey(who));
      await ok(CANCEL, { id: first.id }, apiKey(who));

      const all = (await ok(LIST, {}, apiKey(who))).payoutSchedules;
      expect(all.edges.map((edge: any) => edge.node)).toEqual([
        { id: third.id, name: 'S3', status: 'ACTIVE' }, { id: second.id, name: 'S2', status: 'PAUSED' }, { id: first.id, name: 'S1', status: 'CANCELLED' },
      ]);
      expect(all.pageInfo.hasNextPage).toBe(false);
      expect((await ok(LIST, { status: 'PAUSED' }, apiKey(who))).payoutSchedules.edges.map((edge: any) => edge.node.id)).toEqual([second.id]);
      expect((await ok(LIST, { status: 'COMPLETED' }, apiKey(who))).payoutSchedules.edges).toEqual([]);

      const page = (await ok(LIST, { first: 2 }, apiKey(who))).payoutSchedules;
      expect(page.pageInfo.hasNextPage).toBe(true);
      const rest = (await ok(LIST, { first: 2, after: page.pageInfo.endCursor }, apiKey(who))).payoutSchedules;
      expect(rest.edges.map((edge: any) => edge.node.id)).toEqual([first.id]);
      expect(rest.pageInfo.hasNextPage).toBe(false);
      // A cursor carries its filters: it does not page another status.
      expect((await refused(LIST, { first: 2, after: page.pageInfo.endCursor, status: 'ACTIVE' }, apiKey(who))).extensions.errors).toEqual({ after: [expect.any(String)] });
      // Another business sees none of them.
      const other = await server.signUp();
      expect((await ok(LIST, {}, apiKey(other))).payoutSchedules.edges).toEqual([]);
      expect((await refused(READ, { id: first.id }, apiKey(other))).extensions.code).toBe('NOT_FOUND');
    });

    test('pause, resume and cancel move ACTIVE -> PAUSED -> ACTIVE -> CANCELLED; an illegal transition is CONFLICT and changes nothing', async () => {
      const { who, recipientId } = await readyMerchant();
      const schedule = await createSchedule(who, recipientId);
      expect((await refused(RESUME, { id: schedule.id }, apiKey(who))).extensions.code).toBe('CONFLICT');
      expect((await ok(PAUSE, { id: schedule.id }, apiKey(who))).pausePayoutSchedule.status).toBe('PAUSED');
      expect((await refused(PAUSE, { id: schedule.id }, apiKey(who))).extensions.code).toBe('CONFLICT');
      const resumed = (await ok(RESUME, { id: schedule.id }, asDashboard(who))).resumePayoutSchedule;
      expect(resumed).toEqual({ id: schedule.id, status: 'ACTIVE', nextRunAt: schedule.nextRunAt });
      expect((await ok(CANCEL, { id: schedule.id }, apiKey(who))).cancelPayoutSchedule.status).toBe('CANCELLED');
      for (const operation of [PAUSE, RESUME, CANCEL]) expect((await refused(operation, { id: schedule.id }, apiKey(who))).extensions.code).toBe('CONFLICT');
      expect((await refused(UPDATE, { id: schedule.id, input: { name: 'Late' } }, apiKey(who))).extensions.code).toBe('CONFLICT');
      expect((await ok(READ, { id: schedule.id }, apiKey(who))).payoutSchedule).toMatchObject({ status: 'CANCELLED', name: 'Supplier retainer' });
    });

    test('updatePayoutSchedule changes only the fields given; null clears endAt; a new payload needs the PIN (pin error, then INVALID_PIN)', async () => {
      const { who, recipientId } = await readyMerchant();
      const schedule = await createSchedule(who, recipientId, { endAt: '2099-01-01T00:00:00.000Z' });
      const renamed = (await ok(UPDATE, { id: schedule.id, input: { name: 'Renamed', maxRunLocalCaps: [{ currency: 'NGN', amount: '500000' }] } }, apiKey(who)))
        .updatePayoutSchedule;
      expect(renamed).toMatchObject({ name: 'Renamed', endAt: '2099-01-01T00:00:00.000Z', maxRunLocalCaps: [{ currency: 'NGN', amount: '500000' }], cadence: 'WEEKLY' });
      const cleared = (await ok(UPDATE, { id: schedule.id, input: { endAt: null, maxRunLocalCaps: null } }, apiKey(who))).updatePayoutSchedule;
      expect(cleared).toMatchObject({ name: 'Renamed', endAt: null, maxRunLocalCaps: null });

      const payload = { items: [{ recipientId, amount: '3.00', currency: 'USD' }] };
      const withoutPin = await refused(UPDATE, { id: schedule.id, input: { payloadKind: 'BATCH', payload } }, apiKey(who));
      expect(withoutPin.extensions.errors).toEqual({ pin: [expect.any(String)] });
      expect((await refused(UPDATE, { id: schedule.id, input: { payloadKind: 'BATCH', payload, pin: '000000' } }, apiKey(who))).extensions.code).toBe('INVALID_PIN');
      const renewed = (await ok(UPDATE, { id: schedule.id, input: { payloadKind: 'BATCH', payload, pin: PIN } }, apiKey(who))).updatePayoutSchedule;
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
      expect(runs.map((run: any) => run.runAt)).toEqual([new Date(firstRunAt + 7 * DAY * 1000).toISOString(), schedule.nextRunAt]);
      expect(runs.every((run: any) => run.status === 'SUCCEEDED' && run.reason === null && run.payoutIds.length === 1 && run.batchId === null)).toBe(true);
      expect(read).toMatchObject({ runCount: 2, lastRunAt: runs[0].runAt, nextRunAt: new Date(firstRunAt + 14 * DAY * 1000).toISOString() });
      expect(await countRows('payout_schedule_runs', who.businessId)).toBe(2);
      expect(await countRows('payouts', who.businessId)).toBe(2);
      const payout = await ok('query($id: ID!) { payout(id: $id) { id amount { amount currency } recipientId } }', { id: runs[0].payoutIds[0] }, apiKey(who));
      expect(payout.payout).toEqual({ id: runs[0].payoutIds[0], amount: { amount: '10.00', currency: 'USD' }, recipientId });

      // The same runs as REST's /runs, and a page continues from its cursor.
      const rest = await server.request('GET', `${SCHEDULES}/${schedule.id}/runs`, { headers: apiKey(who) });
      expect(runs).toEqual(rest.body.data.items);
      const firstPage = (await ok(RUNS, { id: schedule.id, first: 1 }, apiKey(who))).payoutSchedule.runs;
      expect(firstPage.pageInfo.hasNextPage).toBe(true);
      const nextPage = (await ok(RUNS, { id: schedule.id, first: 1, after: firstPage.pageInfo.endCursor }, apiKey(who))).payoutSchedule.runs;
      expect([...firstPage.edges, ...nextPage.edges].map((edge: any) => edge.node.id)).toEqual(runs.map((run: any) => run.id));
      expect(nextPage.pageInfo.hasNextPage).toBe(false);
    });

    test('the clock is test mode only: live credentials get SANDBOX_ONLY; a bad advance is VALIDATION_ERROR on seconds', async () => {
      const who = await server.signUp();
      const liveKey = await server.liveKeyOf(who);
      expect((await refused(CLOCK, {}, { 'x-api-key': liveKey })).extensions.code).toBe('SANDBOX_ONLY');
      expect((await refused(ADVANCE, { seconds: 60 }, { 'x-api-key': liveKey })).extensions.code).toBe('SANDBOX_ONLY');
      const error = await refused(ADVANCE, { seconds: 0 }, apiKey(who));
      expect(error.extensions).toMatchObject({ domainCode: 'VALIDATION_ERROR', errors: { seconds: [expect.any(String)] } });
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
      const four = await countStatements(server, async () => { data = await ok(SCHEDULES_WITH_RUNS, { first: 20, runs: 5 }, apiKey(who)); });
      expect(four).toBe(one);
      const schedules = data.payoutSchedules.edges.map((edge: any) => edge.node);
      expect(schedules).toHaveLength(4);
      for (const schedule of schedules) {
        expect(schedule.runs.edges).toHaveLength(1);
        const rest = await server.request('GET', `${SCHEDULES}/${schedule.id}/runs`, { headers: apiKey(who) });
        expect(schedule.runs.edges.map((edge: any) => edge.node.id)).toEqual(rest.body.data.items.map((run: any) => run.id));
      }
    });

    test('each page of schedules is priced by its size: 100 schedules with 100 runs each is QUERY_TOO_COSTLY before any resolver runs', async () => {
      const who = await server.signUp();
      const list = jest.spyOn(server.runtime.core.payoutSchedules, 'list');
      try {
        expect((await refused(SCHEDULES_WITH_RUNS, { first: 100, runs: 100 }, apiKey(who))).extensions.code).toBe('QUERY_TOO_COSTLY');
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
      await waitFor(async () => mine.received.length, (count) => count >= 1);
      await ok(PAUSE, { id: schedule.id }, apiKey(owner));
      await waitFor(async () => mine.received.length, (count) => count >= 2);
      await ok(RESUME, { id: schedule.id }, apiKey(owner));
      await waitFor(async () => mine.received.length, (count) => count >= 3);
      await ok(CANCEL, { id: schedule.id }, apiKey(owner));

      expect(await mine.done).toEqual(['ACTIVE', 'PAUSED', 'ACTIVE', 'CANCELLED'].map((status) => ({ payoutScheduleUpdated: { id: schedule.id, status } })));
      expect(await theirs.done).toEqual([{ payoutScheduleUpdated: { id: ofOther.id, status: 'ACTIVE' } }]);
      // Live mode cannot create schedules in the sandbox: the live subscriber's silence is ended by a change published last.
      expect(await heardBefore(server, live, (pubSub, scheduleId) =>
        pubSub.publish(Topic.PAYOUT_SCHEDULE, { businessId: owner.businessId, livemode: true, scheduleId }))).toEqual([]);
    });

    test('a run is a change too; payoutScheduleUpdated(id) delivers that schedule only', async () => {
      const { who, recipientId } = await readyMerchant();
      const watched = await createSchedule(who, recipientId);
      const unwatched = await createSchedule(who, recipientId);
      const one = collect(server.subscribe({ apiKey: who.apiKey }), `subscription { payoutScheduleUpdated(id: "${watched.id}") { id status runCount } }`, 1);
      await one.ready;
      await ok(PAUSE, { id: unwatched.id }, apiKey(who));
      await ok(ADVANCE, { seconds: 3_660 }, apiKey(who));
      expect(await one.done).toEqual([{ payoutScheduleUpdated: { id: watched.id, status: 'ACTIVE', runCount: 1 } }]);
    });
  });
});
