import { Writable } from 'node:stream';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { DomainError } from '../src/domain/shared/errors';
import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { PAYOUTS, createRecipient, fundWallet } from './support/payouts';
import { walletBalance } from './support/payments';
import { createSchedule, scheduleBody } from './support/schedules';

/**
 * The payout PIN (design section 8, "Payout PIN"): 6 digits per business, hashed, set by an OWNER
 * over REST or GraphQL; a wrong PIN is 403 INVALID_PIN; 5 wrong in a row from one credential lock
 * that credential for 15 minutes (429 PIN_LOCKED), 10 from several lock the business; counted even
 * when the caller's transaction rolls back and when guesses race.
 */

const PIN_PATH = '/api/v1/business/payouts/pin';
const SET_PIN =
  'mutation($input: SetPayoutPinInput!) { setPayoutPin(input: $input) { payoutPin { isSet lockedUntil updatedAt } userErrors { field message code } } }';
const PIN_STATUS = '{ payoutPin { isSet lockedUntil updatedAt } }';
/** The userErrors of a setPayoutPin that was refused: no GraphQL error, and no status in the payload. */
const userErrorsOf = (body: any) => {
  expect(body.errors).toBeUndefined();
  expect(body.data.setPayoutPin.payoutPin).toBeNull();
  return body.data.setPayoutPin.userErrors;
};

const dashboard = (who: TestMerchant, businessId = who.businessId) => ({
  authorization: `Bearer ${who.token}`,
  'x-service-business-id': businessId,
});
const apiKey = (who: TestMerchant) => ({ 'x-api-key': who.apiKey });

