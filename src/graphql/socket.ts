import crypto from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { Duplex } from 'node:stream';
import { FastifyInstance } from 'fastify';
import {
  DocumentNode,
  ExecutionArgs,
  ExecutionResult,
  FormattedExecutionResult,
  GraphQLError,
  GraphQLFormattedError,
  GraphQLSchema,
  OperationTypeNode,
  execute,
  getOperationAST,
  parse,
} from 'graphql';
import { Context, SubscribePayload } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import WebSocket, { WebSocketServer } from 'ws';
import { Core } from '../domain/core';
import { AccessRevocation, IdentityTopic } from '../domain/identity';
import { RequestContext } from '../domain/shared/context';
import { DomainError, ErrorCode } from '../domain/shared/errors';
import { IdempotencyClaim } from '../domain/idempotency';
import { idempotencyKeyOf, idempotencyScopeOf } from '../http/idempotency';
import { budgetOwnerOf } from '../http/rate-limit';
import { CallerCredentials, bearerOf, resolveCaller } from '../http/request-context';
import { clientAddressOf, trustFunctionOf } from '../http/client-address';
import { operationLimitsOf, operationRefusal, validateOperation } from './limits';
import { GraphQLContext, graphQLContext } from './shared/context';
import { graphQLErrorFormatter, logUnexpectedErrors, storesResult } from './shared/errors';
import { subscribeSharingReads } from './shared/publication';

/** Close codes: graphql-ws's own 4403 Forbidden, and 4429 for too many (the WebSocket twin of HTTP 429). */
export const CLOSE_FORBIDDEN = 4403;
export const CLOSE_TOO_MANY = 4429;

/** How long a revoked socket waits for its queries and mutations in flight to send their results. */
const REVOKED_GRACE_MS = 5_000;

/**
 * An authenticated socket: what its caller presented (the business it connected to pinned, so
 * every later authentication is for that business), who that was at connection time, and what it
 * holds.
 */
interface Session {
  socket: WebSocket;
  /** graphql-ws's own state of the socket: its running operations by id. */
  protocol: SocketContext;
  ip: string;
  credentials: CallerCredentials;
  connectedAs: RequestContext;
  /** The credential or dashboard user whose allowance the socket uses (as for the rate limit). */
  owner: string;
  subscriptionIds: Set<string>;
  /** Queries and mutations being executed. */
  executingIds: Set<string>;
  /** Set once access was revoked: the socket runs nothing more and closes with this reason. */
  revoked: string | null;
  timers: NodeJS.Timeout[];
}

type Extra = { session?: Session };
type SocketContext = Context<Record<string, unknown>, Extra & { socket: WebSocket; request: IncomingMessage }>;

const text = (params: Record<string, unknown>, ...names: string[]): string | null => {
  for (const name of names) if (typeof params[name] === 'string' && params[name] !== '') return params[name];
  return null;
};

/** connectionParams, read as the HTTP headers they stand for. */
function credentialsOf(params: Record<string, unknown>): CallerCredentials {
  const token = text(params, 'token');
  return {
    apiKey: text(params, 'apiKey', 'x-api-key'),
    authorization: text(params, 'authorization', 'Authorization') ?? (token ? `Bearer ${token}` : null),
    publishableKey: null,
    businessId: text(params, 'businessId', 'x-service-business-id'),
    mode: text(params, 'mode', 'x-service-mode'),
  };
}

/** The client address, as Fastify's `request.ip` has it (no proxy is trusted). */

/** Acts for the same credential or user, business and mode (the role may differ). */
const sameTenant = (a: RequestContext, b: RequestContext) =>
  budgetOwnerOf(a) === budgetOwnerOf(b) && a.businessId === b.businessId && a.mode === b.mode;
const roleOf = (ctx: RequestContext) => (ctx.actor.kind === 'dashboard' ? ctx.actor.role : null);

function withCode(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}

const asGraphQLError = (error: unknown) =>
  error instanceof GraphQLError
    ? error
    : new GraphQLError(error instanceof Error ? error.message : String(error), { originalError: error as Error });

type Formatter = ReturnType<typeof graphQLErrorFormatter>;

