import crypto from 'node:crypto';
import Fastify, { FastifyInstance, RouteOptions } from 'fastify';
import { DestinationStream } from 'pino';
import { GraphQLSchema } from 'graphql';
import { Core } from '../domain/core';
import { TESSERA_VERSION } from '../project';
import { ErrorCode } from '../domain/shared/errors';
import { GRAPHQL_PATH, registerGraphQL } from '../graphql/server';
import { DASHBOARD_PATH, registerDashboard } from './dashboard';
import { errorEnvelope, sendError } from '../rest/shared/envelope';
import { DOCS_PATH, OPENAPI_PATH, registerRestSurface } from '../rest/surface';
import { hostedPageRoutes } from '../hosted/hosted-pages.routes';
import { V1_DOCS_PATH, V1_OPENAPI_PATH, registerV1Surface } from '../v1/surface';
import { isV1Path, v1ErrorBody, v1FailureBody } from '../v1/errors';
import {
  FailureBodyAt,
  MAX_PARAM_LENGTH,
  clientErrorsAnsweredBy,
  routerErrorsAnsweredBy,
} from '../http/framework-errors';
import { registerInputChecks, registerJsonParser } from '../http/input';
import { landingPageRoute } from './landing-page';
import { providerWebhookPaths, registerProviderWebhooks } from './provider-webhooks';
import { errorForLog } from '../http/logging';
import { registerMetrics } from '../http/metrics';
import { redactCapabilities, refuseUnredactedCapability } from '../http/capabilities';
import { outageErrorOf, registerOutageWatch, retryLater } from '../http/outage';
import { registerRateLimit } from '../http/rate-limit';
import { declareSurfaceState } from '../http/surface';
import { trustFunctionOf } from '../http/client-address';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Never logged: credentials, secrets, passwords and card data. */
const REDACT = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  '*.apiKey',
  '*.apiSecret',
  '*.password',
  '*.card',
  '*.number',
  '*.cvv',
  '*.secret',
  '*.token',
];

export interface BuildOptions {
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
  /** Sees every route as it is registered (the fuzz test enumerates them). */
  onRoute?: (route: RouteOptions) => void;
  /** Told of every REST and `/v1` answer that does not match its OpenAPI document (the test suite fails on it). */
  onResponseMismatch?: (problem: string) => void;
}

/** The error body of a failure before any route of a face sees the request: `/v1`'s on its paths, else the error envelope. */
const failureBodyAt: FailureBodyAt = (path) =>
  isV1Path(path) ? v1FailureBody : (failure) => errorEnvelope(failure.code, failure.message, failure.fieldErrors);

/**
 * One HTTP server: the landing page at /, health, readiness and metrics, the providers' webhooks
 * (src/server/provider-webhooks.ts), then its surfaces, each an encapsulated plugin
 * with its own guards (src/http/surface.ts): REST, `/v1`, the hosted pages and GraphQL (HTTP + WebSocket). The one
 * place that knows the faces: src/http, the kernel they share, imports none of them.
 */
export async function buildApp(
  core: Core,
  schema: GraphQLSchema,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const { config } = core;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: {
        // Hosted pages carry their capability token in the path: logs keep the page, not the token.
        req: (request) => ({
          method: request.method,
          url: redactCapabilities(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
        err: (error) => errorForLog(error) as { type: string; message: string; stack: string },
      },
      hooks: {
        // A message that names a hosted page's URL loses its token too (errors: errorForLog).
        logMethod(args, method) {
          return method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? redactCapabilities(arg) : arg)) as Parameters<typeof method>,
          );
        },
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: routerErrorsAnsweredBy(failureBodyAt),
    clientErrorHandler: clientErrorsAnsweredBy(failureBodyAt),
    bodyLimit: config.bodyLimitBytes,
    // request.ip (rate limits, fraud rules, logs, the domain's ctx.clientIp) is X-Forwarded-For's
    // client only behind proxies the operator trusts; otherwise a header anyone can send.
    trustProxy: trustFunctionOf(config.trustProxy),
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    },
    return503OnClosing: false,
  });
  app.addHook('onRoute', (route) => refuseUnredactedCapability(route.url));
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.removeContentTypeParser('text/plain');
  registerJsonParser(app);

  // While shutting down, requests that still arrive on open connections get a 503 in the envelope
  // (under /v1, in that surface's body).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    retryLater(reply);
    const body = isV1Path(request.url) ? v1ErrorBody : errorEnvelope;
    return reply.status(503).send(body(ErrorCode.SERVICE_UNAVAILABLE, 'The server is shutting down; retry'));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));

  registerOutageWatch(app, core.dataSource);
  registerMetrics(app, core.pubSub.listeners, config);
  registerInputChecks(app, [GRAPHQL_PATH, ...providerWebhookPaths(core)]);
  declareSurfaceState(app);
  await registerRateLimit(app, config);

  landingPageRoute(app, config, {
    restReference: DOCS_PATH,
    restDocument: OPENAPI_PATH,
    v1Reference: V1_DOCS_PATH,
    v1Document: V1_OPENAPI_PATH,
    graphql: GRAPHQL_PATH,
    dashboard: DASHBOARD_PATH,
  });
  app.get('/healthz', async () => ({ status: 'ok', version: TESSERA_VERSION }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await core.dataSource.query('SELECT 1');
      return { status: 'ready' };
    } catch (error) {
      outageErrorOf(app.databaseOutage, error);
      return retryLater(reply)
        .status(503)
        .send(errorEnvelope(ErrorCode.SERVICE_UNAVAILABLE, 'Database is not reachable'));
    }
  });

  await registerProviderWebhooks(app, core);
  await registerRestSurface(app, core, { onResponseMismatch: options.onResponseMismatch });
  await registerV1Surface(app, core, { onResponseMismatch: options.onResponseMismatch });
  await hostedPageRoutes(app, core);
  await registerDashboard(app);
  await registerGraphQL(app, core, schema);
  return app;
}
