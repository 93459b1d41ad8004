import 'reflect-metadata';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { FastifyInstance } from 'fastify';
import { createClient, Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { Config, loadConfig } from '../../src/config';
import { buildTesseraSchema } from '../../src/graphql/schema';
import { RequestContext } from '../../src/domain/shared/context';
import { BuildOptions, buildApp } from '../../src/server/app';
import { guardCredentialSurface } from '../../src/http/surface';
import { startWorker, stopWorker } from '../../src/jobs/worker';
import { Runtime, openRuntime } from '../../src/runtime';
import { SubscriptionListeners, TesseraPubSub } from '../../src/domain/events/pubsub';
import { PATIENCE_MS, sleep, waitFor } from './wait';

export { PATIENCE_MS, sleep, waitFor, waitUntil, within } from './wait';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestServer {
  baseUrl: string;
  wsUrl: string;
  runtime: Runtime;
  app: FastifyInstance;
  databaseUrl: string;
  /** Set by `startDeliveringServer`: a worker runs this server's jobs on the same DataSource. */
  hasWorker?: boolean;
  request<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  graphql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<ApiResponse<{ data?: T; errors?: any[] }>>;
  subscribe(connectionParams: Record<string, unknown>): WsClient;
  /** A graphql-ws client that also reports when the server acknowledged it and when (and how) the socket closed. */
  socket(connectionParams: Record<string, unknown>): TestSocket;
  /**
   * A merchant as the dashboard makes one: `signUp`, the code from the sandbox mailbox, then
   * `confirmSignUp`. Returns the new OWNER's token and the business's test credentials.
   */
  signUp(
    overrides?: Partial<{ email: string; password: string; name: string; businessName: string }>,
  ): Promise<TestMerchant>;
  /** A merchant made as `tessera business create` makes one, without HTTP requests (no rate-limit budget spent). */
  createMerchant(): Promise<TestMerchant>;
  /** The sandbox mailbox's messages to `email`, newest first. */
  mailTo(email: string): Promise<SandboxMessage[]>;
  /**
   * Joins `member` to the business of `owner` with a role, as people do: the owner invites the
   * member's email and the member accepts. Returns the new membership's id.
   */
  addTeamMember(owner: TestMerchant, member: TestMerchant, role: string): Promise<string>;
  /** Issues the merchant's live credentials (as its OWNER in the dashboard) and returns the live key. */
  liveKeyOf(merchant: TestMerchant): Promise<string>;
  /** Switches the treasury product of a business, as the operator command `tessera business update` does. */
  setTreasury(businessId: string, enabled: boolean): Promise<void>;
  close(): Promise<void>;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

export interface TestSocket {
  client: WsClient;
  /** Resolves once the server acknowledged the connection (connection_ack). */
  connected: Promise<void>;
  /** Resolves with the close code and reason of the first close of the socket. */
  closed: Promise<CloseInfo>;
}
export interface SandboxMessage {
  subject: string;
  text: string;
}

/** The 6-digit code of a sign-up mail. */
export const codeIn = (message: SandboxMessage | undefined): string | null =>
  /\b(\d{6})\b/.exec(message?.text ?? '')?.[1] ?? null;

export interface TestMerchant {
  userId: string;
  businessId: string;
  token: string;
  apiKey: string;
  apiSecret: string;
  email: string;
  password: string;
}

/**
 * A fresh database on the run's PostgreSQL: empty (the migrations run when a server opens it), or
 * with `migrated`, a copy of the database the run's global setup built with the migrations (the
 * same schema, made once per run instead of once per test file).
 */
export async function createTestDatabase({ migrated = false }: { migrated?: boolean } = {}): Promise<string> {
  const adminUrl = process.env.TESSERA_TEST_ADMIN_URL;
  if (!adminUrl) throw new Error('TESSERA_TEST_ADMIN_URL is not set: run the tests through jest (global setup)');
  const name = `tessera_test_${crypto.randomBytes(6).toString('hex')}`;
  const template = migrated ? process.env.TESSERA_TEST_TEMPLATE_DB : undefined;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropTestDatabase(databaseUrl: string): Promise<void> {
  const admin = new Client({ connectionString: process.env.TESSERA_TEST_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(databaseUrl).pathname.slice(1)}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export function testConfig(databaseUrl: string, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ NODE_ENV: 'test' }),
    databaseUrl,
    dataDir: path.join(os.tmpdir(), 'tessera-test-data'),
    masterKey: 'test-master-key',
    jwtSecret: 'test-jwt-secret',
    logLevel: 'silent',
    rateLimitMax: 100_000,
    port: 0,
    host: '127.0.0.1',
    ...overrides,
  };
}

/**
 * Every REST answer of every test is checked against the OpenAPI document (route, method, status,
 * body); closing a server fails its test file when one did not match, or when a route answered a
 * status it does not declare.
 */

/**
 * Starts the whole server on a random port over a fresh, migrated database. `configure` may add
 * test-only routes before the server listens (e.g. one that throws, to test the 500 envelope), in a
 * surface of their own behind the same guards as REST (credential, budget, idempotency);
 * `build.logStream` receives the log lines (with a `logLevel` other than silent).
 */
export async function startTestServer(
  overrides: Partial<Config> = {},
  configure?: (app: FastifyInstance) => void,
  build: BuildOptions = {},
): Promise<TestServer> {
  const ownsDatabase = !overrides.databaseUrl;
  const databaseUrl = overrides.databaseUrl ?? (await createTestDatabase({ migrated: true }));
  const runtime = await openRuntime(testConfig(databaseUrl, overrides));
  const schema = await buildTesseraSchema(runtime.core.pubSub);
  const mismatches: string[] = [];
  const app = await buildApp(runtime.core, schema, {
    onResponseMismatch: (problem) => mismatches.push(problem),
    ...build,
  });
  if (configure) {
    await app.register(async (scope) => {
      guardCredentialSurface(scope, runtime.core);
      configure(scope);
    });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;
  const wsUrl = `ws://127.0.0.1:${port}/graphql`;
  const sockets: WsClient[] = [];

  const request: TestServer['request'] = async (method, urlPath, options = {}) => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${urlPath}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text so a test can say what came back
    }
    return { status: response.status, headers: response.headers, body: parsed as any };
  };

  const server: TestServer = {
    baseUrl,
    wsUrl,
    runtime,
    app,
    databaseUrl,
    request,
    graphql: (query, variables, headers = {}) => request('POST', '/graphql', { body: { query, variables }, headers }),
    subscribe: (connectionParams) => server.socket(connectionParams).client,
    socket: (connectionParams) => {
      let onConnected: () => void = () => undefined;
      let onClosed: (info: CloseInfo) => void = () => undefined;
      const connected = new Promise<void>((resolve) => {
        onConnected = resolve;
      });
      const closed = new Promise<CloseInfo>((resolve) => {
        onClosed = resolve;
      });
      const client = createClient({
        url: wsUrl,
        webSocketImpl: WebSocket,
        connectionParams,
        retryAttempts: 0,
        lazy: false,
        onNonLazyError: () => undefined,
        on: {
          connected: () => onConnected(),
          closed: (event) => onClosed({ code: (event as CloseInfo).code, reason: String((event as CloseInfo).reason) }),
        },
      });
      serverOfClient.set(client, runtime.core.pubSub.listeners);
      sockets.push(client);
      return { client, connected, closed };
    },
    signUp: async (overrides = {}) => {
      const suffix = crypto.randomBytes(4).toString('hex');
      const input = {
        email: `owner-${suffix}@example.com`,
        password: 'correct horse battery',
        name: 'Ada Owner',
        businessName: `Business ${suffix}`,
        ...overrides,
      };
      const started = await server.graphql(
        'mutation($input: SignUpInput!) { signUp(input: $input) { pendingSignUp { signUpToken } userErrors { field message code } } }',
        { input },
      );
      if (!started.body.data?.signUp.pendingSignUp) throw new Error(`signUp failed: ${JSON.stringify(started.body)}`);
      const [mail] = await server.mailTo(input.email);
      const code = codeIn(mail);
      if (!code) throw new Error(`no sign-up code was mailed to ${input.email}: ${JSON.stringify(mail)}`);
      const response = await server.graphql(
        `mutation($input: ConfirmSignUpInput!) {
          confirmSignUp(input: $input) {
            account { token user { id } business { id } testCredentials { apiKey apiSecret } }
            userErrors { field message code }
          }
        }`,
        { input: { signUpToken: started.body.data.signUp.pendingSignUp.signUpToken, code } },
      );
      if (!response.body.data?.confirmSignUp.account)
        throw new Error(`confirmSignUp failed: ${JSON.stringify(response.body)}`);
      const result = response.body.data.confirmSignUp.account;
      return {
        userId: result.user.id,
        businessId: result.business.id,
        token: result.token,
        apiKey: result.testCredentials.apiKey,
        apiSecret: result.testCredentials.apiSecret,
        email: input.email,
        password: input.password,
      };
    },
    mailTo: (email) =>
      runtime.dataSource.query(
        'SELECT subject, text FROM sandbox_mail WHERE recipient = lower($1) ORDER BY created_at DESC, id DESC',
        [email.trim()],
      ),
    createMerchant: async () => {
      const email = `operator-${crypto.randomBytes(4).toString('hex')}@example.com`;
      const password = 'correct horse battery';
      const { user, business, credentials, token } =
        await runtime.core.identity.businesses.createBusinessWithOwnerAccount(runtime.core.anonymousContext(), {
          name: 'Operator Co',
          email,
          password,
        });
      return {
        userId: user.id,
        businessId: business.id,
        token,
        apiKey: credentials.apiKey,
        apiSecret: credentials.apiSecret,
        email,
        password,
      };
    },
    addTeamMember: async (owner, member, role) => {
      const invited = await server.graphql(
        'mutation($input: InviteTeamMemberInput!) { inviteTeamMember(input: $input) { teamInvitation { id } userErrors { field message code } } }',
        { input: { email: member.email, role } },
        { authorization: `Bearer ${owner.token}`, 'x-service-business-id': owner.businessId },
      );
      if (!invited.body.data?.inviteTeamMember.teamInvitation)
        throw new Error(`inviteTeamMember failed: ${JSON.stringify(invited.body)}`);
      const accepted = await server.graphql(
        'mutation($input: AcceptTeamInvitationInput!) { acceptTeamInvitation(input: $input) { membership { id } userErrors { field message code } } }',
        { input: { id: invited.body.data.inviteTeamMember.teamInvitation.id } },
        { authorization: `Bearer ${member.token}` },
      );
      if (!accepted.body.data?.acceptTeamInvitation.membership)
        throw new Error(`acceptTeamInvitation failed: ${JSON.stringify(accepted.body)}`);
      return accepted.body.data.acceptTeamInvitation.membership.id;
    },
    liveKeyOf: async (merchant) => {
      const issued = await server.graphql(
        'mutation { createLiveCredentials { credentials { apiKey } userErrors { field message code } } }',
        {},
        { authorization: `Bearer ${merchant.token}` },
      );
      if (!issued.body.data?.createLiveCredentials.credentials)
        throw new Error(`createLiveCredentials failed: ${JSON.stringify(issued.body)}`);
      return issued.body.data.createLiveCredentials.credentials.apiKey;
    },
    setTreasury: async (businessId, enabled) => {
      await runtime.core.identity.businesses.updateAsOperator(
        RequestContext.system(runtime.dataSource, 'test', businessId),
        { treasuryEnabled: enabled },
      );
    },
    close: async () => {
      await Promise.all(sockets.map(async (socket) => socket.dispose()));
      await app.close();
      await runtime.close();
      if (ownsDatabase) await dropTestDatabase(databaseUrl);
      const failing = [...new Set(mismatches)];
      if (failing.length > 0)
        throw new Error(`REST and /v1 answers that do not match their OpenAPI document:\n${failing.join('\n')}`);
    },
  };
  return server;
}

/**
 * A test server with a graphile-worker in this process, so webhooks are delivered (one attempt by
 * default); `close` stops the worker first. The attempt's time limit is generous: the receivers
 * answer from this same busy process, and an answer late by a loaded machine is still a success.
 */
export async function startDeliveringServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const server = await startTestServer({
    webhookRetryScheduleSeconds: [0],
    webhookTimeoutMs: 10_000,
    workerPollIntervalMs: 50,
    ...overrides,
  });
  const worker = await startWorker(server.runtime.core, server.databaseUrl, () => undefined);
  const closeServer = server.close.bind(server);
  server.close = async () => {
    await stopWorker(worker);
    await closeServer();
  };
  server.hasWorker = true;
  return server;
}

