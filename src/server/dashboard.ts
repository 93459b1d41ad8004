import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { FastifyInstance, FastifyReply } from 'fastify';
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
  await app.register(fastifyStatic, {
    root: path.join(BUILT, 'assets'),
    prefix: `${DASHBOARD_PATH}/assets/`,
    // Only the files the build wrote are routes; an unknown asset is a plain 404, not the app's page.
    wildcard: false,
    index: false,
    preCompressed: true,
    serve: true,
    decorateReply: true,
    maxAge: 365 * 24 * 3600 * 1000,
    immutable: true,
    setHeaders: (response) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    },
  });
  const page = (_request: unknown, reply: FastifyReply) =>
    reply.headers(SECURITY_HEADERS).header('cache-control', 'no-store').sendFile(INDEX, BUILT);
  app.get(DASHBOARD_PATH, { schema: { hide: true } }, page);
  app.get(`${DASHBOARD_PATH}/*`, { schema: { hide: true } }, (request, reply) =>
    request.url.startsWith(`${DASHBOARD_PATH}/assets/`) ? reply.callNotFound() : page(request, reply),
  );
}
