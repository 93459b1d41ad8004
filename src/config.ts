import path from 'node:path';
import { createPublicKey } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { PROJECT_ROOT } from './project';
import { ConfigError } from './startup-error';

/**
 * The one configuration object, read once from the environment.
 * Every variable is documented in README.md (Configuration) and .env.example.
 */
export interface Config {
  /** NODE_ENV=production: the production shape (required secrets, no sandbox conveniences); otherwise a sandbox. */
  production: boolean;
  port: number;
  host: string;
  /**
   * Which peers may tell the client's address in X-Forwarded-For (Fastify's `trustProxy`): false
   * (default: the socket's peer is the client), true (any), a hop count, or addresses/CIDRs.
   */
  trustProxy: TrustProxy;
  databaseUrl: string | undefined;
  /**
   * TESSERA_DATA_DIR, absolute: a relative value (the default `.data` too) is taken from the
   * project's folder, never from the current directory, so the server, workers and CLI started
   * from anywhere use the same data (npm runs scripts from the project's folder as well).
   */
  dataDir: string;
  embeddedPgPort: number;
  /** Where a root start keeps the embedded PostgreSQL's binaries and data (src/db/embedded.ts). */
  systemDir: string;
  /** The unprivileged account that runs the embedded PostgreSQL when Tessera runs as root. */
  embeddedPgSystemUser: string;
  /** EMBEDDED_PG_SOCKET: the application reaches the embedded PostgreSQL over its Unix socket (on) or TCP (off). */
  embeddedPgSocket: boolean;
  masterKey: string | undefined;
  jwtSecret: string | undefined;
  jwtTtlSeconds: number;
  redisUrl: string | undefined;
  /** Prefix of every Redis key and pub/sub channel, so deployments sharing one Redis stay apart. */
  redisKeyPrefix: string;
  logLevel: string;
  graphqlIntrospection: boolean;
  /** GRAPHQL_EXPLORER: a browser's GET of /graphql gets the GraphiQL explorer (default: outside production). */
  graphqlExplorer: boolean;
  graphqlMaxDepth: number;
  graphqlMaxCost: number;
  /** Root mutation fields (aliases included) one GraphQL request may run. */
  graphqlMaxMutationFields: number;
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
  /** Test-mode webhooks may target private/loopback/link-local addresses (default: outside production). */
  webhookAllowPrivateTargets: boolean;
  /** Delay before each delivery attempt, in seconds: the first is attempt 1, its length is the attempt limit. */
  webhookRetryScheduleSeconds: number[];
  /** Seconds from card capture to settlement into the merchant wallet. */
  paymentSettlementDelaySeconds: number;
  /** Per-account sign-in lockout: failures within the window, and how long the lock lasts. */
  signInMaxFailures: number;
  signInFailureWindowSeconds: number;
  signInLockoutSeconds: number;
  /** Failed hosted-checkout payment attempts before a session is locked (card testing). */
  checkoutMaxFailedAttemptsPerSession: number;
  checkoutMaxFailedAttemptsPerLink: number;
  checkoutMaxFailedAttemptsPerCard: number;
  /** The window of the per-link and per-card counts, in seconds. */
  checkoutFailedAttemptsWindowSeconds: number;
  /** Sandbox 3-D Secure challenges complete on their own after this many milliseconds. */
  sandbox3dsAutoCompleteMs: number;
  /** The sandbox payout rail settles (or fails) a submitted payout after this many milliseconds. */
  payoutSandboxSettleMs: number;
  /** SMTP server of outgoing mail (sign-up codes); unset: the sandbox mailbox, which keeps mail in the database. */
  mailSmtpUrl: string | undefined;
  /** The From of outgoing mail. */
  mailFrom: string;
  /** Consecutive failed charges after which a recurring gift is PAUSED. */
  recurringGiftMaxFailures: number;
  /** Seconds before a failed recurring-gift charge is tried again. */
  recurringGiftRetryDelaySeconds: number;
  /** The alternate surface `/v1`'s request budgets per key and window (design section 11). */
  v1RateLimits: V1RateLimits;
  /** METRICS_TOKEN: `/metrics` answers only `Authorization: Bearer <it>` (compared in constant time). */
  metricsToken: string | undefined;
  /** METRICS_PORT: `/metrics` is served on a listener of its own (METRICS_HOST, loopback by default), not on the public port. */
  metricsPort: number | undefined;
  metricsHost: string;
  /** Stripe, the live card acquirer (docs/live.md): unset, live mode takes no card payments. */
  stripe: StripeSettings | undefined;
  /** TEST_MODE_CARD_ACQUIRER: test-mode card payments go to the built-in sandbox, or to a Stripe test account. */
  testModeCardAcquirer: 'sandbox' | 'stripe';
  /** Yellow Card, the live payout rail, collection rail and FX provider (docs/live.md): unset, live mode has none. */
  yellowcard: YellowcardSettings | undefined;
  /** Bridge, the live treasury rail and KYC provider (docs/live.md, "Bridge"): unset, live treasury is refused. */
  bridge: BridgeSettings | undefined;
}