/**
 * Waits until the worker has nothing running and nothing due in the next few seconds (a payout
 * settling, a schedule's run firing): its statements go through the server's DataSource and would
 * otherwise be counted with a request's.
 */
export async function jobsAtRest(server: TestServer): Promise<void> {
  await waitFor(
    async () =>
      (
        await server.runtime.dataSource.query(
          `SELECT count(*)::int AS n FROM graphile_worker.jobs
        WHERE attempts < max_attempts AND (locked_at IS NOT NULL OR run_at < now() + interval '5 seconds')`,
        )
      )[0].n as number,
    (busy) => busy === 0,
  );
}

/**
 * The delivery pump's claim of due webhook deliveries: a delivering server's worker sends it every
 * WORKER_POLL_INTERVAL_MS whatever the test does, so it is not a statement of the request counted.
 */
const isDeliveryPumpClaim = (sql: string) => /SET claimed_at = now\(\)/.test(sql);

/**
 * The SQL statements `run` sends through the server's DataSource (what a query per row would add
 * to), without the delivery pump's periodic claim: the fewer of `runs` runs, once a server's worker
 * is at rest, so a statement of the worker (a dispatch of an earlier test's payout) is not counted.
 */
export async function countStatements(server: TestServer, run: () => Promise<unknown>, runs = 2): Promise<number> {
  const counts: number[] = [];
  if (server.hasWorker) await jobsAtRest(server);
  for (let attempt = 0; attempt < runs; attempt += 1) {
    const spy = jest.spyOn(server.runtime.dataSource.logger, 'logQuery');
    try {
      await run();
      counts.push(spy.mock.calls.filter(([sql]) => !isDeliveryPumpClaim(sql)).length);
    } finally {
      spy.mockRestore();
    }
  }
  return Math.min(...counts);
}

