import { TestServer, startDeliveringServer, waitFor } from './support/harness';
import { apiKey } from './support/payouts';
import { DAY, advanceClock, readClock } from './support/schedules';
import { Receiver } from './support/receiver';
import { paymentBody, v1, v1Merchant } from './support/v1';

/**
 * Issue 27, finding 8: every time a test clock governs is stamped with that clock, and the clock
 * drives every expiry a merchant tests against (docs/sandbox.md, Test clock): collections,
 * checkout sessions (API, payment links, invoices) and `/v1` payments (`payment.expired`).
 */
describe('The test clock stamps and expires what it governs', () => {
  let server: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    server = await startDeliveringServer();
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  /** The business's clock read before and after `make`: what `make` stamped on that clock lies between the two. */
  const onTheClock = async <T>(
    merchant: Parameters<typeof readClock>[1],
    make: () => Promise<T>,
    stampOf: (made: T) => string,
  ): Promise<T> => {
    const before = Date.parse((await readClock(server, merchant)).now);
    const made = await make();
    const after = Date.parse((await readClock(server, merchant)).now);
    const stamp = Date.parse(stampOf(made));
    expect({ before: stamp >= before, after: stamp <= after }).toEqual({ before: true, after: true });
    return made;
  };

  test('a collection made after the clock moved has createdAt on the test clock, like its expiresAt', async () => {
    const merchant = await server.signUp();
    await advanceClock(server, merchant, 10 * DAY);
    const created = await onTheClock(
      merchant,
      () =>
        server.request('POST', '/api/v1/business/collections', {
          headers: apiKey(merchant),
          body: {
            amount: 5_000_000,
            currency: 'ngn',
            country: 'NG',
            rail: 'bank',
            customer: { email: 'ada@example.com' },
          },
        }),
      (answer) => answer.body.data.createdAt,
    );
    expect(created.status).toBe(201);
    expect(Date.parse(created.body.data.createdAt)).toBeGreaterThan(Date.now() + 9 * DAY * 1000);
    expect(Date.parse(created.body.data.expiresAt)).toBeGreaterThan(Date.parse(created.body.data.createdAt));
  });

  test('a checkout session is stamped on the test clock and expires when the clock passes its expiresAt', async () => {
    const merchant = await server.signUp();
    await advanceClock(server, merchant, 2 * DAY);
    const created = await onTheClock(
      merchant,
      () =>
        server.request('POST', '/api/v1/business/checkout/session', {
          headers: apiKey(merchant),
          body: { amount: 10, currency: 'usd', successUrl: 'https://shop.example.com/thanks' },
        }),
      (answer) => answer.body.data.createdAt,
    );
    expect(created.status).toBe(201);
    expect(Date.parse(created.body.data.expiresAt) - Date.parse(created.body.data.createdAt)).toBe(24 * 3600 * 1000);

    await advanceClock(server, merchant, DAY - 3600);
    expect(
      (
        await server.request('GET', `/api/v1/business/checkout/sessions/${created.body.data.id}`, {
          headers: apiKey(merchant),
        })
      ).body.data.status,
    ).toBe('OPEN');
    await advanceClock(server, merchant, 2 * 3600);
    expect(
      (
        await server.request('GET', `/api/v1/business/checkout/sessions/${created.body.data.id}`, {
          headers: apiKey(merchant),
        })
      ).body.data.status,
    ).toBe('EXPIRED');
  });

  test('a /v1 payment expires by the test clock: status expired and a signed payment.expired to its webhook_url', async () => {
    const merchant = await v1Merchant(server);
    const created = await v1(server, merchant.testKey)(
      'POST',
      '/v1/payments',
      paymentBody({ webhook_url: receiver.url('/v1-expiry') }),
    );
    expect(created.status).toBe(201);
    await advanceClock(server, merchant, DAY + 60);
    const read = await v1(server, merchant.testKey)('GET', `/v1/payments/${created.body.id}`);
    expect(read.body.status).toBe('expired');
    const [delivery] = await waitFor(
      async () => receiver.at('/v1-expiry'),
      (found) => found.length > 0,
    );
    expect(JSON.parse(delivery.body)).toMatchObject({
      event: 'payment.expired',
      data: { id: created.body.id, status: 'expired' },
    });
  });
});