/** YELLOWCARD_API_KEY, YELLOWCARD_API_SECRET and YELLOWCARD_API_BASE: secrets, never logged. */
export interface YellowcardSettings {
  apiKey: string;
  /** Signs every request (YcHmacV1) and checks every webhook's X-YC-Signature. */
  apiSecret: string;
  /** Yellow Card's business API (its `/business` prefix included), or a local fake in tests. */
  apiBase: string;
}

/** BRIDGE_API_KEY, BRIDGE_WEBHOOK_PUBLIC_KEY and BRIDGE_API_BASE: the key is a secret, never logged. */
export interface BridgeSettings {
  apiKey: string;
  /** The PEM public key of Bridge's webhook endpoint: its signatures (RSA-SHA256) are checked with it. */
  webhookPublicKey: string;
  /** Bridge's API (https://api.bridge.xyz, or its sandbox https://api.sandbox.bridge.xyz), or a local fake in tests. */
  apiBase: string;
}

/** STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_API_BASE: secrets, never logged. */
export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API, or a local fake in tests. */
  apiBase: string;
}

/** Requests a `/v1` key may make per window: payment creation and reads, for live and test keys. */
export interface V1RateLimits {
  windowMs: number;
  liveCreate: number;
  liveRead: number;
  testCreate: number;
  testRead: number;
}

export type TrustProxy = boolean | number | string[];

/** Names proxy-addr (Fastify's trustProxy) accepts for address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: `true`/`false`, a hop count (`1`: the nearest proxy), or a comma-separated list of
 * addresses, CIDRs and the names loopback, linklocal, uniquelocal. Off when unset.
 */
