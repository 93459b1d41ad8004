import net from 'node:net';
import { Writable } from 'node:stream';
import {
  GraphQLField,
  GraphQLInputType,
  GraphQLObjectType,
  getNamedType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from 'graphql';
import { createTesseraPubSub } from '../src/domain/events/pubsub';
import { buildTesseraSchema } from '../src/graphql/schema';
import { EXPLORER_ASSETS_PATH } from '../src/graphql/explorer';
import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { issueV1Key, setVerified } from './support/v1';

/**
 * Fuzzing every route the server registers (enumerated as Fastify registers them) and every root
 * field of the GraphQL schema with hostile values: NUL bytes, lone surrogates, extreme numbers
 * (1e308, -0, 2^63, 1e309, "NaN"), dates PostgreSQL cannot hold, wrong types, deeply nested JSON,
 * over-long and badly percent-encoded path parameters, oversized headers, with and without valid
 * credentials. The rule: never a 5xx, and every failure in the error envelope. Hosted pages
 * (/checkout, /pay, /collect, /kyc) may answer HTML; their rule is never a 5xx, and HTML or the envelope on a failure.
 * Deterministic (fixed seed), a few thousand requests.
 */

const SEED = 0x7e55e7a;
const REQUESTS_PER_ROUTE = 24;
const REQUESTS_PER_HEAD_ROUTE = 4;
const VARIANTS_PER_GRAPHQL_FIELD = 8;
const CONCURRENCY = 8;
/** Requests of raw bytes (what fetch will not send), four on each of this many GET routes with a path parameter. */
const RAW_ROUTES = 6;

/**
 * Each test's time limit follows from its count: the most requests it may send (routes and root
 * fields up to these bounds, which the tests enforce) times a wall-clock budget per request, 8 at a
 * time, several times what a machine under a load average of 15 took (REST about 35 ms, GraphQL
 * about 75 ms). A limit, never a timing: a passing run on a quiet machine takes a small part of it.
 */
const REST_ROUTES_AT_MOST = 300;
const GRAPHQL_FIELDS_AT_MOST = 180;
const REST_MS_PER_REQUEST = 60;
const GRAPHQL_MS_PER_REQUEST = 150;
const REST_TIME_LIMIT_MS = (REST_ROUTES_AT_MOST * REQUESTS_PER_ROUTE + RAW_ROUTES * 4) * REST_MS_PER_REQUEST;
/** The GraphQL test also sends 8 whole documents and 8 raw bodies. */
const GRAPHQL_TIME_LIMIT_MS = (GRAPHQL_FIELDS_AT_MOST * VARIANTS_PER_GRAPHQL_FIELD + 16) * GRAPHQL_MS_PER_REQUEST;
/** A test that fuzzes more than its limit was sized for says so, rather than running out of time. */
function withinSizing(count: number, atMost: number, what: string) {
  if (count > atMost)
    throw new Error(`${count} ${what}, more than the ${atMost} this test's time limit is sized for: raise the bound`);
}

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function seeded(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    chance: (p: number) => next() < p,
    int: (max: number) => Math.floor(next() * max),
    uuid: () =>
      Array.from({ length: 16 }, () => Math.floor(next() * 256))
        .map((byte, i) =>
          (i === 6 ? (byte & 0x0f) | 0x40 : i === 8 ? (byte & 0x3f) | 0x80 : byte).toString(16).padStart(2, '0'),
        )
        .join('')
        .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
  };
}
type Random = ReturnType<typeof seeded>;

/** A JSON token written as is (numbers JSON.stringify cannot produce: -0, 1e309, 2^63 exactly). */
class Raw {
  constructor(readonly text: string) {}
}

function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const nested = (levels: number): unknown => (levels === 0 ? 'bottom' : { a: nested(levels - 1) });

const TEXTS = [
  'Ada \u0000 Lovelace',
  'lone \ud800 high',
  'lone \udfff low',
  '\u0000',
  'x'.repeat(5000),
  '',
  '   ',
  '😀 \u202e rtl',
  "'; DROP TABLE customers; --",
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '9223372036854775808',
  '-9223372036854775809',
  '99999-01-01',
  '-271821-04-20T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '2026-02-30',
  '10000-01-01T00:00:00Z',
  'usd',
  'USD',
  'XXX',
  'a@b.co',
  'not-an-email',
  'https://example.com/hook',
  'http://127.0.0.1:1/x',
  'javascript:alert(1)',
  '00000000-0000-0000-0000-000000000000',
  'tok_x',
  '4242424242424242',
  'null',
  'true',
  '{}',
  '%00',
  '\\u0000',
];
const NUMBERS = [
  '1e308',
  '-0',
  '9223372036854775808',
  '-9223372036854775809',
  '1e309',
  '-1e309',
  '0',
  '-1',
  '0.1',
  '1.5e-300',
  '123456789012345678901234567890',
  '4.2',
  '25',
  '100.50',
  '2147483648',
  '9007199254740993',
].map((text) => new Raw(text));
const OTHERS: unknown[] = [
  true,
  false,
  null,
  [],
  {},
  ['a', 1, null],
  { a: { b: 'c' } },
  nested(40),
  nested(10),
  Array.from({ length: 300 }, () => 'x'),
  { 'key\u0000': 1 },
  { 'lone\ud800': 'x' },
  [[[[[]]]]],
];

