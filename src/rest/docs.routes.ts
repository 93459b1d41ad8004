import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FastifyInstance } from 'fastify';

/** The API reference at /docs: Swagger UI (the swagger-ui-dist package, served from this server, so it works offline). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const page = (documentUrl: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Tessera REST API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="reference" data-document="${documentUrl}"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
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

const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:";

export function docsRoutes(app: FastifyInstance, docsPath: string, documentUrl: string) {
  const assetsDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const headers = { 'content-security-policy': CSP, 'x-content-type-options': 'nosniff' };
  const config = { auth: 'public' as const };
  const hidden = { hide: true };

  app.get(docsPath, { config, schema: hidden }, async (_request, reply) =>
    reply.headers(headers).type('text/html; charset=utf-8').send(page(documentUrl)));
  app.get(`${docsPath}/init.js`, { config, schema: hidden }, async (_request, reply) =>
    reply.headers(headers).type('application/javascript; charset=utf-8').send(INIT));
  for (const [file, type] of Object.entries(ASSETS)) {
    app.get(`${docsPath}/assets/${file}`, { config, schema: hidden }, async (_request, reply) =>
      reply.headers({ ...headers, 'cache-control': 'public, max-age=86400' }).type(type).send(await readFile(path.join(assetsDir, file))));
  }
}
