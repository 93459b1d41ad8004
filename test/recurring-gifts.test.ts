import { Worker, startWorker, stopWorker } from '../src/jobs/worker';
import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { CARDS, api, cardForm, eventsOf, page, pathOf, waitFor } from './support/checkout';

/** A payer opts in on the page of a link that allows recurring gifts; returns the gift. */
async function startGift(
  server: TestServer,
  merchant: TestMerchant,
  options: { interval?: 'weekly' | 'monthly'; card?: string } = {},
) {
  const call = api(server, merchant);
  const link = (
    await call('POST', '/api/v1/business/payment-links', {
      name: 'Monthly gift',
      amount: '10',
      currency: 'usd',
      allowRecurring: true,
      recurringInterval: options.interval ?? 'monthly',
    })
  ).body.data;
  const visit = await page(server, 'GET', pathOf(link.url));
  const form = await page(server, 'GET', pathOf(visit.location!));
  expect(form.body).toContain('name="recurring"');
  let paid = await page(
    server,
    'POST',
    pathOf(visit.location!),
    cardForm(options.card ?? CARDS.success, { email: 'donor@example.com', recurring: 'on' }),
  );
  if (paid.location?.includes('/checkout/3ds/')) paid = await page(server, 'POST', pathOf(paid.location));
  expect(paid.status).toBe(303);
  const gifts = (await call('GET', `/api/v1/business/recurring-gifts?paymentLinkId=${link.id}`)).body.data;
  expect(gifts.total).toBe(1);
  return { link, gift: gifts.items[0] };
}

/** The sandbox acquirer declines every later charge of the gift's saved card (as an issuer would after a card is blocked). */
const makeSavedCardDecline = (server: TestServer, paymentMethodId: string) =>
  server.runtime.dataSource.query(
    `UPDATE payment_methods SET provider_ref = 'sbx_declined_abcdefghijkl' WHERE id = $1`,
    [paymentMethodId],
  );

