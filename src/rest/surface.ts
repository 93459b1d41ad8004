import { IncomingMessage, ServerResponse } from 'node:http';
import fastifySwagger from '@fastify/swagger';
import { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawServerDefault } from 'fastify';
import { ZodTypeProvider, jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { Core } from '../domain/core';
import { TESSERA_VERSION } from '../project';
import { authenticated, publishableCaller } from '../http/request-context';
import { referencePageRoutes } from '../http/reference-page';
import { guardCredentialSurface, zodScope } from '../http/surface';
import { registerRestRoutes, restOperations } from './routes';
import { API_PREFIX, canonicalPath } from './shared/aliases';
import { sendError } from './shared/envelope';
import { registerUnmatchedHandler } from './shared/unmatched';
import { openApiPath, responseChecker } from './shared/response-check';
import {
  INTERFACE_VERSION,
  documentOrigin,
  finishedDocument,
  servedDocument,
  surfaceOperations,
} from '../http/openapi';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call a REST route; checked before its input is, so a caller without a credential
     * learns nothing of the shape. `credential` (the default): an API key, API token or
     * dashboard token; `publishable`: a publishable key only; `public`: anyone.
     */
    auth?: 'credential' | 'publishable' | 'public';
  }
}

/** The Fastify instance REST routes are declared on: zod schemas give typed body, query and params. */
export type RestApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse<IncomingMessage>,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = '/docs';

export interface RestSurfaceOptions {
  /** Called for each REST answer that does not match the OpenAPI document (the test suite sets it). */
  onResponseMismatch?: (problem: string) => void;
}

function requireCaller(request: FastifyRequest) {
  // A path no route serves answers 404/405 to anyone: there is nothing to protect.
  if (request.is404) return;
  switch (request.routeOptions.config.auth ?? 'credential') {
    case 'credential':
      authenticated(request);
      break;
    case 'publishable':
      publishableCaller(request);
      break;
    default:
      break;
  }
}

const businessHeader = {
  type: 'object',
  properties: {
    'x-service-business-id': {
      type: 'string',
      description: 'With a dashboard token of a user in several businesses: the business to act for',
    },
    'x-service-mode': {
      type: 'string',
      enum: ['test', 'live'],
      description: 'With a dashboard token: the mode to act in (default test)',
    },
  },
};
const idempotencyHeader = {
  'idempotency-key': {
    type: 'string',
    maxLength: 255,
    description: 'Makes a POST safe to retry: the first answer is stored for 24 h and replayed',
  },
};

/**
 * The REST compatibility surface (`/api/v1`, the documented unprefixed aliases, the OpenAPI
 * document and its reference at /docs) as one encapsulated plugin: its own guards (credentials,
 * rate limit, idempotency), input checks (zod through the type provider, answering the envelope's
 * VALIDATION_ERROR), serializer (plain JSON: the response schemas document, they never reshape an
 * answer), route access check, error mapper and the not-found answer of every unserved path.
 */
export async function registerRestSurface(app: FastifyInstance, core: Core, options: RestSurfaceOptions = {}) {
  await app.register(async (plain) => {
    const scope = zodScope(plain, sendError);
    guardCredentialSurface(scope, core, { pathOf: canonicalPath });
    scope.addHook('preValidation', async (request) => requireCaller(request));
    // Paths no surface serves answer here, in the envelope: after the guards above, so they are
    // rate limited too.
    registerUnmatchedHandler(scope);

    const origin = documentOrigin(core.config.publicBaseUrl, INTERFACE_VERSION, TESSERA_VERSION);
    const operations = surfaceOperations(restOperations());
    await scope.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Tessera REST API',
          ...origin.info,
          description:
            'The REST compatibility layer (`/api/v1`). Every answer is the envelope `{ success, data }` or `{ success: false, error }`. See docs/rest-api.md.',
        },
        servers: origin.servers,
        tags: operations.tags,
        components: {
          securitySchemes: {
            apiKey: {
              type: 'apiKey',
              in: 'header',
              name: 'x-api-key',
              description: 'The business API key, bk_test_… or bk_live_…',
            },
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'JWT',
              description: 'An API token (POST /api/v1/business/auth/token) or a dashboard token',
            },
            publishableKey: {
              type: 'apiKey',
              in: 'header',
              name: 'x-publishable-key',
              description: 'The publishable key, pk_test_… or pk_live_… (card tokens only)',
            },
          },
        },
      },
      transform: (input) => {
        // A documented alias is its canonical route's operation, served at a second path: one operation in the document.
        if (input.route.config?.aliasOf) return { schema: { ...input.schema, hide: true }, url: input.url };
        const output = jsonSchemaTransform(input);
        const named = operations.nameOf([input.route.method].flat()[0], openApiPath(output.url));
        const auth = input.route.config?.auth ?? 'credential';
        const schema = output.schema as Record<string, unknown>;
        const post =
          input.route.method === 'POST' || (Array.isArray(input.route.method) && input.route.method.includes('POST'));
        const headers = {
          type: 'object',
          properties: {
            ...(auth === 'credential' ? businessHeader.properties : {}),
            ...(post ? idempotencyHeader : {}),
          },
        };
        output.schema = {
          ...schema,
          ...named,
          ...(Object.keys(headers.properties).length > 0 ? { headers } : {}),
          ...(auth === 'credential' ? { security: [{ apiKey: [] }, { bearerAuth: [] }] } : {}),
          ...(auth === 'publishable' ? { security: [{ publishableKey: [] }] } : {}),
        };
        return output;
      },
      transformObject: (input) => finishedDocument(jsonSchemaTransformObject(input) as never),
    });
    let served: unknown;
    scope.get(
      OPENAPI_PATH,
      { schema: { hide: true }, config: { auth: 'public' } },
      async () => (served ??= servedDocument(scope.swagger() as never)),
    );
    referencePageRoutes(scope, {
      title: 'Tessera REST API reference',
      path: DOCS_PATH,
      documentUrl: OPENAPI_PATH,
      routeConfig: { auth: 'public' },
    });

    if (options.onResponseMismatch) {
      const report = options.onResponseMismatch;
      let check: ReturnType<typeof responseChecker> | null = null;
      scope.addHook('onSend', async (request, reply, payload) => {
        // An alias is checked as the operation it serves (the document lists the canonical path only).
        const route = request.routeOptions.config.aliasOf ?? request.routeOptions.url;
        // HEAD is Fastify's automatic twin of a GET (no body): the document describes the GET.
        if (!route || request.method === 'HEAD' || route.startsWith(DOCS_PATH) || route === OPENAPI_PATH)
          return payload;
        check ??= responseChecker(scope.swagger() as never);
        let body: unknown;
        try {
          body = typeof payload === 'string' && payload.length > 0 ? JSON.parse(payload) : undefined;
        } catch {
          body = payload;
        }
        const problem = check(request.method, route, reply.statusCode, body);
        if (problem) report(problem);
        return payload;
      });
    }

    registerRestRoutes(scope, core);
  });
}