describe('payout PIN', () => {
  let server: TestServer;
  /** Every log line the server wrote, at every level: the PINs sent must appear in none. */
  const logLines: string[] = [];
  /** Every PIN the tests send. */
  const sentPins = new Set<string>();

  beforeAll(async () => {
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logLines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    server = await startTestServer({ logLevel: 'trace' }, undefined, { logStream });
  });
  afterAll(async () => server.close());

  const putPin = (
    who: TestMerchant,
    body: Record<string, unknown>,
    headers: Record<string, string> = dashboard(who),
  ) => {
    for (const value of [body.pin, body.currentPin]) if (typeof value === 'string') sentPins.add(value);
    return server.request('PUT', PIN_PATH, { body, headers });
  };
  const setPin = async (who: TestMerchant, pin: string, currentPin?: string) => {
    const response = await putPin(who, currentPin === undefined ? { pin } : { pin, currentPin });
    expect(response.status).toBe(200);
    return response.body.data;
  };
  const pinRow = async (businessId: string) =>
    (await server.runtime.dataSource.query('SELECT * FROM payout_pins WHERE business_id = $1', [businessId]))[0];
  const failureRow = async (businessId: string, credential: string) =>
    (
      await server.runtime.dataSource.query(
        'SELECT * FROM payout_pin_failures WHERE business_id = $1 AND credential = $2',
        [businessId, credential],
      )
    )[0];
  const errorOf = (response: { status: number; body: any }) => ({
    status: response.status,
    code: response.body.error?.code,
  });
  /** The context of a scheduled-payout creation: a domain caller checking the PIN. */
  const systemContext = (who: TestMerchant) =>
    RequestContext.system(server.runtime.dataSource, 'payout-pin-test', who.businessId);
  const verifyDirectly = async (who: TestMerchant, pin: string): Promise<string> => {
    try {
      await server.runtime.core.payoutPins.verify(systemContext(who), pin);
      return 'OK';
    } catch (error) {
      if (error instanceof DomainError) return error.code;
      throw error;
    }
  };

  test('an OWNER sets the first PIN without currentPin; the answer and the status say it is set, never the PIN or its hash', async () => {
    const owner = await server.signUp();
    const before = await server.request('GET', PIN_PATH, { headers: dashboard(owner) });
    expect(before.body).toEqual({ success: true, data: { isSet: false, lockedUntil: null, updatedAt: null } });

    const response = await putPin(owner, { pin: '123456' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: { isSet: true, lockedUntil: null, updatedAt: expect.any(String) },
    });
    expect(Date.now() - Date.parse(response.body.data.updatedAt)).toBeLessThan(60_000);

    const row = await pinRow(owner.businessId);
    expect(row.pin_hash).toMatch(/^scrypt\$/);
    expect(row.pin_hash).not.toContain('123456');
    for (const answer of [response, await server.request('GET', PIN_PATH, { headers: dashboard(owner) })]) {
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain('123456');
      expect(text).not.toContain('scrypt');
      expect(text).not.toContain(row.pin_hash.split('$').pop());
    }
    expect(await verifyDirectly(owner, '123456')).toBe('OK');
  });

  test('changing a PIN needs the current one: missing is 400 on currentPin, wrong is 403 INVALID_PIN, right replaces the PIN', async () => {
    const owner = await server.signUp();
    const first = await setPin(owner, '111111');

    const missing = await putPin(owner, { pin: '222222' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      statusCode: 400,
      errors: { currentPin: [expect.stringContaining('required')] },
    });

    const wrong = await putPin(owner, { pin: '222222', currentPin: '999999' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toMatchObject({
      code: 'INVALID_PIN',
      statusCode: 403,
      message: expect.stringContaining('4 tries left'),
    });
    expect(await verifyDirectly(owner, '111111')).toBe('OK');

    const changed = await setPin(owner, '222222', '111111');
    expect(changed).toEqual({ isSet: true, lockedUntil: null, updatedAt: expect.any(String) });
    expect(Date.parse(changed.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
    expect(await verifyDirectly(owner, '111111')).toBe('INVALID_PIN');
    expect(await verifyDirectly(owner, '222222')).toBe('OK');
  });

  test('only an OWNER on the dashboard sets the PIN: ADMIN, DEVELOPER and API credentials are 403; all of them read the status', async () => {
    const owner = await server.signUp();
    const admin = await server.signUp();
    const developer = await server.signUp();
    const viewer = await server.signUp();
    await server.addTeamMember(owner, admin, 'ADMIN');
    await server.addTeamMember(owner, developer, 'DEVELOPER');
    await server.addTeamMember(owner, viewer, 'VIEWER');

    for (const headers of [dashboard(admin, owner.businessId), dashboard(developer, owner.businessId), apiKey(owner)]) {
      const refused = await putPin(owner, { pin: '123456' }, headers);
      expect(errorOf(refused)).toEqual({ status: 403, code: 'FORBIDDEN' });
      const viaGraphql = await server.graphql(SET_PIN, { input: { pin: '123456' } }, headers);
      expect(viaGraphql.body.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', statusCode: 403 });
    }
    expect(await pinRow(owner.businessId)).toBeUndefined();

    await setPin(owner, '123456');
    for (const headers of [
      dashboard(viewer, owner.businessId),
      dashboard(developer, owner.businessId),
      apiKey(owner),
    ]) {
      const status = await server.request('GET', PIN_PATH, { headers });
      expect(status.body).toEqual({
        success: true,
        data: { isSet: true, lockedUntil: null, updatedAt: expect.any(String) },
      });
      expect((await server.graphql(PIN_STATUS, {}, headers)).body.data.payoutPin).toMatchObject({
        isSet: true,
        lockedUntil: null,
      });
    }
  });

  test('a PIN must be exactly 6 ASCII digits: every bad field is named at once and nothing is written', async () => {
    const owner = await server.signUp();
    for (const pin of ['12345', '1234567', '12345a', ' 123456', '١٢٣٤٥٦', '']) {
      const response = await putPin(owner, { pin });
      expect(response.status).toBe(400);
      expect(response.body.error).toEqual({
        code: 'VALIDATION_ERROR',
        message: expect.any(String),
        statusCode: 400,
        errors: { pin: ['must be exactly 6 digits'] },
      });
    }
    const wrongTypes = await putPin(owner, { pin: 123456, currentPin: 5 });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body.error.errors).toEqual({
      pin: ['must be a string'],
      currentPin: ['must be a string or null'],
    });
    const absent = await putPin(owner, {});
    expect(absent.body.error.errors).toEqual({ pin: [expect.stringMatching(/^is required/)] });
    for (const body of [null, [], 'pin=123456', { pin: '123456', extra: true }]) {
      const response = await server.request('PUT', PIN_PATH, { body, headers: dashboard(owner) });
      expect(errorOf(response)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    }
    expect(await pinRow(owner.businessId)).toBeUndefined();

    expect((await putPin(owner, { pin: '123456', currentPin: null })).status).toBe(200);
    const both = await putPin(owner, { pin: '12' });
    expect(both.body.error.errors).toEqual({
      pin: ['must be exactly 6 digits'],
      currentPin: [expect.stringContaining('required')],
    });
    const badCurrent = await putPin(owner, { pin: '654321', currentPin: '12' });
    expect(badCurrent.body.error.errors).toEqual({ currentPin: ['must be exactly 6 digits'] });
    expect((await pinRow(owner.businessId)).failed_attempts).toBe(0);
  });

  test('5 wrong currentPin tries lock the PIN for that credential for 15 minutes: its 6th answers 429 PIN_LOCKED even with the right PIN', async () => {
    const owner = await server.signUp();
    await setPin(owner, '123456');
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await putPin(owner, { pin: '654321', currentPin: '000000' });
      answers.push(errorOf(wrong));
      if (attempt === 4) expect(wrong.body.error.message).toMatch(/locked until/);
    }
    expect(answers).toEqual(Array(5).fill({ status: 403, code: 'INVALID_PIN' }));

    const row = await failureRow(owner.businessId, `user:${owner.userId}`);
    const lockedFor = new Date(row.locked_until).getTime() - Date.now();
    expect(lockedFor).toBeGreaterThan(14 * 60_000);
    expect(lockedFor).toBeLessThanOrEqual(15 * 60_000);

    const right = await putPin(owner, { pin: '654321', currentPin: '123456' });
    expect(errorOf(right)).toEqual({ status: 429, code: 'PIN_LOCKED' });
    expect(right.body.error.message).toContain(new Date(row.locked_until).toISOString());
    const status = await server.request('GET', PIN_PATH, { headers: dashboard(owner) });
    expect(status.body.data.lockedUntil).toBe(new Date(row.locked_until).toISOString());
    // Another credential of the business is not locked (finding 26.8).
    expect((await server.request('GET', PIN_PATH, { headers: apiKey(owner) })).body.data.lockedUntil).toBeNull();
    expect(await verifyDirectly(owner, '123456')).toBe('OK');

    // Fifteen minutes later (the lock moved into the past): the right PIN works again.
    await server.runtime.dataSource.query(
      `UPDATE payout_pin_failures SET locked_until = now() - interval '1 second' WHERE business_id = $1`,
      [owner.businessId],
    );
    expect((await server.request('GET', PIN_PATH, { headers: dashboard(owner) })).body.data.lockedUntil).toBeNull();
    await setPin(owner, '654321', '123456');
    expect(await pinRow(owner.businessId)).toMatchObject({ failed_attempts: 0, locked_until: null });
  });

  test('a right PIN resets the count: only consecutive wrong PINs lock', async () => {
    const owner = await server.signUp();
    await setPin(owner, '123456');
    for (let round = 0; round < 3; round += 1) {
      for (let attempt = 0; attempt < 4; attempt += 1)
        expect(await verifyDirectly(owner, '000000')).toBe('INVALID_PIN');
      expect(await verifyDirectly(owner, '123456')).toBe('OK');
    }
    expect(await pinRow(owner.businessId)).toMatchObject({ failed_attempts: 0, locked_until: null });
  });

  test('10 concurrent wrong tries are serialised: exactly 5 answer INVALID_PIN and the other 5 PIN_LOCKED', async () => {
    const owner = await server.signUp();
    await setPin(owner, '123456');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => putPin(owner, { pin: '654321', currentPin: '000000' })),
    );
    const codes = answers.map((answer) => answer.body.error.code).sort();
    expect(codes).toEqual([...Array(5).fill('INVALID_PIN'), ...Array(5).fill('PIN_LOCKED')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(5).fill(403), ...Array(5).fill(429)]);
    expect(errorOf(await putPin(owner, { pin: '654321', currentPin: '123456' }))).toEqual({
      status: 429,
      code: 'PIN_LOCKED',
    });
  });

  test("a wrong PIN counts even when the caller's transaction rolls back", async () => {
    const owner = await server.signUp();
    await setPin(owner, '123456');
    const caller = systemContext(owner);
    const rolledBack = new Error('the caller gives up on INVALID_PIN');
    let verdict: unknown = null;
    await expect(
      inTransaction(caller, async (tx) => {
        await tx.em.query(`UPDATE businesses SET name = 'renamed in the rolled-back transaction' WHERE id = $1`, [
          owner.businessId,
        ]);
        verdict = await server.runtime.core.payoutPins.verify(tx, '000000').catch((error: DomainError) => error.code);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(verdict).toBe('INVALID_PIN');
    const [business] = await server.runtime.dataSource.query('SELECT name FROM businesses WHERE id = $1', [
      owner.businessId,
    ]);
    expect(business.name).not.toBe('renamed in the rolled-back transaction');
    expect((await pinRow(owner.businessId)).failed_attempts).toBe(1);

    // Four more, each in a transaction that rolls back, lock the PIN all the same.
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await inTransaction(caller, async (tx) => {
        await server.runtime.core.payoutPins.verify(tx, '000000');
      }).catch(() => undefined);
    }
    expect(await verifyDirectly(owner, '123456')).toBe('PIN_LOCKED');
  });

  test('checking a PIN when none is set is 422 PIN_NOT_SET; a PIN of another format is 400 on pin, never counted', async () => {
    const owner = await server.signUp();
    const notSet = await server.runtime.core.payoutPins
      .verify(systemContext(owner), '123456')
      .catch((error: DomainError) => error);
    expect(notSet).toMatchObject({ code: 'PIN_NOT_SET', message: expect.stringContaining('No payout PIN is set') });
    await setPin(owner, '123456');
    const malformed = await server.runtime.core.payoutPins
      .verify(systemContext(owner), '12 34')
      .catch((error: DomainError) => error);
    expect(malformed).toMatchObject({ code: 'VALIDATION_ERROR', fieldErrors: { pin: ['must be exactly 6 digits'] } });
    expect((await pinRow(owner.businessId)).failed_attempts).toBe(0);
  });

  test('one PIN per business for both modes: the live-mode dashboard sees and checks the same PIN', async () => {
    const owner = await server.signUp();
    await setPin(owner, '123456');
    const live = await server.graphql(PIN_STATUS, {}, { ...dashboard(owner), 'x-service-mode': 'live' });
    expect(live.body.data.payoutPin).toMatchObject({ isSet: true });
    const wrongInLive = await server.graphql(
      SET_PIN,
      { input: { pin: '654321', currentPin: '000000' } },
      { ...dashboard(owner), 'x-service-mode': 'live' },
    );
    expect(userErrorsOf(wrongInLive.body)).toEqual([{ field: null, code: 'INVALID_PIN', message: expect.any(String) }]);
    expect((await pinRow(owner.businessId)).failed_attempts).toBe(1);
  });

  test('GraphQL: setPayoutPin and payoutPin work with the dashboard JWT; a refusal the caller can fix is a userError, on its input field when it has one', async () => {
    const owner = await server.signUp();
    expect((await server.graphql(PIN_STATUS, {}, dashboard(owner))).body.data.payoutPin).toEqual({
      isSet: false,
      lockedUntil: null,
      updatedAt: null,
    });

    sentPins.add('135790');
    const set = await server.graphql(SET_PIN, { input: { pin: '135790' } }, dashboard(owner));
    expect(set.body.data.setPayoutPin).toEqual({
      payoutPin: { isSet: true, lockedUntil: null, updatedAt: expect.any(String) },
      userErrors: [],
    });
    expect(JSON.stringify(set.body)).not.toContain('135790');
    // A stable id for a client's cache: the business's, the same from the query and the mutation, in either mode.
    const modes: Array<Record<string, string>> = [{}, { 'x-service-mode': 'live' }];
    const ids = await Promise.all(
      modes.map(
        async (mode) =>
          (await server.graphql('{ payoutPin { id } }', {}, { ...dashboard(owner), ...mode })).body.data.payoutPin.id,
      ),
    );
    expect(ids).toEqual([`PayoutPinStatus:${owner.businessId}`, `PayoutPinStatus:${owner.businessId}`]);
    const setWithId = await server.graphql(
      'mutation($input: SetPayoutPinInput!) { setPayoutPin(input: $input) { payoutPin { id } } }',
      { input: { pin: '135790', currentPin: '135790' } },
      dashboard(owner),
    );
    expect(setWithId.body.data.setPayoutPin.payoutPin.id).toBe(ids[0]);
    const hashSet = (await pinRow(owner.businessId)).pin_hash;

    const missing = await server.graphql(SET_PIN, { input: { pin: '246801' } }, dashboard(owner));
    expect(userErrorsOf(missing.body)).toEqual([
      { field: ['input', 'currentPin'], code: 'VALIDATION_ERROR', message: expect.any(String) },
    ]);
    const badFormat = await server.graphql(
      SET_PIN,
      { input: { pin: '24680', currentPin: '135790' } },
      dashboard(owner),
    );
    expect(userErrorsOf(badFormat.body)).toEqual([
      { field: ['input', 'pin'], code: 'VALIDATION_ERROR', message: 'must be exactly 6 digits' },
    ]);
    expect((await pinRow(owner.businessId)).failed_attempts).toBe(0);

    for (let attempt = 0; attempt < 5; attempt += 1) {
      const wrong = await server.graphql(SET_PIN, { input: { pin: '246801', currentPin: '000000' } }, dashboard(owner));
      expect(userErrorsOf(wrong.body)).toEqual([{ field: null, code: 'INVALID_PIN', message: expect.any(String) }]);
    }
    const locked = await server.graphql(SET_PIN, { input: { pin: '246801', currentPin: '135790' } }, dashboard(owner));
    expect(userErrorsOf(locked.body)).toEqual([{ field: null, code: 'PIN_LOCKED', message: expect.any(String) }]);
    // None of the refusals changed the PIN.
    expect((await pinRow(owner.businessId)).pin_hash).toBe(hashSet);
    const status = (await server.graphql(PIN_STATUS, {}, dashboard(owner))).body.data.payoutPin;
    expect(Date.parse(status.lockedUntil) - Date.now()).toBeGreaterThan(14 * 60_000);

    const other = await server.signUp();
    const notSet = await server.runtime.core.payoutPins
      .verify(systemContext(other), '135790')
      .catch((error: DomainError) => error);
    expect(notSet).toMatchObject({ code: 'PIN_NOT_SET' });

    const hashField = await server.graphql('{ payoutPin { isSet pinHash } }', {}, dashboard(owner));
    expect(hashField.body.data).toBeUndefined();
    expect(hashField.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  describe('finding 26.8: wrong PINs are counted per credential as well as per business', () => {
    const recipientFor = async (owner: TestMerchant) => (await createRecipient(server, owner)).id;
    const schedule = (owner: TestMerchant, recipientId: string, pin: string, headers: Record<string, string>) => {
      sentPins.add(pin);
      return createSchedule(server, owner, scheduleBody(recipientId, { pin }), headers);
    };

    test("a DEVELOPER's API key locks itself after 5 wrong PINs, never the business: the OWNER's right PIN still works", async () => {
      const owner = await server.signUp();
      await setPin(owner, '123456');
      const recipientId = await recipientFor(owner);
      const answers = [];
      for (let attempt = 0; attempt < 7; attempt += 1)
        answers.push(errorOf(await schedule(owner, recipientId, '000000', apiKey(owner))));
      expect(answers).toEqual([
        ...Array(5).fill({ status: 403, code: 'INVALID_PIN' }),
        ...Array(2).fill({ status: 429, code: 'PIN_LOCKED' }),
      ]);
      // The key is locked even with the right PIN; the status it reads says so.
      const keyRight = await schedule(owner, recipientId, '123456', apiKey(owner));
      expect(errorOf(keyRight)).toEqual({ status: 429, code: 'PIN_LOCKED' });
      expect(keyRight.body.error.message).toMatch(/this credential/);
      expect((await server.request('GET', PIN_PATH, { headers: apiKey(owner) })).body.data.lockedUntil).not.toBeNull();

      expect((await pinRow(owner.businessId)).locked_until).toBeNull();
      expect((await server.request('GET', PIN_PATH, { headers: dashboard(owner) })).body.data.lockedUntil).toBeNull();
      const ownerRight = await schedule(owner, recipientId, '123456', dashboard(owner));
      expect(ownerRight.status).toBe(201);
      await setPin(owner, '654321', '123456');
    });

    test('the business-wide lock takes 10 wrong PINs in a row from more than one credential', async () => {
      const owner = await server.signUp();
      await setPin(owner, '123456');
      const recipientId = await recipientFor(owner);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect(errorOf(await schedule(owner, recipientId, '000000', apiKey(owner)))).toEqual({
          status: 403,
          code: 'INVALID_PIN',
        });
      }
      // The same key again after its lock ended: still only that key is locked, however often it comes back.
      await server.runtime.dataSource.query(
        `UPDATE payout_pin_failures SET locked_until = now() - interval '1 second' WHERE business_id = $1`,
        [owner.businessId],
      );
      for (let attempt = 0; attempt < 5; attempt += 1) {
        expect(errorOf(await schedule(owner, recipientId, '000000', apiKey(owner)))).toEqual({
          status: 403,
          code: 'INVALID_PIN',
        });
      }
      expect((await pinRow(owner.businessId)).locked_until).toBeNull();
      expect((await schedule(owner, recipientId, '123456', dashboard(owner))).status).toBe(201);

      // A right PIN restarts the count; then 5 from the key and 5 from a member's session lock the business.
      const developer = await server.signUp();
      await server.addTeamMember(owner, developer, 'DEVELOPER');
      await server.runtime.dataSource.query(
        `UPDATE payout_pin_failures SET locked_until = now() - interval '1 second' WHERE business_id = $1`,
        [owner.businessId],
      );
      for (let attempt = 0; attempt < 5; attempt += 1) await schedule(owner, recipientId, '000000', apiKey(owner));
      const codes = [];
      for (let attempt = 0; attempt < 5; attempt += 1)
        codes.push(errorOf(await schedule(owner, recipientId, '000000', dashboard(developer, owner.businessId))).code);
      expect(codes).toEqual(Array(5).fill('INVALID_PIN'));
      expect((await pinRow(owner.businessId)).locked_until).not.toBeNull();
      const ownerLocked = await schedule(owner, recipientId, '123456', dashboard(owner));
      expect(errorOf(ownerLocked)).toEqual({ status: 429, code: 'PIN_LOCKED' });
      expect(ownerLocked.body.error.message).toMatch(/business/);
    });
  });

  describe('a payout sent with its PIN: the payouts service checks it, the same on REST and GraphQL', () => {
    const payoutWithPin = (
      who: TestMerchant,
      recipientId: string,
      pin: unknown,
      headers: Record<string, string> = dashboard(who),
    ) => {
      if (typeof pin === 'string') sentPins.add(pin);
      return server.request('POST', PAYOUTS, {
        headers,
        body: { recipientId, amount: '10.00', currency: 'USD', ...(pin === undefined ? {} : { pin }) },
      });
    };
    const payoutCount = async (businessId: string) =>
      (
        await server.runtime.dataSource.query('SELECT count(*)::int AS n FROM payouts WHERE business_id = $1', [
          businessId,
        ])
      )[0].n;
    const fundedWithPin = async () => {
      const owner = await server.signUp();
      await setPin(owner, '123456');
      await fundWallet(server, owner, '100.00');
      const { id } = await createRecipient(server, owner);
      return { owner, recipientId: id };
    };

    test('REST POST /payouts: a wrong PIN is 403 INVALID_PIN and counted, a malformed one 400 on pin, nothing debited; the right one pays; none is still accepted', async () => {
      const { owner, recipientId } = await fundedWithPin();
      const before = await walletBalance(server, owner.businessId);

      expect(errorOf(await payoutWithPin(owner, recipientId, '654321'))).toEqual({ status: 403, code: 'INVALID_PIN' });
      expect((await failureRow(owner.businessId, `user:${owner.userId}`)).failed_attempts).toBe(1);
      const malformed = await payoutWithPin(owner, recipientId, '12');
      expect(errorOf(malformed)).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
      expect(malformed.body.error.errors).toEqual({ pin: ['must be exactly 6 digits'] });
      expect(errorOf(await payoutWithPin(owner, recipientId, 123456))).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(await payoutCount(owner.businessId)).toBe(0);
      expect(await walletBalance(server, owner.businessId)).toBe(before);

      const paid = await payoutWithPin(owner, recipientId, '123456');
      expect(paid.status).toBe(201);
      expect(paid.body.data).not.toHaveProperty('pin');
      expect(await failureRow(owner.businessId, `user:${owner.userId}`)).toBeUndefined();
      expect((await payoutWithPin(owner, recipientId, undefined, apiKey(owner))).status).toBe(201);
      expect(await walletBalance(server, owner.businessId)).toBe(before - 2n * 1_010n);
    });

    test('a role that may not pay out spends no try: a VIEWER with the right or a wrong PIN is 403 FORBIDDEN, nothing counted', async () => {
      const { owner, recipientId } = await fundedWithPin();
      const viewer = await server.signUp();
      await server.addTeamMember(owner, viewer, 'VIEWER');
      for (const pin of ['000000', '123456'])
        expect(errorOf(await payoutWithPin(viewer, recipientId, pin, dashboard(viewer, owner.businessId)))).toEqual({
          status: 403,
          code: 'FORBIDDEN',
        });
      expect(await failureRow(owner.businessId, `user:${viewer.userId}`)).toBeUndefined();
      expect((await pinRow(owner.businessId)).failed_attempts).toBe(0);
    });

    test('a PIN changed between the check and the debit: the debiting transaction refuses (409 CONFLICT), nothing is written', async () => {
      const { owner, recipientId } = await fundedWithPin();
      const before = await walletBalance(server, owner.businessId);
      const payouts = server.runtime.core.payouts;
      const prepare = payouts.prepare.bind(payouts);
      // The PIN was checked (right) before `prepare`; the OWNER changes it before the debit's transaction opens.
      const between = jest.spyOn(payouts, 'prepare').mockImplementationOnce(async (...args) => {
        expect((await putPin(owner, { pin: '654321', currentPin: '123456' })).status).toBe(200);
        return prepare(...args);
      });
      try {
        const raced = await payoutWithPin(owner, recipientId, '123456');
        expect(errorOf(raced)).toEqual({ status: 409, code: 'CONFLICT' });
        expect(raced.body.error.message).toMatch(/PIN was changed/);
        expect(between).toHaveBeenCalledTimes(1);
      } finally {
        between.mockRestore();
      }
      expect(await payoutCount(owner.businessId)).toBe(0);
      expect(await walletBalance(server, owner.businessId)).toBe(before);
      expect((await payoutWithPin(owner, recipientId, '654321')).status).toBe(201);
    });

    test('a business lock that falls between the check and the debit refuses the payout (429 PIN_LOCKED), nothing is written', async () => {
      const { owner, recipientId } = await fundedWithPin();
      const before = await walletBalance(server, owner.businessId);
      const payouts = server.runtime.core.payouts;
      const prepare = payouts.prepare.bind(payouts);
      const between = jest.spyOn(payouts, 'prepare').mockImplementationOnce(async (...args) => {
        await server.runtime.dataSource.query(
          `UPDATE payout_pins SET locked_until = now() + interval '15 minutes' WHERE business_id = $1`,
          [owner.businessId],
        );
        return prepare(...args);
      });
      try {
        expect(errorOf(await payoutWithPin(owner, recipientId, '123456'))).toEqual({ status: 429, code: 'PIN_LOCKED' });
      } finally {
        between.mockRestore();
      }
      expect(await payoutCount(owner.businessId)).toBe(0);
      expect(await walletBalance(server, owner.businessId)).toBe(before);
    });
  });

  test('no PIN sent appears in any log line of the server', async () => {
    expect(sentPins.size).toBeGreaterThan(5);
    expect(logLines.length).toBeGreaterThan(0);
    // As a JSON string value (a logged body or variables), the only way a PIN could be written.
    const pins = [...sentPins].filter((pin) => pin.length >= 5);
    const leaks = logLines.filter((line) => pins.some((pin) => line.includes(`"${pin}`)));
    expect(leaks).toEqual([]);
  });
});