describe('recurring gifts (REST)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ recurringGiftMaxFailures: 3 });
  });
  afterAll(async () => {
    await server.close();
  });

  test('opting in on the page saves the card and creates an ACTIVE gift due one interval later', async () => {
    const merchant = await server.signUp();
    const before = Date.now();
    const { link, gift } = await startGift(server, merchant);
    expect(gift).toMatchObject({
      object: 'recurring_gift',
      status: 'ACTIVE',
      paymentLinkId: link.id,
      email: 'donor@example.com',
      amount: '10.00',
      currency: 'usd',
      interval: 'monthly',
      chargeCount: 0,
      failureCount: 0,
      lastError: null,
      lastPaymentId: expect.any(String),
    });
    const next = new Date(gift.nextChargeAt);
    const start = new Date(before);
    const months = (date: Date) => date.getUTCFullYear() * 12 + date.getUTCMonth();
    const daysInNextMonth = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
    expect(months(next) - months(start)).toBe(1);
    expect(next.getUTCDate()).toBe(Math.min(start.getUTCDate(), daysInNextMonth));
    const [method] = await server.runtime.dataSource.query(
      `SELECT pm.last4, c.email FROM payment_methods pm JOIN customers c ON c.id = pm.customer_id WHERE pm.id = $1`,
      [gift.paymentMethodId],
    );
    expect(method).toEqual({ last4: '4242', email: 'donor@example.com' });
  });

  test('a weekly gift is due seven days later', async () => {
    const before = Date.now();
    const { gift } = await startGift(server, await server.signUp(), { interval: 'weekly' });
    const delay = Date.parse(gift.nextChargeAt) - before;
    expect(delay).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
    expect(delay).toBeLessThan(7 * 24 * 3600 * 1000 + 60_000);
  });

  test('without opting in, paying through the link creates no gift and saves no card', async () => {
    const merchant = await server.signUp();
    const call = api(server, merchant);
    const link = (
      await call('POST', '/api/v1/business/payment-links', {
        name: 'Gift',
        amount: 10,
        currency: 'usd',
        allowRecurring: true,
      })
    ).body.data;
    const visit = await page(server, 'GET', pathOf(link.url));
    await page(server, 'POST', pathOf(visit.location!), cardForm(CARDS.success, { email: 'once@example.com' }));
    expect((await call('GET', '/api/v1/business/recurring-gifts')).body.data.total).toBe(0);
    const [{ n }] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM payment_methods WHERE business_id = $1`,
      [merchant.businessId],
    );
    expect(n).toBe(0);
  });

  test('a link without recurring ignores an opt-in', async () => {
    const merchant = await server.signUp();
    const call = api(server, merchant);
    const link = (
      await call('POST', '/api/v1/business/payment-links', { name: 'One-off', amount: 10, currency: 'usd' })
    ).body.data;
    const visit = await page(server, 'GET', pathOf(link.url));
    expect((await page(server, 'GET', pathOf(visit.location!))).body).not.toContain('name="recurring"');
    await page(
      server,
      'POST',
      pathOf(visit.location!),
      cardForm(CARDS.success, { email: 'once@example.com', recurring: 'on' }),
    );
    expect((await call('GET', '/api/v1/business/recurring-gifts')).body.data.total).toBe(0);
  });

  test('a successful charge emits recurring_gift.charge.succeeded with the cumulative chargeCount and the payment id', async () => {
    const merchant = await server.signUp();
    const { link, gift } = await startGift(server, merchant);
    const call = api(server, merchant);
    const first = await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'ACTIVE', chargeCount: 1, failureCount: 0 });
    const second = (await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`)).body.data;
    expect(second.chargeCount).toBe(2);
    expect(Date.parse(second.nextChargeAt)).toBeGreaterThan(Date.now() + 27 * 24 * 3600 * 1000);
    const events = await eventsOf(server, merchant.businessId, 'recurring_gift.charge.succeeded');
    expect(events.map((event) => event.data)).toEqual([
      {
        recurringGiftId: gift.id,
        paymentLinkId: link.id,
        amount: '10.00',
        currency: 'usd',
        chargeCount: 1,
        paymentIntentId: first.body.data.lastPaymentId,
      },
      {
        recurringGiftId: gift.id,
        paymentLinkId: link.id,
        amount: '10.00',
        currency: 'usd',
        chargeCount: 2,
        paymentIntentId: second.lastPaymentId,
      },
    ]);
    const [payment] = await server.runtime.dataSource.query(
      `SELECT status, amount, source, source_id, payment_method_id FROM payments WHERE id = $1`,
      [second.lastPaymentId],
    );
    expect(payment).toEqual({
      status: 'COMPLETED',
      amount: '1000',
      source: 'recurring_gift',
      source_id: gift.id,
      payment_method_id: gift.paymentMethodId,
    });
  });

  test('a gift started with a 3-D Secure card is charged off-session (the sandbox challenge completes)', async () => {
    const merchant = await server.signUp();
    const { gift } = await startGift(server, merchant, { card: CARDS.threeDSSuccess });
    const charged = (
      await api(server, merchant)('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`)
    ).body.data;
    expect(charged).toMatchObject({ chargeCount: 1, failureCount: 0 });
  });

  test('failures count consecutively, emit recurring_gift.charge.failed, and pause the gift at the retry limit', async () => {
    const merchant = await server.signUp();
    const { link, gift } = await startGift(server, merchant);
    const call = api(server, merchant);
    await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`);
    await makeSavedCardDecline(server, gift.paymentMethodId);
    const first = (await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`)).body.data;
    expect(first).toMatchObject({
      status: 'ACTIVE',
      chargeCount: 1,
      failureCount: 1,
      lastError: 'The card was declined',
    });
    const retryIn = Date.parse(first.nextChargeAt) - Date.now();
    expect(retryIn).toBeGreaterThan(86_400_000 - 60_000);
    expect(retryIn).toBeLessThan(86_400_000 + 60_000);
    const second = (await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`)).body.data;
    expect(second).toMatchObject({ status: 'ACTIVE', failureCount: 2 });
    const third = (await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`)).body.data;
    expect(third).toMatchObject({
      status: 'PAUSED',
      failureCount: 3,
      nextChargeAt: null,
      pausedAt: expect.any(String),
    });
    const events = await eventsOf(server, merchant.businessId, 'recurring_gift.charge.failed');
    expect(events.map((event) => event.data.failureCount)).toEqual([1, 2, 3]);
    expect(events[0].data).toMatchObject({ recurringGiftId: gift.id, paymentLinkId: link.id, error: 'card_declined' });
    const paused = await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`);
    expect(paused.status).toBe(409);
  });

  test('a success after failures resets the consecutive failure count', async () => {
    const merchant = await server.signUp();
    const { gift } = await startGift(server, merchant);
    const call = api(server, merchant);
    const [{ provider_ref: goodRef }] = await server.runtime.dataSource.query(
      `SELECT provider_ref FROM payment_methods WHERE id = $1`,
      [gift.paymentMethodId],
    );
    await makeSavedCardDecline(server, gift.paymentMethodId);
    await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`);
    await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`);
    await server.runtime.dataSource.query(`UPDATE payment_methods SET provider_ref = $2 WHERE id = $1`, [
      gift.paymentMethodId,
      goodRef,
    ]);
    const recovered = (await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`)).body.data;
    expect(recovered).toMatchObject({ status: 'ACTIVE', chargeCount: 1, failureCount: 0, lastError: null });
  });

  test('resume: a PAUSED gift becomes ACTIVE with failures reset, due one interval later; cancel is final', async () => {
    const merchant = await server.signUp();
    const { gift } = await startGift(server, merchant);
    const call = api(server, merchant);
    await makeSavedCardDecline(server, gift.paymentMethodId);
    for (let attempt = 0; attempt < 3; attempt++)
      await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`);
    const resumed = (await call('POST', `/api/v1/business/recurring-gifts/${gift.id}/resume`)).body.data;
    expect(resumed).toMatchObject({ status: 'ACTIVE', failureCount: 0, pausedAt: null });
    expect(Date.parse(resumed.nextChargeAt)).toBeGreaterThan(Date.now() + 27 * 24 * 3600 * 1000);
    const cancelled = (await call('POST', `/api/v1/business/recurring-gifts/${gift.id}/cancel`)).body.data;
    expect(cancelled).toMatchObject({ status: 'CANCELLED', nextChargeAt: null, cancelledAt: expect.any(String) });
    expect((await call('POST', `/api/v1/business/recurring-gifts/${gift.id}/cancel`)).body.data.cancelledAt).toBe(
      cancelled.cancelledAt,
    );
    expect((await call('POST', `/api/v1/business/recurring-gifts/${gift.id}/resume`)).status).toBe(409);
    expect((await call('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`)).status).toBe(409);
  });

  test('list, read, status filter and tenancy 404s; charge-now is sandbox-only', async () => {
    const merchant = await server.signUp();
    const other = await server.signUp();
    const { gift } = await startGift(server, merchant);
    const call = api(server, merchant);
    expect((await call('GET', `/api/v1/business/recurring-gifts/${gift.id}`)).body.data).toEqual(gift);
    expect((await call('GET', '/api/v1/business/recurring-gifts?status=PAUSED')).body.data.total).toBe(0);
    expect((await call('GET', '/api/v1/business/recurring-gifts?status=ACTIVE')).body.data.total).toBe(1);
    expect((await call('GET', '/api/v1/business/recurring-gifts?status=DONE')).status).toBe(400);
    expect((await call('GET', '/api/v1/business/recurring-gifts?status=active')).body.data.total).toBe(1);
    expect((await call('GET', '/api/v1/business/recurring-gifts?status=Paused')).body.data.total).toBe(0);
    for (const [method, path] of [
      ['GET', `/api/v1/business/recurring-gifts/${gift.id}`],
      ['POST', `/api/v1/business/recurring-gifts/${gift.id}/cancel`],
      ['POST', `/api/v1/business/recurring-gifts/${gift.id}/resume`],
      ['POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`],
    ]) {
      expect((await api(server, other)(method, path)).status).toBe(404);
    }
    const live = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const liveCall = api(server, live.body.data.createLiveCredentials.credentials.apiKey);
    const refused = await liveCall('POST', `/api/v1/business/sandbox/recurring-gifts/${gift.id}/charge-now`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('SANDBOX_ONLY');
  });
});

