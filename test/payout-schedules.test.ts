import { LedgerService } from '../src/domain/ledger/ledger.service';
import { firstOccurrence, occurrenceAfter } from '../src/domain/payouts/cadence';
import { RequestContext } from '../src/domain/shared/context';
import { startWorker, stopWorker } from '../src/jobs/worker';
import { SandboxFxProvider } from '../src/providers/fx/sandbox';
import { TestMerchant, TestServer, startDeliveringServer, startTestServer, waitFor } from './support/harness';
import { eventsOf, walletBalance } from './support/payments';
import { PAYOUTS, apiKey, bankDetails, createRecipient, dashboard, fundWallet } from './support/payouts';
import { CLOCK, DAY, PIN, SCHEDULES, advanceClock, createSchedule, scheduleBody, setPin } from './support/schedules';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SCHEDULE_FIELDS = [
  'id',
  'businessId',
  'name',
  'cadence',
  'dayOfMonth',
  'payloadKind',
  'status',
  'itemCount',
  'nextRunAt',
  'lastRunAt',
  'endAt',
  'runCount',
  'maxRunAmountUsd',
  'maxRunLocalCaps',
  'authorizedAt',
  'createdAt',
  'updatedAt',
].sort();

/** Every documented field with its documented type and nullability (interface document, Schedule). */
function expectDocumentedSchedule(schedule: any) {
  expect(Object.keys(schedule).sort()).toEqual(SCHEDULE_FIELDS);
  for (const field of ['id', 'businessId', 'name', 'maxRunAmountUsd']) expect(typeof schedule[field]).toBe('string');
  expect(['ONCE', 'WEEKLY', 'BIWEEKLY', 'MONTHLY']).toContain(schedule.cadence);
  expect(['SINGLE', 'BATCH']).toContain(schedule.payloadKind);
  expect(['ACTIVE', 'PAUSED', 'COMPLETED', 'CANCELLED']).toContain(schedule.status);
  if (schedule.cadence === 'MONTHLY')
    expect(Number.isInteger(schedule.dayOfMonth) && schedule.dayOfMonth >= 1 && schedule.dayOfMonth <= 28).toBe(true);
  else expect(schedule.dayOfMonth).toBeNull();
  expect(Number.isInteger(schedule.itemCount)).toBe(true);
  expect(Number.isInteger(schedule.runCount)).toBe(true);
  for (const field of ['nextRunAt', 'authorizedAt', 'createdAt', 'updatedAt']) expect(schedule[field]).toMatch(ISO);
  for (const field of ['lastRunAt', 'endAt']) if (schedule[field] !== null) expect(schedule[field]).toMatch(ISO);
  if (schedule.maxRunLocalCaps !== null) {
    expect(Array.isArray(schedule.maxRunLocalCaps)).toBe(true);
    for (const cap of schedule.maxRunLocalCaps) {
      expect(Object.keys(cap).sort()).toEqual(['amount', 'currency']);
      expect(typeof cap.currency).toBe('string');
      expect(cap.amount).toMatch(/^\d+(\.\d{1,8})?$/);
    }
  }
}

const errorOf = (response: { status: number; body: any }) => ({
  status: response.status,
  code: response.body.error?.code,
});

