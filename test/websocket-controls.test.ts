import crypto from 'node:crypto';
import { TestMerchant, TestServer, collect, overSocket, startTestServer } from './support/harness';
import { CARDS, card, charge, chargingMerchant } from './support/payments';

/**
 * Security probe, finding 5: the WebSocket bypassed the HTTP controls. Over graphql-ws as over
 * HTTP: one rate-limit budget per credential, introspection off in production, depth and cost
 * limits, Idempotency-Key semantics (in `extensions.idempotencyKey`); and subscriptions fan out
 * without a database read per subscriber.
 */

const WALLETS = '{ wallets { id currency } }';

describe('finding 5: one rate-limit budget for HTTP and the socket', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimitMax: 4 });
  });
  afterAll(async () => server.close());

  test('operations over a socket spend the same per-credential budget as HTTP requests', async () => {
    const merchant = await server.signUp();
    const headers = { 'x-api-key': merchant.apiKey };
    const socket = server.socket({ apiKey: merchant.apiKey });
    await socket.connected; // 1: the connection
    expect((await server.request('GET', '/api/v1/business/wallets', { headers })).status).toBe(200); // 2
    expect((await overSocket(socket.client, WALLETS)).result?.errors).toBeUndefined(); // 3
    expect((await server.request('GET', '/api/v1/business/wallets', { headers })).status).toBe(200); // 4

    const overSocketLimit = await overSocket(socket.client, WALLETS);
    expect(overSocketLimit.result?.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/^Too many requests/),
      extensions: { code: 'RATE_LIMITED', statusCode: 429 },
    });
    expect((await server.request('GET', '/api/v1/business/wallets', { headers })).status).toBe(429);
  });
});

describe('finding 5: GraphQL controls and fan-out over the socket', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  beforeAll(async () => {
    server = await startTestServer({
      graphqlIntrospection: false,
      subscriptionRecheckMs: 3_600_000,
      paymentSettlementDelaySeconds: 3600,
    });
    merchant = await chargingMerchant(server);
  });
  afterAll(async () => server.close());

  test('introspection is refused over the socket when GRAPHQL_INTROSPECTION is off, as over HTTP', async () => {
    const overHttp = await server.graphql('{ __schema { queryType { name } } }', {}, { 'x-api-key': merchant.apiKey });
    expect(overHttp.body.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const socket = server.socket({ apiKey: merchant.apiKey });
    for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "Payment") { name } }']) {
      const outcome = await overSocket(socket.client, query);
      expect(outcome.result?.data).toBeUndefined();
      expect(outcome.result?.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/introspection/i),
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      });
    }
  });

  test('queries over the socket are held to the depth and cost limits, as over HTTP', async () => {
    const socket = server.socket({ apiKey: merchant.apiKey });
    const deep = `{ me { ${'memberships { user { '.repeat(5)}id${' } }'.repeat(5)} } }`;
    expect((await overSocket(socket.client, deep)).result?.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/exceeds maximum operation depth/),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    const entries =
      'entries(first: 100) { edges { node { id kind description transactionId createdAt amount { amount amountMinor currency } } } }';
    const costly = `{ ${['a', 'b', 'c', 'd', 'e'].map((alias) => `${alias}: wallets { ${entries} }`).join(' ')} }`;
    expect((await overSocket(socket.client, costly)).result?.errors?.[0]).toMatchObject({
      extensions: { code: 'QUERY_TOO_COSTLY', maxCost: 5000 },
    });
  });

  test('a mutation over the socket with extensions.idempotencyKey runs once: a repeat replays its result, other variables under the key are IDEMPOTENCY_KEY_REUSED', async () => {
    const funder = await server.signUp();
    const socket = server.socket({ apiKey: funder.apiKey });
    const fund =
      'mutation($amount: String!) { sandboxFundWallet(input: { currency: "USD", amount: $amount }) { wallet { balance { amount } } } }';
    const key = { idempotencyKey: 'fund-once-over-ws' };

    const first = await overSocket(socket.client, fund, { amount: '1.00' }, key);
    expect(first.result).toEqual({ data: { sandboxFundWallet: { wallet: { balance: { amount: '1.00' } } } } });
    const repeat = await overSocket(socket.client, fund, { amount: '1.00' }, key);
    expect(repeat.result).toEqual({
      data: { sandboxFundWallet: { wallet: { balance: { amount: '1.00' } } } },
      extensions: { idempotentReplayed: true },
    });
    const reused = await overSocket(socket.client, fund, { amount: '2.00' }, key);
    expect(reused.result?.errors?.[0].extensions).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', statusCode: 409 });

    const wallets = await server.request('GET', '/api/v1/business/wallets', {
      headers: { 'x-api-key': funder.apiKey },
    });
    expect(wallets.body.data.items.find((wallet: any) => wallet.currency === 'usd').balance).toBe('1.00');
  });

  test('one payment update costs the same SQL statements with 1 subscriber as with 25 (no read per subscriber)', async () => {
    const query = `subscription { paymentUpdated { payment { id status amountRefunded { amount } refunds { id amount { amount } } disputes { id } customer { id } } previousStatus changedFields } }`;
    const headers = { 'x-api-key': merchant.apiKey };

    /** Statements from a partial refund of a fresh payment until every subscriber has its message. */
    async function statementsOfOneUpdate(sockets: number, perSocket: number) {
      const payment = (
        await charge(server, merchant, {
          amount: 10,
          currency: 'usd',
          card: card(CARDS.success),
          email: `fan-out-${crypto.randomUUID()}@example.com`,
        })
      ).body.data;
      const clients = Array.from({ length: sockets }, () => server.subscribe({ apiKey: merchant.apiKey }));
      const subscriptions = clients.flatMap((client) =>
        Array.from({ length: perSocket }, () => collect(client, query, 1)),
      );
      await Promise.all(subscriptions.map((subscription) => subscription.ready));
      const spy = jest.spyOn(server.runtime.dataSource.logger, 'logQuery');
      try {
        const refunded = await server.request('POST', `/api/v1/business/payments/${payment.id}/refunds`, {
          headers,
          body: { amount: 1 },
        });
        expect(refunded.status).toBe(201);
        const received = await Promise.all(subscriptions.map((subscription) => subscription.done));
        expect(received.flat().map((message) => message.paymentUpdated)).toEqual(
          Array(sockets * perSocket).fill({
            payment: expect.objectContaining({
              id: payment.id,
              amountRefunded: { amount: '1.00' },
              refunds: [expect.objectContaining({ amount: { amount: '1.00' } })],
              disputes: [],
            }),
            previousStatus: 'COMPLETED',
            changedFields: ['amountRefunded', 'refunds'],
          }),
        );
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
        await Promise.all(clients.map(async (client) => client.dispose()));
      }
    }

    await statementsOfOneUpdate(1, 1); // warm-up: the first refund of the business
    const one = await statementsOfOneUpdate(1, 1);
    const twentyFive = await statementsOfOneUpdate(5, 5);
    expect(twentyFive).toBe(one);
  });
});