/** A log stream for `startTestServer`'s `logStream`, and the JSON lines the server wrote to it. */
export function capturedLog(): { logStream: Writable; lines: Array<Record<string, any>> } {
  const lines: Array<Record<string, any>> = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logStream, lines };
}

/** What a query or mutation sent over a socket came to: its result, or the socket's close. */
export type SocketOutcome =
  | { result: { data?: any; errors?: any[]; extensions?: Record<string, unknown> }; closed?: undefined }
  | { closed: CloseInfo; result?: undefined };

/**
 * Runs one query or mutation over a graphql-ws client and returns its result, or how the socket
 * closed instead; rejects when neither happens by the deadline.
 */
export function overSocket(
  client: WsClient,
  query: string,
  variables?: Record<string, unknown>,
  extensions?: Record<string, unknown>,
  timeoutMs = PATIENCE_MS,
): Promise<SocketOutcome> {
  return new Promise((resolve, reject) => {
    let result: SocketOutcome['result'];
    const timer = setTimeout(() => reject(new Error(`no result or close within ${timeoutMs} ms`)), timeoutMs);
    client.subscribe(
      { query, variables, extensions },
      {
        next: (value) => {
          result = value as SocketOutcome['result'];
        },
        error: (error) => {
          clearTimeout(timer);
          const close = error as Partial<CloseInfo>;
          if (typeof close?.code === 'number') resolve({ closed: { code: close.code, reason: String(close.reason) } });
          else if (Array.isArray(error)) resolve({ result: { errors: error } });
          else reject(error);
        },
        complete: () => {
          clearTimeout(timer);
          resolve({ result: result ?? {} });
        },
      },
    );
  });
}

