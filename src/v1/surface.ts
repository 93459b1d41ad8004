import { IncomingMessage, ServerResponse } from 'node:http';
import fastifySwagger from '@fastify/swagger';
import { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import { ZodTypeProvider, jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { Core } from '../domain/core';
import { TESSERA_VERSION } from '../project';
import { registerIdempotency } from '../http/idempotency';
import { referencePageRoutes } from '../http/reference-page';
import { openApiPath, responseChecker } from '../http/response-check';
import { documentOrigin, finishedDocument, servedDocument, surfaceOperations } from '../http/openapi';
import { zodScope } from '../http/surface';
import { registerV1NotFound, sendV1Error } from './errors';
import { identifyV1Callers, limitV1Requests, requireV1Keys } from './guards';
import { registerV1Routes, v1Operations } from './routes';

/** The Fastify instance `/v1` routes are declared on (paths relative to the `/v1` prefix). */
export type V1App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse<IncomingMessage>,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export const V1_PREFIX = '/v1';
export const V1_OPENAPI_PATH = `${V1_PREFIX}/openapi.json`;
export const V1_DOCS_PATH = `${V1_PREFIX}/docs`;
/** The interface document labels the alternate reference surface v1.0 (its Versioning section). */
export const V1_INTERFACE_VERSION = '1.0';

export interface V1SurfaceOptions {
  /** Called for each `/v1` answer that does not match its OpenAPI document (the test suite sets it). */
  onResponseMismatch?: (problem: string) => void;
}

/**
 * The alternate reference surface `/v1` (design section 11) as one encapsulated plugin under the
 * `/v1` prefix: its own keys (`Authorization: Bearer tessera_…_sk_…`), rate limits per key, error
 * body `{ error: { code, message } }` for every failure (unmatched paths, 405, malformed JSON,
 * oversized bodies, validation, 500), snake_case wire format and OpenAPI document. A third face
 * over the same domain services. The literal path `/v1/business/payouts/:id` of the interface
 * document is not this surface's: the REST surface serves it, with its envelope and credentials.
 */
export async function registerV1Surface(app: FastifyInstance, core: Core, options: V1SurfaceOptions = {}) {
  await app.register(
    async (plain) => {
      const scope = zodScope(plain, sendV1Error);
      // In this order, on every request before its body is read: who calls, their budget, the key check.
      identifyV1Callers(scope, core);
      limitV1Requests(scope, core.config.v1RateLimits);
      requireV1Keys(scope);
      registerIdempotency(scope, core);
      registerV1NotFound(scope);

      const origin = documentOrigin(core.config.publicBaseUrl, V1_INTERFACE_VERSION, TESSERA_VERSION);
      const operations = surfaceOperations(v1Operations());
      await scope.register(fastifySwagger, {
        openapi: {
          openapi: '3.1.0',
          servers: origin.servers,
          info: {
            title: 'Tessera alternate reference surface',
            ...origin.info,
            description:
              'The alternate reference surface (`/v1`): snake_case bodies, `{ error: { code, message } }` errors, keys `tessera_test_sk_…` / `tessera_live_sk_…`. See docs/alt-v1.md.',
          },
          tags: operations.tags,
          components: {
            securitySchemes: {
              secretKey: {
                type: 'http',
                scheme: 'bearer',
                description: 'Your /v1 secret key, tessera_test_sk_… or tessera_live_sk_…',
              },
            },
          },
        },
        transform: (input) => {
          const output = jsonSchemaTransform(input);
          const named = operations.nameOf([input.route.method].flat()[0], openApiPath(output.url));
          const isPublic = input.route.config?.v1Auth === 'public';
          const schema = output.schema as Record<string, unknown>;
          output.schema = {
            ...schema,
            ...named,
            headers: {
              type: 'object',
              properties:
                input.route.method === 'POST'
                  ? {
                      'idempotency-key': {
                        type: 'string',
                        maxLength: 255,
                        description: 'Makes a POST safe to retry: the first answer is stored for 24 h and replayed',
                      },
                    }
                  : {},
            },
            ...(isPublic ? {} : { security: [{ secretKey: [] }] }),
          };
          return output;
        },
        transformObject: (input) => finishedDocument(jsonSchemaTransformObject(input) as never),
      });
      let served: unknown;
      scope.get(
        '/openapi.json',
        { schema: { hide: true }, config: { v1Auth: 'public' } },
        async () => (served ??= servedDocument(scope.swagger() as never)),
      );
      referencePageRoutes(scope, {
        title: 'Tessera /v1 API reference',
        path: V1_DOCS_PATH,
        documentUrl: V1_OPENAPI_PATH,
        routeConfig: { v1Auth: 'public' },
      });

      if (options.onResponseMismatch) {
        const report = options.onResponseMismatch;
        let check: ReturnType<typeof responseChecker> | null = null;
        scope.addHook('onSend', async (request, reply, payload) => {
          const route = request.routeOptions.url;
          if (
            !route ||
            request.method === 'HEAD' ||
            route === V1_OPENAPI_PATH ||
            route.startsWith(V1_DOCS_PATH) ||
            request.is404
          )
            return payload;
          check ??= responseChecker(scope.swagger() as never);
          let body: unknown;
          try {
            body = typeof payload === 'string' && payload.length > 0 ? JSON.parse(payload) : undefined;
          } catch {
            body = payload;
          }
          const problem = check(request.method, route, reply.statusCode, body);
          if (problem) report(`/v1: ${problem}`);
          return payload;
        });
      }

      registerV1Routes(scope, core);
    },
    { prefix: V1_PREFIX },
  );
}