function anyValue(random: Random): unknown {
  const roll = random.next();
  if (roll < 0.45) return random.pick(TEXTS);
  if (roll < 0.7) return random.pick(NUMBERS);
  return random.pick(OTHERS);
}

const CARD = { number: '4242424242424242', expiryMonth: 12, expiryYear: 2031, cvv: '123' };

/**
 * A body each route accepts, so that one hostile change reaches the code behind its validation
 * (the domain, the database). Routes not listed take no body or get a generic one.
 */
function validBodyFor(url: string, credentials: { apiKey: string; apiSecret: string }): Record<string, unknown> {
  const rules: Array<[RegExp, Record<string, unknown>]> = [
    [/auth\/token$/, { apiKey: credentials.apiKey, apiSecret: credentials.apiSecret }],
    [/business\/config$/, { webhookUrl: 'https://example.com/hook' }],
    [/wallets\/fund$/, { currency: 'usd', amount: '10.00' }],
    [/webhook-endpoints$/, { url: 'https://example.com/hook', events: ['*'], description: 'fuzz' }],
    [/webhook-endpoints\/:id$/, { description: 'fuzz', events: ['wallet.funded'] }],
    [/rotate-secret$/, { gracePeriodHours: 24 }],
    [/replay$/, {}],
    [
      /payment\/charge$/,
      { amount: 25, currency: 'usd', email: 'payer@example.com', card: CARD, metadata: { order: '1' } },
    ],
    [/refunds$/, { amount: '1.00', reason: 'fuzz' }],
    [/resolve$/, { won: true }],
    [
      /business\/customers$/,
      { email: 'fuzz-new@example.com', firstName: 'Fuzz', lastName: 'Er', phoneNumber: '+2348012345678' },
    ],
    [/customers\/:customerId$/, { firstName: 'Fuzz', lastName: 'Er' }],
    [/payment-methods$/, { card: CARD }],
    [/api\/v1\/tokens$/, { card: CARD }],
    [/fraud\/rules$/, { type: 'card_country', countries: ['GB'], description: 'fuzz' }],
    [/fraud\/rules\/:id$/, { enabled: false, description: 'fuzz' }],
    [/fraud\/blocklist$/, { type: 'email', value: 'blocked@example.com', description: 'fuzz' }],
    [
      /(checkout|payment)\/session$/,
      {
        amount: 5,
        currency: 'usd',
        successUrl: 'https://example.com/ok',
        customerEmail: 'payer@example.com',
        description: 'fuzz',
        metadata: { k: 'v' },
      },
    ],
    [
      /payment-links$/,
      {
        name: 'Fuzz',
        amount: 5,
        currency: 'usd',
        description: 'fuzz',
        successUrl: 'https://example.com/ok',
        metadata: { k: 'v' },
      },
    ],
    [
      /business\/collections$/,
      {
        amount: 5_000,
        currency: 'ghs',
        country: 'GH',
        rail: 'momo',
        customer: { phone: '+233241234567', networkId: 'mtn-gh' },
        metadata: { k: 'v' },
      },
    ],
    [/collections\/:id\/pay$/, { amount: 5_000 }],
    [
      /business\/invoices$/,
      {
        customerEmail: 'client@example.com',
        currency: 'usd',
        description: 'fuzz',
        items: [{ description: 'Item', quantity: 2, unitAmount: '1.50' }],
      },
    ],
  ];
  return structuredClone(
    rules.find(([pattern]) => pattern.test(url))?.[1] ?? {
      amount: '10.00',
      currency: 'usd',
      name: 'Fuzz',
      email: 'fuzz@example.com',
    },
  );
}

/** A value close to `value` but hostile: NUL or a lone surrogate added to valid text, extreme numbers, wrong types, deep nesting. */
function hostile(value: unknown, random: Random): unknown {
  if (random.chance(0.15)) return anyValue(random);
  if (typeof value === 'string') {
    if (random.chance(0.6))
      return random.pick([
        `${value}\u0000`,
        `${value}\ud800`,
        `\udfff${value}`,
        `${value.slice(0, 1)}\u0000${value.slice(1)}`,
      ]);
    return random.pick([value.repeat(2000), '', new Raw('1e308'), null, [value], { value }]);
  }
  if (typeof value === 'number') return random.pick([...NUMBERS, String(value), 'NaN', -value, value + 0.001]);
  if (typeof value === 'boolean') return random.pick(['true', 1, null]);
  if (Array.isArray(value))
    return value.length > 0 && random.chance(0.6)
      ? [hostile(value[0], random), ...value.slice(1)]
      : random.pick([[], nested(40), 'x', [value]]);
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length > 0 && random.chance(0.7)) {
      const key = random.pick(keys);
      return { ...value, [key]: hostile((value as Record<string, unknown>)[key], random) };
    }
    return random.pick([[], 'x', nested(40), { ...value, 'bad\u0000key': 1 }]);
  }
  return anyValue(random);
}

