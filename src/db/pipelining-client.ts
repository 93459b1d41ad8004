import { Client, ClientConfig, QueryResult } from 'pg';

const noop = () => undefined;

/** node-postgres's own conversion of a query value to what it sends (the driver applies it again: a no-op on its result). */
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => unknown };

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
 * Statements still run one after the other on the server, in the order they were sent, in the
 * same transaction: only the waits between them are gone (docs/performance.md).
 */
export class PipeliningClient extends Client {
  /** Statements sent whose answers no caller has waited for yet (BEGIN, write-behind statements). */
  private unanswered: Array<Promise<unknown>> = [];
  private corked = false;
  private transactionOpen = false;

  constructor(config?: string | ClientConfig) {
    super(typeof config === 'string' ? { connectionString: config, pipeline: true } : { ...config, pipeline: true });
  }

  query(...args: any[]): any {
    const [text, values, callback] = args;
    // TypeORM sends (text) and (text, values) and awaits the promise; any other form goes as it is.
    if (typeof text !== 'string' || typeof values === 'function' || callback !== undefined) {
      return (super.query as (...all: any[]) => any)(...args);
    }
    if (text === 'START TRANSACTION') {
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
    this.cork();
    const own = super.query(text, values) as unknown as Promise<QueryResult>;
    const earlier = this.unanswered.splice(0);
    return earlier.length === 0 ? own : answerAfter(earlier, own);
  }

  /**
   * Sends a statement of the open transaction without waiting for its answer (see the class
   * comment); `onRows` gets its rows before the transaction's next statement answers.
   */
  writeBehind(text: string, values: unknown[], onRows?: (rows: any[]) => void): void {
    if (!this.transactionOpen) throw new Error('writeBehind needs an open transaction');
    // A value the driver cannot send fails here, at the call: failing inside the driver, the
    // statement would never reach the server, and a COMMIT sent next would commit without it.
    const prepared = values.map(prepareValue);
    this.cork();
    this.sendUnanswered((super.query(text, prepared) as unknown as Promise<QueryResult>).then((result) => onRows?.(result.rows)));
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
    const stream = (this as unknown as { connection: { stream: NodeJS.WritableStream & { cork(): void } } }).connection.stream;
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
