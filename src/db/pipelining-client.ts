import { Client, ClientConfig, QueryResult } from 'pg';

const noop = () => undefined;

/** node-postgres's own conversion of a query value to what it sends (the driver applies it again: a no-op on its result). */
// require: pg declares no types for its lib/ files.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => unknown };

/**
 * A statement text sent this many times on a connection is prepared there (a named statement):
 * PostgreSQL then parses and plans it once per connection instead of once per execution, like
 * pgJDBC's `prepareThreshold`.
 */
export const PREPARE_AFTER_USES = 3;
/** At most this many prepared statements per connection; beyond it the least recently used is deallocated. */
export const MAX_PREPARED_PER_CONNECTION = 200;
/** Texts counted per connection before they are prepared; the counts start again beyond it. */
const MAX_COUNTED_TEXTS = 2000;
/** What may be prepared: one data statement with parameters (the extended protocol, which cannot carry two). */
const PREPARABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;

/** What `START TRANSACTION` answers; TypeORM only waits for it. */
const STARTED: QueryResult = { command: 'START', rowCount: null, oid: 0, rows: [], fields: [] };

/**
 * The application's PostgreSQL connection (TypeORM's pool makes these): node-postgres in its
 * pipeline mode, where each query is written at once instead of after the previous answer, plus
 * two uses of it that save a round trip each without changing what runs or in which order:
 *
 * - `START TRANSACTION` is written but not waited for: it goes out in the same write as the
 *   transaction's first statement, and that statement's answer waits for it.
 * - `writeBehind` sends a statement of the open transaction whose answer nobody needs before the
 *   transaction's next statement (an event row, a journal posting): it goes out with the next
 *   statement or the COMMIT, which do not answer before it has; if it failed, they fail with its
 *   error, so the transaction rolls back as if it had been awaited.
 *
 * And one that saves the database's work: a data statement with parameters sent
 * PREPARE_AFTER_USES times on the connection is prepared there and sent by name from then on
 * (parsed and planned once, not on every execution; on this hardware planning the charge's
 * statements cost the database more than running them). The least recently used beyond
 * MAX_PREPARED_PER_CONNECTION are deallocated.
 *
 * Statements still run one after the other on the server, in the order they were sent, in the
 * same transaction: only the waits between them are gone (docs/performance.md).
 */
export class PipeliningClient extends Client {
  /** Statements sent whose answers no caller has waited for yet (BEGIN, write-behind statements). */
  private unanswered: Array<Promise<unknown>> = [];
  private corked = false;
  private transactionOpen = false;
  /** Uses so far of the texts not prepared yet. */
  private readonly uses = new Map<string, number>();
  /** Prepared statements of this connection by text, least recently used first. */
  private readonly prepared = new Map<string, string>();
  /** Names evicted from `prepared`, deallocated once no transaction is open (DEALLOCATE fails in an aborted one). */
  private evicted: string[] = [];
  private nextName = 0;

  constructor(config?: string | ClientConfig) {
    super(typeof config === 'string' ? { connectionString: config, pipeline: true } : { ...config, pipeline: true });
  }

