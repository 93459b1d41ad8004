import { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** On a documented alias: the canonical route pattern it serves. */
    aliasOf?: string;
  }
}

/** The prefix of every REST path of the main surface. */
export const API_PREFIX = '/api/v1';

export interface RouteAlias {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path as the interface document writes it (Fastify pattern, `:id` for a parameter). */
  path: string;
  /** The route that serves it; its path must end with `path` (the alias only drops a prefix). */
  canonical: string;
}

const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]);

/**
 * The paths the interface document writes without the `/api/v1` prefix (design section 5), each
 * area's REST module listing its own (`aliases` in src/rest/<area>/index.ts). Each also answers at the literal path, served by the
 * very route declared for its canonical path: the same handler, hooks, authentication, envelope,
 * idempotency and rate limit. Only these: other `/api/v1` paths do not answer unprefixed. Listed in
 * docs/rest-api.md (Paths without the prefix).
 *
 * Registers each alias beside its canonical route, as that route is declared (so it must run
 * before the routes are). A listed alias whose canonical route never appears stops the server
 * from starting, so a typo in the list cannot pass unnoticed.
 */
export function registerAliases(app: FastifyInstance, aliases: readonly RouteAlias[]) {
  for (const alias of aliases) {
    if (!alias.canonical.endsWith(alias.path))
      throw new Error(`Alias ${alias.path} must be ${alias.canonical} without a prefix`);
  }
  const registered = new Set<RouteAlias>();
  app.addHook('onRoute', function registerAliasOf(route) {
    if (route.config?.aliasOf) return;
    for (const alias of aliases) {
      if (alias.canonical !== route.url || !methodsOf(route).includes(alias.method)) continue;
      registered.add(alias);
      this.route({
        ...route,
        method: alias.method,
        url: alias.path,
        config: { ...route.config, aliasOf: alias.canonical },
      });
    }
  });
  app.addHook('onReady', async () => {
    const missing = aliases.filter((alias) => !registered.has(alias));
    if (missing.length > 0) {
      throw new Error(
        `No route serves the documented aliases ${missing.map((alias) => `${alias.method} ${alias.path} → ${alias.canonical}`).join(', ')}`,
      );
    }
  });
}

/**
 * The path of the request as its canonical route would see it: an alias and its canonical path
 * are one operation (an Idempotency-Key used on one is the same request on the other).
 */
export function canonicalPath(request: FastifyRequest): string {
  const path = request.url.split('?')[0];
  const aliasOf = request.routeOptions.config.aliasOf;
  const aliasPattern = request.routeOptions.url;
  if (!aliasOf || !aliasPattern) return path;
  return aliasOf.slice(0, aliasOf.length - aliasPattern.length) + path;
}