const FIELDS = [
  'amount',
  'currency',
  'email',
  'customerEmail',
  'firstName',
  'lastName',
  'phoneNumber',
  'name',
  'description',
  'metadata',
  'url',
  'events',
  'status',
  'successUrl',
  'cancelUrl',
  'webhookUrl',
  'items',
  'dueDate',
  'type',
  'value',
  'countries',
  'bins',
  'domains',
  'maxAttemptsPerHour',
  'enabled',
  'reason',
  'apiKey',
  'apiSecret',
  'card',
  'token',
  'paymentMethodId',
  'customerId',
  'pin',
  'label',
  'details',
  'quantity',
  'unitAmount',
  'allowRecurring',
  'recurringInterval',
  'apiVersion',
  'gracePeriodHours',
  'outcome',
  'endpointId',
  'mode',
  'number',
  'expiryMonth',
  'expiryYear',
  'cvv',
  'from',
  'to',
];
const RAW_BODIES = [
  '"a string"',
  '[]',
  '123',
  'null',
  'true',
  '[{"a":1}]',
  '{',
  '{"a":1,}',
  '{"__proto__":{"x":1}}',
  `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
  `${'['.repeat(100)}${']'.repeat(100)}`,
  '{"amount":1e309,"currency":"usd"}',
  '{"amount":-0,"currency":"usd"}',
  '{"amount":9223372036854775808,"currency":"usd"}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
];

function jsonBody(random: Random, valid: Record<string, unknown>): string {
  const roll = random.next();
  if (roll < 0.08) return random.pick(RAW_BODIES);
  if (roll < 0.2) {
    const body: Record<string, unknown> = {};
    for (let i = 0; i < 1 + random.int(4); i++) body[random.pick(FIELDS)] = anyValue(random);
    return toJson(body);
  }
  if (roll < 0.25) return toJson(valid);
  const keys = Object.keys(valid);
  if (keys.length === 0) return toJson({ [random.pick(FIELDS)]: anyValue(random) });
  const body = { ...valid };
  for (let i = 0; i < (random.chance(0.8) ? 1 : 2); i++) {
    const key = random.pick(keys);
    body[key] = hostile(body[key], random);
  }
  return toJson(body);
}

/** Percent-encodes text for a URL; a lone surrogate (which encodeURIComponent refuses) becomes its raw UTF-8 bytes. */
const urlText = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
};

const PARAM_VALUES = [
  '%00',
  'abc%00def',
  '%ED%A0%80',
  '%zz',
  '%',
  'a'.repeat(600),
  '1e308',
  '-0',
  '9223372036854775808',
  'NaN',
  '00000000-0000-0000-0000-000000000000',
  '..%2F..%2Fetc',
  '%F0%9F%98%80',
  "'%20OR%201%3D1",
  '99999-01-01',
  'null',
  '%2500',
  '%E2%80%AE',
  'cs_test_x',
  'plink_test_x',
];
const VALID_QUERY: Record<string, string> = {
  from: '2026-01-01T00:00:00Z',
  to: '2030-01-01',
  limit: '10',
  page: '1',
  take: '10',
  skip: '0',
  status: 'completed',
  email: 'fuzz@example.com',
  type: 'wallet.funded',
  active: 'true',
  eventType: 'wallet.funded',
  first: '10',
  source: 'api',
  customerId: '00000000-0000-4000-8000-000000000000',
  after: 'eyJ4IjoxfQ',
  paymentLinkId: '00000000-0000-4000-8000-000000000000',
};
const RAW_QUERY_VALUES = [
  '%00',
  '%ED%A0%80',
  '%zz',
  '%FF%FE',
  '99999-01-01',
  '-271821-04-20',
  '1e308',
  '-0',
  '9223372036854775808',
  'NaN',
];

/** A few valid filters, one of them (or an unknown one) hostile. */
function queryString(random: Random): string {
  const names = Object.keys(VALID_QUERY);
  const chosen = Array.from({ length: random.int(4) }, () => random.pick(names));
  const hostileIndex = random.int(chosen.length + 1);
  const parts = chosen.map((name, index) => {
    if (index !== hostileIndex) return `${name}=${urlText(VALID_QUERY[name])}`;
    const raw = random.chance(0.4)
      ? random.pick(RAW_QUERY_VALUES)
      : urlText(String(hostile(VALID_QUERY[name], random)));
    return random.chance(0.1) ? `${name}=${raw}&${name}=${raw}` : `${name}=${raw}`;
  });
  if (random.chance(0.05)) parts.push('a[b][c]=1', '__proto__[x]=1');
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

const formBody = (random: Random) =>
  ['number', 'expiryMonth', 'expiryYear', 'cvv', 'email', 'name']
    .map(
      (field) => `${field}=${random.chance(0.3) ? random.pick(RAW_QUERY_VALUES) : urlText(String(random.pick(TEXTS)))}`,
    )
    .join('&');

interface Outcome {
  method: string;
  path: string;
  status: number;
  contentType: string;
  text: string;
  label: string;
}

async function send(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  label: string,
): Promise<Outcome> {
  try {
    const response = await fetch(`${server.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    return {
      method,
      path,
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      text: await response.text(),
      label,
    };
  } catch (error) {
    return { method, path, status: 0, contentType: '', text: `fetch failed: ${(error as Error).message}`, label };
  }
}