const serverOfClient = new WeakMap<WsClient, SubscriptionListeners>();
const lastClaim = new WeakMap<SubscriptionListeners, number>();

/**
 * Subscribes and gathers `count` results of a graphql-ws subscription. `done` resolves as soon as
 * `count` results arrived, or with what arrived by the deadline (the test's expectations judge it).
 * `ready` resolves when the server's subscription listens, so nothing published after it is
 * missed: each collect claims the next listener registration of the client's server.
 * A test that expects a subscriber to see nothing of some events triggers, last, an event the
 * subscriber does see: delivery is in order, so once it arrives anything wrongly sent before it
 * would have arrived too.
 */
export function collect<T = any>(
  client: WsClient,
  query: string,
  count: number,
  timeoutMs = PATIENCE_MS,
): { done: Promise<T[]>; ready: Promise<void>; received: T[] } {
  const listeners = serverOfClient.get(client);
  const claim = listeners ? Math.max(listeners.readyCount(), lastClaim.get(listeners) ?? 0) + 1 : 0;
  if (listeners) lastClaim.set(listeners, claim);
  const results: T[] = [];
  let settled = false;
  const done = new Promise<T[]>((resolve, reject) => {
    let unsubscribe: () => void = () => undefined;
    const timer = setTimeout(() => {
      unsubscribe();
      resolve(results);
    }, timeoutMs);
    unsubscribe = client.subscribe<T>(
      { query },
      {
        next: (value) => {
          if (value.errors) {
            clearTimeout(timer);
            reject(new Error(JSON.stringify(value.errors)));
            return;
          }
          results.push(value.data as T);
          if (results.length >= count) {
            clearTimeout(timer);
            unsubscribe();
            resolve(results);
          }
        },
        error: (error) => {
          clearTimeout(timer);
          reject(error);
        },
        complete: () => {
          clearTimeout(timer);
          resolve(results);
        },
      },
    );
  });
  const finished = done
    .then(
      () => undefined,
      () => undefined,
    )
    .finally(() => {
      settled = true;
    });
  const listening = (async () => {
    if (!listeners) throw new Error('collect(): only a client from server.subscribe() can tell when it listens');
    const deadline = Date.now() + timeoutMs;
    while (listeners.readyCount() < claim && !settled) {
      if (Date.now() > deadline) throw new Error(`the subscription did not start listening within ${timeoutMs} ms`);
      await sleep(5);
    }
  })();
  // A subscription the server refuses never listens: its outcome is in `done`.
  const ready = Promise.race([listening, finished]);
  ready.catch(() => undefined); // only a test that awaits `ready` hears of its failure
  return { done, ready, received: results };
}

/**
 * What a subscriber that must hear nothing heard. `publishLast` publishes, last, a change in the
 * subscriber's own business and mode of a row that does not exist (`unknownId`), which the
 * subscriber hears as NOT_FOUND, ending its collect. Publications reach a subscriber in order, so
 * whatever was wrongly sent to it before has arrived by then: returns what arrived before it.
 * For a mode that has no rows to change (live mode in the sandbox), where no real message can end the silence.
 */
export async function heardBefore<T>(
  server: TestServer,
  subscriber: { done: Promise<T[]>; received: T[] },
  publishLast: (pubSub: TesseraPubSub, unknownId: string) => void,
): Promise<T[]> {
  publishLast(server.runtime.core.pubSub, crypto.randomUUID());
  await expect(subscriber.done).rejects.toThrow(/NOT_FOUND/);
  return subscriber.received;
}
