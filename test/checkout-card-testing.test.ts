import { loadConfig } from '../src/config';
import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { CARDS, api, cardForm, createSession, eventsOf, page, pathOf } from './support/checkout';

/**
 * Finding 9, "Card testing through hosted checkout": failed attempts are limited per session, per
 * payment link and per card; a limit reached locks the session, which refuses every further attempt.
 */

const paymentsOfSession = async (server: TestServer, sessionId: string): Promise<number> =>
  (
    await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM payments WHERE source_id = $1`, [sessionId])
  )[0].n;

const sessionStatus = async (server: TestServer, merchant: TestMerchant, sessionId: string) =>
  (await api(server, merchant)('GET', `/api/v1/business/checkout/sessions/${sessionId}`)).body.data.status;

async function linkSession(server: TestServer, linkUrl: string): Promise<{ id: string; path: string }> {
  const visit = await page(server, 'GET', pathOf(linkUrl));
  expect(visit.status).toBe(303);
  const path = pathOf(visit.location!);
  const [row] = await server.runtime.dataSource.query(`SELECT id FROM checkout_sessions WHERE token = $1`, [
    path.split('/').pop(),
  ]);
  return { id: row.id, path };
}

test('the defaults: 5 failed attempts per session, 20 per payment link and 5 per card within an hour', () => {
  expect(loadConfig({})).toMatchObject({
    checkoutMaxFailedAttemptsPerSession: 5,
    checkoutMaxFailedAttemptsPerLink: 20,
    checkoutMaxFailedAttemptsPerCard: 5,
    checkoutFailedAttemptsWindowSeconds: 3600,
  });
});

describe('per session and per payment link', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      publicBaseUrl: 'https://pay.tessera.test',
      checkoutMaxFailedAttemptsPerSession: 3,
      checkoutMaxFailedAttemptsPerLink: 4,
      checkoutMaxFailedAttemptsPerCard: 1000,
    });
  });
  afterAll(async () => {
    await server.close();
  });

  test('a session locks at its failed-attempt limit and then refuses every attempt, even a good card, with a 423 page', async () => {
    const merchant = await server.signUp();
    const session = await createSession(server, merchant);
    const url = pathOf(session.checkoutUrl);
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await page(server, 'POST', url, cardForm(CARDS.declined))).status);
    expect(statuses).toEqual([402, 402, 423]);

    const afterLock = await page(server, 'POST', url, cardForm(CARDS.success));
    expect(afterLock.status).toBe(423);
    expect(afterLock.body).toContain('This checkout is locked');
    expect(afterLock.body).not.toContain('name="number"');
    expect((await page(server, 'GET', url)).status).toBe(423);
    expect(await paymentsOfSession(server, session.id)).toBe(3);
    expect(await sessionStatus(server, merchant, session.id)).toBe('LOCKED');

    const events = await eventsOf(server, merchant.businessId, 'checkout.session.locked');
    expect(events.map((event) => event.data)).toEqual([
      {
        sessionId: session.id,
        source: 'api',
        sourceId: null,
        status: 'LOCKED',
        reason: 'session',
        failedAttempts: 3,
        limit: 3,
        windowSeconds: null,
      },
    ]);
  });

  test("a payment link's sessions share one limit: a fresh session of a link over it is locked without charging", async () => {
    const merchant = await server.signUp();
    const link = (
      await api(server, merchant)('POST', '/api/v1/business/payment-links', {
        name: 'Donation',
        amount: 5,
        currency: 'usd',
      })
    ).body.data;
    const first = await linkSession(server, link.url);
    expect((await page(server, 'POST', first.path, cardForm(CARDS.declined, { email: 'a@example.com' }))).status).toBe(
      402,
    );
    expect(
      (await page(server, 'POST', first.path, cardForm(CARDS.insufficientFunds, { email: 'a@example.com' }))).status,
    ).toBe(402);
    const second = await linkSession(server, link.url);
    expect((await page(server, 'POST', second.path, cardForm(CARDS.declined, { email: 'b@example.com' }))).status).toBe(
      402,
    );
    expect((await page(server, 'POST', second.path, cardForm(CARDS.declined, { email: 'b@example.com' }))).status).toBe(
      423,
    );

    const third = await linkSession(server, link.url);
    expect((await page(server, 'POST', third.path, cardForm(CARDS.success, { email: 'c@example.com' }))).status).toBe(
      423,
    );
    expect(await paymentsOfSession(server, third.id)).toBe(0);
    const events = (await eventsOf(server, merchant.businessId, 'checkout.session.locked')).map((event) => event.data);
    expect(events).toEqual([
      expect.objectContaining({
        sessionId: second.id,
        source: 'payment_link',
        sourceId: link.id,
        reason: 'source',
        failedAttempts: 4,
        limit: 4,
        windowSeconds: 3600,
      }),
      expect.objectContaining({ sessionId: third.id, reason: 'source', failedAttempts: 4 }),
    ]);
  });
});

describe('per card', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      checkoutMaxFailedAttemptsPerSession: 100,
      checkoutMaxFailedAttemptsPerLink: 100,
      checkoutMaxFailedAttemptsPerCard: 2,
    });
  });
  afterAll(async () => {
    await server.close();
  });

  test('a card that failed too often locks the session it is tried on, before it is charged again; other cards still pay', async () => {
    const merchant = await server.signUp();
    const first = await createSession(server, merchant);
    expect((await page(server, 'POST', pathOf(first.checkoutUrl), cardForm(CARDS.declined))).status).toBe(402);
    const second = await createSession(server, merchant);
    expect((await page(server, 'POST', pathOf(second.checkoutUrl), cardForm(CARDS.declined))).status).toBe(423);

    const third = await createSession(server, merchant);
    expect((await page(server, 'POST', pathOf(third.checkoutUrl), cardForm(CARDS.declined))).status).toBe(423);
    expect(await paymentsOfSession(server, third.id)).toBe(0);
    expect(await sessionStatus(server, merchant, third.id)).toBe('LOCKED');

    const fresh = await createSession(server, merchant);
    expect((await page(server, 'POST', pathOf(fresh.checkoutUrl), cardForm(CARDS.success))).status).toBe(303);
    expect(await sessionStatus(server, merchant, fresh.id)).toBe('COMPLETED');
    const reasons = (await eventsOf(server, merchant.businessId, 'checkout.session.locked')).map((event) => [
      event.data.sessionId,
      event.data.reason,
    ]);
    expect(reasons).toEqual([
      [second.id, 'card'],
      [third.id, 'card'],
    ]);
  });

  test("another business's failures with the same card do not count", async () => {
    const other = await server.signUp();
    const merchant = await server.signUp();
    for (let i = 0; i < 2; i += 1) {
      const session = await createSession(server, other);
      await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.declined));
    }
    const session = await createSession(server, merchant);
    expect((await page(server, 'POST', pathOf(session.checkoutUrl), cardForm(CARDS.declined))).status).toBe(402);
  });
});
