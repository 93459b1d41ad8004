import path from 'node:path';
import { ConfigError } from './startup-error';

/**
 * The one configuration object, read once from the environment.
 * Every variable is documented in README.md (Configuration) and .env.example.
 */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  /** Where a root start keeps the embedded PostgreSQL's binaries and data (src/db/embedded.ts). */
  systemDir: string;
  /** The unprivileged account that runs the embedded PostgreSQL when Tessera runs as root. */
  embeddedPgSystemUser: string;
  masterKey: string | undefined;
  jwtSecret: string | undefined;
  jwtTtlSeconds: number;
  redisUrl: string | undefined;
  logLevel: string;
  graphqlIntrospection: boolean;
  graphqlMaxDepth: number;
  graphqlMaxCost: number;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  bodyLimitBytes: number;
  idempotencyTtlHours: number;
  publicBaseUrl: string;
  seedSandboxBusiness: boolean;
  shutdownGraceMs: number;
  workerInProcess: boolean;
  subscriptionRecheckMs: number;
  /** Open WebSocket connections one client IP may hold, counted before authentication. */
  wsMaxConnectionsPerIp: number;
  /** Open WebSocket connections one credential (API credential, or dashboard user) may hold. */
  wsMaxSocketsPerCredential: number;
  /** Running GraphQL subscriptions one credential may hold over all its sockets. */
  wsMaxSubscriptionsPerCredential: number;
  workerConcurrency: number;
  workerPollIntervalMs: number;
  jobStallAfterMs: number;
  webhookTimeoutMs: number;
  /** Delay before each delivery attempt, in seconds: the first is attempt 1, its length is the attempt limit. */
  webhookRetryScheduleSeconds: number[];
  /** Seconds from card capture to settlement into the merchant wallet. */
  paymentSettlementDelaySeconds: number;
  /** Sandbox 3-D Secure challenges complete on their own after this many milliseconds. */
  sandbox3dsAutoCompleteMs: number;
  /** Consecutive failed charges after which a recurring gift is PAUSED. */
  recurringGiftMaxFailures: number;
  /** Seconds before a failed recurring-gift charge is tried again. */
  recurringGiftRetryDelaySeconds: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

function secondsList(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((item) => Number(item.trim()));
  if (values.some((value) => !Number.isFinite(value) || value < 0)) {
    throw new ConfigError(`${name} must be a comma-separated list of non-negative seconds, got "${raw}"`);
  }
  return values;
}

function url(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    const parsed = new URL(raw);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return raw.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  throw new ConfigError(`${name} must be an absolute http(s) URL such as https://pay.example.com, got "${raw}"`);
}

/** A production start refuses defaults that are only safe on a developer's machine. */
function requireInProduction(env: NodeJS.ProcessEnv) {
  if (env.NODE_ENV !== 'production') return;
  const missing = [
    ['TESSERA_MASTER_KEY', 'it encrypts API secrets at rest'],
    ['JWT_SECRET', 'it signs access tokens'],
    ['PUBLIC_BASE_URL', 'checkout and payment links must not point payers at localhost'],
  ].filter(([name]) => !env[name]);
  if (missing.length === 0) return;
  const names = missing.map(([name]) => name).join(', ');
  const reasons = missing.map(([name, reason]) => `${name}: ${reason}`).join('; ');
  throw new ConfigError(`NODE_ENV=production requires ${names} to be set (${reasons}). See README.md, Configuration.`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  requireInProduction(env);
  const port = int(env, 'PORT', 4000);
  const dataDir = path.resolve(env.TESSERA_DATA_DIR || '.data');
  return {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    embeddedPgPort: int(env, 'EMBEDDED_PG_PORT', 54329),
    systemDir: path.resolve(env.TESSERA_SYSTEM_DIR || '/var/lib/tessera'),
    embeddedPgSystemUser: env.EMBEDDED_PG_SYSTEM_USER || 'postgres',
    masterKey: env.TESSERA_MASTER_KEY || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    jwtTtlSeconds: 3600,
    redisUrl: env.REDIS_URL || undefined,
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    graphqlIntrospection: bool(env, 'GRAPHQL_INTROSPECTION', env.NODE_ENV !== 'production'),
    graphqlMaxDepth: int(env, 'GRAPHQL_MAX_DEPTH', 10),
    graphqlMaxCost: int(env, 'GRAPHQL_MAX_COST', 5000),
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 600),
    rateLimitWindowMs: int(env, 'RATE_LIMIT_WINDOW_MS', 60_000),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1_048_576),
    idempotencyTtlHours: int(env, 'IDEMPOTENCY_TTL_HOURS', 24),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL') ?? `http://localhost:${port}`,
    seedSandboxBusiness: bool(env, 'SEED_SANDBOX_BUSINESS', true),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000),
    workerInProcess: bool(env, 'WORKER_IN_PROCESS', true),
    workerConcurrency: int(env, 'WORKER_CONCURRENCY', 4),
    workerPollIntervalMs: int(env, 'WORKER_POLL_INTERVAL_MS', 2000),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 30_000),
    jobStallAfterMs: int(env, 'JOB_STALL_AFTER_MS', int(env, 'WEBHOOK_TIMEOUT_MS', 30_000) + 60_000),
    webhookRetryScheduleSeconds: secondsList(env, 'WEBHOOK_RETRY_SCHEDULE_S', [0, 30, 60, 90, 120]),
    subscriptionRecheckMs: int(env, 'SUBSCRIPTION_RECHECK_MS', 30_000),
    wsMaxConnectionsPerIp: Math.max(1, int(env, 'WS_MAX_CONNECTIONS_PER_IP', 100)),
    wsMaxSocketsPerCredential: Math.max(1, int(env, 'WS_MAX_SOCKETS_PER_CREDENTIAL', 20)),
    wsMaxSubscriptionsPerCredential: Math.max(1, int(env, 'WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL', 100)),
    paymentSettlementDelaySeconds: int(env, 'PAYMENT_SETTLEMENT_DELAY_S', 60),
    sandbox3dsAutoCompleteMs: int(env, 'SANDBOX_3DS_AUTO_COMPLETE_MS', 3000),
    recurringGiftMaxFailures: Math.max(1, int(env, 'RECURRING_GIFT_MAX_FAILURES', 3)),
    recurringGiftRetryDelaySeconds: int(env, 'RECURRING_GIFT_RETRY_DELAY_S', 86_400),
  };
}
