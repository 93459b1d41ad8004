import http from 'node:http';
import { AddressInfo } from 'node:net';
import { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { Config } from '../config';
import { SubscriptionListeners } from '../domain/events/pubsub';
import { safeEqual } from '../domain/shared/crypto';
import { ErrorCode } from '../domain/shared/errors';
import { errorEnvelope } from './envelope';
import { bearerOf } from './request-context';

export const METRICS_PATH = '/metrics';

type MetricsAccess = Pick<Config, 'production' | 'metricsToken' | 'metricsPort' | 'metricsHost'>;

/**
 * Where /metrics is served (docs/security.md, Metrics): on a listener of its own with METRICS_PORT;
 * else on the public port outside production, or in production only with METRICS_TOKEN; else nowhere.
 */
export function metricsPlacement(config: MetricsAccess): 'own-listener' | 'public-port' | 'off' {
  if (config.metricsPort !== undefined) return 'own-listener';
  return !config.production || config.metricsToken ? 'public-port' : 'off';
}

/** Whether an Authorization header may read the metrics: anyone without METRICS_TOKEN, else its bearer only (constant time). */
const mayRead = (token: string | undefined, authorization: string | undefined) =>
  token === undefined || safeEqual(bearerOf(authorization ?? null) ?? '', token);

const CHALLENGE = 'Bearer realm="metrics"';
const REFUSED = 'Send Authorization: Bearer <METRICS_TOKEN>';

/**
 * Prometheus metrics at /metrics: process defaults, HTTP request counts and latencies, live
 * subscriptions. Served where `metricsPlacement` says, behind METRICS_TOKEN when it is set.
 */
export function registerMetrics(app: FastifyInstance, listeners: SubscriptionListeners, access: MetricsAccess) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tessera_' });
  const duration = new Histogram({
    name: 'tessera_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'tessera_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });

  new Gauge({
    name: 'tessera_graphql_subscription_listeners',
    help: 'Open GraphQL subscriptions listening to each pub/sub topic of this process',
    labelNames: ['topic'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [topic, count] of listeners.active()) this.set({ topic }, count);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
      status: String(reply.statusCode),
    };
    duration.observe(labels, reply.elapsedTime / 1000);
    requests.inc(labels);
  });

  const placement = metricsPlacement(access);
  if (placement === 'public-port') {
    app.get(METRICS_PATH, async (request, reply) => {
      if (!mayRead(access.metricsToken, request.headers.authorization)) {
        return reply
          .status(401)
          .header('www-authenticate', CHALLENGE)
          .send(errorEnvelope(ErrorCode.UNAUTHORIZED, REFUSED));
      }
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
  } else if (placement === 'own-listener') {
    serveOnOwnListener(app, registry, access);
  }
  return registry;
}

/** /metrics alone on METRICS_HOST:METRICS_PORT, opened and closed with the server; a port that cannot be bound fails the start. */
function serveOnOwnListener(app: FastifyInstance, registry: Registry, access: MetricsAccess) {
  const listener = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://metrics.invalid').pathname;
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('Not found: this listener serves GET /metrics only\n');
      return;
    }
    if (!mayRead(access.metricsToken, request.headers.authorization)) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': CHALLENGE }).end(`${REFUSED}\n`);
      return;
    }
    registry.metrics().then(
      (text) =>
        response
          .writeHead(200, { 'content-type': registry.contentType })
          .end(request.method === 'HEAD' ? undefined : text),
      (error) => {
        app.log.error({ err: error }, 'metrics could not be collected');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics could not be collected\n');
      },
    );
  });
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(access.metricsPort, access.metricsHost, () => {
        listener.off('error', reject);
        resolve();
      });
    });
    const { address, port } = listener.address() as AddressInfo;
    app.log.info(`metrics at http://${address.includes(':') ? `[${address}]` : address}:${port}${METRICS_PATH}`);
  });
  app.addHook('onClose', async () => {
    if (!listener.listening) return;
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  });
}
