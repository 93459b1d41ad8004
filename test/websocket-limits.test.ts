import WebSocket from 'ws';
import { CloseInfo, PATIENCE_MS, TestServer, collect, startTestServer, waitFor, within } from './support/harness';

/**
 * Security probe, finding 4: unauthenticated memory exhaustion over WebSocket. Frames are capped
 * at BODY_LIMIT_BYTES (close 1009), connections per IP before authentication, and sockets and
 * subscriptions per credential after it (close 4429, or the subscription refused).
 */

const DEADLINE_MS = PATIENCE_MS;
const BALANCES = 'subscription { walletBalanceUpdated { walletId } }';

/** A bare graphql-ws socket, before any authentication. */
function rawSocket(url: string) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const opened = new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const closed = new Promise<CloseInfo>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const acknowledged = new Promise<boolean>((resolve) => {
    socket.on('message', (data) => {
      if (JSON.parse((data as Buffer).toString('utf8')).type === 'connection_ack') resolve(true);
    });
    socket.once('close', () => resolve(false));
  });
  opened.catch(() => undefined);
  return { socket, opened, closed, acknowledged };
}

describe('finding 4: frame size and connections per IP, before authentication', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ bodyLimitBytes: 16_384, wsMaxConnectionsPerIp: 3 });
  });
  afterAll(async () => server.close());

  test('a frame larger than BODY_LIMIT_BYTES closes the socket with 1009 before any authentication', async () => {
    const { socket, opened, closed } = rawSocket(server.wsUrl);
    await opened;
    socket.send(JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(20_000) } }));
    expect(await within(closed, DEADLINE_MS, 'close')).toMatchObject({ code: 1009 });
  });

  test('a frame within BODY_LIMIT_BYTES is read as usual', async () => {
    const merchant = await server.signUp();
    const { socket, opened, acknowledged } = rawSocket(server.wsUrl);
    await opened;
    socket.send(
      JSON.stringify({ type: 'connection_init', payload: { apiKey: merchant.apiKey, padding: 'x'.repeat(10_000) } }),
    );
    expect(await within(acknowledged, DEADLINE_MS, 'ack')).toBe(true);
    socket.close();
  });

  test('connections from one IP beyond WS_MAX_CONNECTIONS_PER_IP are closed with 4429 before authentication', async () => {
    const merchant = await server.signUp();
    const open = [rawSocket(server.wsUrl), rawSocket(server.wsUrl), rawSocket(server.wsUrl)];
    await Promise.all(open.map(({ opened }) => opened));
    const oneTooMany = rawSocket(server.wsUrl);
    expect(await within(oneTooMany.closed, DEADLINE_MS, 'close')).toEqual({
      code: 4429,
      reason: expect.stringMatching(/too many/i),
    });

    // A closed connection gives its place back.
    open[0].socket.close();
    await open[0].closed;
    const accepted = await waitFor(
      async () => {
        const next = rawSocket(server.wsUrl);
        next.socket.once('open', () =>
          next.socket.send(JSON.stringify({ type: 'connection_init', payload: { apiKey: merchant.apiKey } })),
        );
        const ok = await next.acknowledged;
        if (!ok) await next.closed;
        return { next, ok };
      },
      ({ ok }) => ok,
      DEADLINE_MS,
      20,
    );
    expect(accepted.ok).toBe(true);
    for (const { socket } of [...open, accepted.next]) socket.close();
  });
});

describe('finding 4: sockets and subscriptions per credential', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ wsMaxSocketsPerCredential: 2, wsMaxSubscriptionsPerCredential: 3 });
  });
  afterAll(async () => server.close());

  test('sockets of one credential beyond WS_MAX_SOCKETS_PER_CREDENTIAL are closed with 4429', async () => {
    const [merchant, other] = [await server.signUp(), await server.signUp()];
    const first = server.socket({ apiKey: merchant.apiKey });
    const second = server.socket({ apiKey: merchant.apiKey });
    await Promise.all([first.connected, second.connected]);
    const third = server.socket({ apiKey: merchant.apiKey });
    expect(await within(third.closed, DEADLINE_MS, 'close')).toEqual({
      code: 4429,
      reason: expect.stringMatching(/too many/i),
    });
    // Another credential is not affected.
    await within(server.socket({ apiKey: other.apiKey }).connected, DEADLINE_MS, 'other credential connects');
  });

  /**
   * Starts a subscription and resolves with the server's refusal, or once the server's pub/sub
   * registered it (collect() counts on every subscription it starts being registered, so a refused
   * one would throw its count off).
   */
  function attempt(client: ReturnType<TestServer['subscribe']>) {
    const listeners = server.runtime.core.pubSub.listeners;
    const before = listeners.readyCount();
    return new Promise<{ refused?: any[]; stop?: () => void }>((resolve) => {
      let settled = false;
      const stop = client.subscribe(
        { query: BALANCES },
        {
          next: () => undefined,
          complete: () => undefined,
          error: (errors) => {
            settled = true;
            resolve({ refused: errors as any[] });
          },
        },
      );
      void waitFor(
        async () => listeners.readyCount(),
        (count) => settled || count > before,
        DEADLINE_MS,
        5,
      ).then(() => {
        if (!settled) resolve({ stop });
      });
    });
  }

  test('subscriptions of one credential beyond WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL are refused with TOO_MANY_SUBSCRIPTIONS; the others keep delivering', async () => {
    const merchant = await server.signUp();
    const [one, two] = [server.subscribe({ apiKey: merchant.apiKey }), server.subscribe({ apiKey: merchant.apiKey })];
    const open = [collect(one, BALANCES, 1), collect(one, BALANCES, 1), collect(two, BALANCES, 1)];
    await Promise.all(open.map((subscription) => subscription.ready));

    const refused = await attempt(two);
    expect(refused.refused).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/3 subscriptions/),
        extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', maxSubscriptions: 3 },
      }),
    ]);

    const funded = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { currency: 'USD', amount: '1.00' },
    });
    expect(funded.status).toBe(201);
    for (const subscription of open) expect(await subscription.done).toHaveLength(1);

    // Those three completed after their message: once the server has seen that, the credential may subscribe again.
    const again = await waitFor(
      () => attempt(two),
      (outcome) => !outcome.refused,
      DEADLINE_MS,
    );
    expect(again.refused).toBeUndefined();
    again.stop?.();
  });
});
