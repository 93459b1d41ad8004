/**
 * A database that cannot be reached is an outage, not a bug: every face answers it with 503
 * SERVICE_UNAVAILABLE and Retry-After, and the log tells it once, not with a stack per request.
 * This file knows which errors mean "unreachable" (pg, TypeORM, the pool, Node's sockets) and
 * keeps the outage's log: one line when it starts, a summary per interval while it lasts, one line
 * when it ends, noticed by a probe, so recovery needs no manual step and no request.
 */

/** Node's socket errors on connecting to, or while talking to, PostgreSQL. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not there yet: 57P01 admin_shutdown, 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down, in recovery); every code of
 * class 08 (connection exception) is matched by its prefix.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03']);

/** Messages of node-postgres, its pool and TypeORM that carry no code. */
const UNREACHABLE_MESSAGES = [
  /^Connection terminated/i, // "Connection terminated unexpectedly", "… due to connection timeout"
  /timeout exceeded when trying to connect/i, // pg-pool's connectionTimeoutMillis on acquiring a client
  /^Client has encountered a connection error and is not queryable/i,
  /^Client was closed and is not queryable/i,
  /^Connection is not established with postgres/i, // TypeORM's driver before it connected
  /^the database system is (starting up|shutting down|in recovery mode)/i,
  /^terminating connection due to administrator command/i,
];

/**
 * An error and what it wraps: `cause`, TypeORM's `driverError`, GraphQL's `originalError` (and the
 * `thrownValue` of graphql's NonErrorThrown), AggregateError's `errors`.
 */
function* chainOf(error: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (typeof error !== 'object' || error === null || depth > 5) return;
  const fields = error as Record<string, unknown>;
  yield fields;
  for (const inner of [fields.cause, fields.driverError, fields.originalError, fields.thrownValue])
    yield* chainOf(inner, depth + 1);
  if (Array.isArray(fields.errors)) for (const inner of fields.errors) yield* chainOf(inner, depth + 1);
}

/** Whether `error` means PostgreSQL could not be reached (as opposed to a statement that failed). */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (const fields of chainOf(error)) {
    const code = typeof fields.code === 'string' ? fields.code : '';
    if (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    // A Unix socket that is not there (the embedded PostgreSQL's, while it is stopped): ENOENT on connect.
    if (code === 'ENOENT' && fields.syscall === 'connect') return true;
    const message = typeof fields.message === 'string' ? fields.message : '';
    if (UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  }
  return false;
}

export interface OutageLogger {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export interface OutageTimings {
  /** How often the probe asks the database while it is unreachable. */
  probeMs: number;
  /** How often a summary line is written while the outage lasts. */
  summaryMs: number;
}

const DEFAULT_TIMINGS: OutageTimings = { probeMs: 1000, summaryMs: 30_000 };

/** What an outage's first line says of its cause: code and message, never a stack or a statement's values. */
const causeOf = (error: unknown) => {
  const fields = [...chainOf(error)].find((inner) => typeof inner.code === 'string') ?? [...chainOf(error)][0] ?? {};
  return { code: fields.code ?? null, message: typeof fields.message === 'string' ? fields.message : String(error) };
};

/**
 * One process's view of a database outage. Each request refused for it is counted with `refused`;
 * the first starts the outage (a warn line, `database unreachable`) and a probe (`ping`, every
 * `probeMs`) that writes `database still unreachable` with the counts every `summaryMs` and
 * `database reachable again` (info, with the duration and the count) when it answers.
 */
export class DatabaseOutage {
  private startedAt: number | null = null;
  private lastSummaryAt = 0;
  private refusedTotal = 0;
  private refusedSinceSummary = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly ping: () => Promise<unknown>,
    private readonly log: OutageLogger,
    private readonly timings: OutageTimings = DEFAULT_TIMINGS,
  ) {}

  /** Whether an outage is under way (from the first refusal until the probe reaches the database). */
  get ongoing(): boolean {
    return this.startedAt !== null;
  }

  /** Counts one request refused because the database is unreachable; only the first of an outage is logged. */
  refused(error: unknown): void {
    this.refusedTotal += 1;
    this.refusedSinceSummary += 1;
    if (this.startedAt !== null || this.stopped) return;
    this.startedAt = Date.now();
    this.lastSummaryAt = this.startedAt;
    this.log.warn({ cause: causeOf(error), probeMs: this.timings.probeMs }, 'database unreachable');
    this.scheduleProbe();
  }

  /** Stops probing (the server is closing). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private scheduleProbe() {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.probe(), this.timings.probeMs);
    this.timer.unref();
  }

  private async probe() {
    const startedAt = this.startedAt!;
    try {
      await withDeadline(this.ping(), Math.max(this.timings.probeMs, 1000) * 5);
    } catch {
      const now = Date.now();
      if (now - this.lastSummaryAt >= this.timings.summaryMs) {
        this.log.warn(
          { downForMs: now - startedAt, refused: this.refusedTotal, refusedSinceLast: this.refusedSinceSummary },
          'database still unreachable',
        );
        this.lastSummaryAt = now;
        this.refusedSinceSummary = 0;
      }
      this.scheduleProbe();
      return;
    }
    this.log.info({ downForMs: Date.now() - startedAt, refused: this.refusedTotal }, 'database reachable again');
    this.startedAt = null;
    this.refusedTotal = 0;
    this.refusedSinceSummary = 0;
    this.timer = null;
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('probe timed out')), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
