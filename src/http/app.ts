import crypto from 'node:crypto';
import Fastify, { FastifyInstance } from 'fastify';
import { GraphQLSchema } from 'graphql';
import { Core } from '../domain/core';
import { ErrorCode } from '../domain/shared/errors';
import { registerGraphQL } from '../graphql/server';
import { errorEnvelope, sendError } from '../rest/shared/envelope';
import { registerRestRoutes } from '../rest/routes';
import { hostedPageRoutes } from '../hosted/hosted-pages.routes';
import { registerIdempotency } from './idempotency';
import { registerMetrics } from './metrics';
import { registerRateLimit } from './rate-limit';
import { registerRequestContext } from './request-context';
import { registerUnmatchedHandler } from './routing';
import { trustFunctionOf } from './client-address';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Never logged: credentials, secrets, passwords and card data. */
const REDACT = [
  'req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie',
  '*.apiKey', '*.apiSecret', '*.password', '*.card', '*.number', '*.cvv', '*.secret', '*.token',
];

/** Hosted pages carry their capability token in the path; logs keep the route, not the token. */
const HOSTED_TOKEN = /^(\/(?:checkout(?:\/3ds)?|pay))\/[^/?#]+/;
export const loggedUrl = (url: string) => url.replace(HOSTED_TOKEN, '$1/[redacted]');

/**
 * `Content-Type: application/json` with an empty body is a request without a body, as if no
 * Content-Type had been sent: a POST that takes no body succeeds, and one that needs a body answers
 * the usual VALIDATION_ERROR naming the missing fields. Anything else goes to Fastify's own parser
 * (with its prototype-poisoning protection).
 */
function acceptEmptyJsonBodies(app: FastifyInstance) {
  const { onProtoPoisoning, onConstructorPoisoning } = app.initialConfig;
  const parseJson = app.getDefaultJsonParser(onProtoPoisoning ?? 'error', onConstructorPoisoning ?? 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    return parseJson(request, body as string, done);
  });
}


/** One HTTP server: GraphQL (HTTP + WebSocket), the REST layer, health and metrics. */
export async function buildApp(core: Core, schema: GraphQLSchema): Promise<FastifyInstance> {
  const { config } = core;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: {
        req: (request) => ({ method: request.method, url: loggedUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort }),
      },
    },
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
  app.removeContentTypeParser('text/plain');
  acceptEmptyJsonBodies(app);

  // While shutting down, requests that still arrive on open connections get a 503 in the envelope.
  let closing = false;
  app.addHook('preClose', async () => { closing = true; });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    return reply.status(503).send(errorEnvelope(ErrorCode.SERVICE_UNAVAILABLE, 'The server is shutting down; retry'));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  registerUnmatchedHandler(app);

  registerMetrics(app, core.pubSub.listeners);
  registerRequestContext(app, core);
  await registerRateLimit(app, config);
  registerIdempotency(app, core);

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await core.dataSource.query('SELECT 1');
      return { status: 'ready' };
    } catch {
      return reply.status(503).send(errorEnvelope(ErrorCode.SERVICE_UNAVAILABLE, 'Database is not reachable'));
    }
  });

  registerRestRoutes(app, core);
  await hostedPageRoutes(app, core);
  await registerGraphQL(app, core, schema);
  return app;
}

