import { MAX_PREPARED_PER_CONNECTION, PREPARE_AFTER_USES, PipeliningClient } from '../src/db/pipelining-client';
import { TestServer, startTestServer } from './support/harness';

/**
 * Statements prepared per connection (src/db/pipelining-client.ts): a data statement with
 * parameters sent PREPARE_AFTER_USES times is prepared and sent by name, with the same results;
 * the least recently used beyond the cap are deallocated; a failed transaction or a table changed
 * under a prepared statement leaves the connection working.
 */
describe('statements prepared per connection', () => {
  let server: TestServer;
  let client: PipeliningClient;

  beforeAll(async () => {
    server = await startTestServer();
  });
  beforeEach(async () => {
    client = new PipeliningClient(server.runtime.databaseUrl);
    await client.connect();
  });
  afterEach(async () => client.end());
  afterAll(async () => server.close());

  const preparedHere = async (): Promise<string[]> =>
    (
      (await client.query('SELECT statement FROM pg_prepared_statements ORDER BY prepare_time')) as {
        rows: Array<{ statement: string }>;
      }
    ).rows.map((row) => row.statement);

  test(`a statement sent ${PREPARE_AFTER_USES} times is prepared on the connection, with the same answers before and after`, async () => {
    const text = 'SELECT $1::int + 1 AS next, $2::text AS label';
    const answers: unknown[] = [];
    for (let use = 1; use <= PREPARE_AFTER_USES + 2; use += 1) {
      answers.push((await client.query(text, [use, `use ${use}`])).rows[0]);
      expect((await preparedHere()).includes(text)).toBe(use >= PREPARE_AFTER_USES);
    }
    expect(answers).toEqual([1, 2, 3, 4, 5].map((use) => ({ next: use + 1, label: `use ${use}` })));
    // Statements without parameters (the simple protocol, which may carry several) are never prepared.
    for (let use = 0; use < PREPARE_AFTER_USES + 1; use += 1) await client.query('SELECT 41 + 1 AS answer');
    expect(await preparedHere()).not.toContain('SELECT 41 + 1 AS answer');
  });

  test('beyond the cap the least recently used are deallocated, once no transaction is open', async () => {
    const textOf = (index: number) => `SELECT $1::int AS n, ${index} AS which`;
    for (let index = 0; index < MAX_PREPARED_PER_CONNECTION + 5; index += 1) {
      for (let use = 0; use < PREPARE_AFTER_USES; use += 1) await client.query(textOf(index), [use]);
    }
    // The statement after the evictions sends the DEALLOCATEs ahead of itself.
    await client.query('SELECT $1::int AS n', [0]);
    const prepared = await preparedHere();
    expect(prepared.length).toBeLessThanOrEqual(MAX_PREPARED_PER_CONNECTION);
    expect(prepared).not.toContain(textOf(0));
    expect(prepared).toContain(textOf(MAX_PREPARED_PER_CONNECTION + 4));
    // An evicted text is counted and prepared again from scratch, and answers as before.
    for (let use = 0; use < PREPARE_AFTER_USES; use += 1)
      expect((await client.query(textOf(0), [use])).rows[0]).toEqual({ n: use, which: 0 });
    expect(await preparedHere()).toContain(textOf(0));
  });

  test('a prepared statement keeps working after a transaction that failed and rolled back', async () => {
    const text = 'SELECT $1::int * 2 AS twice';
    for (let use = 0; use < PREPARE_AFTER_USES; use += 1) await client.query(text, [use]);
    await client.query('START TRANSACTION');
    await expect(client.query('SELECT 1 / $1::int AS boom', [0])).rejects.toThrow(/division by zero/);
    await expect(client.query(text, [5])).rejects.toThrow(/current transaction is aborted/);
    await client.query('ROLLBACK');
    expect((await client.query(text, [21])).rows[0]).toEqual({ twice: 42 });
  });

  test('a table changed under a prepared statement fails that one execution; the next prepares it again', async () => {
    await client.query('CREATE TEMP TABLE prepared_shape (id int)');
    await client.query('INSERT INTO prepared_shape VALUES (1)');
    const text = 'SELECT * FROM prepared_shape WHERE id = $1';
    for (let use = 0; use < PREPARE_AFTER_USES; use += 1)
      expect((await client.query(text, [1])).rows).toEqual([{ id: 1 }]);
    await client.query("ALTER TABLE prepared_shape ADD COLUMN note text DEFAULT 'added'");
    await expect(client.query(text, [1])).rejects.toThrow(/cached plan must not change result type/);
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, note: 'added' }]);
  });
});