/** The schedule itself: graphile-worker jobs charge due gifts and retry failures after the configured delay. */
describe('recurring gift jobs', () => {
  let server: TestServer;
  let worker: Worker;

  beforeAll(async () => {
    server = await startTestServer({
      recurringGiftMaxFailures: 2,
      recurringGiftRetryDelaySeconds: 1,
      workerPollIntervalMs: 50,
    });
    worker = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
  });
  afterAll(async () => {
    await stopWorker(worker);
    await server.close();
  });

  const makeDue = (giftId: string) =>
    server.runtime.dataSource.transaction(async (manager) => {
      await manager.query(`UPDATE recurring_gifts SET next_charge_at = now() WHERE id = $1`, [giftId]);
      await manager.query(
        `SELECT graphile_worker.add_job('charge_recurring_gift', json_build_object('recurringGiftId', $1::text), job_key := $2)`,
        [giftId, `recurring-gift:${giftId}`],
      );
    });

  test('a due gift is charged by its job and the next charge is scheduled', async () => {
    const merchant = await server.signUp();
    const { gift } = await startGift(server, merchant);
    await makeDue(gift.id);
    const charged = await waitFor(
      async () => (await api(server, merchant)('GET', `/api/v1/business/recurring-gifts/${gift.id}`)).body.data,
      (data) => data.chargeCount === 1,
    );
    expect(charged.chargeCount).toBe(1);
    expect(Date.parse(charged.nextChargeAt)).toBeGreaterThan(Date.now() + 27 * 24 * 3600 * 1000);
    const [{ run_at: runAt }] = await server.runtime.dataSource.query(
      `SELECT run_at FROM graphile_worker.jobs WHERE key = $1`,
      [`recurring-gift:${gift.id}`],
    );
    expect(new Date(runAt).toISOString()).toBe(charged.nextChargeAt);
  });

  test('a failed charge is retried on schedule and the gift pauses after the configured limit', async () => {
    const merchant = await server.signUp();
    const { gift } = await startGift(server, merchant);
    await makeSavedCardDecline(server, gift.paymentMethodId);
    await makeDue(gift.id);
    const paused = await waitFor(
      async () => (await api(server, merchant)('GET', `/api/v1/business/recurring-gifts/${gift.id}`)).body.data,
      (data) => data.status === 'PAUSED',
    );
    expect(paused).toMatchObject({ status: 'PAUSED', failureCount: 2, chargeCount: 0 });
    const events = await eventsOf(server, merchant.businessId, 'recurring_gift.charge.failed');
    expect(events.map((event) => event.data.failureCount)).toEqual([1, 2]);
  });

  test('an outdated job (the gift was cancelled) charges nothing', async () => {
    const merchant = await server.signUp();
    const { gift } = await startGift(server, merchant);
    await api(server, merchant)('POST', `/api/v1/business/recurring-gifts/${gift.id}/cancel`);
    await makeDue(gift.id);
    await waitFor(
      async () =>
        (
          await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = $1`, [
            `recurring-gift:${gift.id}`,
          ])
        )[0].n,
      (n) => n === 0,
    );
    const [{ n }] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM payments WHERE source_id = $1`,
      [gift.id],
    );
    expect(n).toBe(0);
  });
});
