import crypto from 'node:crypto';
import { DataSource } from 'typeorm';
import { createDataSource } from '../src/db/data-source';
import { DomainEvent } from '../src/domain/events/event.entity';
import { EventService } from '../src/domain/events/event.service';
import { TesseraPubSub } from '../src/domain/events/pubsub';
import { RequestContext, inTransaction } from '../src/domain/shared/context';
import { AnySubscription, DomainEventBus, Subscription } from '../src/domain/shared/domain-events';
import { Mode } from '../src/domain/shared/modes';
import { createTestDatabase, dropTestDatabase } from './support/harness';

/** An event of this test only: a note written in the publisher's transaction. */
interface Noted {
  id: string;
}

declare module '../src/domain/shared/domain-events' {
  interface DomainEvents {
    'test.noted': Noted;
  }
}

describe('the domain event bus (src/domain/shared/domain-events.ts)', () => {
  let databaseUrl: string;
  let dataSource: DataSource;
  let ctx: RequestContext;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase({ migrated: true });
    dataSource = createDataSource({ url: databaseUrl, poolSize: 2 });
    await dataSource.initialize();
    await dataSource.query(`CREATE TABLE notes (id uuid PRIMARY KEY, written_by text NOT NULL)`);
    ctx = RequestContext.system(dataSource, 'domain-events-test', crypto.randomUUID(), Mode.TEST);
  });
  afterAll(async () => {
    await dataSource.destroy();
    await dropTestDatabase(databaseUrl);
  });

  const note = (tx: RequestContext, id: string, by: string) =>
    tx.em.query(`INSERT INTO notes (id, written_by) VALUES ($1, $2)`, [id, by]);
  const writers = async (id: string): Promise<string[]> =>
    (
      await dataSource.query<Array<{ written_by: string }>>(
        `SELECT written_by FROM notes WHERE id = $1 ORDER BY written_by`,
        [id],
      )
    ).map((row) => row.written_by);
  const writing = (name: string, heard: string[]): Subscription<'test.noted'> => ({
    event: 'test.noted',
    phase: 'in-transaction',
    name,
    handle: async (tx, { id }) => {
      heard.push(name);
      await note(tx, crypto.randomUUID(), `${name}:${id}`);
    },
  });

  test('in-transaction subscribers run in subscription order, inside the publisher’s transaction: their writes commit with its change', async () => {
    const bus = new DomainEventBus();
    const heard: string[] = [];
    for (const name of ['second-area', 'first-area', 'third-area']) bus.subscribe(writing(name, heard));
    const id = crypto.randomUUID();
    await inTransaction(ctx, async (tx) => {
      await note(tx, id, 'publisher');
      await bus.publish(tx, 'test.noted', { id });
      expect(heard).toEqual(['second-area', 'first-area', 'third-area']);
    });
    expect(await writers(id)).toEqual(['publisher']);
    const [{ count }] = await dataSource.query<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM notes WHERE written_by LIKE $1`,
      [`%:${id}`],
    );
    expect(count).toBe(3);
  });

  test('a throw from an in-transaction subscriber vetoes: the publisher’s change rolls back, later subscribers and after-commit ones never run', async () => {
    const bus = new DomainEventBus();
    const heard: string[] = [];
    bus.subscribe(writing('writes-first', heard));
    bus.subscribe({
      event: 'test.noted',
      phase: 'in-transaction',
      name: 'vetoes',
      handle: () => {
        throw new Error('refused');
      },
    });
    bus.subscribe(writing('never-reached', heard));
    bus.subscribe({
      event: 'test.noted',
      phase: 'after-commit',
      name: 'after',
      handle: () => void heard.push('after'),
    });
    const id = crypto.randomUUID();
    await expect(
      inTransaction(ctx, async (tx) => {
        await note(tx, id, 'publisher');
        await bus.publish(tx, 'test.noted', { id });
      }),
    ).rejects.toThrow('refused');
    expect(heard).toEqual(['writes-first']);
    expect(await writers(id)).toEqual([]);
  });

  test('after-commit subscribers run once the outermost transaction commits, outside it, and never when it rolls back', async () => {
    const bus = new DomainEventBus();
    const seen: Array<{ id: string; inTransaction: boolean; committed: string[] }> = [];
    bus.subscribe({
      event: 'test.noted',
      phase: 'after-commit',
      name: 'reads-committed',
      handle: async (after, { id }) => {
        seen.push({ id, inTransaction: after.inTransaction, committed: await writers(id) });
      },
    });
    const committed = crypto.randomUUID();
    await inTransaction(ctx, async (tx) => {
      await note(tx, committed, 'publisher');
      // A nested call joins the outer transaction: its after-commit work waits for the outer commit.
      await inTransaction(tx, (nested) => bus.publish(nested, 'test.noted', { id: committed }));
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual([{ id: committed, inTransaction: false, committed: ['publisher'] }]);

    const rolledBack = crypto.randomUUID();
    await expect(
      inTransaction(ctx, async (tx) => {
        await bus.publish(tx, 'test.noted', { id: rolledBack });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(seen.map(({ id }) => id)).toEqual([committed]);
  });

  test('an after-commit subscriber is refused for an event published outside a transaction (no commit will come)', async () => {
    const bus = new DomainEventBus();
    bus.subscribe({ event: 'test.noted', phase: 'after-commit', name: 'after', handle: () => undefined });
    await expect(bus.publish(ctx, 'test.noted', { id: crypto.randomUUID() })).rejects.toThrow(
      'test.noted has an after-commit subscriber and was published outside a transaction',
    );
  });

  test('two subscriptions with one name are refused', () => {
    const bus = new DomainEventBus();
    bus.subscribe(writing('wallets.judge', []));
    expect(() => bus.subscribe(writing('wallets.judge', []))).toThrow('Two subscriptions are named wallets.judge');
  });

  test('publishSync (for a statement written behind) refuses a subscriber that waits', async () => {
    const bus = new DomainEventBus();
    const heard: string[] = [];
    bus.subscribe({
      event: 'test.noted',
      phase: 'in-transaction',
      name: 'sync',
      handle: () => void heard.push('sync'),
    });
    bus.subscribe(writing('waits', heard));
    await inTransaction(ctx, async (tx) => {
      expect(() => bus.publishSync(tx, 'test.noted', { id: crypto.randomUUID() })).toThrow(
        'waits waits, but test.noted is published without waiting',
      );
    }).catch(() => undefined);
    expect(heard).toEqual(['sync', 'waits']);
  });

  test('subscriptions are typed by their event: the payload of another event, or an unknown event, does not compile', () => {
    const bus = new DomainEventBus();
    const subscriptions: AnySubscription[] = [
      // @ts-expect-error: 'test.noted' carries { id }, not a payout.
      { event: 'test.noted', phase: 'in-transaction', name: 'typed', handle: (_tx, { payout }) => void payout },
      // @ts-expect-error: no area declares this event.
      { event: 'test.unknown', phase: 'in-transaction', name: 'unknown', handle: () => undefined },
    ];
    expect(subscriptions).toHaveLength(2);
    // @ts-expect-error: the payload must be the event's.
    void bus.publish(ctx, 'test.noted', { note: 'no id' }).catch(() => undefined);
  });

  describe('event.recorded (EventService, the outbox)', () => {
    const pubSub = { publish: async () => undefined } as unknown as TesseraPubSub;
    const rowOf = async (id: string) =>
      (await dataSource.query<Array<{ type: string }>>(`SELECT type FROM events WHERE id = $1`, [id]))[0] ?? null;

    test('with no subscriber writing its row, the event is written alone, waited for or behind', async () => {
      const events = new EventService(pubSub, new DomainEventBus());
      const [waited, behind] = await inTransaction(ctx, async (tx) => {
        const recorded = await events.record(tx, 'test.waited', { n: 1 });
        events.recordBehind(tx, 'test.behind', { n: 2 });
        const [row] = await tx.em.query<Array<{ id: string }>>(`SELECT id FROM events WHERE type = 'test.behind'`);
        return [recorded, row.id];
      });
      expect(await rowOf(waited.id)).toEqual({ type: 'test.waited' });
      expect(await rowOf(behind)).toEqual({ type: 'test.behind' });
    });

    test('a subscriber that sends the row writes it, once: a second writer is refused', async () => {
      const bus = new DomainEventBus();
      const events = new EventService(pubSub, bus);
      const writer = (name: string): Subscription<'event.recorded'> => ({
        event: 'event.recorded',
        phase: 'in-transaction',
        name,
        handle: async (tx, recording) => {
          const written = recording.send();
          const [row] = await tx.em.query<Array<{ id: string; created_at: Date }>>(
            recording.insert.sql,
            recording.insert.params,
          );
          written(tx.repo(DomainEvent).create({ ...recording.insert.event, id: row.id, createdAt: row.created_at }));
        },
      });
      bus.subscribe(writer('writer'));
      const once = await inTransaction(ctx, (tx) => events.record(tx, 'test.once', {}));
      const [{ count }] = await dataSource.query<Array<{ count: number }>>(
        `SELECT count(*)::int AS count FROM events WHERE type = 'test.once'`,
      );
      expect([await rowOf(once.id), count]).toEqual([{ type: 'test.once' }, 1]);

      bus.subscribe(writer('second-writer'));
      await expect(inTransaction(ctx, (tx) => events.record(tx, 'test.twice', {}))).rejects.toThrow(
        'The test.twice event row has a writer already',
      );
    });
  });
});
