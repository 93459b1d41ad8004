import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { preferredType } from '../http/negotiation';
import { PROJECT_ROOT } from '../project';

/**
 * The GraphQL explorer: GraphiQL (src/explorer/explorer.tsx), bundled by scripts/build-explorer.js
 * into dist/explorer/ and served from here, so it works with no internet access. A browser's GET
 * of /graphql gets its page; the hashed script and style sheet are served below EXPLORER_ASSETS_PATH
 * with a year's caching, brotli or gzip precompressed when the client accepts it.
 */
export const EXPLORER_ASSETS_PATH = '/graphql/explorer';
const BUILT = path.join(PROJECT_ROOT, 'dist', 'explorer');

interface Manifest {
  script: string;
  style: string;
}

/** What a GET of /graphql answers API clients (JSON, multipart) rather than a browser: Apollo's choice, so only a browser sees the explorer. */
const GRAPHQL_ANSWERS = [
  'application/json',
  'application/graphql-response+json',
  'multipart/mixed',
  'text/html',
] as const;
export const prefersExplorer = (request: FastifyRequest) =>
  request.method === 'GET' &&
  request.headers.accept !== undefined &&
  preferredType(request, GRAPHQL_ANSWERS) === 'text/html';

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
const SECURITY_HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

function readManifest(): Manifest | null {
  try {
    return JSON.parse(readFileSync(path.join(BUILT, 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

const page = (manifest: Manifest, endpoint: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>Tessera GraphQL explorer</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${EXPLORER_ASSETS_PATH}/${manifest.style}">
</head>
<body>
  <header><h1 class="visually-hidden">Tessera GraphQL explorer</h1></header>
  <main id="explorer" data-endpoint="${endpoint}"><noscript>The explorer needs JavaScript. API clients POST to ${endpoint}; see docs/graphql-api.md.</noscript></main>
  <script src="${EXPLORER_ASSETS_PATH}/${manifest.script}"></script>
</body>
</html>
`;

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>GraphQL explorer not built</title></head>
<body><main><h1>The GraphQL explorer is not built</h1><p>Run <code>npm run build</code> in the checkout (it bundles GraphiQL into dist/explorer/), then reload. API clients POST to this path as usual.</p></main></body></html>
`;

const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;
const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * Serves the explorer's assets (public, like /docs) and returns what answers a browser's GET of
 * the GraphQL path: its page, or a page saying it is not built yet (the manifest is read once, here).
 */
export function registerExplorer(app: FastifyInstance, endpoint: string): (reply: FastifyReply) => FastifyReply {
  const manifest = readManifest();
  if (!manifest) {
    app.log.warn(
      `The GraphQL explorer is on (GRAPHQL_EXPLORER) but not built: ${BUILT} has no manifest.json; run npm run build`,
    );
    return (reply) =>
      reply
        .status(503)
        .headers(SECURITY_HEADERS)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT);
  }
  for (const file of [manifest.script, manifest.style]) {
    app.get(`${EXPLORER_ASSETS_PATH}/${file}`, { schema: { hide: true } }, async (request, reply) => {
      const accepted = String(request.headers['accept-encoding'] ?? '');
      const [encoding, suffix] = ENCODINGS.find(([name]) => new RegExp(`\\b${name}\\b`).test(accepted)) ?? [null, ''];
      reply
        .headers({
          ...SECURITY_HEADERS,
          'cache-control': 'public, max-age=31536000, immutable',
          vary: 'accept-encoding',
        })
        .type(TYPES[path.extname(file)]);
      if (encoding) reply.header('content-encoding', encoding);
      return reply.send(await readFile(path.join(BUILT, `${file}${suffix}`)));
    });
  }
  const html = page(manifest, endpoint);
  return (reply) =>
    reply.headers(SECURITY_HEADERS).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}
