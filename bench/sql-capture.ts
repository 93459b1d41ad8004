import net from 'node:net';
import { Client } from 'pg';

export interface CapturedStatement {
  text: string;
  values: unknown[];
  rows: Array<Record<string, unknown>>;
  /**
   * Which round trip (from 1) sent it: a new one starts when a statement is sent while every
   * statement sent before it has been answered (Node waited). Statements sent before the answers
   * of earlier ones (a pipelined BEGIN, a write-behind statement) share their round trip.
   */
  roundTrip: number;
}

/**
 * Records every statement sent through node-postgres (TypeORM's and graphile-worker's included)
 * while `work` runs: the SQL, its parameters, the rows it returned and its round trip.
 */
export async function captureStatements(
  work: () => Promise<unknown>,
): Promise<CapturedStatement[] & { socketWrites: number }> {
  const captured: CapturedStatement[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called by the patch with the client as this
  const original = Client.prototype.query;
  let roundTrips = 0;
  let unanswered = 0;
  // Writes to PostgreSQL's sockets (TCP or Unix), each one a write or writev system call.
  let socketWrites = 0;
  const socket = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  const originalWrite = socket._write;
  const originalWritev = socket._writev;
  const pgSockets = new WeakSet<object>();
  socket._write = function counted(this: object, ...args: unknown[]) {
    if (pgSockets.has(this)) socketWrites += 1;
    return originalWrite.apply(this, args);
  };
  socket._writev = function counted(this: object, ...args: unknown[]) {
    if (pgSockets.has(this)) socketWrites += 1;
    return originalWritev.apply(this, args);
  };
  // pg's query is overloaded (text or config; a promise, a callback or a stream): the patch takes and answers
  // whatever each overload does, so it is typed `any` on purpose.
  /* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return */
  Client.prototype.query = function patched(this: Client, ...args: any[]) {
    const [config, values] = args;
    const text = typeof config === 'string' ? config : config?.text;
    const params = Array.isArray(values) ? values : (config?.values ?? []);
    const stream = (this as any).connection?.stream;
    if (stream) pgSockets.add(stream);
    const result = (original as any).apply(this, args);
    if (text && result && typeof result.then === 'function') {
      if (unanswered === 0) roundTrips += 1;
      unanswered += 1;
      const entry: CapturedStatement = { text, values: params, rows: [], roundTrip: roundTrips };
      captured.push(entry);
      result.then(
        (res: any) => {
          unanswered -= 1;
          entry.rows = Array.isArray(res) ? res.flatMap((r: any) => r.rows ?? []) : (res?.rows ?? []);
        },
        () => {
          unanswered -= 1;
        },
      );
    }
    return result;
  } as typeof Client.prototype.query;
  /* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return */
  try {
    await work();
  } finally {
    Client.prototype.query = original;
    socket._write = originalWrite;
    socket._writev = originalWritev;
  }
  return Object.assign(captured, { socketWrites });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Replays captured statements as one unit of work, on a plain pg client: values the original run
 * generated (returned UUIDs, the given `fresh` values) are swapped for this replay's own wherever they
 * appear in later parameters, so each replay writes new rows exactly as the original did.
 */
export async function replay(
  client: Client,
  statements: CapturedStatement[],
  fresh: Map<string, string>,
): Promise<void> {
  const swaps = new Map(fresh);
  const swap = (value: unknown): unknown => {
    if (typeof value !== 'string') return value;
    let out = value;
    for (const [from, to] of swaps) if (out.includes(from)) out = out.split(from).join(to);
    return out;
  };
  for (const statement of statements) {
    const result = await client.query<Record<string, unknown>>(statement.text, statement.values.map(swap));
    statement.rows.forEach((row, index) => {
      for (const [column, value] of Object.entries(row)) {
        const now = result.rows[index]?.[column];
        if (typeof value === 'string' && UUID.test(value) && typeof now === 'string' && now !== value)
          swaps.set(value, now);
      }
    });
  }
}
