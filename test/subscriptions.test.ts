import crypto from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { Core } from '../src/domain/core';
import { createTesseraPubSub } from '../src/domain/events/pubsub';
import { LedgerTopic } from '../src/domain/ledger/ledger.topics';
import { Mode } from '../src/domain/shared/modes';
import { AccountKind } from '../src/domain/ledger/ledger.entities';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { LedgerErrorCode } from '../src/domain/ledger/ledger.errors';
import {
  PATIENCE_MS,
  TestMerchant,
  TestServer,
  collect,
  sleep,
  startTestServer,
  waitUntil,
  within,
} from './support/harness';

/**
 * Live wallet balances over graphql-ws (design section 6): authenticated in `connectionParams`,
 * published after commit, and only ever delivered to the subscriber's own business and mode.
 */

const BALANCE_UPDATES = `subscription { walletBalanceUpdated { walletId balance { amount currency } change { amount } mode } }`;
const FUND = '/api/v1/business/sandbox/wallets/fund';

describe('Subscriptions: walletBalanceUpdated', () => {
  let server: TestServer;
  let core: Core;
  let a: TestMerchant;
  let b: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer();
    core = server.runtime.core;
    [a, b] = [await server.signUp(), await server.signUp()];
  });
  afterAll(async () => server.close());

  const asDashboard = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
  const asApiKey = (merchant: TestMerchant) => ({ apiKey: merchant.apiKey });

  /**
   * Subscribes and gathers the first `count` messages. Messages reach a subscriber in the order
   * they were published, so a test proves that something was NOT delivered by publishing, after
   * it, a message the subscriber must see: the first `count` messages then show any leak.
   */
  function listen(connectionParams: Record<string, unknown>, count: number) {
    return collect(server.subscribe(connectionParams), BALANCE_UPDATES, count);
  }

  async function fund(merchant: TestMerchant, amount: string, currency = 'USD') {
    const response = await server.request('POST', FUND, {
      body: { currency, amount },
      headers: { 'x-api-key': merchant.apiKey },
    });
    expect(response.status).toBe(201);
    return response.body.data.wallet as { id: string; balance: string; balanceMinor: string };
  }

  const update = (wallet: { id: string; balance: string }, change: string) => ({
    walletBalanceUpdated: {
      walletId: wallet.id,
      balance: { amount: wallet.balance, currency: 'USD' },
      change: { amount: change },
      mode: 'TEST',
    },
  });

  test("each business sees its own wallet's updates and nothing of another business", async () => {
    const dashboardOfA = listen(asDashboard(a), 2);
    const apiClientOfB = listen(asApiKey(b), 1);
    await Promise.all([dashboardOfA.ready, apiClientOfB.ready]);

    const first = await fund(a, '12.34');
    const ofB = await fund(b, '0.05');
    const second = await fund(a, '0.01');
    expect(await dashboardOfA.done).toEqual([update(first, '12.34'), update(second, '0.01')]);
    expect(await apiClientOfB.done).toEqual([update(ofB, '0.05')]);
  });

  test('a subscriber with live credentials never sees test-mode funding of the same business', async () => {
    const issued = await server.graphql(
      `mutation { createLiveCredentials { credentials { apiKey } } }`,
      {},
      asDashboard(a),
    );
    expect(issued.body.errors).toBeUndefined();
    const liveKey: string = issued.body.data!.createLiveCredentials.credentials.apiKey;
    expect(liveKey).toMatch(/^bk_live_/);

    const live = listen({ apiKey: liveKey }, 1);
    const liveDashboard = listen({ ...asDashboard(a), mode: 'live' }, 1);
    const testMode = listen(asApiKey(a), 1);
    await Promise.all([live.ready, liveDashboard.ready, testMode.ready]);

    await fund(a, '1.00');
    expect(await testMode.done).toHaveLength(1);
    // Live mode cannot be funded in the sandbox: a live-mode change published last ends the live
    // subscribers' silence; messages arrive in order, so a leaked test-mode one would come first.
    const marker = crypto.randomUUID();
    core.pubSub.publish(LedgerTopic.WALLET_BALANCE, {
      businessId: a.businessId,
      livemode: true,
      walletId: marker,
      currency: 'USD',
      balanceMinor: '0',
      changeMinor: '0',
      journalTransactionId: marker,
      occurredAt: new Date().toISOString(),
    });
    const onlyTheMarker = [{ walletBalanceUpdated: expect.objectContaining({ walletId: marker, mode: 'LIVE' }) }];
    expect(await live.done).toEqual(onlyTheMarker);
    expect(await liveDashboard.done).toEqual(onlyTheMarker);
  });

  test.each([
    ['no credentials', {}],
    ['an unknown API key', { apiKey: 'bk_test_not_a_real_key' }],
    ['a malformed API key', { apiKey: 'nonsense' }],
    ['an invalid JWT', { authorization: 'Bearer not.a.jwt' }],
    ['a business the user does not belong to', { businessIdOf: 'b' }],
  ])('a connection with %s is refused', async (_case, params) => {
    const connectionParams = 'businessIdOf' in params ? { ...asDashboard(a), businessId: b.businessId } : params;
    // Lazy, so the refusal reaches the subscription rather than the client's connection-error log.
    const client = createClient({
      url: server.wsUrl,
      webSocketImpl: WebSocket,
      connectionParams,
      retryAttempts: 0,
      lazy: true,
    });
    try {
      const { done } = collect(client, BALANCE_UPDATES, 1);
      await expect(done).rejects.toMatchObject({ code: 4403, reason: 'Forbidden' });
    } finally {
      await client.dispose();
    }
  });

  test('a sandbox funding that fails validation announces nothing', async () => {
    const subscriber = listen(asApiKey(a), 1);
    await subscriber.ready;
    const response = await server.request('POST', FUND, {
      body: { currency: 'USD', amount: '1.234' },
      headers: { 'x-api-key': a.apiKey },
    });
    expect(response.status).toBe(400);
    const valid = await fund(a, '0.02');
    expect(await subscriber.done).toEqual([update(valid, '0.02')]);
  });

  test('nothing is announced for a posting whose transaction rolled back', async () => {
    const ctx = RequestContext.system(server.runtime.dataSource, 'test', a.businessId, Mode.TEST);
    const walletBefore = (await core.wallets.wallets(ctx)).find((wallet) => wallet.currency === 'USD')!;
    const subscriber = listen(asApiKey(a), 1);
    await subscriber.ready;

    // A credit is posted and announced, then a debit in the same transaction is refused: both roll back.
    await expect(
      inTransaction(ctx, async (tx) => {
        const wallet = await core.wallets.provisionWallet(tx, 'USD');
        const source = await core.ledger.account(tx, { kind: AccountKind.SANDBOX_FUNDING, currency: 'USD' });
        const credit = await core.ledger.post(tx, {
          kind: 'test_credit',
          lines: [
            { account: wallet, amount: 500n },
            { account: source, amount: -500n },
          ],
        });
        core.wallets.announceBalance(tx, wallet, credit.balances.get(wallet.id)!, 500n, credit.transaction);
        const sink = await core.ledger.account(tx, { kind: AccountKind.PAYOUT_IN_FLIGHT, currency: 'USD' });
        await core.ledger.post(tx, {
          kind: 'test_debit',
          lines: [
            { account: wallet, amount: -(walletBefore.balance + 1_000n) },
            { account: sink, amount: walletBefore.balance + 1_000n },
          ],
        });
      }),
    ).rejects.toMatchObject({ code: LedgerErrorCode.INSUFFICIENT_FUNDS });

    // What does commit is announced, with the balance the rolled-back credit never touched.
    const funded = await fund(a, '0.01');
    const received = await subscriber.done;
    expect(received).toEqual([
      { walletBalanceUpdated: expect.objectContaining({ walletId: funded.id, change: { amount: '0.01' } }) },
    ]);
    expect(BigInt(funded.balanceMinor)).toBe(walletBefore.balance + 1n);
  });

  test('concurrent fundings are each announced once, with the balance their own posting left', async () => {
    const merchant = await server.signUp();
    const subscriber = listen(asApiKey(merchant), 10);
    await subscriber.ready;
    await Promise.all(Array.from({ length: 10 }, () => fund(merchant, '1.00')));
    const received = await subscriber.done;
    expect(received).toHaveLength(10);
    const balances = received
      .map((message) => message.walletBalanceUpdated.balance.amount)
      .sort((x, y) => x.localeCompare(y, 'en', { numeric: true }));
    expect(balances).toEqual(Array.from({ length: 10 }, (_, index) => `${index + 1}.00`));
  });

  test('while Redis is unreachable, publishing after a commit drops the message and reports it, never an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const reported: unknown[] = [];
    const { pubSub, close } = createTesseraPubSub('redis://127.0.0.1:1', (error) => reported.push(error));
    try {
      expect(() =>
        pubSub.publish(LedgerTopic.WALLET_BALANCE, {
          businessId: a.businessId,
          livemode: false,
          walletId: a.businessId,
          currency: 'USD',
          balanceMinor: '1',
          changeMinor: '1',
          journalTransactionId: a.businessId,
          occurredAt: new Date().toISOString(),
        }),
      ).not.toThrow();
      await waitUntil(
        () => reported.some((error) => /max retries/i.test(String(error))),
        'the failure reported',
        undefined,
        50,
      );
      await sleep(50);
      expect(reported.some((error) => /max retries/i.test(String(error)))).toBe(true);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await close();
      // ioredis destroys the socket of a failed connection on a 2 s timer after disconnect; let it, so the run exits cleanly.
      await new Promise((resolve) => setTimeout(resolve, 2100));
    }
  });
});

