import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { FastifyInstance, FastifyReply } from 'fastify';
import { ErrorCode } from '../domain/shared/errors';
import { errorEnvelope } from '../http/envelope';
import { PROJECT_ROOT } from '../project';

/** Where the merchant dashboard is served (docs/dashboard.md). */
export const DASHBOARD_PATH = '/dashboard';
const BUILT = path.join(PROJECT_ROOT, 'dist', 'dashboard');
const INDEX = 'index.html';

// The dashboard's scripts and styles are its own files; Mantine sets CSS variables in a <style> element (hence
// 'unsafe-inline' for styles only); GraphQL and its socket are this origin.
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');
const SECURITY_HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><main><h1>The dashboard is not built</h1><p>Run <code>npm run build</code> in the checkout (it builds dashboard/ into dist/dashboard/), then reload. <code>npm start</code> builds it too.</p></main></body></html>
`;

/**
 * The merchant dashboard (dashboard/, a single-page app on the public GraphQL API), built by
 * scripts/build-dashboard.js into dist/dashboard/ and served here with @fastify/static: hashed
 * assets under /dashboard/assets/ with a year's caching, brotli or gzip precompressed when the
 * client accepts it; every other path under /dashboard answers index.html (the app's router
 * draws the screen), never cached, so a new build is picked up at the next load.
 */
export async function registerDashboard(app: FastifyInstance): Promise<void> {
  const built = fs.existsSync(path.join(BUILT, INDEX));
  if (!built) {
    app.log.warn(`The dashboard is not built: ${BUILT} has no ${INDEX}; run npm run build`);
    const notBuilt = (_request: unknown, reply: FastifyReply) =>
      reply
        .status(503)
        .headers(SECURITY_HEADERS)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT);
    app.get(DASHBOARD_PATH, { schema: { hide: true } }, notBuilt);
    app.get(`${DASHBOARD_PATH}/*`, { schema: { hide: true } }, notBuilt);
    return;
  }
  // A scope of its own: an asset that does not exist is a 404 here (the server's handler would say
  // 405, since GET /dashboard/* exists), in the API's error envelope.
  await app.register(
    async (scope) => {
      scope.setNotFoundHandler((request, reply) =>
        reply.status(404).send(errorEnvelope(ErrorCode.NOT_FOUND, `No dashboard file at ${request.url.split('?')[0]}`)),
      );
      await scope.register(fastifyStatic, {
        root: path.join(BUILT, 'assets'),
        prefix: '/assets/',
        // One route for every asset (not one per file: a build writes some two hundred).
        wildcard: true,
        index: false,
        preCompressed: true,
        decorateReply: true,
        maxAge: 365 * 24 * 3600 * 1000,
        immutable: true,
        setHeaders: (response) => {
          for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
        },
      });
      // The app's page: the same for every other path (its router draws the screen), never cached.
      const page = (_request: unknown, reply: FastifyReply) =>
        reply
          .headers(SECURITY_HEADERS)
          .header('cache-control', 'no-store')
          .sendFile(INDEX, BUILT, { cacheControl: false });
      scope.get('', { schema: { hide: true } }, page);
      scope.get('/*', { schema: { hide: true } }, page);
    },
    { prefix: DASHBOARD_PATH },
  );
}