  // The override answers what each of pg's overloads answers: only `any` is all of them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(...args: unknown[]): any {
    const [text, values, callback] = args;
    // TypeORM sends (text) and (text, values) and awaits the promise; any other form goes as it is.
    if (typeof text !== 'string' || typeof values === 'function' || callback !== undefined) {
      return (super.query as (...all: unknown[]) => unknown)(...args);
    }
    if (text === 'START TRANSACTION') {
      this.deallocateEvicted();
      this.transactionOpen = true;
      this.cork();
      this.sendUnanswered(super.query(text));
      return Promise.resolve(STARTED);
    }
    if (text === 'ROLLBACK') {
      // What was sent without an answer is undone with the transaction; its errors no longer matter.
      this.unanswered = [];
      this.transactionOpen = false;
    } else if (text === 'COMMIT') {
      this.transactionOpen = false;
    }
    if (!this.transactionOpen) this.deallocateEvicted();
    this.cork();
    const own = this.send(text, values as unknown[] | undefined) as Promise<QueryResult>;
    const earlier = this.unanswered.splice(0);
    return earlier.length === 0 ? own : answerAfter(earlier, own);
  }

  /**
   * Sends a statement of the open transaction without waiting for its answer (see the class
   * comment); `onRows` gets its rows before the transaction's next statement answers.
   */
  writeBehind<Row>(text: string, values: unknown[], onRows?: (rows: Row[]) => void): void {
    if (!this.transactionOpen) throw new Error('writeBehind needs an open transaction');
    // A value the driver cannot send fails here, at the call: failing inside the driver, the
    // statement would never reach the server, and a COMMIT sent next would commit without it.
    const prepared = values.map(prepareValue);
    this.cork();
    this.sendUnanswered(
      (this.send(text, prepared) as Promise<QueryResult>).then((result) => onRows?.(result.rows as Row[])),
    );
  }

  /** Sends a statement, by its prepared name once the text has been used PREPARE_AFTER_USES times here. */
  private send(text: string, values: unknown[] | undefined): Promise<unknown> {
    const name = values === undefined || !PREPARABLE.test(text) ? undefined : this.preparedName(text);
    if (name === undefined) return super.query(text, values);
    const sent = super.query({ name, text, values }) as unknown as Promise<unknown>;
    // A table changed under it since it was prepared ("cached plan must not change result type"):
    // this execution fails, the next one prepares the text again.
    sent.catch((error: { code?: string }) => {
      if (error?.code === '0A000' && this.prepared.get(text) === name) this.evict(text, name);
    });
    return sent;
  }

  private evict(text: string, name: string): void {
    this.prepared.delete(text);
    this.evicted.push(name);
  }

  private preparedName(text: string): string | undefined {
    const known = this.prepared.get(text);
    if (known !== undefined) {
      // Most recently used last.
      this.prepared.delete(text);
      this.prepared.set(text, known);
      return known;
    }
    const uses = (this.uses.get(text) ?? 0) + 1;
    if (uses < PREPARE_AFTER_USES) {
      if (this.uses.size >= MAX_COUNTED_TEXTS) this.uses.clear();
      this.uses.set(text, uses);
      return undefined;
    }
    this.uses.delete(text);
    const name = `tessera_${this.nextName++}`;
    this.prepared.set(text, name);
    if (this.prepared.size > MAX_PREPARED_PER_CONNECTION) {
      const [oldestText, oldestName] = this.prepared.entries().next().value as [string, string];
      this.evict(oldestText, oldestName);
    }
    return name;
  }

  /** Deallocates the evicted prepared statements (outside a transaction, not waiting for the answer). */
  private deallocateEvicted(): void {
    if (this.evicted.length === 0) return;
    const parsed = (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection
      .parsedStatements;
    for (const name of this.evicted.splice(0)) {
      delete parsed[name];
      // An answer nobody waits for: a statement whose Parse had failed is simply not there.
      (super.query(`DEALLOCATE ${name}`) as unknown as Promise<unknown>).catch(noop);
    }
  }

  private sendUnanswered(sent: Promise<unknown>): void {
    sent.catch(noop);
    this.unanswered.push(sent);
  }

  /**
   * Holds the socket's writes (cork) until the promise callbacks running now are done
   * (process.nextTick runs once the microtask queue is empty): statements sent in one go (a
   * write-behind statement and the next one, BEGIN and the first one, a statement not waited for
   * and the next) leave in one write, one system call, before Node waits for anything.
   */
  private cork(): void {
    if (this.corked) return;
    const stream = (this as unknown as { connection: { stream: NodeJS.WritableStream & { cork(): void } } }).connection
      .stream;
    stream.cork();
    this.corked = true;
    process.nextTick(() => this.uncork());
  }

  private uncork(): void {
    if (!this.corked) return;
    this.corked = false;
    (this as unknown as { connection: { stream: { uncork(): void } } }).connection.stream.uncork();
  }
}

/** `own`'s answer, once every statement sent before it has answered; the first failure in send order wins. */
async function answerAfter<T>(earlier: Array<Promise<unknown>>, own: Promise<T>): Promise<T> {
  own.catch(noop);
  for (const statement of earlier) await statement;
  return own;
}