describe('Subscriptions: credentials are re-checked while the socket is open', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ subscriptionRecheckMs: 150, graphqlMaxCost: 200 });
  });
  afterAll(async () => server.close());

  // Revocations close sockets at once (test/websocket-access.test.ts). These changes are made in
  // the database, so no revocation is published: only the periodic re-check can notice them, as it
  // must when a revocation message is lost (every 150 ms here; the deadline is generous, for a busy machine).
  const RECHECKED_MS = PATIENCE_MS;

  test('the re-check closes a socket whose API key changed without a revocation message (4403)', async () => {
    const merchant = await server.signUp();
    const socket = server.socket({ apiKey: merchant.apiKey });
    await collect(socket.client, BALANCE_UPDATES, 1).ready;
    await server.runtime.dataSource.query(
      `UPDATE api_credentials SET key_hash = $2, key_version = key_version + 1 WHERE business_id = $1 AND livemode = false`,
      [merchant.businessId, `elsewhere-${merchant.businessId}`],
    );
    expect(await within(socket.closed, RECHECKED_MS, 'close')).toEqual({
      code: 4403,
      reason: 'Forbidden: credential no longer valid',
    });
  });

  test.each([
    ['removed', 'DELETE FROM memberships WHERE id = $1'],
    ['re-roled', `UPDATE memberships SET role = 'DEVELOPER' WHERE id = $1`],
  ])(
    'the re-check closes the dashboard socket of a member %s without a revocation message (4403)',
    async (_case, change) => {
      const owner = await server.signUp();
      const member = await server.signUp();
      const membershipId = await server.addTeamMember(owner, member, 'VIEWER');
      const socket = server.socket({ authorization: `Bearer ${member.token}`, businessId: owner.businessId });
      await collect(socket.client, BALANCE_UPDATES, 1).ready;
      await server.runtime.dataSource.query(change, [membershipId]);
      expect(await within(socket.closed, RECHECKED_MS, 'close')).toMatchObject({ code: 4403 });
    },
  );

  test('a subscription whose estimated cost exceeds the limit is refused with QUERY_TOO_COSTLY', async () => {
    const merchant = await server.signUp();
    const client = server.subscribe({ apiKey: merchant.apiKey });
    const costly = `subscription { walletBalanceUpdated { ${Array.from({ length: 250 }, (_, i) => `f${i}: walletId`).join(' ')} } }`;
    const refusal = await collect(client, costly, 1).done.then(
      () => null,
      (errors: unknown) => errors,
    );
    expect(refusal).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/^Query cost \d+ exceeds the maximum of 200$/) }),
    ]);
  });
});