export function trustProxyOf(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || /^(false|no|off)$/i.test(raw)) return false;
  if (/^(true|yes|on)$/i.test(raw)) return true;
  if (/^\d+$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !PROXY_RANGE_NAMES.has(entry) && !ipaddr.isValid(entry) && !isCidr(entry));
  if (entries.length === 0 || invalid.length > 0) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false, a hop count, or a comma-separated list of addresses and CIDRs (or loopback, linklocal, uniquelocal), got "${raw}"`,
    );
  }
  return entries;
}

function isCidr(value: string): boolean {
  try {
    ipaddr.parseCIDR(value);
    return true;
  } catch {
    return false;
  }
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

/** MAIL_SMTP_URL: smtp:// or smtps:// with optional credentials and query options (nodemailer's URL form). */
function smtpUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.MAIL_SMTP_URL;
  if (raw === undefined || raw === '') return undefined;
  let protocol = '';
  try {
    protocol = new URL(raw).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') {
    throw new ConfigError(
      'MAIL_SMTP_URL must be an smtp:// or smtps:// URL such as smtps://user:password@smtp.example.com:465',
    );
  }
  return raw;
}

const SANDBOX_MAIL_FROM = 'Tessera <no-reply@tessera.local>';

/** MAIL_FROM: required with MAIL_SMTP_URL (a real server needs a sender it accepts); the sandbox has its own. */
function mailFrom(env: NodeJS.ProcessEnv, smtp: string | undefined): string {
  const raw = (env.MAIL_FROM ?? '').trim();
  if (raw === '') {
    if (smtp)
      throw new ConfigError(
        'MAIL_SMTP_URL is set but MAIL_FROM is not: set the sender of outgoing mail, such as "Tessera <no-reply@pay.example.com>"',
      );
    return SANDBOX_MAIL_FROM;
  }
  if (!/^[^@\s<>]+@[^@\s<>]+$|<[^@\s<>]+@[^@\s<>]+>$/.test(raw)) {
    throw new ConfigError(
      `MAIL_FROM must be an email address, optionally with a name ("Tessera <no-reply@pay.example.com>"), got "${raw}"`,
    );
  }
  return raw;
}

/** The shortest METRICS_TOKEN accepted: a token anyone can guess is no credential. */
const METRICS_TOKEN_MIN_LENGTH = 16;

interface MetricsSettings {
  metricsToken: string | undefined;
  metricsPort: number | undefined;
  metricsHost: string;
}

/**
 * Where `/metrics` is served and who may read it (docs/security.md, Metrics): METRICS_TOKEN (a
 * bearer token) and METRICS_PORT with METRICS_HOST (a listener of its own, loopback by default).
 */
function metricsSettings(env: NodeJS.ProcessEnv, port: number): MetricsSettings {
  const token = env.METRICS_TOKEN || undefined;
  if (token !== undefined && token.length < METRICS_TOKEN_MIN_LENGTH) {
    throw new ConfigError(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters (a random string, such as the output of openssl rand -hex 32)`,
    );
  }
  const rawPort = env.METRICS_PORT ?? '';
  const metricsPort = rawPort === '' ? undefined : Number(rawPort);
  if (metricsPort !== undefined && (!Number.isInteger(metricsPort) || metricsPort < 1 || metricsPort > 65_535)) {
    throw new ConfigError(`METRICS_PORT must be a port number (1 to 65535), got "${rawPort}"`);
  }
  if (metricsPort !== undefined && metricsPort === port) {
    throw new ConfigError(
      `METRICS_PORT (${metricsPort}) must differ from PORT: it is the listener that keeps /metrics off the public port`,
    );
  }
  if (env.METRICS_HOST && metricsPort === undefined) {
    throw new ConfigError(
      'METRICS_HOST is set but METRICS_PORT is not: set the port of the metrics listener too, such as METRICS_PORT=9464',
    );
  }
  return { metricsToken: token, metricsPort, metricsHost: env.METRICS_HOST || '127.0.0.1' };
}

/**
 * The Stripe settings, all or none: a secret key without the webhook secret would take payments
 * whose later outcomes (refund failures, disputes) Tessera could not verify. The values are never
 * repeated in an error: they are secrets.
 */
function stripeSettings(env: NodeJS.ProcessEnv): StripeSettings | undefined {
  const secretKey = env.STRIPE_SECRET_KEY || undefined;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET || undefined;
  if (!secretKey && !webhookSecret) return undefined;
  if (!secretKey)
    throw new ConfigError(
      'STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not: set both, or neither (docs/live.md)',
    );
  if (!webhookSecret)
    throw new ConfigError(
      "STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: set the signing secret of Stripe's webhook endpoint (whsec_…, docs/live.md)",
    );
  if (!/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(secretKey))
    throw new ConfigError(
      'STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_… or sk_test_…, or a restricted rk_ key)',
    );
  if (!/^whsec_[A-Za-z0-9+/=_-]+$/.test(webhookSecret))
    throw new ConfigError("STRIPE_WEBHOOK_SECRET must be a webhook endpoint's signing secret (whsec_…)");
  return { secretKey, webhookSecret, apiBase: url(env, 'STRIPE_API_BASE') ?? 'https://api.stripe.com' };
}

