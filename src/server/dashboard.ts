import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../domain/shared/errors';
import { errorEnvelope } from '../http/envelope';
import { PROJECT_ROOT } from '../project';

/** Where the merchant dashboard is served (docs/dashboard.md). */
export const DASHBOARD_PATH = '/dashboard';
const BUILT = path.join(PROJECT_ROOT, 'dist', 'dashboard');
const INDEX = 'index.html';
/** Written by the build (dashboard/vite-route-preloads.ts): each route's own scripts and style sheets. */
const ROUTE_PRELOADS = 'route-preloads.json';

// The dashboard's scripts and styles are its own files, but for the page's one inline script (the
// first-paint frame's, allowed by its hash: cspFor); Mantine sets CSS variables in a <style> element (hence
// 'unsafe-inline' for styles only); GraphQL and its socket are this origin.
const cspWith = (scriptSources: string[]) =>
  [
    "default-src 'none'",
    ["script-src 'self'", ...scriptSources].join(' '),
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
  'content-security-policy': cspWith([]),
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
      // The app's page for every other path (its router draws the screen), naming the route's own
      // scripts and style sheets; never cached.
      const page = async (request: FastifyRequest, reply: FastifyReply) => {
        const { html, csp } = await pageFor(routeOf(request.url));
        return reply
          .headers(SECURITY_HEADERS)
          .header('content-security-policy', csp)
          .header('cache-control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(html);
      };
      scope.get('', { schema: { hide: true } }, page);
      scope.get('/*', { schema: { hide: true } }, page);
    },
    { prefix: DASHBOARD_PATH },
  );
}

/** An inline script of the built page: `<script>` with no attributes (the build writes one, the first-paint frame's). */
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

/**
 * The page's policy: the inline scripts of the built file allowed by their SHA-256, no other inline
 * script. Read from the file as the build wrote it, before the server adds anything to it.
 */
function cspFor(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    ([, body = '']) => `'sha256-${crypto.createHash('sha256').update(body, 'utf8').digest('base64')}'`,
  );
  return cspWith(hashes);
}

interface RoutePreload {
  path: string;
  js: string[];
  css: string[];
}

/** The app's path under /dashboard, without the query: `payments/3f…` for /dashboard/payments/3f…?x=1. */
const routeOf = (url: string) =>
  url
    .split(/[?#]/)[0]
    .slice(DASHBOARD_PATH.length)
    .replace(/^\/+|\/+$/g, '');

/**
 * The route of the build's list that a path is, as the app's router chooses it: a pattern's `:param`
 * takes any one segment, and among the patterns that match, the one with the most literal segments
 * wins (`payouts/recipients` before `payouts/:id`).
 */
function routeFor(routes: RoutePreload[], route: string): RoutePreload | undefined {
  const segments = route === '' ? [] : route.split('/');
  let best: RoutePreload | undefined;
  let bestLiterals = -1;
  for (const candidate of routes) {
    const pattern = candidate.path === '' ? [] : candidate.path.split('/');
    if (pattern.length !== segments.length) continue;
    if (!pattern.every((part, index) => part.startsWith(':') || part === segments[index])) continue;
    const literals = pattern.filter((part) => !part.startsWith(':')).length;
    if (literals > bestLiterals) [best, bestLiterals] = [candidate, literals];
  }
  return best;
}

/**
 * index.html with, before `</head>`, the route's screen code the browser can fetch and compile while it
 * fetches the first load (`modulepreload`; its style sheets as `preload`, not blocking the first paint),
 * instead of after the app has started and its router asked for the screen (docs/dashboard.md,
 * Performance). Read at each request (a new build is served at once); a build without the list, or a
 * path of no route, gets the page as built. With the page's content security policy (cspFor).
 */
async function pageFor(route: string): Promise<{ html: string; csp: string }> {
  const [page, preloads] = await Promise.all([
    fs.promises.readFile(path.join(BUILT, INDEX), 'utf8'),
    fs.promises.readFile(path.join(BUILT, ROUTE_PRELOADS), 'utf8').catch(() => null),
  ]);
  let routes: RoutePreload[];
  try {
    routes = preloads ? (JSON.parse(preloads) as { routes: RoutePreload[] }).routes : [];
  } catch {
    routes = []; // a list the page cannot read costs its preloads, never the page
  }
  const csp = cspFor(page);
  const screen = routeFor(routes, route);
  if (!screen) return { html: page, csp };
  const links = [
    ...screen.js.map((file) => `<link rel="modulepreload" crossorigin href="${DASHBOARD_PATH}/${file}">`),
    ...screen.css.map((file) => `<link rel="preload" as="style" crossorigin href="${DASHBOARD_PATH}/${file}">`),
  ];
  return { html: page.replace('</head>', `    ${links.join('\n    ')}\n  </head>`), csp };
}
