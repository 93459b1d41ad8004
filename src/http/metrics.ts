import { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { SubscriptionListeners } from '../domain/events/pubsub';

/** Prometheus metrics at /metrics: process defaults, HTTP request counts and latencies, live subscriptions. */
export function registerMetrics(app: FastifyInstance, listeners: SubscriptionListeners) {
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
    const labels = { method: request.method, route: request.is404 ? 'unmatched' : request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    duration.observe(labels, reply.elapsedTime / 1000);
    requests.inc(labels);
  });

  app.get('/metrics', async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
  return registry;
}