/** Yellow Card's production business API (docs/live.md); its sandbox is https://sandbox.api.yellowcard.io/business. */
export const YELLOWCARD_PRODUCTION_API_BASE = 'https://api.yellowcard.io/business';

/**
 * The Yellow Card settings, key and secret or neither: a key without its secret can sign nothing.
 * The values are never repeated in an error: they are secrets.
 */
function yellowcardSettings(env: NodeJS.ProcessEnv): YellowcardSettings | undefined {
  const apiKey = env.YELLOWCARD_API_KEY || undefined;
  const apiSecret = env.YELLOWCARD_API_SECRET || undefined;
  if (!apiKey && !apiSecret) return undefined;
  if (!apiKey)
    throw new ConfigError(
      'YELLOWCARD_API_SECRET is set but YELLOWCARD_API_KEY is not: set both, or neither (docs/live.md)',
    );
  if (!apiSecret)
    throw new ConfigError(
      'YELLOWCARD_API_KEY is set but YELLOWCARD_API_SECRET is not: set both, or neither (docs/live.md)',
    );
  if (/\s/.test(apiKey) || apiKey.includes(':'))
    throw new ConfigError('YELLOWCARD_API_KEY must be a Yellow Card API key (no spaces or colons)');
  return { apiKey, apiSecret, apiBase: url(env, 'YELLOWCARD_API_BASE') ?? YELLOWCARD_PRODUCTION_API_BASE };
}

