import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FastifyContextConfig, FastifyInstance } from 'fastify';

/**
 * An API reference page: Swagger UI (the swagger-ui-dist package, served from this server, so it
 * works offline) over one OpenAPI document. REST's at /docs, `/v1`'s at /v1/docs.
 */
export interface ReferencePage {
  title: string;
  /** Where the page is served, absolute (`/docs`, `/v1/docs`); its assets are below it. */
  path: string;
  /** The OpenAPI document it shows. */
  documentUrl: string;
  /** The route config that makes the page public on its surface (`{ auth: 'public' }`, `{ v1Auth: 'public' }`). */
  routeConfig: FastifyContextConfig;
}

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const html = ({ title, path: base, documentUrl }: ReferencePage) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${title}</title>
  <link rel="stylesheet" href="${base}/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="${base}/assets/favicon-32x32.png">
</head>
<body>
  <div id="reference" data-document="${documentUrl}"></div>
  <script src="${base}/assets/swagger-ui-bundle.js"></script>
  <script src="${base}/assets/swagger-ui-standalone-preset.js"></script>
  <script src="${base}/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: document.getElementById('reference').dataset.document,
  dom_id: '#reference',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
`;

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:";

/**
 * Serves the page, its init script and Swagger UI's assets on `scope` (paths relative to the
 * scope's prefix), hidden from the OpenAPI document; the path with a trailing slash redirects to it.
 */
export function referencePageRoutes(scope: FastifyInstance, page: ReferencePage) {
  const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const headers = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff' };
  const options = { config: page.routeConfig, schema: { hide: true } };
  const local = page.path.slice(scope.prefix.length);
  const body = html(page);

  scope.get(local, options, async (_request, reply) =>
    reply.headers(headers).type('text/html; charset=utf-8').send(body),
  );
  scope.get(`${local}/`, options, async (_request, reply) => reply.redirect(page.path, 301));
  scope.get(`${local}/init.js`, options, async (_request, reply) =>
    reply.headers(headers).type('application/javascript; charset=utf-8').send(INIT),
  );
  for (const [file, type] of Object.entries(ASSETS)) {
    scope.get(`${local}/assets/${file}`, options, async (_request, reply) =>
      reply
        .headers({ ...headers, 'cache-control': 'public, max-age=86400' })
        .type(type)
        .send(await readFile(path.join(assetsDir, file))),
    );
  }
}