/** Raw bytes on a socket, for what fetch will not send (oversized headers, a malformed request line). */
function sendRaw(server: TestServer, request: string, label: string): Promise<Outcome> {
  const { port } = new URL(server.baseUrl);
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const [head, ...rest] = answer.split('\r\n\r\n');
      resolve({
        method: 'RAW',
        path: request.split('\r\n')[0].slice(0, 120),
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        contentType: /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '',
        text: rest.join('\r\n\r\n'),
        label,
      });
    });
  });
}

async function inPool<T>(tasks: Array<() => Promise<T>>, concurrency: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]();
      }
    }),
  );
  return results;
}

/** How many answers had each status, for the log line (shows what the fuzzer reached). */
const statusCounts = (outcomes: Outcome[]) =>
  JSON.stringify(
    outcomes.reduce<Record<number, number>>((counts, outcome) => {
      counts[outcome.status] = (counts[outcome.status] ?? 0) + 1;
      return counts;
    }, {}),
  );

// The hosted pages a payer's browser opens (src/hosted): HTML is their answer, errors included.
const isHosted = (path: string) => /^\/(checkout|pay|collect|kyc|3ds)(\/|$)/.test(path);
/** The alternate surface's paths (not `/v1/business/…`, the main surface's documented alias): their failures have the `/v1` body. */
const isV1 = (path: string) => /^\/v1(\/|\?|$)/.test(path) && !path.startsWith('/v1/business/');
const STACK = /\bat [\w.<>]+ \(|\.ts:\d+|\.js:\d+|node_modules/;

/** What is wrong with one answer, if anything. */
function violation(outcome: Outcome): string | null {
  if (outcome.status === 0) return 'no HTTP answer';
  if (outcome.status >= 500) return `status ${outcome.status}`;
  if (STACK.test(outcome.text)) return 'a stack trace in the body';
  if (outcome.method === 'HEAD' || outcome.status < 400) return null;
  if (isHosted(outcome.path) && outcome.contentType.startsWith('text/html')) return null;
  let body: any;
  try {
    body = JSON.parse(outcome.text);
  } catch {
    return 'a failure whose body is not JSON';
  }
  const error = body?.error;
  if (isV1(outcome.path)) {
    const v1Body =
      Object.keys(body ?? {}).length === 1 &&
      typeof error?.code === 'string' &&
      /^[a-z_]+$/.test(error.code) &&
      typeof error?.message === 'string';
    return v1Body ? null : 'a /v1 failure without the /v1 error body';
  }
  const enveloped =
    body?.success === false &&
    typeof error?.code === 'string' &&
    typeof error?.message === 'string' &&
    error?.statusCode === outcome.status;
  return enveloped ? null : 'a failure without the error envelope';
}

function graphqlViolation(outcome: Outcome): string | null {
  if (outcome.status === 0) return 'no HTTP answer';
  if (outcome.status >= 500) return `status ${outcome.status}`;
  if (STACK.test(outcome.text)) return 'a stack trace in the body';
  let body: any;
  try {
    body = JSON.parse(outcome.text);
  } catch {
    return 'a body that is not JSON';
  }
  // The HTTP layer (body limit, invalid JSON, nesting, rate limit) answers in the REST envelope.
  if (body?.success === false)
    return body.error?.statusCode === outcome.status ? null : 'an envelope whose statusCode is not the status';
  if (!('data' in body) && !Array.isArray(body?.errors)) return 'neither data nor errors';
  const internal = (body.errors ?? []).find((error: any) => error?.extensions?.code === 'INTERNAL_SERVER_ERROR');
  return internal ? `INTERNAL_SERVER_ERROR at ${JSON.stringify(internal.path)}` : null;
}

function report(failures: Array<Outcome & { problem: string }>, errorLog: string[]): string {
  return [
    ...failures
      .slice(0, 25)
      .map(
        (failure) =>
          `${failure.problem}: ${failure.method} ${failure.path.slice(0, 160)} [${failure.label}] -> ${failure.status} ${failure.text.slice(0, 200)}`,
      ),
    'server error log:',
    ...errorLog.slice(0, 10),
  ].join('\n');
}

describe('Fuzzing every REST route and GraphQL root field: never a 5xx, every failure enveloped', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let publishableKey: string;
  let v1Key: string;
  const routes: Array<{ method: string; url: string }> = [];
  /** Real ids and tokens by the path segment before them, so some requests reach the handlers' deeper code. */
  const known = new Map<string, string>();
  /** The server's error log, shown with a failure. */
  const errorLog: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        if (JSON.parse(line).level >= 50) errorLog.push(line.slice(0, 1500));
      done();
    },
  });

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'error' }, undefined, {
      logStream,
      onRoute: (route) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url });
      },
    });
    merchant = await server.signUp();
    const key = { 'x-api-key': merchant.apiKey };
    const credentials = await server.graphql('{ apiCredentials { publishableKey } }', undefined, key);
    publishableKey = credentials.body.data.apiCredentials[0].publishableKey;
    await setVerified(server, merchant.businessId, true);
    v1Key = await issueV1Key(server, merchant.businessId);
    const create = async (path: string, body: unknown) =>
      (await server.request('POST', path, { headers: key, body })).body?.data;
    await server.setTreasury(merchant.businessId, true);
    await server.graphql(
      'mutation { setServerToServerCharging(input: { enabled: true }) { serverToServerCharging userErrors { field message code } } }',
      undefined,
      { authorization: `Bearer ${merchant.token}` },
    );
    await create('/api/v1/business/sandbox/wallets/fund', { currency: 'usd', amount: '1000.00' });
    const payment = await create(
      '/api/v1/business/payment/charge',
      validBodyFor('/api/v1/business/payment/charge', merchant),
    );
    const disputed = await create(
      '/api/v1/business/payment/charge',
      validBodyFor('/api/v1/business/payment/charge', merchant),
    );
    const dispute = disputed?.id ? await create(`/api/v1/business/sandbox/payments/${disputed.id}/dispute`, {}) : null;
    const events = (await server.request('GET', '/api/v1/events', { headers: key })).body?.data?.items;
    const customer = await create('/api/v1/business/customers', {
      email: 'fuzz-customer@example.com',
      firstName: 'Fuzz',
    });
    const endpoint = await create('/api/v1/webhook-endpoints', { url: 'https://example.com/fuzz', events: ['*'] });
    const rule = await create('/api/v1/business/fraud/rules', { type: 'card_country', countries: ['GB'] });
    const entry = await create('/api/v1/business/fraud/blocklist', { type: 'ip', value: '192.0.2.7' });
    const session = await create('/api/v1/business/checkout/session', {
      amount: 5,
      currency: 'usd',
      successUrl: 'https://example.com/ok',
    });
    const link = await create('/api/v1/business/payment-links', { name: 'Fuzz', amount: 5, currency: 'usd' });
    const invoice = await create('/api/v1/business/invoices', {
      customerEmail: 'fuzz@example.com',
      currency: 'usd',
      amount: 5,
    });
    const collection = await create(
      '/api/v1/business/collections',
      validBodyFor('/api/v1/business/collections', merchant),
    );
    const wallets = (await server.request('GET', '/api/v1/business/wallets', { headers: key })).body.data.items;
    const tokenOf = (value: unknown) => /\/(?:checkout|pay|collect)\/([^/?#"]+)/.exec(JSON.stringify(value ?? {}))?.[1];
    const eft = await create('/api/v1/business/collections', {
      amount: 5_000,
      currency: 'zar',
      country: 'ZA',
      rail: 'eft',
    });
    const entries: Array<[string, unknown]> = [
      ['customers', customer?.customerId ?? customer?.id],
      ['webhook-endpoints', endpoint?.id],
      ['rules', rule?.id],
      ['blocklist', entry?.id],
      ['sessions', session?.id],
      ['payment-links', link?.id],
      ['invoices', invoice?.id],
      ['wallets', wallets?.[0]?.id],
      ['payments', payment?.id],
      ['disputes', dispute?.id ?? dispute?.dispute?.id],
      ['events', events?.[0]?.id],
      ['checkout', tokenOf(session)],
      ['3ds', tokenOf(session)],
      ['pay', tokenOf(link)],
      ['collections', collection?.id],
      ['collect', tokenOf(eft?.instructions)],
    ];
    for (const [segment, id] of entries) if (typeof id === 'string') known.set(segment, id);
    expect([...known.keys()].sort()).toEqual([
      '3ds',
      'blocklist',
      'checkout',
      'collect',
      'collections',
      'customers',
      'disputes',
      'events',
      'invoices',
      'pay',
      'payment-links',
      'payments',
      'rules',
      'sessions',
      'wallets',
      'webhook-endpoints',
    ]);
  });
  afterAll(async () => server.close());

  function credentialHeaders(random: Random, url: string): [Record<string, string>, string] {
    const roll = random.next();
    if (url.endsWith('/tokens') && roll < 0.6) return [{ 'x-publishable-key': publishableKey }, 'publishable key'];
    if (isV1(url) && roll < 0.6) return [{ authorization: `Bearer ${v1Key}` }, '/v1 key'];
    if (roll < 0.55) return [{ 'x-api-key': merchant.apiKey }, 'api key'];
    if (roll < 0.7) return [{ authorization: `Bearer ${merchant.token}` }, 'dashboard token'];
    if (roll < 0.8) return [{}, 'no credential'];
    if (roll < 0.88) return [{ 'x-publishable-key': publishableKey }, 'publishable key'];
    return [
      {
        authorization: random.pick([
          'Bearer x.y.z',
          `Bearer ${'a'.repeat(4000)}`,
          'Basic Zm9vOmJhcg==',
          'Bearer bk_test_nope',
        ]),
      },
      'bad credential',
    ];
  }

  function extraHeaders(random: Random, method: string): Record<string, string> {
    const headers: Record<string, string> = {};
    if (method === 'POST' && random.chance(0.3))
      headers['idempotency-key'] = random.pick([`fuzz-${random.int(1e9)}`, 'k'.repeat(300), ' ']);
    if (random.chance(0.15)) headers['x-service-mode'] = random.pick(['LIVE', 'live', 'bogus', '']);
    if (random.chance(0.15))
      headers['x-service-business-id'] = random.pick(['not-a-uuid', random.uuid(), merchant.businessId]);
    if (random.chance(0.1)) headers['x-request-id'] = random.pick(['ok-id', 'bad id with spaces', 'x'.repeat(300)]);
    return headers;
  }

  function pathFor(random: Random, url: string): string {
    const segments = url.split('/');
    return segments
      .map((segment, index) => {
        if (!segment.startsWith(':')) return segment;
        const real = known.get(segments[index - 1]) ?? known.get(segments[index - 2] ?? '');
        if (real && random.chance(0.6)) return real;
        return random.chance(0.2) ? random.uuid() : random.pick(PARAM_VALUES);
      })
      .join('/');
  }

  test(
    'every REST route: never a 5xx, every failure in the error envelope (HTML allowed on hosted pages)',
    async () => {
      const random = seeded(SEED);
      // The GraphQL explorer's bundle is a static file (minified code, whose text may look like a stack trace).
      const restRoutes = routes.filter(
        (route) => route.url !== '/graphql' && !route.url.startsWith(`${EXPLORER_ASSETS_PATH}/`),
      );
      expect(restRoutes.length).toBeGreaterThan(100);
      withinSizing(restRoutes.length, REST_ROUTES_AT_MOST, 'REST routes (REST_ROUTES_AT_MOST)');
      const tasks: Array<() => Promise<Outcome>> = [];
      // Regenerating the API key takes the fuzzer's own key away: that route goes last.
      const last: Array<() => Promise<Outcome>> = [];
      for (const route of restRoutes) {
        const count =
          route.method === 'HEAD' || route.method === 'OPTIONS' ? REQUESTS_PER_HEAD_ROUTE : REQUESTS_PER_ROUTE;
        for (let i = 0; i < count; i++) {
          const [credentials, who] = credentialHeaders(random, route.url);
          const headers = { ...credentials, ...extraHeaders(random, route.method) };
          const path = `${pathFor(random, route.url)}${route.method === 'GET' || route.method === 'HEAD' || random.chance(0.2) ? queryString(random) : ''}`;
          let body: string | undefined;
          if (
            ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) &&
            random.chance(route.method === 'DELETE' ? 0.3 : 0.9)
          ) {
            if (isHosted(route.url) && random.chance(0.7)) {
              headers['content-type'] = 'application/x-www-form-urlencoded';
              body = formBody(random);
            } else {
              headers['content-type'] = random.chance(0.9)
                ? 'application/json'
                : random.pick(['text/plain', 'application/json; charset=utf-16', 'application/xml']);
              body = jsonBody(random, validBodyFor(route.url, merchant));
            }
          }
          (route.url.endsWith('/regenerate-api-key') ? last : tasks).push(() =>
            send(server, route.method, path, headers, body, `${who}; ${route.method} ${route.url}`),
          );
        }
      }
      // What fetch will not send, on a few routes with a path parameter.
      const rawRoutes = restRoutes
        .filter((route) => route.method === 'GET' && route.url.includes('/:'))
        .slice(0, RAW_ROUTES);
      for (const route of rawRoutes) {
        const path = route.url.replace(/:[^/]+/g, 'x');
        tasks.push(() =>
          sendRaw(
            server,
            `GET ${path} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
            'oversized headers',
          ),
        );
        tasks.push(() =>
          sendRaw(
            server,
            `GET ${route.url.replace(/:[^/]+/g, '%zz')} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
            'bad percent-encoding',
          ),
        );
        tasks.push(() =>
          sendRaw(server, `GET ${path} HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n`, 'malformed header'),
        );
        tasks.push(() =>
          sendRaw(server, `GET ${path}?${'q'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 'over-long URL'),
        );
      }

      const started = Date.now();
      const outcomes = [...(await inPool(tasks, CONCURRENCY)), ...(await inPool(last, CONCURRENCY))];
      const failures = outcomes
        .map((outcome) => ({ ...outcome, problem: violation(outcome) ?? '' }))
        .filter((outcome) => outcome.problem);
      console.log(
        `REST fuzz: ${outcomes.length} requests over ${restRoutes.length} routes in ${Date.now() - started} ms; statuses ${statusCounts(outcomes)}`,
      );
      if (failures.length > 0)
        throw new Error(
          `${failures.length} of ${outcomes.length} answers broke the rule:\n${report(failures, errorLog)}`,
        );
    },
    REST_TIME_LIMIT_MS,
  );

  test(
    'every GraphQL root field with hostile variables: never a 5xx, never INTERNAL_SERVER_ERROR',
    async () => {
      const random = seeded(SEED + 1);
      // The REST fuzz regenerated the API key; take a working one again.
      const regenerated = await server.graphql(
        'mutation { regenerateApiKey(input: { mode: TEST }) { regeneratedApiKey { apiKey } } }',
        undefined,
        { authorization: `Bearer ${merchant.token}` },
      );
      merchant.apiKey = regenerated.body.data.regenerateApiKey.regeneratedApiKey.apiKey;
      const { pubSub, close } = createTesseraPubSub();
      const schema = await buildTesseraSchema(pubSub);
      await close();

      const INTS = [
        0,
        -1,
        1,
        20,
        100,
        2 ** 31,
        2 ** 53,
        new Raw('9223372036854775808'),
        new Raw('1e308'),
        new Raw('-0'),
        'NaN',
        1.5,
      ];
      const DATES = [
        '0000-01-01T00:00:00Z',
        '99999-01-01T00:00:00Z',
        '2026-01-01T00:00:00Z',
        '2026-02-30T00:00:00Z',
        'yesterday',
        '1e308',
      ];
      const JSONS: unknown[] = [
        nested(40),
        { 'k\u0000': 1 },
        { a: 'lone \ud800' },
        { a: [1, { b: null }] },
        'not an object',
        [],
        { a: new Raw('1e309') },
      ];

      const valueFor = (type: GraphQLInputType, depth = 0): unknown => {
        if (isNonNullType(type)) return random.chance(0.05) ? null : valueFor(type.ofType, depth);
        if (random.chance(0.08) || depth > 4) return anyValue(random);
        if (isListType(type)) return Array.from({ length: random.int(3) }, () => valueFor(type.ofType, depth + 1));
        if (isInputObjectType(type)) {
          const value: Record<string, unknown> = {};
          for (const field of Object.values(type.getFields()))
            if (isNonNullType(field.type) || random.chance(0.7)) value[field.name] = valueFor(field.type, depth + 1);
          if (random.chance(0.05)) value.notAField = 'x';
          return value;
        }
        if (isEnumType(type)) return random.chance(0.8) ? random.pick(type.getValues()).name : random.pick(TEXTS);
        switch (getNamedType(type).name) {
          case 'Int':
          case 'Float':
            return random.pick(INTS);
          case 'Boolean':
            return random.pick([true, false, 'true', 0]);
          case 'DateTimeISO':
            return random.pick(DATES);
          case 'JSONObject':
            return random.pick(JSONS);
          default: {
            const plausible = random.pick([
              '10.00',
              'usd',
              'fuzz@example.com',
              'https://example.com/h',
              random.uuid(),
              '4242424242424242',
              'Fuzz',
            ]);
            return random.chance(0.4)
              ? plausible
              : random.chance(0.5)
                ? hostile(plausible, random)
                : random.pick(TEXTS);
          }
        }
      };

      /** A value of `type` that its field accepts, guessed from the type and the field's name. */
      const validFor = (type: GraphQLInputType, name: string, depth = 0): unknown => {
        if (isNonNullType(type)) return validFor(type.ofType, name, depth);
        if (isListType(type)) return depth > 4 ? [] : [validFor(type.ofType, name, depth + 1)];
        if (isInputObjectType(type)) {
          const value: Record<string, unknown> = {};
          for (const field of Object.values(type.getFields())) {
            if (depth <= 4 && (isNonNullType(field.type) || random.chance(0.6)))
              value[field.name] = validFor(field.type, field.name, depth + 1);
          }
          return value;
        }
        if (isEnumType(type)) return type.getValues()[0].name;
        const guesses: Array<[RegExp, unknown]> = [
          [/email/i, 'fuzz@example.com'],
          [/url/i, 'https://example.com/h'],
          [/currenc/i, 'usd'],
          [/amount/i, '10.00'],
          [/password/i, 'correct horse battery'],
          [/^number$/, '4242424242424242'],
          [/cvv/i, '123'],
          [/phone/i, '+2348012345678'],
          [/events/i, '*'],
          [/countr/i, 'GB'],
          [/date/i, '2030-01-01'],
          [/expiryMonth/, 12],
          [/expiryYear/, 2031],
          [/^first$/, 10],
          [/id$/i, random.uuid()],
        ];
        switch (getNamedType(type).name) {
          case 'Int':
          case 'Float':
            return guesses.find(([pattern]) => pattern.test(name))?.[1] ?? 1;
          case 'Boolean':
            return true;
          case 'DateTimeISO':
            return '2026-01-01T00:00:00Z';
          case 'JSONObject':
            return { k: 'v' };
          default:
            return guesses.find(([pattern]) => pattern.test(name))?.[1] ?? 'Fuzz';
        }
      };

      const operationsOf = (root: GraphQLObjectType | null | undefined, kind: 'query' | 'mutation') =>
        Object.values(root?.getFields() ?? {}).map((field: GraphQLField<unknown, unknown>) => {
          const definitions = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
          const args = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
          const selection = isCompositeType(getNamedType(field.type)) ? ' { __typename }' : '';
          return {
            field,
            query: `${kind} Fuzz${definitions ? `(${definitions})` : ''} { ${field.name}${args ? `(${args})` : ''}${selection} }`,
          };
        });
      // Mutations that would take the fuzzer's own credential away run last.
      const last = new Set(['regenerateApiKey', 'removeTeamMember', 'changeTeamMemberRole']);
      const operations = [
        ...operationsOf(schema.getQueryType(), 'query'),
        ...operationsOf(schema.getMutationType(), 'mutation'),
      ].sort((a, b) => Number(last.has(a.field.name)) - Number(last.has(b.field.name)));
      expect(operations.length).toBeGreaterThan(50);
      withinSizing(operations.length, GRAPHQL_FIELDS_AT_MOST, 'GraphQL root fields (GRAPHQL_FIELDS_AT_MOST)');

      const post = (headers: Record<string, string>, body: string, label: string) =>
        send(server, 'POST', '/graphql', { 'content-type': 'application/json', ...headers }, body, label);
      const credentialsFor = (): [Record<string, string>, string] =>
        random.pick([
          [{}, 'no credential'],
          [{ 'x-api-key': merchant.apiKey }, 'api key'],
          [{ authorization: `Bearer ${merchant.token}` }, 'dashboard token'],
        ] as Array<[Record<string, string>, string]>);

      const tasks: Array<() => Promise<Outcome>> = [];
      const ordered: Array<() => Promise<Outcome>> = [];
      for (const { field, query } of operations) {
        for (let i = 0; i < VARIANTS_PER_GRAPHQL_FIELD; i++) {
          const variables: Record<string, unknown> = {};
          if (random.chance(0.7)) {
            // A valid set of arguments with one hostile value somewhere inside.
            for (const arg of field.args) variables[arg.name] = validFor(arg.type, arg.name);
            if (field.args.length > 0) {
              const arg = random.pick(field.args).name;
              variables[arg] = hostile(variables[arg], random);
            }
          } else {
            for (const arg of field.args)
              if (isNonNullType(arg.type) || random.chance(0.7)) variables[arg.name] = valueFor(arg.type);
          }
          const [headers, who] = credentialsFor();
          const body = toJson({ query, variables, operationName: 'Fuzz' });
          (last.has(field.name) ? ordered : tasks).push(() => post(headers, body, `${who}; ${field.name}`));
        }
      }
      const documents = [
        'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }',
        'query { ...Missing }',
        `mutation { ${Array.from({ length: 1000 }, (_, i) => `a${i}: signIn(input: { email: "a@b.co", password: "x" }) { session { token } }`).join(' ')} }`,
        `{ me { ${'memberships { business { id } user { '.repeat(30)}id${' } }'.repeat(30)} } }`,
        `{ ${Array.from({ length: 3000 }, (_, i) => `w${i}: __typename`).join(' ')} }`,
        `query { ${'a'.repeat(100_000)} }`,
        'query Fuzz($x: String) { __typename }',
        '{ createCustomer(input: { email: "a@b.co", firstName: "\\u0000" }) { customer { id } } }',
      ];
      for (const document of documents) {
        const [headers, who] = credentialsFor();
        tasks.push(() => post(headers, toJson({ query: document }), `${who}; document`));
      }
      for (const raw of [
        '{"query": 1}',
        '{"query":"{ __typename }","variables":"x"}',
        '{"query":"{ __typename }","variables":[1]}',
        '{"query":"{ __typename }","operationName":"a\\u0000"}',
        '{"query":"{ __typename }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"x"}}}',
        '[{"query":"{ __typename }"}]',
        '{"query":"{ __typename }","variables":{"x":"\\ud800"}}',
        `{"query":"{ __typename }","variables":${toJson(nested(40))}}`,
      ]) {
        tasks.push(() => post({ 'x-api-key': merchant.apiKey }, raw, 'raw body'));
      }

      const started = Date.now();
      const outcomes = [...(await inPool(tasks, CONCURRENCY)), ...(await inPool(ordered, 1))];
      const failures = outcomes
        .map((outcome) => ({ ...outcome, problem: graphqlViolation(outcome) ?? '' }))
        .filter((outcome) => outcome.problem);
      console.log(
        `GraphQL fuzz: ${outcomes.length} requests over ${operations.length} root fields in ${Date.now() - started} ms; statuses ${statusCounts(outcomes)}`,
      );
      if (failures.length > 0)
        throw new Error(
          `${failures.length} of ${outcomes.length} answers broke the rule:\n${report(failures, errorLog)}`,
        );
    },
    GRAPHQL_TIME_LIMIT_MS,
  );
});