/** TEST_MODE_CARD_ACQUIRER: `stripe` sends test-mode card payments to a Stripe test account, never a live one. */
function testModeCardAcquirer(env: NodeJS.ProcessEnv, stripe: StripeSettings | undefined): 'sandbox' | 'stripe' {
  const raw = env.TEST_MODE_CARD_ACQUIRER || 'sandbox';
  if (raw !== 'sandbox' && raw !== 'stripe')
    throw new ConfigError(`TEST_MODE_CARD_ACQUIRER must be sandbox or stripe, got "${raw}"`);
  if (raw === 'stripe' && !stripe)
    throw new ConfigError('TEST_MODE_CARD_ACQUIRER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  if (raw === 'stripe' && /^(sk|rk)_live_/.test(stripe!.secretKey))
    throw new ConfigError(
      'TEST_MODE_CARD_ACQUIRER=stripe needs a Stripe test key (sk_test_…): test-mode payments must not move real money',
    );
  return raw;
}

/** HOST's default outside production (production requires HOST). */
const LOOPBACK = 'localhost';

/** A production start refuses defaults that are only safe on a developer's machine. */
function requireInProduction(env: NodeJS.ProcessEnv) {
  if (env.NODE_ENV !== 'production') return;
  const missing = [
    ['TESSERA_MASTER_KEY', 'it encrypts API secrets at rest'],
    ['JWT_SECRET', 'it signs access tokens'],
    ['PUBLIC_BASE_URL', 'checkout and payment links must not point payers at localhost'],
    ['MAIL_SMTP_URL', 'sign-up codes must reach people; without it mail stays in the sandbox mailbox'],
    [
      'HOST',
      'the address to listen on, such as 0.0.0.0 in a container or behind a proxy; the default outside production is loopback only',
    ],
  ].filter(([name]) => !env[name]);
  if (missing.length === 0) return;
  const names = missing.map(([name]) => name).join(', ');
  const reasons = missing.map(([name, reason]) => `${name}: ${reason}`).join('; ');
  throw new ConfigError(`NODE_ENV=production requires ${names} to be set (${reasons}). See README.md, Configuration.`);
}

/**
 * A delivery pump claims at most one batch ahead of its requests in flight, so a claimed delivery
 * waits for at most one attempt's time limit before its own attempt, then takes up to one more.
 * A claim older than JOB_STALL_AFTER_MS is taken over by another worker: shorter than both, and a
 * delivery still being sent by a live worker would be sent again.
 */
function requireStallAfterTwoTimeouts(jobStallAfterMs: number, webhookTimeoutMs: number): void {
  if (jobStallAfterMs > 2 * webhookTimeoutMs) return;
  throw new ConfigError(
    `JOB_STALL_AFTER_MS (${jobStallAfterMs}) must be more than twice WEBHOOK_TIMEOUT_MS (${webhookTimeoutMs}): ` +
      'a live worker may take that long to send and record a webhook delivery it claimed, and another worker would send it again',
  );
}

/**
 * The Bridge settings, key and webhook public key together or neither: a key without the public
 * key would open wallets and send payouts whose outcomes (Bridge's webhooks) Tessera could not
 * verify. The public key is parsed at start, so a truncated PEM fails here, not on the first event.
 */
function bridgeSettings(env: NodeJS.ProcessEnv): BridgeSettings | undefined {
  const apiKey = env.BRIDGE_API_KEY || undefined;
  const pem = env.BRIDGE_WEBHOOK_PUBLIC_KEY || undefined;
  if (!apiKey && !pem) return undefined;
  if (!apiKey)
    throw new ConfigError(
      'BRIDGE_WEBHOOK_PUBLIC_KEY is set but BRIDGE_API_KEY is not: set both, or neither (docs/live.md)',
    );
  if (!pem)
    throw new ConfigError(
      "BRIDGE_API_KEY is set but BRIDGE_WEBHOOK_PUBLIC_KEY is not: set the public key of Bridge's webhook endpoint (PEM, docs/live.md)",
    );
  if (!/^[\x21-\x7e]+$/.test(apiKey)) throw new ConfigError('BRIDGE_API_KEY must be a Bridge API key (no spaces)');
  // Environments often carry a PEM on one line with literal \n: accepted as newlines.
  const webhookPublicKey = pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem;
  try {
    const key = createPublicKey(webhookPublicKey);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
  } catch {
    throw new ConfigError(
      "BRIDGE_WEBHOOK_PUBLIC_KEY must be the RSA public key of Bridge's webhook endpoint, in PEM (-----BEGIN PUBLIC KEY-----…)",
    );
  }
  return { apiKey, webhookPublicKey, apiBase: url(env, 'BRIDGE_API_BASE') ?? 'https://api.bridge.xyz' };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  requireInProduction(env);
  const webhookTimeoutMs = int(env, 'WEBHOOK_TIMEOUT_MS', 30_000);
  const jobStallAfterMs = int(env, 'JOB_STALL_AFTER_MS', 2 * webhookTimeoutMs + 30_000);
  requireStallAfterTwoTimeouts(jobStallAfterMs, webhookTimeoutMs);
  const port = int(env, 'PORT', 4000);
  const mailSmtpUrl = smtpUrl(env);
  const dataDir = path.resolve(PROJECT_ROOT, env.TESSERA_DATA_DIR || '.data');
  const stripe = stripeSettings(env);
  return {
    production: env.NODE_ENV === 'production',
    port,
    // Loopback outside production: a sandbox on a laptop serves /metrics and the GraphQL page to
    // this machine only. Fastify binds every address `localhost` resolves to (127.0.0.1, ::1).
    host: env.HOST || LOOPBACK,
    trustProxy: trustProxyOf(env),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    embeddedPgPort: int(env, 'EMBEDDED_PG_PORT', 54329),
    systemDir: path.resolve(env.TESSERA_SYSTEM_DIR || '/var/lib/tessera'),
    embeddedPgSystemUser: env.EMBEDDED_PG_SYSTEM_USER || 'postgres',
    embeddedPgSocket: bool(env, 'EMBEDDED_PG_SOCKET', true),
    masterKey: env.TESSERA_MASTER_KEY || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    jwtTtlSeconds: 3600,
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'tessera:',
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    graphqlIntrospection: bool(env, 'GRAPHQL_INTROSPECTION', env.NODE_ENV !== 'production'),
    graphqlExplorer: bool(env, 'GRAPHQL_EXPLORER', env.NODE_ENV !== 'production'),
    graphqlMaxDepth: int(env, 'GRAPHQL_MAX_DEPTH', 10),
    graphqlMaxCost: int(env, 'GRAPHQL_MAX_COST', 5000),
    graphqlMaxMutationFields: int(env, 'GRAPHQL_MAX_MUTATION_FIELDS', 10),
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
    webhookTimeoutMs,
    webhookAllowPrivateTargets: bool(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', env.NODE_ENV !== 'production'),
    jobStallAfterMs,
    webhookRetryScheduleSeconds: secondsList(env, 'WEBHOOK_RETRY_SCHEDULE_S', [0, 30, 60, 90, 120]),
    subscriptionRecheckMs: int(env, 'SUBSCRIPTION_RECHECK_MS', 30_000),
    wsMaxConnectionsPerIp: Math.max(1, int(env, 'WS_MAX_CONNECTIONS_PER_IP', 100)),
    wsMaxSocketsPerCredential: Math.max(1, int(env, 'WS_MAX_SOCKETS_PER_CREDENTIAL', 20)),
    wsMaxSubscriptionsPerCredential: Math.max(1, int(env, 'WS_MAX_SUBSCRIPTIONS_PER_CREDENTIAL', 100)),
    paymentSettlementDelaySeconds: int(env, 'PAYMENT_SETTLEMENT_DELAY_S', 60),
    sandbox3dsAutoCompleteMs: int(env, 'SANDBOX_3DS_AUTO_COMPLETE_MS', 3000),
    payoutSandboxSettleMs: int(env, 'PAYOUT_SANDBOX_SETTLE_MS', 2000),
    signInMaxFailures: Math.max(1, int(env, 'SIGN_IN_MAX_FAILURES', 5)),
    signInFailureWindowSeconds: Math.max(1, int(env, 'SIGN_IN_FAILURE_WINDOW_S', 900)),
    signInLockoutSeconds: Math.max(1, int(env, 'SIGN_IN_LOCKOUT_S', 900)),
    checkoutMaxFailedAttemptsPerSession: Math.max(1, int(env, 'CHECKOUT_MAX_FAILED_ATTEMPTS_PER_SESSION', 5)),
    checkoutMaxFailedAttemptsPerLink: Math.max(1, int(env, 'CHECKOUT_MAX_FAILED_ATTEMPTS_PER_LINK', 20)),
    checkoutMaxFailedAttemptsPerCard: Math.max(1, int(env, 'CHECKOUT_MAX_FAILED_ATTEMPTS_PER_CARD', 5)),
    checkoutFailedAttemptsWindowSeconds: Math.max(1, int(env, 'CHECKOUT_FAILED_ATTEMPTS_WINDOW_S', 3600)),
    mailSmtpUrl,
    mailFrom: mailFrom(env, mailSmtpUrl),
    recurringGiftMaxFailures: Math.max(1, int(env, 'RECURRING_GIFT_MAX_FAILURES', 3)),
    recurringGiftRetryDelaySeconds: int(env, 'RECURRING_GIFT_RETRY_DELAY_S', 86_400),
    v1RateLimits: {
      windowMs: Math.max(1, int(env, 'V1_RATE_LIMIT_WINDOW_MS', 60_000)),
      liveCreate: int(env, 'V1_RATE_LIMIT_LIVE_CREATE', 100),
      liveRead: int(env, 'V1_RATE_LIMIT_LIVE_READ', 1000),
      testCreate: int(env, 'V1_RATE_LIMIT_TEST_CREATE', 25),
      testRead: int(env, 'V1_RATE_LIMIT_TEST_READ', 250),
    },
    ...metricsSettings(env, port),
    stripe,
    testModeCardAcquirer: testModeCardAcquirer(env, stripe),
    yellowcard: yellowcardSettings(env),
    bridge: bridgeSettings(env),
  };
}