/** Scheduled payouts over REST (design section 8; interface document, Schedule, List scheduled payouts, Limits). */
describe('Scheduled payouts', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let recipientId: string;

  const get = (who: TestMerchant, path: string) => server.request('GET', path, { headers: apiKey(who) });
  const post = (who: TestMerchant, path: string, body?: unknown) =>
    server.request('POST', path, { headers: apiKey(who), body });
  const patch = (who: TestMerchant, id: string, body: unknown) =>
    server.request('PATCH', `${SCHEDULES}/${id}`, { headers: apiKey(who), body });
  const countRows = async (table: string, businessId: string) =>
    (
      await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [
        businessId,
      ])
    )[0].n as number;
  const runsOf = async (who: TestMerchant, id: string) =>
    (await get(who, `${SCHEDULES}/${id}/runs?take=100`)).body.data;
  /** A merchant with a PIN, a funded USD wallet and a payable NGN recipient. */
  const readyMerchant = async (funds = '1000.00') => {
    const who = await server.signUp();
    await setPin(server, who);
    await fundWallet(server, who, funds);
    const recipient = await createRecipient(server, who);
    return { who, recipientId: recipient.id };
  };

  beforeAll(async () => {
    server = await startDeliveringServer({ payoutSandboxSettleMs: 200 });
    ({ who: merchant, recipientId } = await readyMerchant());
  });
  afterAll(async () => server.close());

  describe('the resource, field for field', () => {
    test('a created SINGLE WEEKLY schedule answers 201 with every documented field, typed and null as documented', async () => {
      const body = scheduleBody(recipientId);
      const created = await createSchedule(server, merchant, body);
      expect(created.status).toBe(201);
      const schedule = created.body.data;
      expectDocumentedSchedule(schedule);
      expect(schedule).toMatchObject({
        businessId: merchant.businessId,
        name: 'Supplier retainer',
        cadence: 'WEEKLY',
        dayOfMonth: null,
        payloadKind: 'SINGLE',
        status: 'ACTIVE',
        itemCount: 1,
        nextRunAt: body.startAt,
        lastRunAt: null,
        endAt: null,
        runCount: 0,
        maxRunAmountUsd: '1000.00',
        maxRunLocalCaps: null,
      });
      expect(Date.parse(schedule.authorizedAt)).toBeLessThanOrEqual(Date.now());
      expect((await get(merchant, `${SCHEDULES}/${schedule.id}`)).body.data).toEqual(schedule);
    });

    test('a MONTHLY BATCH schedule keeps dayOfMonth, counts its frozen items and stores the caps exactly as given', async () => {
      const second = await createRecipient(server, merchant, bankDetails('5678'), 'Second supplier');
      const created = await createSchedule(
        server,
        merchant,
        scheduleBody(recipientId, {
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
        }),
      );
      expect(created.status).toBe(201);
      expectDocumentedSchedule(created.body.data);
      expect(created.body.data).toMatchObject({
        cadence: 'MONTHLY',
        dayOfMonth: 28,
        payloadKind: 'BATCH',
        itemCount: 2,
        nextRunAt: '2099-02-28T10:00:00.000Z',
        endAt: '2099-12-31T00:00:00.000Z',
        maxRunAmountUsd: '12.5',
        maxRunLocalCaps: [{ currency: 'ngn', amount: '19000.12345678' }],
      });
    });

    test('GET /payouts/schedules and /payouts/schedules/{id} are the schedule routes, not the payout routes; an unknown id is 404', async () => {
      const list = await get(merchant, SCHEDULES);
      expect(list.status).toBe(200);
      expect(list.body.data.items.length).toBeGreaterThan(0);
      const id = list.body.data.items[0].id;
      const one = await get(merchant, `${SCHEDULES}/${id}`);
      expect(one.body.data.cadence).toBeDefined();
      expect(errorOf(await get(merchant, `${PAYOUTS}/${id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
      expect(errorOf(await get(merchant, `${SCHEDULES}/00000000-0000-4000-8000-000000000000`))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
      expect(errorOf(await get(merchant, `${SCHEDULES}/not-an-id`))).toEqual({ status: 404, code: 'NOT_FOUND' });
    });
  });

  describe('the list, exactly', () => {
    let lister: TestMerchant;
    const ids: string[] = [];

    beforeAll(async () => {
      const ready = await readyMerchant();
      lister = ready.who;
      for (let index = 0; index < 3; index += 1) {
        ids.unshift(
          (await createSchedule(server, lister, scheduleBody(ready.recipientId, { name: `S${index}` }))).body.data.id,
        );
      }
      await post(lister, `${SCHEDULES}/${ids[0]}/pause`);
    });

    test('{ items, total, skip, take } always, with skip 0 and take 20 by default, newest first', async () => {
      const list = (await get(lister, SCHEDULES)).body.data;
      expect(Object.keys(list).sort()).toEqual(['items', 'skip', 'take', 'total']);
      expect(list).toMatchObject({ total: 3, skip: 0, take: 20 });
      expect(list.items.map((item: any) => item.id)).toEqual(ids);
      list.items.forEach(expectDocumentedSchedule);
    });

    test('skip and take page the list; take above 100 is capped at 100', async () => {
      const page = (await get(lister, `${SCHEDULES}?skip=1&take=1`)).body.data;
      expect(page).toMatchObject({ total: 3, skip: 1, take: 1 });
      expect(page.items.map((item: any) => item.id)).toEqual([ids[1]]);
      expect((await get(lister, `${SCHEDULES}?take=1000`)).body.data.take).toBe(100);
      expect((await get(lister, `${SCHEDULES}?skip=5`)).body.data).toMatchObject({ items: [], total: 3, skip: 5 });
    });

    test('status filters; a status outside the enum, a negative skip or a zero take is 400 with per-field errors', async () => {
      const paused = (await get(lister, `${SCHEDULES}?status=PAUSED`)).body.data;
      expect(paused).toMatchObject({ total: 1 });
      expect(paused.items[0].id).toBe(ids[0]);
      expect((await get(lister, `${SCHEDULES}?status=active`)).body.data.total).toBe(2);
      for (const [query, field] of [
        ['status=RUNNING', 'status'],
        ['skip=-1', 'skip'],
        ['take=0', 'take'],
      ]) {
        const response = await get(lister, `${SCHEDULES}?${query}`);
        expect(errorOf(response)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
        expect(Object.keys(response.body.error.errors)).toEqual([field]);
      }
    });

    test('the dashboard sees the same list with X-Service-Business-Id', async () => {
      const list = await server.request('GET', SCHEDULES, { headers: dashboard(lister) });
      expect(list.body.data.items.map((item: any) => item.id)).toEqual(ids);
    });
  });

  describe('lifecycle', () => {
    let id: string;
    const stateOf = async () => (await get(merchant, `${SCHEDULES}/${id}`)).body.data;

    beforeAll(async () => {
      id = (await createSchedule(server, merchant, scheduleBody(recipientId))).body.data.id;
    });

    test('pause: ACTIVE → PAUSED; pausing again is 409 and changes nothing', async () => {
      expect((await post(merchant, `${SCHEDULES}/${id}/pause`)).body.data.status).toBe('PAUSED');
      const before = await stateOf();
      expect(errorOf(await post(merchant, `${SCHEDULES}/${id}/pause`))).toEqual({ status: 409, code: 'CONFLICT' });
      expect(await stateOf()).toEqual(before);
    });

    test('resume: PAUSED → ACTIVE; resuming an ACTIVE schedule is 409 and changes nothing', async () => {
      expect((await post(merchant, `${SCHEDULES}/${id}/resume`)).body.data.status).toBe('ACTIVE');
      const before = await stateOf();
      expect(errorOf(await post(merchant, `${SCHEDULES}/${id}/resume`))).toEqual({ status: 409, code: 'CONFLICT' });
      expect(await stateOf()).toEqual(before);
    });

    test('cancel: ACTIVE or PAUSED → CANCELLED; after it, pause, resume, cancel and edits are 409 and change nothing', async () => {
      const paused = (await createSchedule(server, merchant, scheduleBody(recipientId))).body.data.id;
      await post(merchant, `${SCHEDULES}/${paused}/pause`);
      expect((await post(merchant, `${SCHEDULES}/${paused}/cancel`)).body.data.status).toBe('CANCELLED');
      expect((await post(merchant, `${SCHEDULES}/${id}/cancel`)).body.data.status).toBe('CANCELLED');
      const before = await stateOf();
      for (const action of ['pause', 'resume', 'cancel']) {
        expect(errorOf(await post(merchant, `${SCHEDULES}/${id}/${action}`))).toEqual({
          status: 409,
          code: 'CONFLICT',
        });
      }
      expect(errorOf(await patch(merchant, id, { name: 'Renamed' }))).toEqual({ status: 409, code: 'CONFLICT' });
      expect(await stateOf()).toEqual(before);
    });

    test('resume sets nextRunAt to the next future occurrence of the series: the runs missed while paused never fire', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      const body = scheduleBody(payee, {}, 60_000);
      const schedule = (await createSchedule(server, who, body)).body.data;
      await post(who, `${SCHEDULES}/${schedule.id}/pause`);
      const clock = await advanceClock(server, who, 17 * DAY);
      const resumed = (await post(who, `${SCHEDULES}/${schedule.id}/resume`)).body.data;
      const expected = Date.parse(body.startAt) + 21 * DAY * 1000;
      expect(resumed).toMatchObject({ status: 'ACTIVE', runCount: 0, nextRunAt: new Date(expected).toISOString() });
      expect(Date.parse(resumed.nextRunAt)).toBeGreaterThan(Date.parse(clock.now));
      expect((await runsOf(who, schedule.id)).total).toBe(0);
      expect(await countRows('payouts', who.businessId)).toBe(0);
    });

    test('a resumed ONCE schedule whose moment passed while paused has nothing left to run: COMPLETED, never fired', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      const schedule = (await createSchedule(server, who, scheduleBody(payee, { cadence: 'ONCE' }, 60_000))).body.data;
      await post(who, `${SCHEDULES}/${schedule.id}/pause`);
      await advanceClock(server, who, DAY);
      expect((await post(who, `${SCHEDULES}/${schedule.id}/resume`)).body.data).toMatchObject({
        status: 'COMPLETED',
        runCount: 0,
      });
      expect(await countRows('payouts', who.businessId)).toBe(0);
    });

    test('a resumed schedule whose next occurrence would fall after endAt is COMPLETED at once (payout_schedule.completed), never fired', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      const body = scheduleBody(payee, {}, 60_000);
      const schedule = (
        await createSchedule(server, who, {
          ...body,
          endAt: new Date(Date.parse(body.startAt) + 3 * DAY * 1000).toISOString(),
        })
      ).body.data;
      await post(who, `${SCHEDULES}/${schedule.id}/pause`);
      await advanceClock(server, who, 2 * DAY);
      expect((await post(who, `${SCHEDULES}/${schedule.id}/resume`)).body.data).toMatchObject({
        status: 'COMPLETED',
        runCount: 0,
        lastRunAt: null,
      });
      expect(
        (await eventsOf(server, who.businessId, 'payout_schedule.completed')).map((event) => event.data.object.id),
      ).toEqual([schedule.id]);
      await advanceClock(server, who, 14 * DAY);
      expect((await runsOf(who, schedule.id)).total).toBe(0);
      expect(await countRows('payouts', who.businessId)).toBe(0);
    });
  });

  describe('editing', () => {
    test('name, cadence, dayOfMonth, endAt and caps change without the PIN; a new cadence moves nextRunAt to its series', async () => {
      const schedule = (
        await createSchedule(server, merchant, scheduleBody(recipientId, { startAt: '2099-03-10T08:00:00.000Z' }))
      ).body.data;
      const edited = await patch(merchant, schedule.id, {
        name: 'Monthly now',
        cadence: 'MONTHLY',
        dayOfMonth: 1,
        endAt: '2099-12-01T08:00:00.000Z',
        maxRunAmountUsd: '50',
        maxRunLocalCaps: [{ currency: 'NGN', amount: '100000' }],
      });
      expect(edited.status).toBe(200);
      expectDocumentedSchedule(edited.body.data);
      expect(edited.body.data).toMatchObject({
        name: 'Monthly now',
        cadence: 'MONTHLY',
        dayOfMonth: 1,
        nextRunAt: '2099-04-01T08:00:00.000Z',
        endAt: '2099-12-01T08:00:00.000Z',
        maxRunAmountUsd: '50',
        maxRunLocalCaps: [{ currency: 'ngn', amount: '100000' }],
        authorizedAt: schedule.authorizedAt,
      });
      const weekly = (await patch(merchant, schedule.id, { cadence: 'WEEKLY', maxRunLocalCaps: null })).body.data;
      expect(weekly).toMatchObject({
        cadence: 'WEEKLY',
        dayOfMonth: null,
        nextRunAt: '2099-03-10T08:00:00.000Z',
        maxRunLocalCaps: null,
      });
    });

    test('a new payload needs the PIN again (absent: 400 on pin; wrong: 403 INVALID_PIN) and renews authorizedAt', async () => {
      const schedule = (await createSchedule(server, merchant, scheduleBody(recipientId))).body.data;
      const payload = {
        items: [
          { recipientId, amount: '1.00', currency: 'USD' },
          { recipientId, amount: '2.00', currency: 'USD' },
        ],
      };
      const missing = await patch(merchant, schedule.id, { payloadKind: 'BATCH', payload });
      expect(errorOf(missing)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(Object.keys(missing.body.error.errors)).toEqual(['pin']);
      expect(errorOf(await patch(merchant, schedule.id, { payloadKind: 'BATCH', payload, pin: '000000' }))).toEqual({
        status: 403,
        code: 'INVALID_PIN',
      });
      expect((await get(merchant, `${SCHEDULES}/${schedule.id}`)).body.data).toEqual(schedule);
      const edited = (await patch(merchant, schedule.id, { payloadKind: 'BATCH', payload, pin: PIN })).body.data;
      expect(edited).toMatchObject({ payloadKind: 'BATCH', itemCount: 2 });
      expect(Date.parse(edited.authorizedAt)).toBeGreaterThan(Date.parse(schedule.authorizedAt));
    });

    test('an edit with bad input is 400 naming the field and changes nothing: dayOfMonth 0, 29 or on a WEEKLY schedule, MONTHLY without a day, a bad cadence, local cap or USD cap', async () => {
      const schedule = (await createSchedule(server, merchant, scheduleBody(recipientId))).body.data;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ dayOfMonth: 5 }, 'dayOfMonth'],
        [{ cadence: 'MONTHLY' }, 'dayOfMonth'],
        [{ cadence: 'MONTHLY', dayOfMonth: 0 }, 'dayOfMonth'],
        [{ cadence: 'MONTHLY', dayOfMonth: 29 }, 'dayOfMonth'],
        [{ cadence: 'DAILY' }, 'cadence'],
        [{ maxRunLocalCaps: [{ currency: 'NG', amount: '10' }] }, 'maxRunLocalCaps.0.currency'],
        [{ maxRunLocalCaps: [{ currency: 'NGNNGNNGN', amount: '10' }] }, 'maxRunLocalCaps.0.currency'],
        [{ maxRunLocalCaps: [{ currency: 'NGN', amount: '10.123456789' }] }, 'maxRunLocalCaps.0.amount'],
        [{ maxRunAmountUsd: '1,000' }, 'maxRunAmountUsd'],
        [{ payloadKind: 'BATCH', payload: { items: [] }, pin: PIN }, 'payload.items'],
      ];
      for (const [body, field] of cases) {
        const response = await patch(merchant, schedule.id, body);
        expect([body, errorOf(response)]).toEqual([body, { status: 400, code: 'VALIDATION_ERROR' }]);
        expect(response.body.error.errors).toHaveProperty([field]);
      }
      expect((await get(merchant, `${SCHEDULES}/${schedule.id}`)).body.data).toEqual(schedule);
    });

    test('fields a schedule cannot change (startAt, status) and a payload without payloadKind are 400', async () => {
      const schedule = (await createSchedule(server, merchant, scheduleBody(recipientId))).body.data;
      expect(errorOf(await patch(merchant, schedule.id, { status: 'ACTIVE' }))).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      const noKind = await patch(merchant, schedule.id, {
        payload: { recipientId, amount: '1.00', currency: 'USD' },
        pin: PIN,
      });
      expect(noKind.body.error.errors).toHaveProperty('payloadKind');
      expect(errorOf(await patch(merchant, schedule.id, { endAt: '2000-01-01T00:00:00.000Z' }))).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect((await get(merchant, `${SCHEDULES}/${schedule.id}`)).body.data).toEqual(schedule);
    });
  });

  describe('bad input: 4xx with per-field errors, nothing written', () => {
    let other: { who: TestMerchant; recipientId: string };
    beforeAll(async () => {
      other = await readyMerchant();
    });

    const cases: Array<[string, (recipient: string, foreign: string) => Record<string, unknown>, string]> = [
      ['cadence outside its enum', () => ({ cadence: 'DAILY' }), 'cadence'],
      ['payloadKind outside its enum', () => ({ payloadKind: 'MANY' }), 'payloadKind'],
      ['dayOfMonth 0', () => ({ cadence: 'MONTHLY', dayOfMonth: 0 }), 'dayOfMonth'],
      ['dayOfMonth 29', () => ({ cadence: 'MONTHLY', dayOfMonth: 29 }), 'dayOfMonth'],
      ['MONTHLY without dayOfMonth', () => ({ cadence: 'MONTHLY' }), 'dayOfMonth'],
      ['dayOfMonth set for WEEKLY', () => ({ dayOfMonth: 5 }), 'dayOfMonth'],
      [
        'a local cap currency of 2 characters',
        () => ({ maxRunLocalCaps: [{ currency: 'NG', amount: '10' }] }),
        'maxRunLocalCaps.0.currency',
      ],
      [
        'a local cap currency of 9 characters',
        () => ({ maxRunLocalCaps: [{ currency: 'NGNNGNNGN', amount: '10' }] }),
        'maxRunLocalCaps.0.currency',
      ],
      [
        'a local cap amount with 9 decimals',
        () => ({ maxRunLocalCaps: [{ currency: 'NGN', amount: '10.123456789' }] }),
        'maxRunLocalCaps.0.amount',
      ],
      [
        'a local cap amount not matching the pattern',
        () => ({ maxRunLocalCaps: [{ currency: 'NGN', amount: '1e5' }] }),
        'maxRunLocalCaps.0.amount',
      ],
      [
        'two local caps on one currency',
        () => ({
          maxRunLocalCaps: [
            { currency: 'NGN', amount: '10' },
            { currency: 'ngn', amount: '20' },
          ],
        }),
        'maxRunLocalCaps.1.currency',
      ],
      [
        'a local cap on a currency Tessera does not know',
        () => ({ maxRunLocalCaps: [{ currency: 'NOTACUR', amount: '10' }] }),
        'maxRunLocalCaps.0.currency',
      ],
      [
        'a local cap amount ending with a dot',
        () => ({ maxRunLocalCaps: [{ currency: 'NGN', amount: '10.' }] }),
        'maxRunLocalCaps.0.amount',
      ],
      ['maxRunAmountUsd as a number', () => ({ maxRunAmountUsd: 100 }), 'maxRunAmountUsd'],
      ['maxRunAmountUsd zero', () => ({ maxRunAmountUsd: '0.00' }), 'maxRunAmountUsd'],
      ['endAt before the first run', () => ({ endAt: new Date(Date.now() + 60_000).toISOString() }), 'endAt'],
      ['startAt in the past', () => ({ startAt: '2020-01-01T00:00:00.000Z' }), 'startAt'],
      ['an empty BATCH', () => ({ payloadKind: 'BATCH', payload: { items: [] } }), 'payload.items'],
      [
        'a BATCH of 1,001 items',
        (recipient) => ({
          payloadKind: 'BATCH',
          payload: {
            items: Array.from({ length: 1001 }, () => ({ recipientId: recipient, amount: '0.01', currency: 'USD' })),
          },
        }),
        'payload.items',
      ],
      [
        'a SINGLE payload without amount',
        (recipient) => ({ payload: { recipientId: recipient, currency: 'USD' } }),
        'payload.amount',
      ],
      [
        'a recipient of another business',
        (_recipient, foreign) => ({ payload: { recipientId: foreign, amount: '1.00', currency: 'USD' } }),
        'payload.recipientId',
      ],
      [
        'a batch item of another business',
        (recipient, foreign) => ({
          payloadKind: 'BATCH',
          payload: {
            items: [
              { recipientId: recipient, amount: '1.00', currency: 'USD' },
              { recipientId: foreign, amount: '1.00', currency: 'USD' },
            ],
          },
        }),
        'payload.items.1.recipientId',
      ],
      [
        'a currency without a wallet',
        (recipient) => ({ payload: { recipientId: recipient, amount: '1.00', currency: 'GBP' } }),
        'payload.currency',
      ],
      ['a PIN that is not 6 digits', () => ({ pin: '12' }), 'pin'],
    ];

    test.each(cases)('%s: 400 VALIDATION_ERROR naming the field, nothing written', async (_name, change, field) => {
      const before = await countRows('payout_schedules', merchant.businessId);
      const response = await createSchedule(
        server,
        merchant,
        scheduleBody(recipientId, change(recipientId, other.recipientId)),
      );
      expect(errorOf(response)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(response.body.error.errors).toHaveProperty([field]);
      expect(await countRows('payout_schedules', merchant.businessId)).toBe(before);
    });

    test('a wrong PIN is 403 INVALID_PIN; after 5 wrong ones the PIN is locked (429 PIN_LOCKED, even with the right one); nothing written', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect(errorOf(await createSchedule(server, who, scheduleBody(payee, { pin: '999999' })))).toEqual({
          status: 403,
          code: 'INVALID_PIN',
        });
      }
      expect(errorOf(await createSchedule(server, who, scheduleBody(payee)))).toEqual({
        status: 429,
        code: 'PIN_LOCKED',
      });
      expect(await countRows('payout_schedules', who.businessId)).toBe(0);
    });

    test('a business without a payout PIN cannot schedule payouts: 422 PIN_NOT_SET, nothing written', async () => {
      const who = await server.signUp();
      await fundWallet(server, who, '10.00');
      const payee = await createRecipient(server, who);
      expect(errorOf(await createSchedule(server, who, scheduleBody(payee.id)))).toEqual({
        status: 422,
        code: 'PIN_NOT_SET',
      });
      expect(await countRows('payout_schedules', who.businessId)).toBe(0);
    });

    test('a new payload paying a recipient that matches screening is 403 SANCTIONS_MATCH and the schedule is unchanged', async () => {
      const schedule = (await createSchedule(server, merchant, scheduleBody(recipientId))).body.data;
      const flagged = await createRecipient(server, merchant, bankDetails('4322'), 'SANCTIONED supplier');
      const response = await patch(merchant, schedule.id, {
        payloadKind: 'SINGLE',
        payload: { recipientId: flagged.id, amount: '1.00', currency: 'USD' },
        pin: PIN,
      });
      expect(errorOf(response)).toEqual({ status: 403, code: 'SANCTIONS_MATCH' });
      expect((await get(merchant, `${SCHEDULES}/${schedule.id}`)).body.data).toEqual(schedule);
    });

    test('a recipient matching screening is 403 SANCTIONS_MATCH and nothing is stored, whoever asks', async () => {
      const flagged = await createRecipient(
        server,
        merchant,
        bankDetails('4321', { accountName: 'Sanctioned Trading' }),
        'Vendor',
      );
      const before = await countRows('payout_schedules', merchant.businessId);
      expect(errorOf(await createSchedule(server, merchant, scheduleBody(flagged.id)))).toEqual({
        status: 403,
        code: 'SANCTIONS_MATCH',
      });
      expect(errorOf(await createSchedule(server, merchant, scheduleBody(flagged.id), dashboard(merchant)))).toEqual({
        status: 403,
        code: 'SANCTIONS_MATCH',
      });
      expect(await countRows('payout_schedules', merchant.businessId)).toBe(before);
    });

    test('the clock advance takes 1 to 366 days of whole seconds', async () => {
      for (const seconds of [0, 1.5, '60', 366 * DAY + 1]) {
        const response = await post(merchant, `${CLOCK}/advance`, { seconds });
        expect(errorOf(response)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
        expect(response.body.error.errors).toHaveProperty('seconds');
      }
    });
  });

  describe('the runner and the test clock', () => {
    test('the clock reads { now, offsetSeconds }; advancing moves it forward', async () => {
      const { who } = await readyMerchant();
      const before = (await get(who, CLOCK)).body.data;
      expect(before.offsetSeconds).toBe(0);
      expect(Math.abs(Date.parse(before.now) - Date.now())).toBeLessThan(5_000);
      const after = await advanceClock(server, who, 3600);
      expect(after.offsetSeconds).toBe(3600);
      expect(Date.parse(after.now) - Date.now()).toBeGreaterThan(3_590_000);
      expect((await get(who, CLOCK)).body.data.offsetSeconds).toBe(3600);
    });

    test('advancing fires every run that falls due, in order, each once: runs recorded, payouts made through the payouts domain, events sent', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      const body = scheduleBody(payee, {}, 60_000);
      const schedule = (await createSchedule(server, who, body)).body.data;
      await advanceClock(server, who, 15 * DAY);
      const runs = await runsOf(who, schedule.id);
      expect(runs.total).toBe(3);
      const start = Date.parse(body.startAt);
      expect(runs.items.map((run: any) => run.runAt)).toEqual(
        [14, 7, 0].map((days) => new Date(start + days * DAY * 1000).toISOString()),
      );
      for (const run of runs.items) {
        expect(Object.keys(run).sort()).toEqual(['batchId', 'id', 'payoutIds', 'reason', 'runAt', 'status']);
        expect(run).toMatchObject({ status: 'SUCCEEDED', reason: null, batchId: null });
        expect(run.payoutIds).toHaveLength(1);
      }
      const state = (await get(who, `${SCHEDULES}/${schedule.id}`)).body.data;
      expect(state).toMatchObject({
        status: 'ACTIVE',
        runCount: 3,
        lastRunAt: runs.items[0].runAt,
        nextRunAt: new Date(start + 21 * DAY * 1000).toISOString(),
      });
      expect(await countRows('payouts', who.businessId)).toBe(3);
      const payout = (await get(who, `${PAYOUTS}/${runs.items[0].payoutIds[0]}`)).body.data;
      expect(payout).toMatchObject({ amount: '10.00', currency: 'usd', recipientId: payee });
      expect(await walletBalance(server, who.businessId)).toBe(100_000n - 3n * 1010n);
      const events = await eventsOf(server, who.businessId, 'payout_schedule.run.succeeded');
      expect(events).toHaveLength(3);
      expect(events[0].data).toMatchObject({ livemode: false, object: { id: schedule.id } });
      expectDocumentedSchedule(events[0].data.object);
      await advanceClock(server, who, 60);
      expect((await runsOf(who, schedule.id)).total).toBe(3);
      // Ordinary payouts: dispatched and settled by the rail, with their own events.
      const settled = await waitFor(
        () => get(who, `${PAYOUTS}/${runs.items[2].payoutIds[0]}`),
        (response) => response.body.data.status === 'SETTLED',
      );
      expect(settled.body.data.status).toBe('SETTLED');
      expect(await eventsOf(server, who.businessId, 'payout.initiated')).toHaveLength(3);
    });

    test('an advance fires the runs of several schedules in the order of their due times', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      const early = (await createSchedule(server, who, scheduleBody(payee, { name: 'early' }, 60_000))).body.data;
      const late = (await createSchedule(server, who, scheduleBody(payee, { name: 'late' }, 2 * DAY * 1000))).body.data;
      await advanceClock(server, who, 10 * DAY);
      const fired: Array<{ schedule_id: string; due_at: Date }> = await server.runtime.dataSource.query(
        `SELECT schedule_id, due_at FROM payout_schedule_runs WHERE business_id = $1 ORDER BY fired_at, created_at`,
        [who.businessId],
      );
      expect(fired.map((run) => run.schedule_id)).toEqual([early.id, late.id, early.id, late.id]);
      const dueTimes = fired.map((run) => run.due_at.getTime());
      expect(dueTimes).toEqual([...dueTimes].sort((a, b) => a - b));
    });

    test('a recipient archived since the schedule was authorised fails the run (RECIPIENT_NOT_PAYABLE), no payout, and the schedule continues', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      const schedule = (await createSchedule(server, who, scheduleBody(payee, {}, 60_000))).body.data;
      expect((await server.request('DELETE', `${PAYOUTS}/recipients/${payee}`, { headers: apiKey(who) })).status).toBe(
        200,
      );
      await advanceClock(server, who, 120);
      expect((await runsOf(who, schedule.id)).items.map((run: any) => [run.status, run.reason, run.payoutIds])).toEqual(
        [['FAILED', 'RECIPIENT_NOT_PAYABLE', []]],
      );
      expect((await get(who, `${SCHEDULES}/${schedule.id}`)).body.data).toMatchObject({
        status: 'ACTIVE',
        runCount: 1,
      });
      expect(await countRows('payouts', who.businessId)).toBe(0);
    });

    test('a paused schedule does not run when its time comes', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      const schedule = (await createSchedule(server, who, scheduleBody(payee, {}, 60_000))).body.data;
      await post(who, `${SCHEDULES}/${schedule.id}/pause`);
      await advanceClock(server, who, 8 * DAY);
      expect((await runsOf(who, schedule.id)).total).toBe(0);
      expect((await get(who, `${SCHEDULES}/${schedule.id}`)).body.data).toMatchObject({
        status: 'PAUSED',
        runCount: 0,
        lastRunAt: null,
      });
    });

    test('a BATCH run writes one batch of every frozen item', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      const schedule = (
        await createSchedule(
          server,
          who,
          scheduleBody(
            payee,
            {
              cadence: 'ONCE',
              payloadKind: 'BATCH',
              payload: {
                items: [
                  { recipientId: payee, amount: '1.00', currency: 'USD' },
                  { recipientId: payee, amount: '2.00', currency: 'USD' },
                ],
              },
            },
            60_000,
          ),
        )
      ).body.data;
      await advanceClock(server, who, 120);
      const [run] = (await runsOf(who, schedule.id)).items;
      expect(run.status).toBe('SUCCEEDED');
      expect(run.payoutIds).toHaveLength(2);
      const batch = (await get(who, `${PAYOUTS}/batches/${run.batchId}`)).body.data;
      expect(batch).toMatchObject({ itemCount: 2, totalAmount: '3.00' });
    });

    test('ONCE becomes COMPLETED after its run (payout_schedule.completed); a schedule completes when its next run would pass endAt', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      const once = (await createSchedule(server, who, scheduleBody(payee, { cadence: 'ONCE' }, 60_000))).body.data;
      const body = scheduleBody(payee, {}, 60_000);
      const ending = (
        await createSchedule(server, who, {
          ...body,
          endAt: new Date(Date.parse(body.startAt) + 10 * DAY * 1000).toISOString(),
        })
      ).body.data;
      await advanceClock(server, who, 30 * DAY);
      expect((await get(who, `${SCHEDULES}/${once.id}`)).body.data).toMatchObject({ status: 'COMPLETED', runCount: 1 });
      expect((await get(who, `${SCHEDULES}/${ending.id}`)).body.data).toMatchObject({
        status: 'COMPLETED',
        runCount: 2,
      });
      const completed = await eventsOf(server, who.businessId, 'payout_schedule.completed');
      expect(completed.map((event) => event.data.object.id).sort()).toEqual([once.id, ending.id].sort());
      expect(errorOf(await post(who, `${SCHEDULES}/${once.id}/pause`))).toEqual({ status: 409, code: 'CONFLICT' });
    });

    test('too little balance fails the run (INSUFFICIENT_FUNDS), creates no payout, and the schedule moves on to its next run', async () => {
      const { who, recipientId: payee } = await readyMerchant('15.00');
      const schedule = (await createSchedule(server, who, scheduleBody(payee, {}, 60_000))).body.data;
      await advanceClock(server, who, 8 * DAY);
      const runs = (await runsOf(who, schedule.id)).items;
      expect(runs.map((run: any) => [run.status, run.reason, run.payoutIds.length])).toEqual([
        ['FAILED', 'INSUFFICIENT_FUNDS', 0],
        ['SUCCEEDED', null, 1],
      ]);
      expect(await countRows('payouts', who.businessId)).toBe(1);
      expect(await walletBalance(server, who.businessId)).toBe(1500n - 1010n);
      expect((await get(who, `${SCHEDULES}/${schedule.id}`)).body.data).toMatchObject({
        status: 'ACTIVE',
        runCount: 2,
      });
      const failed = await eventsOf(server, who.businessId, 'payout_schedule.run.failed');
      expect(failed[0].data.run).toMatchObject({ status: 'FAILED', reason: 'INSUFFICIENT_FUNDS' });
    });

    test('the USD cap converts at the mid rate of run time (a rate change flips it); a local cap is never converted (the same change leaves it)', async () => {
      const fx = server.runtime.core.providers.inMode('fx', 'test') as SandboxFxProvider;
      const { who } = await readyMerchant();
      await fundWallet(server, who, '1000.00', 'EUR');
      const euro = await createRecipient(
        server,
        who,
        bankDetails('9876', { country: 'DE', currency: 'EUR', bankCode: 'DEUT', bankName: 'Deutsche' }),
        'Berlin office',
      );
      const payload = { recipientId: euro.id, amount: '100.00', currency: 'EUR' };
      const usdCapped = (
        await createSchedule(server, who, scheduleBody(euro.id, { payload, maxRunAmountUsd: '110.00' }, 60_000))
      ).body.data;
      const localCapped = (
        await createSchedule(
          server,
          who,
          scheduleBody(
            euro.id,
            {
              payload,
              maxRunAmountUsd: '1000000',
              maxRunLocalCaps: [{ currency: 'EUR', amount: '100.00' }],
            },
            60_000,
          ),
        )
      ).body.data;
      try {
        await advanceClock(server, who, DAY); // 100 EUR at 0.92 EUR per USD = 108.70 USD
        fx.setRatePerUsd('EUR', '0.80'); // 100 EUR = 125.00 USD
        await advanceClock(server, who, 7 * DAY);
      } finally {
        fx.setRatePerUsd('EUR', null);
      }
      const outcomes = async (id: string) =>
        (await runsOf(who, id)).items.reverse().map((run: any) => [run.status, run.reason]);
      expect(await outcomes(usdCapped.id)).toEqual([
        ['SUCCEEDED', null],
        ['FAILED', 'CAP_EXCEEDED'],
      ]);
      expect(await outcomes(localCapped.id)).toEqual([
        ['SUCCEEDED', null],
        ['SUCCEEDED', null],
      ]);
    });

    test('a local cap breached by the destination amounts fails the run with CAP_EXCEEDED and no payout', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      // 10.00 USD → 15,422.50 NGN at the sandbox rate (1,550 less the 0.5% spread)
      const schedule = (
        await createSchedule(
          server,
          who,
          scheduleBody(payee, { cadence: 'ONCE', maxRunLocalCaps: [{ currency: 'NGN', amount: '15422.49' }] }, 60_000),
        )
      ).body.data;
      await advanceClock(server, who, 120);
      expect((await runsOf(who, schedule.id)).items.map((run: any) => [run.status, run.reason, run.payoutIds])).toEqual(
        [['FAILED', 'CAP_EXCEEDED', []]],
      );
      expect(await countRows('payouts', who.businessId)).toBe(0);
    });
  });

  describe('tenancy and mode', () => {
    test('another business cannot read, edit, move or list a schedule or its runs (404), and its clock advance fires none of them', async () => {
      const { who: owner, recipientId: payee } = await readyMerchant();
      const schedule = (await createSchedule(server, owner, scheduleBody(payee, {}, 60_000))).body.data;
      const stranger = await server.signUp();
      await setPin(server, stranger);
      expect(errorOf(await get(stranger, `${SCHEDULES}/${schedule.id}`))).toEqual({ status: 404, code: 'NOT_FOUND' });
      expect(errorOf(await get(stranger, `${SCHEDULES}/${schedule.id}/runs`))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
      expect(errorOf(await patch(stranger, schedule.id, { name: 'Mine' }))).toEqual({ status: 404, code: 'NOT_FOUND' });
      for (const action of ['pause', 'resume', 'cancel']) {
        expect(errorOf(await post(stranger, `${SCHEDULES}/${schedule.id}/${action}`))).toEqual({
          status: 404,
          code: 'NOT_FOUND',
        });
      }
      expect((await get(stranger, SCHEDULES)).body.data).toMatchObject({ items: [], total: 0 });
      await advanceClock(server, stranger, 30 * DAY);
      expect((await get(owner, `${SCHEDULES}/${schedule.id}`)).body.data).toMatchObject({
        status: 'ACTIVE',
        runCount: 0,
      });
    });

    test('live credentials see no test schedule, and the test clock is test mode only (403 SANDBOX_ONLY)', async () => {
      const { who, recipientId: payee } = await readyMerchant();
      const schedule = (await createSchedule(server, who, scheduleBody(payee))).body.data;
      const live = { 'x-api-key': await server.liveKeyOf(who) };
      expect((await server.request('GET', SCHEDULES, { headers: live })).body.data).toMatchObject({
        items: [],
        total: 0,
      });
      expect(errorOf(await server.request('GET', `${SCHEDULES}/${schedule.id}`, { headers: live }))).toEqual({
        status: 404,
        code: 'NOT_FOUND',
      });
      expect(errorOf(await server.request('GET', CLOCK, { headers: live }))).toEqual({
        status: 403,
        code: 'SANDBOX_ONLY',
      });
      expect(
        errorOf(await server.request('POST', `${CLOCK}/advance`, { headers: live, body: { seconds: 60 } })),
      ).toEqual({ status: 403, code: 'SANDBOX_ONLY' });
      // Live mode has no payout rail in this build: refused before anything is written.
      expect(errorOf(await server.request('POST', SCHEDULES, { headers: live, body: scheduleBody(payee) }))).toEqual({
        status: 422,
        code: 'UNPROCESSABLE',
      });
      expect(
        (
          await server.runtime.dataSource.query(
            `SELECT count(*)::int AS n FROM payout_schedules WHERE business_id = $1 AND livemode`,
            [who.businessId],
          )
        )[0].n,
      ).toBe(0);
    });

    test('a VIEWER reads schedules but cannot create, edit or move them (403 FORBIDDEN)', async () => {
      const { who: owner, recipientId: payee } = await readyMerchant();
      const schedule = (await createSchedule(server, owner, scheduleBody(payee))).body.data;
      const viewer = await server.signUp();
      await server.addTeamMember(owner, viewer, 'VIEWER');
      const headers = { authorization: `Bearer ${viewer.token}`, 'x-service-business-id': owner.businessId };
      expect((await server.request('GET', SCHEDULES, { headers })).body.data.total).toBe(1);
      expect(errorOf(await server.request('POST', SCHEDULES, { headers, body: scheduleBody(payee) }))).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      expect(errorOf(await server.request('POST', `${SCHEDULES}/${schedule.id}/pause`, { headers }))).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      expect(
        errorOf(await server.request('PATCH', `${SCHEDULES}/${schedule.id}`, { headers, body: { name: 'x' } })),
      ).toEqual({ status: 403, code: 'FORBIDDEN' });
      expect((await get(owner, `${SCHEDULES}/${schedule.id}`)).body.data).toEqual(schedule);
    });
  });
});

/** The runner's guarantee (docs/schedules.md): each due run fires exactly once, whatever the number of workers and wake-ups. */
describe('Scheduled payouts with several workers', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ workerPollIntervalMs: 50, workerConcurrency: 4 });
  });
  afterAll(async () => server.close());

  test('two worker processes and repeated wake-ups over three months of test clock fire each run exactly once (runs and payouts counted)', async () => {
    const who = await server.signUp();
    await setPin(server, who);
    await fundWallet(server, who, '100000.00');
    const payee = (await createRecipient(server, who)).id;
    const bodies = [
      scheduleBody(payee, { name: 'weekly' }, 60_000),
      scheduleBody(
        payee,
        {
          name: 'biweekly batch',
          cadence: 'BIWEEKLY',
          payloadKind: 'BATCH',
          payload: {
            items: [
              { recipientId: payee, amount: '1.00', currency: 'USD' },
              { recipientId: payee, amount: '2.00', currency: 'USD' },
            ],
          },
        },
        60_000,
      ),
      scheduleBody(payee, { name: 'monthly', cadence: 'MONTHLY', dayOfMonth: 15 }, 60_000),
    ];
    const schedules = [];
    for (const body of bodies) schedules.push((await createSchedule(server, who, body)).body.data);
    const offset = 92 * DAY;
    // The clock moves without the advance's own firing: only the workers and the wake-ups below fire the runs.
    await server.runtime.dataSource.query(`INSERT INTO sandbox_clocks (business_id, offset_seconds) VALUES ($1, $2)`, [
      who.businessId,
      offset,
    ]);
    const workers = await Promise.all(
      [1, 2].map(() => startWorker(server.runtime.core, server.databaseUrl, () => undefined)),
    );
    try {
      const wake = (task: string, payload: Record<string, unknown>) =>
        server.runtime.dataSource.query(`SELECT graphile_worker.add_job($1, $2::json)`, [
          task,
          JSON.stringify(payload),
        ]);
      const wakeUps: Array<Promise<unknown>> = [];
      for (let round = 0; round < 20; round += 1) {
        wakeUps.push(wake('run_due_payout_schedules', {}));
        for (const schedule of schedules) {
          wakeUps.push(
            wake('run_payout_schedule', { scheduleId: schedule.id, businessId: who.businessId, livemode: false }),
          );
        }
      }
      const system = RequestContext.system(server.runtime.dataSource, 'test');
      wakeUps.push(...[1, 2, 3].map(() => server.runtime.core.payoutScheduleRunner.runDue(system, { limit: 500 })));
      await Promise.all(wakeUps);
      await waitFor(
        async () =>
          (
            await server.runtime.dataSource.query(
              `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier IN ('run_due_payout_schedules', 'run_payout_schedule') AND run_at <= now()`,
            )
          )[0].n,
        (pending) => pending === 0,
        30_000,
      );
    } finally {
      await Promise.all(workers.map(stopWorker));
    }
    const now = new Date(Date.now() + offset * 1000);
    const firedByWorkers = (
      await server.runtime.dataSource.query(
        `SELECT count(*)::int AS n FROM payout_schedule_runs WHERE business_id = $1`,
        [who.businessId],
      )
    )[0].n;
    let expectedPayouts = 0;
    for (const [index, schedule] of schedules.entries()) {
      const rule = {
        cadence: schedule.cadence,
        dayOfMonth: schedule.dayOfMonth,
        anchorAt: new Date(bodies[index].startAt),
      };
      let expected = 0;
      for (let due: Date | null = firstOccurrence(rule); due && due <= now; due = occurrenceAfter(rule, due))
        expected += 1;
      const runs: Array<{ due_at: Date; status: string; payout_ids: string[] }> = await server.runtime.dataSource.query(
        `SELECT due_at, status, payout_ids FROM payout_schedule_runs WHERE schedule_id = $1 ORDER BY due_at`,
        [schedule.id],
      );
      expect(runs).toHaveLength(expected);
      expect(new Set(runs.map((run) => run.due_at.toISOString())).size).toBe(expected);
      expect(runs.every((run) => run.status === 'SUCCEEDED' && run.payout_ids.length === schedule.itemCount)).toBe(
        true,
      );
      const state = (await server.request('GET', `${SCHEDULES}/${schedule.id}`, { headers: apiKey(who) })).body.data;
      expect(state.runCount).toBe(expected);
      expectedPayouts += expected * schedule.itemCount;
    }
    expect(expectedPayouts).toBeGreaterThan(20);

    const [{ n: payouts }] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM payouts WHERE business_id = $1`,
      [who.businessId],
    );
    expect(payouts).toBe(expectedPayouts);
    const [{ n: referenced }] = await server.runtime.dataSource.query(
      `SELECT count(DISTINCT id)::int AS n FROM (SELECT unnest(payout_ids) AS id FROM payout_schedule_runs WHERE business_id = $1) ids`,
      [who.businessId],
    );
    expect(referenced).toBe(expectedPayouts);
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
    // One more wake-up through the clock advance finds nothing left to fire.
    await advanceClock(server, who, 1);
    expect(
      (
        await server.runtime.dataSource.query(
          `SELECT count(*)::int AS n FROM payout_schedule_runs WHERE business_id = $1`,
          [who.businessId],
        )
      )[0].n,
    ).toBe(firedByWorkers);
  });
});