/** The one GraphQL error mapper (as over HTTP); errors already formatted (a replayed response) pass through. */
const formatError =
  (format: Formatter) =>
  (error: GraphQLError | GraphQLFormattedError): GraphQLFormattedError =>
    error instanceof GraphQLError ? format(error.toJSON(), error) : error;
const formatResult =
  (format: Formatter) =>
  (result: ExecutionResult | FormattedExecutionResult): FormattedExecutionResult =>
    result.errors ? { ...result, errors: result.errors.map(formatError(format)) } : result;

/** Who holds which sockets and subscriptions in this process, for the caps and for revocations. */
class SocketRegistry {
  private readonly connectionsByIp = new Map<string, number>();
  private readonly sessionsByOwner = new Map<string, Set<Session>>();
  private readonly subscriptionsByOwner = new Map<string, number>();

  admitConnection(ip: string, max: number): boolean {
    const open = this.connectionsByIp.get(ip) ?? 0;
    if (open >= max) return false;
    this.connectionsByIp.set(ip, open + 1);
    return true;
  }

  releaseConnection(ip: string) {
    const left = (this.connectionsByIp.get(ip) ?? 1) - 1;
    if (left > 0) this.connectionsByIp.set(ip, left);
    else this.connectionsByIp.delete(ip);
  }

  socketsOf(owner: string): number {
    return this.sessionsByOwner.get(owner)?.size ?? 0;
  }

  add(session: Session) {
    const sessions = this.sessionsByOwner.get(session.owner) ?? new Set();
    sessions.add(session);
    this.sessionsByOwner.set(session.owner, sessions);
  }

  remove(session: Session) {
    for (const id of [...session.subscriptionIds]) this.endSubscription(session, id);
    const sessions = this.sessionsByOwner.get(session.owner);
    sessions?.delete(session);
    if (sessions?.size === 0) this.sessionsByOwner.delete(session.owner);
  }

  startSubscription(session: Session, id: string, max: number): boolean {
    const running = this.subscriptionsByOwner.get(session.owner) ?? 0;
    if (running >= max) return false;
    this.subscriptionsByOwner.set(session.owner, running + 1);
    session.subscriptionIds.add(id);
    return true;
  }

  endSubscription(session: Session, id: string) {
    if (!session.subscriptionIds.delete(id)) return;
    const left = (this.subscriptionsByOwner.get(session.owner) ?? 1) - 1;
    if (left > 0) this.subscriptionsByOwner.set(session.owner, left);
    else this.subscriptionsByOwner.delete(session.owner);
  }

  /** The sockets a revocation concerns: the credential's (its key and its tokens), or the member's in that business. */
  concernedBy(revocation: AccessRevocation): Session[] {
    return [...this.sessionsByOwner.values()]
      .flatMap((sessions) => [...sessions])
      .filter(({ connectedAs: { actor, businessId } }) =>
        revocation.kind === 'credential'
          ? actor.kind === 'api' && actor.credentialId === revocation.credentialId
          : actor.kind === 'dashboard' && actor.userId === revocation.userId && businessId === revocation.businessId,
      );
  }
}

/** What the executor needs to know of a socket operation beyond its GraphQL context. */
interface SocketOperation {
  payload: SubscribePayload;
  idempotencyKey: string | null;
}

/**
 * graphql-ws on the HTTP server's /graphql path, held to everything an HTTP request is held to:
 *
 * - frames at most BODY_LIMIT_BYTES (1009); connections per IP capped before authentication, sockets
 *   and subscriptions per credential after it (4429, or the subscription refused);
 * - every operation (query, mutation, each subscription start) authenticated again, through the
 *   code HTTP uses, against the current credential, membership and role; a credential that no longer
 *   authenticates closes the socket (4403) and runs nothing;
 * - the same rate-limit budget and store as HTTP, depth, cost and introspection rules, and
 *   `Idempotency-Key` semantics with the key in `extensions.idempotencyKey`;
 * - revocations published on the pub/sub (any process) close the sockets they concern at once; a
 *   periodic re-check (SUBSCRIPTION_RECHECK_MS) and the token's expiry close the rest.
 */
