import crypto from 'node:crypto';
import { FastifyInstance } from 'fastify';
import { Config } from '../config';
import { escapeHtml, layout } from '../hosted/html';
import { TESSERA_VERSION } from '../project';
import { preferredType } from '../http/negotiation';

/** One way in, as the landing page lists it. */
export interface FrontDoorLink {
  /** Stable name of the link for programs reading the JSON. */
  rel: string;
  title: string;
  href: string;
  description: string;
}

/** Where the landing page's links point: each surface's own paths, passed in by the server (src/server/app.ts). */
export interface FrontDoorPaths {
  restReference: string;
  restDocument: string;
  v1Reference: string;
  v1Document: string;
  graphql: string;
  dashboard: string;
}

export interface FrontDoor {
  name: 'Tessera';
  description: string;
  version: string;
  mode: 'sandbox' | 'production';
  links: FrontDoorLink[];
}

const DESCRIPTION =
  'An open payments core: payments, wallets, payouts, collections and treasury behind a GraphQL API and a REST API.';

/**
 * What GET / tells a person or a program: what this server is, its version and mode, and where to
 * go next. A later surface (the dashboard) adds its link here, and the page and the JSON both show it.
 */
export function frontDoorOf(config: Config, paths: FrontDoorPaths): FrontDoor {
  const links: FrontDoorLink[] = [
    {
      rel: 'dashboard',
      title: 'Dashboard',
      href: paths.dashboard,
      description: 'Sign up or sign in: payments, payouts, collections and your team, live',
    },
    {
      rel: 'rest-reference',
      title: 'REST API reference',
      href: paths.restReference,
      description: 'Every /api/v1 route, tried from the browser',
    },
    {
      rel: 'rest-openapi',
      title: 'REST OpenAPI document',
      href: paths.restDocument,
      description: 'OpenAPI 3.1, for client generators',
    },
    {
      rel: 'v1-reference',
      title: '/v1 API reference',
      href: paths.v1Reference,
      description: 'The alternate surface: snake_case, tessera_…_sk_ keys',
    },
    { rel: 'v1-openapi', title: '/v1 OpenAPI document', href: paths.v1Document, description: 'OpenAPI 3.1 of /v1' },
    ...(config.graphqlExplorer
      ? [
          {
            rel: 'graphql-explorer',
            title: 'GraphQL explorer',
            href: paths.graphql,
            description: 'GraphiQL: queries, mutations and subscriptions with your API key',
          },
        ]
      : []),
    { rel: 'health', title: 'Health', href: '/healthz', description: 'Liveness: the process answers' },
    { rel: 'readiness', title: 'Readiness', href: '/readyz', description: 'The database answers' },
  ];
  return {
    name: 'Tessera',
    description: DESCRIPTION,
    version: TESSERA_VERSION,
    mode: config.production ? 'production' : 'sandbox',
    links,
  };
}

function html(door: FrontDoor, graphqlPath: string, nonce: string): string {
  const items = door.links
    .map(
      (link) =>
        `<li><a href="${escapeHtml(link.href)}">${escapeHtml(link.title)}</a><br><span class="muted">${escapeHtml(link.description)}</span></li>`,
    )
    .join('\n');
  const mode =
    door.mode === 'sandbox'
      ? '<div class="test"><strong>Sandbox</strong>: test credentials, sandbox providers, no real money moves.</div>'
      : '<p><strong>Production</strong> mode.</p>';
  const graphql = door.links.some((link) => link.rel === 'graphql-explorer')
    ? `GraphQL answers at <code>${escapeHtml(graphqlPath)}</code> (POST, and graphql-ws on the same path); open it in a browser for the explorer.`
    : `GraphQL answers at <code>${escapeHtml(graphqlPath)}</code> (POST, and graphql-ws on the same path). The explorer is off (GRAPHQL_EXPLORER).`;
  return layout(
    `Tessera ${door.version}`,
    `${mode}
<h1>Tessera <span class="muted">${escapeHtml(door.version)}</span></h1>
<p>${escapeHtml(door.description)}</p>
<p>${graphql}</p>
<h2>Where to go</h2>
<ul>
${items}
</ul>
<p class="muted">Docs: README.md and docs/ in the checkout.</p>`,
    nonce,
    '<link rel="icon" href="data:,">',
  );
}

/** GET /: the landing page, or the same facts as JSON for a client that prefers JSON. */
export function landingPageRoute(app: FastifyInstance, config: Config, paths: FrontDoorPaths) {
  const door = frontDoorOf(config, paths);
  app.get('/', async (request, reply) => {
    reply.header('vary', 'accept').header('cache-control', 'no-store');
    if (preferredType(request, ['text/html', 'application/json']) === 'application/json') return door;
    const nonce = crypto.randomBytes(16).toString('base64');
    return reply
      .header(
        'content-security-policy',
        `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      )
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8')
      .send(html(door, paths.graphql, nonce));
  });
}
