import { createDataSource } from '../src/db/data-source';
import { EventTopic } from '../src/domain/events/events.topics';
import { Mode } from '../src/domain/shared/modes';
import { AccountKind } from '../src/domain/ledger/ledger.entities';
import { LedgerService } from '../src/domain/ledger/ledger.service';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { TestServer, startTestServer, waitUntil } from './support/harness';

/**
 * Statements written behind (RequestContext.writeBehind, src/db/pipelining-client.ts): sent without
 * waiting for their answer, yet in the transaction, in order, and failing it when they fail.
 */
describe('statements written behind', () => {
  let server: TestServer;
  let businessId: string;
  let ctx: RequestContext;
  const published: Array<{ type: string; businessId: string }> = [];

  beforeAll(async () => {
    server = await startTestServer();
    businessId = (await server.signUp()).businessId;
    ctx = new RequestContext(server.runtime.dataSource, { kind: 'system', name: 'test' }, businessId, Mode.TEST);
    const subscription = server.runtime.core.pubSub.subscribe(EventTopic.EVENT);
    void (async () => {
      for await (const event of subscription) published.push(event);
    })();
  });
  afterAll(async () => server.close());

  const eventTypes = async (): Promise<string[]> =>
    (
      await server.runtime.dataSource.query(
        `SELECT type FROM events WHERE business_id = $1 ORDER BY created_at, type`,
        [businessId],
      )
    ).map((row: { type: string }) => row.type);

  test("an event recorded behind is seen by the transaction's next statement and commits with it", async () => {
    const seen = await inTransaction(ctx, async (tx) => {
      server.runtime.core.events.recordBehind(tx, 'test.behind_seen', { n: 1 });
      const [row]: Array<{ count: string }> = await tx.em.query(
        `SELECT count(*)::text AS count FROM events WHERE business_id = $1 AND type = 'test.behind_seen'`,
        [businessId],
      );
      return row.count;
    });
    expect(seen).toBe('1');
    expect(await eventTypes()).toContain('test.behind_seen');
  });

  test('an event recorded behind as the last write commits, and is published after the commit like a recorded one', async () => {
    await inTransaction(ctx, async (tx) => {
      server.runtime.core.events.recordBehind(tx, 'test.behind_last', { n: 2 });
    });
    expect(await eventTypes()).toContain('test.behind_last');
    await waitUntil(() => published.some((event) => event.type === 'test.behind_last'), 'the publication');
    expect(published.filter((event) => event.businessId === businessId).map((event) => event.type)).toContain(
      'test.behind_last',
    );
  });

  test('a statement written behind that fails fails its transaction, and nothing of the transaction commits', async () => {
    await expect(
      inTransaction(ctx, async (tx) => {
        await server.runtime.core.events.record(tx, 'test.before_failure', { n: 3 });
        tx.writeBehind(`INSERT INTO events (business_id, livemode, type, data) VALUES ($1, false, NULL, '{}')`, [
          businessId,
        ]);
        server.runtime.core.events.recordBehind(tx, 'test.after_failure', { n: 4 });
      }),
    ).rejects.toThrow(/null value in column "type"/);
    const types = await eventTypes();
    expect(types).not.toContain('test.before_failure');
    expect(types).not.toContain('test.after_failure');
  });

  test('the failure of a statement written behind is what the next statement of the transaction answers', async () => {
    await expect(
      inTransaction(ctx, async (tx) => {
        tx.writeBehind(`SELECT 1 / 0`, []);
        await tx.em.query(`SELECT 1`);
      }),
    ).rejects.toThrow(/division by zero/);
  });

  test('a posting written behind commits its journal transaction and balanced entries with the transaction', async () => {
    const { ledger } = server.runtime.core;
    const pending = await inTransaction(ctx, (tx) =>
      ledger.account(tx, { kind: AccountKind.MERCHANT_PENDING, currency: 'USD', businessId }),
    );
    const clearing = await inTransaction(ctx, (tx) =>
      ledger.account(tx, { kind: AccountKind.PROVIDER_CLEARING, currency: 'USD' }),
    );
    await inTransaction(ctx, async (tx) => {
      ledger.moveBehind(tx, {
        kind: 'test_behind',
        lines: [
          { account: pending, amount: 150n },
          { account: clearing, amount: -150n },
        ],
      });
    });
    const entries: Array<{ amount: string }> = await server.runtime.dataSource.query(
      `SELECT e.amount::text AS amount FROM journal_entries e JOIN journal_transactions t ON t.id = e.transaction_id
        WHERE t.business_id = $1 AND t.kind = 'test_behind' ORDER BY e.amount`,
      [businessId],
    );
    expect(entries).toEqual([{ amount: '-150' }, { amount: '150' }]);
    expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
  });

  test('a posting to an account with a cached balance (a wallet) cannot be written behind: its overdraft check needs the answer first', async () => {
    const { ledger } = server.runtime.core;
    const wallet = await inTransaction(ctx, (tx) =>
      ledger.account(tx, { kind: AccountKind.MERCHANT_WALLET, currency: 'USD', businessId }),
    );
    const clearing = await inTransaction(ctx, (tx) =>
      ledger.account(tx, { kind: AccountKind.PROVIDER_CLEARING, currency: 'USD' }),
    );
    await expect(
      inTransaction(ctx, async (tx) => {
        ledger.moveBehind(tx, {
          kind: 'test_refused',
          lines: [
            { account: wallet, amount: -100n },
            { account: clearing, amount: 100n },
          ],
        });
      }),
    ).rejects.toThrow(/cached balance/);
    expect(
      await server.runtime.dataSource.query(`SELECT 1 FROM journal_transactions WHERE kind = 'test_refused'`),
    ).toEqual([]);
  });

  test('an unbalanced posting is refused before anything is written behind', async () => {
    const { ledger } = server.runtime.core;
    const pending = await inTransaction(ctx, (tx) =>
      ledger.account(tx, { kind: AccountKind.MERCHANT_PENDING, currency: 'USD', businessId }),
    );
    const clearing = await inTransaction(ctx, (tx) =>
      ledger.account(tx, { kind: AccountKind.PROVIDER_CLEARING, currency: 'USD' }),
    );
    await expect(
      inTransaction(ctx, async (tx) => {
        ledger.moveBehind(tx, {
          kind: 'test_unbalanced',
          lines: [
            { account: pending, amount: 100n },
            { account: clearing, amount: -99n },
          ],
        });
      }),
    ).rejects.toThrow(/Unbalanced/);
    expect(
      await server.runtime.dataSource.query(`SELECT 1 FROM journal_transactions WHERE kind = 'test_unbalanced'`),
    ).toEqual([]);
  });

  test('after a statement written behind fails and its transaction rolls back, the pooled connection serves the next transaction and autocommit queries normally', async () => {
    // One connection in the pool: every transaction below runs on the same one.
    const single = createDataSource({ url: server.databaseUrl, poolSize: 1 });
    await single.initialize();
    try {
      const one = new RequestContext(single, { kind: 'system', name: 'test' }, businessId, Mode.TEST);
      const pid = async (tx: RequestContext) =>
        (await tx.em.query<Array<{ pid: number }>>(`SELECT pg_backend_pid() AS pid`))[0].pid;
      let firstPid = 0;
      // The failure answered by the COMMIT (the behind statement is the transaction's last).
      await expect(
        inTransaction(one, async (tx) => {
          firstPid = await pid(tx);
          tx.writeBehind(`SELECT 1 / 0`, []);
        }),
      ).rejects.toThrow(/division by zero/);
      // The failure answered by the next statement, then the rollback.
      await expect(
        inTransaction(one, async (tx) => {
          expect(await pid(tx)).toBe(firstPid);
          tx.writeBehind(`SELECT 1 / 0`, []);
          await tx.em.query(`SELECT 1`);
        }),
      ).rejects.toThrow(/division by zero/);
      // The same connection: a fresh transaction, its own answers in order, a commit that holds.
      const answers = await inTransaction(one, async (tx) => {
        expect(await pid(tx)).toBe(firstPid);
        server.runtime.core.events.recordBehind(tx, 'test.after_reuse', { n: 5 });
        const [a, b] = await Promise.all([tx.em.query(`SELECT 'a' AS v`), tx.em.query(`SELECT 'b' AS v`)]);
        return [a[0].v, b[0].v];
      });
      expect(answers).toEqual(['a', 'b']);
      expect(await eventTypes()).toContain('test.after_reuse');
      // And outside a transaction: no transaction is left open on it, an autocommit query answers.
      const [state] = await single.query(`SELECT pg_backend_pid() AS pid, now() = statement_timestamp() AS autocommit`);
      expect(state).toEqual({ pid: firstPid, autocommit: true });
    } finally {
      await single.destroy();
    }
  });

  test('a statement written behind whose values cannot be sent is refused where it is written, and its transaction commits nothing', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(
      inTransaction(ctx, async (tx) => {
        await server.runtime.core.events.record(tx, 'test.before_unsendable', { n: 6 });
        // The driver fails such a value before anything is sent: the server never sees the statement,
        // so only the client can stop the COMMIT that follows from committing without it.
        tx.writeBehind(
          `INSERT INTO events (business_id, livemode, type, data) VALUES ($1, false, 'test.unsendable', $2)`,
          [businessId, circular],
        );
      }),
    ).rejects.toThrow(/circular/i);
    const types = await eventTypes();
    expect(types).not.toContain('test.before_unsendable');
    expect(types).not.toContain('test.unsendable');
  });

  test('writing behind outside a transaction is refused', () => {
    expect(() => ctx.writeBehind('SELECT 1', [])).toThrow(/transaction/);
  });
});