export function registerGraphQLSocket(app: FastifyInstance, core: Core, schema: GraphQLSchema, path: string) {
  // The client's address as HTTP sees it (TRUST_PROXY): per-IP caps and the rate limit of refused callers.
  const trustClient = trustFunctionOf(core.config.trustProxy);
  const { config } = core;
  const registry = new SocketRegistry();
  const operations = new WeakMap<object, SocketOperation>();
  const limits = operationLimitsOf(config);
  const format = graphQLErrorFormatter(limits);
  const wsServer = new WebSocketServer({ noServer: true, maxPayload: config.bodyLimitBytes });

  const close = (socket: WebSocket, code: number, reason: string) => {
    if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(code, reason);
  };
  /**
   * Revokes a socket: its subscriptions stop at once and it starts nothing more; queries and
   * mutations in flight still send their results (a key regenerated over this very socket must
   * reach its caller), then the socket closes with 4403.
   */
  const refuse = (session: Session, reason: string) => {
    if (session.revoked) return;
    session.revoked = `Forbidden: ${reason}`;
    for (const id of session.subscriptionIds) {
      const running = session.protocol.subscriptions[id];
      if (running && 'return' in running) void running.return(undefined);
    }
    if (session.executingIds.size === 0) close(session.socket, CLOSE_FORBIDDEN, session.revoked);
    else
      session.timers.push(
        setTimeout(() => close(session.socket, CLOSE_FORBIDDEN, session.revoked!), REVOKED_GRACE_MS).unref(),
      );
  };
  const authenticate = (session: Session, requestId: string | null = null) =>
    resolveCaller(core, session.credentials, { requestId, clientIp: session.ip });
  /** A refusal by the domain (unknown key, expired token, not a member); anything else is a failure, not a verdict. */
  const refused = (authError: unknown) => authError instanceof DomainError;

  /** The backstop: closes the socket when its access changed and no revocation reached this process. */
  const recheck = async (session: Session) => {
    const { ctx, authError } = await authenticate(session);
    if (authError && !refused(authError)) return;
    if (!ctx || !sameTenant(ctx, session.connectedAs) || roleOf(ctx) !== roleOf(session.connectedAs)) {
      refuse(session, 'credential no longer valid');
    }
  };

  const onUpgrade = (request: IncomingMessage, stream: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) {
      stream.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    wsServer.handleUpgrade(request, stream, head, (socket) => {
      const ip = clientAddressOf(request, trustClient);
      if (!registry.admitConnection(ip, config.wsMaxConnectionsPerIp)) {
        close(
          socket,
          CLOSE_TOO_MANY,
          `Too many connections from this address (at most ${config.wsMaxConnectionsPerIp})`,
        );
        return;
      }
      socket.once('close', () => registry.releaseConnection(ip));
      wsServer.emit('connection', socket, request);
      // ws has already closed the socket with the right code (1009 for a frame over maxPayload,
      // 1002 for a protocol error); graphql-ws would print each one as an internal error, which
      // would let any client fill the logs.
      socket.removeAllListeners('error');
      socket.on('error', (error) => app.log.debug({ err: error, ip }, 'WebSocket closed on a client error'));
    });
  };
  app.server.on('upgrade', onUpgrade);

  const wsCleanup = useServer<Record<string, unknown>, Extra>(
    {
      schema,

      onConnect: async (context: SocketContext) => {
        const { socket, request } = context.extra;
        const ip = clientAddressOf(request, trustClient);
        const credentials = credentialsOf(context.connectionParams ?? {});
        const { ctx } = await resolveCaller(core, credentials, { requestId: crypto.randomUUID(), clientIp: ip });
        // Counted like a request: on the credential, or on the IP when it is refused.
        const verdict = await app.spendRateLimit(ctx, ip, path);
        if (!verdict.allowed) {
          close(socket, CLOSE_TOO_MANY, verdict.error.message);
          return false;
        }
        const owner = budgetOwnerOf(ctx);
        if (!ctx?.businessId || !owner || socket.readyState !== WebSocket.OPEN) return false;
        if (registry.socketsOf(owner) >= config.wsMaxSocketsPerCredential) {
          close(
            socket,
            CLOSE_TOO_MANY,
            `Too many open sockets for this credential (at most ${config.wsMaxSocketsPerCredential})`,
          );
          return false;
        }
        const session: Session = {
          socket,
          protocol: context,
          ip,
          connectedAs: ctx,
          owner,
          subscriptionIds: new Set(),
          executingIds: new Set(),
          revoked: null,
          timers: [],
          credentials: { ...credentials, businessId: ctx.businessId },
        };
        registry.add(session);
        context.extra.session = session;
        const check = setInterval(() => void recheck(session).catch(() => undefined), config.subscriptionRecheckMs);
        session.timers.push(check);
        const expiresAt = core.identity.auth.credentialExpiresAt({
          apiKey: credentials.apiKey,
          bearerToken: bearerOf(credentials.authorization),
        });
        if (expiresAt) {
          const inMs = Math.min(Math.max(0, expiresAt.getTime() - Date.now()), 2 ** 31 - 1);
          session.timers.push(setTimeout(() => refuse(session, 'token expired'), inMs));
        }
        for (const timer of session.timers) timer.unref();
        return true;
      },

      onClose: (context: SocketContext) => {
        const { session } = context.extra;
        if (!session) return;
        for (const timer of session.timers) clearInterval(timer);
        registry.remove(session);
      },

      onSubscribe: async (context: SocketContext, id, payload) => {
        const session = context.extra.session!;
        if (session.revoked) return [new GraphQLError(session.revoked, { extensions: { code: 'FORBIDDEN' } })];
        const requestId = crypto.randomUUID();
        // Authorised as an HTTP request is, against the credential, membership and role of now.
        const { ctx, authError } = await authenticate(session, requestId);
        if (session.socket.readyState !== WebSocket.OPEN) return [new GraphQLError('The socket is closed')];
        if (authError && !refused(authError)) return [asGraphQLError(authError)];
        if (!ctx || !sameTenant(ctx, session.connectedAs)) {
          refuse(session, 'credential no longer valid');
          return [
            asGraphQLError(authError ?? new DomainError(ErrorCode.FORBIDDEN, 'Access to this business was revoked')),
          ];
        }
        const verdict = await app.spendRateLimit(ctx, session.ip, path);
        if (!verdict.allowed) return [asGraphQLError(verdict.error)];

        let document: DocumentNode;
        try {
          document = parse(payload.query);
        } catch (error) {
          return [withCode(asGraphQLError(error), 'GRAPHQL_PARSE_FAILED')];
        }
        const invalid = validateOperation(schema, document, limits);
        if (invalid.length > 0) return invalid.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED'));
        const refusal = operationRefusal(schema, limits, document, payload.variables, payload.operationName);
        if (refusal) return [refusal];
        const operation = getOperationAST(document, payload.operationName);
        if (!operation)
          return [withCode(new GraphQLError('Unable to identify the operation to run'), 'GRAPHQL_VALIDATION_FAILED')];

        let idempotencyKey: string | null;
        try {
          idempotencyKey = idempotencyKeyOf({ extensions: payload.extensions });
        } catch (error) {
          return [asGraphQLError(error)];
        }
        if (session.revoked) return [new GraphQLError(session.revoked, { extensions: { code: 'FORBIDDEN' } })];
        if (operation.operation !== OperationTypeNode.SUBSCRIPTION) {
          session.executingIds.add(id);
        } else if (!registry.startSubscription(session, id, config.wsMaxSubscriptionsPerCredential)) {
          const max = config.wsMaxSubscriptionsPerCredential;
          return [
            new GraphQLError(
              `This credential already has ${max} subscriptions running (the most allowed); complete one first`,
              {
                extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', maxSubscriptions: max },
              },
            ),
          ];
        }
        const contextValue: GraphQLContext = graphQLContext(core, ctx, null, { requestId, clientIp: session.ip });
        operations.set(contextValue, {
          payload,
          idempotencyKey: operation.operation === OperationTypeNode.SUBSCRIPTION ? null : idempotencyKey,
        });
        return {
          schema,
          document,
          variableValues: payload.variables ?? undefined,
          operationName: payload.operationName ?? undefined,
          contextValue,
        };
      },

      onComplete: (context: SocketContext, id) => {
        const { session } = context.extra;
        if (!session) return;
        registry.endSubscription(session, id);
        // graphql-ws has sent the result and sends `complete` right after this hook: a revoked
        // socket closes once that is on its way too.
        if (session.executingIds.delete(id) && session.revoked && session.executingIds.size === 0) {
          const reason = session.revoked;
          setImmediate(() => close(session.socket, CLOSE_FORBIDDEN, reason));
        }
      },

      // A stored (replayed) result carries formatted errors; onNext passes those through as they are.
      execute: (args: ExecutionArgs) => executeOnce(args) as Promise<ExecutionResult>,
      subscribe: (args: ExecutionArgs) => subscribeSharingReads(core, args),
      onNext: (_context, _id, _payload, args, result) => {
        logUnexpected(args, result);
        return formatResult(format)(result);
      },
      onError: (_context, _id, payload, errors) => {
        logUnexpectedErrors(app.log, errors, payload.operationName ?? null, app.databaseOutage);
        return errors.map(formatError(format));
      },
    },
    wsServer,
  );

  /** Unexpected failures are logged as over HTTP (formatted errors, already logged, are skipped). */
  function logUnexpected(args: ExecutionArgs, result: ExecutionResult | FormattedExecutionResult) {
    if (!result.errors) return;
    const log = app.log.child({ reqId: (args.contextValue as GraphQLContext).origin.requestId });
    logUnexpectedErrors(log, result.errors, args.operationName ?? null, app.databaseOutage);
  }

  /**
   * `Idempotency-Key` for socket operations: the key travels in `extensions.idempotencyKey`, and is
   * scoped and stored like the header (same service, scope and lifetime). Its request is the
   * socket's own (method `WS`), so a key first used over HTTP is IDEMPOTENCY_KEY_REUSED here, and
   * the other way round: a retry goes through the transport that made the first attempt.
   */
  async function executeOnce(args: ExecutionArgs): Promise<ExecutionResult | FormattedExecutionResult> {
    const context = args.contextValue as GraphQLContext;
    const operation = operations.get(context);
    const scope = idempotencyScopeOf(context.ctx);
    if (!operation?.idempotencyKey || !scope) return execute(args);
    const { query, variables, operationName } = operation.payload;
    let begun;
    try {
      begun = await core.idempotency.begin(core.dataSource, {
        scope,
        key: operation.idempotencyKey,
        method: 'WS',
        path,
        body: JSON.stringify({ query, variables: variables ?? null, operationName: operationName ?? null }),
      });
    } catch (error) {
      return { errors: [asGraphQLError(error)] };
    }
    if (begun.kind === 'replay') {
      const stored = JSON.parse(begun.body) as FormattedExecutionResult;
      return { ...stored, extensions: { ...stored.extensions, idempotentReplayed: true } };
    }
    // The operation's transactions enter the claim, as an HTTP request's do (a crash never repeats an effect).
    const claimed: GraphQLContext = {
      ...context,
      ctx: context.ctx?.withIdempotency(new IdempotencyClaim(begun.recordId, begun.made)) ?? null,
    };
    const executed = await execute({ ...args, contextValue: claimed });
    logUnexpected(args, executed);
    const result = formatResult(format)(executed);
    if (!storesResult(result)) {
      await core.idempotency.abandon(core.dataSource, begun.recordId);
    } else {
      await core.idempotency.complete(core.dataSource, begun.recordId, 200, JSON.stringify(result), 'application/json');
    }
    return result;
  }

  // Revocations from any process (through Redis when configured) close the sockets they concern.
  const revocations = core.pubSub.subscribe(IdentityTopic.ACCESS_REVOKED);
  void (async () => {
    for await (const revocation of revocations) {
      for (const session of registry.concernedBy(revocation)) refuse(session, 'access revoked');
    }
  })().catch((error) => app.log.error({ err: error }, 'the socket revocation listener stopped'));

  return {
    /** Stops taking connections and closes every socket (1001). */
    async dispose() {
      app.server.off('upgrade', onUpgrade);
      await revocations.return();
      await wsCleanup.dispose();
    },
  };
}
