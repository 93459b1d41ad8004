import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import fastifySwagger from '@fastify/swagger';
import Fastify, { RouteOptions } from 'fastify';
import { ZodTypeProvider, jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OPENAPI_PATH } from '../src/rest/surface';
import { TESSERA_VERSION } from '../src/project';
import { OperationsByTag, servedDocument, surfaceOperations } from '../src/http/openapi';
import { V1_DECLARED_ERROR_STATUSES, V1_SURFACE_ERROR_CODES, v1ErrorCodesOf } from '../src/v1/schemas';
import { v1StatusOf } from '../src/v1/errors';
import {
  DECLARED_ERROR_STATUSES,
  SURFACE_ERROR_CODES,
  errorCodesOf,
  idParamsSchema,
  responses,
  timestampSchema,
} from '../src/rest/shared/schemas';
import { LedgerErrorCode } from '../src/domain/ledger/ledger.errors';
import { OpenApiDocument, openApiPath, responseChecker } from '../src/rest/shared/response-check';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { TestServer, startTestServer } from './support/harness';
import committedOperationIds from './fixtures/openapi-operation-ids.json';
import { Document as SpectralDocument, Spectral } from '@stoplight/spectral-core';
import * as SpectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';

/**
 * The OpenAPI 3.1 document of the REST surface (GET /api/v1/openapi.json, generated from the
 * routes' zod declarations in src/rest/surface.ts) and its reference at /docs, as the interface
 * document and docs/rest-api.md describe them.
 */

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; required?: boolean }>;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: object }> }>;
};
type Document = OpenApiDocument & {
  openapi: string;
  tags?: Array<{ name: string; description?: string }>;
  info: { title: string; version: string };
  components: { securitySchemes: Record<string, unknown>; schemas?: Record<string, object> };
  paths: Record<string, Record<string, Operation>>;
};

/**
 * Validates a document with @seriousme/openapi-schema-validator (`new Validator()`,
 * `validate(document)`). It is an ES module, which Jest's CommonJS runtime cannot load, so it runs
 * in a plain Node process that reads the document on stdin.
 */
async function validateOpenApi(document: unknown): Promise<{ valid: boolean; version: string; errors?: unknown }> {
  const script = `
    import('@seriousme/openapi-schema-validator').then(async ({ Validator }) => {
      let text = '';
      for await (const chunk of process.stdin) text += chunk;
      const validator = new Validator();
      const result = await validator.validate(JSON.parse(text));
      process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors }));
    });`;
  const child = spawn(process.execPath, ['-e', script], { cwd: __dirname, stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdin.end(JSON.stringify(document));
  const code = await exited;
  if (code !== 0) throw new Error(`the OpenAPI validator exited with ${code}: ${output}`);
  return JSON.parse(output);
}

const CREDENTIAL_SECURITY = [{ apiKey: [] }, { bearerAuth: [] }];

interface RegisteredRoute {
  method: string;
  url: string;
  auth: 'credential' | 'publishable' | 'public';
  hidden: boolean;
  alias: boolean;
  aliasOf?: string;
}

/**
 * The operationIds a client generator names its methods after, checked against the committed
 * list (test/fixtures/openapi-operation-ids.json): renaming an operation is a visible change, and
 * a new operation needs its name written there.
 */
function expectStableOperationIds(document: Document, surface: 'rest' | 'v1') {
  const named = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(
      ([method, operation]) => [`${method.toUpperCase()} ${path}`, operation.operationId] as const,
    ),
  );
  expect(named.filter(([, id]) => !id || !/^[a-z][A-Za-z0-9]*$/.test(id)).map(([route]) => route)).toEqual([]);
  const undescribed = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => !operation.summary?.trim() || !operation.description?.trim())
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
  expect(undescribed).toEqual([]);
  const ids = named.map(([, id]) => id);
  expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  expect(Object.fromEntries(named)).toEqual(committedOperationIds[surface]);
}

/** The `$ref` names of component schemas anywhere in `value`. */
const refsIn = (value: unknown): string[] =>
  [...JSON.stringify(value ?? null).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]);

/**
 * Each resource an operation answers is a named component, referenced with `$ref` (inline only: a
 * page around named items, and the confirmation of a DELETE); the document carries only the
 * components its operations use, directly or through another component.
 */
function expectNamedResources(document: Document, resources: string[]) {
  const schemas = document.components.schemas ?? {};
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
  );
  const inline = operations
    .flatMap(({ route, operation }) =>
      Object.entries(operation.responses ?? {})
        .filter(([status]) => /^2\d\d$/.test(status))
        .map(([status, response]) => {
          const body = response.content?.['application/json']?.schema as
            { properties?: Record<string, any>; $ref?: string; type?: string; items?: { $ref?: string } } | undefined;
          const data = body?.properties?.data ?? body;
          const named =
            !data ||
            data.$ref !== undefined ||
            (data.type === 'array' && data.items?.$ref !== undefined) ||
            data.properties?.items?.items?.$ref !== undefined ||
            data.properties?.deleted !== undefined;
          return named ? null : `${route} ${status}`;
        }),
    )
    .filter(Boolean);
  expect(inline).toEqual([]);

  const used = new Set(refsIn(document.paths));
  for (let pending = [...used]; pending.length > 0;) {
    pending = refsIn(pending.map((name) => schemas[name])).filter((name) => !used.has(name));
    for (const name of pending) used.add(name);
  }
  expect(resources.filter((name) => !(name in schemas) || !used.has(name))).toEqual([]);
  expect(Object.keys(schemas).filter((name) => !used.has(name))).toEqual([]);
}

/** `info` has a contact and the surface's interface version (Tessera's own beside it); `servers` is PUBLIC_BASE_URL. */
function expectOrigin(document: Document, server: TestServer, interfaceVersion: string) {
  const info = document.info as Document['info'] & {
    contact?: { name?: string; url?: string };
    'x-tessera-version'?: string;
  };
  expect(info.version).toBe(interfaceVersion);
  expect(info['x-tessera-version']).toBe(TESSERA_VERSION);
  expect(info.contact).toEqual({ name: 'Tessera', url: expect.stringMatching(/^https?:\/\//) });
  const base = server.runtime.core.config.publicBaseUrl.replace(/\/+$/, '');
  expect((document as { servers?: unknown }).servers).toEqual([{ url: base, description: expect.any(String) }]);
}

/**
 * Spectral's `spectral:oas` ruleset (@stoplight/spectral-core with @stoplight/spectral-rulesets,
 * what `spectral lint` runs) on a served document: its findings by severity and rule.
 */
async function spectralFindings(document: unknown) {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] } as never);
  const results = await spectral.run(
    new SpectralDocument(JSON.stringify(document), SpectralParsers.Json, 'openapi.json'),
  );
  // Spectral's severities: 0 error, 1 warning (DiagnosticSeverity of @stoplight/types).
  const list = (severity: 0 | 1) =>
    results
      .filter((result) => (result.severity as number) === severity)
      .map((result) => `${result.code} at ${result.path.join('.')}: ${result.message}`);
  return { errors: list(0), warnings: list(1) };
}

/**
 * No Spectral error; warnings reported, and never more than the committed count (the bar is 0):
 * WARNING_CEILING falls as operations get descriptions, so a new warning is a visible change.
 */
async function expectSpectralClean(document: unknown, ceiling: number, surface: string) {
  const { errors, warnings } = await spectralFindings(document);
  expect(errors).toEqual([]);
  if (warnings.length > 0)
    process.stdout.write(
      `Spectral spectral:oas on the ${surface} document: 0 errors, ${warnings.length} warnings (${[...new Set(warnings.map((warning) => warning.split(' ')[0]))].join(', ')})\n`,
    );
  expect(warnings.length).toBeLessThanOrEqual(ceiling);
}

/**
 * The request bodies and success answers without an example, and the examples their schema
 * refuses (checked with Ajv, as the suite's response check validates answers).
 */
function invalidExamples(document: Document) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const [id, schema] of Object.entries(document.components.schemas ?? {}))
    ajv.addSchema(schema, `#/components/schemas/${id}`);
  const missing: string[] = [];
  const invalid: string[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods) as Array<
      [string, Operation & { requestBody?: { content?: Record<string, { schema?: object; example?: unknown }> } }]
    >) {
      const bodies = [
        ['request', operation.requestBody?.content?.['application/json']] as const,
        ...Object.entries(operation.responses ?? {})
          .filter(([status]) => /^2\d\d$/.test(status))
          .map(([status, response]): readonly [string, { schema?: object; example?: unknown } | undefined] => [
            status,
            response.content?.['application/json'],
          ]),
      ];
      for (const [which, media] of bodies) {
        if (!media?.schema) continue;
        const at = `${method.toUpperCase()} ${path} ${which}`;
        if (media.example === undefined) missing.push(at);
        else if (!ajv.validate(media.schema, media.example)) invalid.push(`${at}: ${ajv.errorsText(ajv.errors)}`);
      }
    }
  }
  return { missing, invalid };
}

/** Where `additionalProperties: false` closes an object: under each operation's answers, and in the components. */
function closedObjects(document: Document) {
  const count = (value: unknown) => (JSON.stringify(value ?? null).match(/"additionalProperties":false/g) ?? []).length;
  const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods)) as Array<
    Operation & { requestBody?: unknown }
  >;
  return {
    answers:
      operations.reduce((sum, operation) => sum + count(operation.responses), 0) + count(document.components.schemas),
    requests: operations.reduce((sum, operation) => sum + count(operation.requestBody), 0),
  };
}

/** Where in the document a bound sits at ±(2^53 − 1), zod's safe-integer range rather than a rule of the field. */
function safeIntegerBounds(value: unknown, at = '#'): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) =>
    ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].includes(key) &&
    typeof item === 'number' &&
    Math.abs(item) >= Number.MAX_SAFE_INTEGER
      ? [`${at}/${key}`]
      : safeIntegerBounds(item, `${at}/${key}`),
  );
}

/** One tag per area, each described; every operation has exactly one tag, from that list; no tag unused. */
function expectAreaTags(document: Document) {
  const tags = document.tags ?? [];
  expect(tags.length).toBeGreaterThan(0);
  expect(tags.filter((tag) => !tag.name || !tag.description?.trim()).map((tag) => tag.name)).toEqual([]);
  const names = tags.map((tag) => tag.name);
  expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      route: `${method.toUpperCase()} ${path}`,
      tags: operation.tags ?? [],
    })),
  );
  expect(
    operations
      .filter(
        (operation) => operation.tags.length !== 1 || !names.includes(operation.tags[0]) || !operation.tags[0].trim(),
      )
      .map((operation) => `${operation.route} ${JSON.stringify(operation.tags)}`),
  ).toEqual([]);
  const used = new Set(operations.flatMap((operation) => operation.tags));
  expect(names.filter((name) => !used.has(name))).toEqual([]);
}

describe('The OpenAPI document of the REST surface', () => {
  let server: TestServer;
  let document: Document;
  const registered: RegisteredRoute[] = [];

  /**
   * The REST routes the server registers, as Fastify registers them (as test/fuzz.test.ts
   * enumerates them): every `/api/v1` route and the documented unprefixed aliases. HEAD routes are
   * the ones Fastify adds beside each GET; OpenAPI has no separate operation for them.
   */
  const restRoutes = () =>
    registered.filter((route) => (route.url.startsWith('/api/v1/') || route.alias) && route.method !== 'HEAD');
  /** The routes the document lists: all but the hidden ones and the aliases (documented as the operation they serve). */
  const documented = () => restRoutes().filter((route) => !route.hidden && !route.alias);
  const operationOf = (route: { method: string; url: string }): Operation | undefined =>
    document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];

  beforeAll(async () => {
    server = await startTestServer({}, undefined, {
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) {
          registered.push({
            method,
            url: route.url,
            auth: route.config?.auth ?? 'credential',
            hidden: Boolean(route.schema?.hide),
            alias: Boolean(route.config?.aliasOf),
            aliasOf: route.config?.aliasOf,
          });
        }
      },
    });
    document = (await server.request('GET', OPENAPI_PATH)).body;
  });

  afterAll(async () => {
    await server?.close();
  });

  test('GET /api/v1/openapi.json answers the OpenAPI 3.1 document, without a credential', async () => {
    const response = await server.request('GET', OPENAPI_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Tessera REST API' } });
    expect(Object.keys(response.body.paths).length).toBeGreaterThan(0);
  });

  test('the document passes an OpenAPI 3.1 validator', async () => {
    const result = await validateOpenApi(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.version).toBe('3.1');
  });

  test('it declares the security schemes exactly: x-api-key, HTTP bearer JWT and the publishable key', () => {
    expect(document.components.securitySchemes).toEqual({
      apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: expect.any(String) },
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: expect.any(String) },
      publishableKey: { type: 'apiKey', in: 'header', name: 'x-publishable-key', description: expect.any(String) },
    });
    expect(document).not.toHaveProperty('security');
  });

  test('every authenticated operation requires an API key or a bearer token and takes the x-service-business-id header', () => {
    const authenticatedRoutes = documented().filter((route) => route.auth === 'credential');
    expect(authenticatedRoutes.length).toBeGreaterThan(40);
    const offenders = authenticatedRoutes.filter((route) => {
      const operation = operationOf(route);
      const header = operation?.parameters?.find(
        (parameter) => parameter.in === 'header' && parameter.name === 'x-service-business-id',
      );
      return JSON.stringify(operation?.security) !== JSON.stringify(CREDENTIAL_SECURITY) || !header || header.required;
    });
    expect(offenders.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  test('public operations do not require an API key: the token exchange needs none, card tokens take the publishable key', () => {
    const exchange = operationOf({ method: 'POST', url: '/api/v1/business/auth/token' });
    expect(exchange).toBeDefined();
    expect(exchange).not.toHaveProperty('security');
    expect(exchange?.parameters?.map((parameter) => parameter.name)).not.toContain('x-service-business-id');

    const tokens = operationOf({ method: 'POST', url: '/api/v1/tokens' });
    expect(tokens?.security).toEqual([{ publishableKey: [] }]);
    expect(tokens?.parameters?.map((parameter) => parameter.name)).not.toContain('x-service-business-id');

    const notCredential = documented().filter((route) => route.auth !== 'credential');
    const requiringAKey = notCredential.filter((route) =>
      operationOf(route)?.security?.some((requirement) => 'apiKey' in requirement || 'bearerAuth' in requirement),
    );
    expect(requiringAKey.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  test('every REST route the server registers is in the document; an alias only as the operation it serves; the document and /docs are not', () => {
    const missing = documented().filter((route) => !operationOf(route));
    expect(missing.map((route) => `${route.method} ${route.url}`)).toEqual([]);
    const aliases = restRoutes().filter((route) => route.alias);
    expect(aliases.length).toBeGreaterThan(0);
    // Served (the routes exist), documented once: under the canonical path, never as a second operation.
    expect(aliases.filter((route) => operationOf(route)).map((route) => `${route.method} ${route.url}`)).toEqual([]);
    expect(
      aliases
        .filter((route) => !operationOf({ method: route.method, url: route.aliasOf! }))
        .map((route) => route.aliasOf),
    ).toEqual([]);

    const hidden = registered.filter((route) => route.hidden && route.method !== 'HEAD');
    expect(hidden.map((route) => route.url)).toEqual(expect.arrayContaining([OPENAPI_PATH, '/docs', '/docs/init.js']));
    expect(hidden.filter((route) => operationOf(route)).map((route) => route.url)).toEqual([]);

    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.length).toBe(documented().length);
  });

  test('every operation has a camelCase operationId, unique in the document, and the names are the committed ones', () => {
    expectStableOperationIds(document, 'rest');
  });

  test('the document lists one described tag per area, and every operation has one of them', () => {
    expectAreaTags(document);
  });

  test('docs/rest-api.md lists every operation by name, area and path (Operations by name)', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'rest-api.md'), 'utf8');
    const listed = [...doc.matchAll(/^\| ([^|]+) \| `([A-Za-z]+)` \| ([A-Z]+) `([^`]+)` \|$/gm)]
      .map(([, tag, id, method, route]) => `${tag} ${id} ${method} ${route}`)
      .sort();
    const operations = Object.entries(document.paths)
      .flatMap(([route, methods]) =>
        Object.entries(methods).map(
          ([method, operation]) => `${operation.tags?.[0]} ${operation.operationId} ${method.toUpperCase()} ${route}`,
        ),
      )
      .sort();
    expect(listed).toEqual(operations);
  });

  test('Spectral (spectral:oas) finds no error in the document, and no more warnings than the committed ceiling', async () => {
    await expectSpectralClean(document, 0, '/api/v1');
  });

  test('the served document leaves answers open for additions (request bodies keep their rules)', () => {
    expect(closedObjects(document)).toEqual({ answers: 0, requests: expect.any(Number) });
    expect(closedObjects(document).requests).toBeGreaterThan(0);
  });

  test("info names a contact and the interface version 2026-04-15 (Tessera's own in x-tessera-version); servers is PUBLIC_BASE_URL", () => {
    expectOrigin(document, server, '2026-04-15');
  });

  test('no integer bound is the ±2^53 artefact: fields have their real bounds (a card expiry month is 1–12) or none', () => {
    expect(safeIntegerBounds(document)).toEqual([]);
    const schemas = document.components.schemas as Record<
      string,
      { properties: Record<string, { minimum?: number; maximum?: number }> }
    >;
    expect(schemas.PaymentMethod.properties.expiryMonth).toMatchObject({ minimum: 1, maximum: 12 });
    expect(schemas.PaymentMethod.properties.expiryYear).toMatchObject({ minimum: 1000, maximum: 9999 });
  });

  test('every resource is a named component referenced by the operations, and the document carries only the components it uses', () => {
    expectNamedResources(document, [
      'Payment',
      'Refund',
      'Dispute',
      'Wallet',
      'WalletEntry',
      'Quote',
      'Payout',
      'PayoutRecipient',
      'Batch',
      'Schedule',
      'ScheduleRun',
      'Collection',
      'EndUser',
      'KycRecord',
      'TreasuryWallet',
      'DepositInstructions',
      'TreasuryPayout',
      'WebhookEndpoint',
      'WebhookDelivery',
      'Event',
      'Customer',
      'PaymentMethod',
      'CardToken',
      'FraudRule',
      'BlocklistEntry',
      'CheckoutSession',
      'PaymentLink',
      'Invoice',
      'RecurringGift',
      'BusinessConfig',
      'PayoutPinStatus',
      'ErrorEnvelope',
    ]);
  });

  test('every operation that declares its answers declares the success envelope and the error envelope for 4xx and 5xx', () => {
    const declaring = documented().filter((route) =>
      Object.values(operationOf(route)?.responses ?? {}).some((response) => response.content),
    );
    const offenders = declaring.filter((route) => {
      const answers = operationOf(route)!.responses!;
      // 204 No Content (the CORS preflight) has no body, so no envelope.
      const success = Object.entries(answers).filter(([status]) => /^2\d\d$/.test(status) && status !== '204');
      const enveloped = success.every(([, response]) => {
        const schema = response.content?.['application/json']?.schema as
          { properties?: Record<string, unknown>; required?: string[] } | undefined;
        return !response.content || (schema?.properties?.success !== undefined && schema.required?.includes('data'));
      });
      return !enveloped || !answers['4XX']?.content || !answers['5XX']?.content;
    });
    expect(offenders.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  /** The `error.code` enum each operation declares for `status`, by `METHOD /path`. */
  const declaredCodes = (status: number) =>
    Object.fromEntries(
      documented()
        .filter((route) => route.method !== 'OPTIONS')
        .map((route) => {
          const schema = operationOf(route)?.responses?.[String(status)]?.content?.['application/json']?.schema as
            { $ref?: string; properties?: any } | undefined;
          const resolved = schema?.$ref
            ? (document.components.schemas as Record<string, any>)[schema.$ref.split('/').pop()!]
            : schema;
          return [
            `${route.method} ${route.url}`,
            (resolved?.properties?.error?.properties?.code?.enum as string[] | undefined)?.slice().sort(),
          ];
        }),
    );

  test('every operation declares 400, 401, 403, 404, 409, 422, 429 and 500, error.code an enum of what any operation answers there and of its own refusals', () => {
    for (const status of DECLARED_ERROR_STATUSES) {
      const offenders = Object.entries(declaredCodes(status)).filter(
        ([, codes]) =>
          !codes ||
          !SURFACE_ERROR_CODES[status].every((code) => codes.includes(code)) ||
          !codes.every((code) => errorCodesOf(status).includes(code as never)),
      );
      expect({ status, offenders }).toEqual({ status, offenders: [] });
    }
  });

  test('error.code is narrowed per operation: INSUFFICIENT_FUNDS where money leaves a wallet, SANDBOX_ONLY on the sandbox helpers, PIN codes where a PIN is checked', () => {
    const at422 = declaredCodes(422);
    const insufficient = Object.keys(at422)
      .filter((route) => at422[route]?.includes('INSUFFICIENT_FUNDS'))
      .sort();
    expect(insufficient).toEqual(
      expect.arrayContaining([
        'POST /api/v1/business/payouts',
        'POST /api/v1/business/payouts/batches',
        'POST /api/v1/business/payments/:id/refunds',
        'POST /api/v1/treasury/payouts',
      ]),
    );
    expect(insufficient).not.toContain('GET /api/v1/business/payouts');
    expect(at422['GET /api/v1/business/payouts']).toEqual(['UNPROCESSABLE']);
    expect(at422['POST /api/v1/treasury/users/:id/wallets']).toEqual(['KYC_REQUIRED', 'UNPROCESSABLE']);
    const at403 = declaredCodes(403);
    const sandbox = documented()
      .filter((route) => /\/sandbox(\/|-)/.test(route.url))
      .map((route) => `${route.method} ${route.url}`);
    expect(sandbox.filter((route) => !at403[route]?.includes('SANDBOX_ONLY'))).toEqual([]);
    expect(at403['POST /api/v1/business/payouts/recipients']).toEqual(['FORBIDDEN', 'SANCTIONS_MATCH']);
    expect(declaredCodes(429)['POST /api/v1/business/payouts/schedules']).toEqual(['PIN_LOCKED', 'RATE_LIMITED']);
  });

  test('docs/rest-api.md lists the codes each operation adds to what any operation answers (Error codes by operation)', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', 'docs', 'rest-api.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Error codes by operation'));
    const listed = Object.fromEntries(
      [...section.matchAll(/^\| `([A-Za-z]+)` \| ((?:`[A-Z_]+` \d{3}(?:, )?)+) \|$/gm)].map(([, id, codes]) => [
        id,
        [...codes.matchAll(/`([A-Z_]+)` (\d{3})/g)]
          .filter(([, , status]) => (DECLARED_ERROR_STATUSES as readonly number[]).includes(Number(status)))
          .map(([, code]) => code)
          .sort(),
      ]),
    );
    const own: Record<string, string[]> = {};
    for (const status of DECLARED_ERROR_STATUSES) {
      for (const [route, codes] of Object.entries(declaredCodes(status))) {
        const extra = (codes ?? []).filter((code) => !SURFACE_ERROR_CODES[status].includes(code as never));
        if (extra.length === 0) continue;
        const [method, url] = route.split(' ');
        const id = operationOf({ method, url })!.operationId!;
        own[id] = [...(own[id] ?? []), ...extra].sort();
      }
    }
    expect(listed).toEqual(own);
  });

  test("the suite's response check refuses a code the operation did not declare: INSUFFICIENT_FUNDS from a list of payouts", () => {
    const check = responseChecker(document);
    const refusal = (code: string, statusCode: number) => ({
      success: false,
      error: { code, message: 'm', statusCode },
    });
    expect(check('POST', '/api/v1/business/payouts', 422, refusal('INSUFFICIENT_FUNDS', 422))).toBeNull();
    expect(check('GET', '/api/v1/business/payouts', 422, refusal('INSUFFICIENT_FUNDS', 422))).toMatch(
      /\/error\/code must be equal to one of the allowed values/,
    );
    expect(check('GET', '/api/v1/business/payouts', 422, refusal('UNPROCESSABLE', 422))).toBeNull();
    expect(check('POST', '/api/v1/business/payouts', 403, refusal('SANDBOX_ONLY', 403))).toMatch(
      /\/error\/code must be equal to one of the allowed values/,
    );
    expect(check('POST', '/api/v1/business/sandbox/wallets/fund', 403, refusal('SANDBOX_ONLY', 403))).toBeNull();
  });

  test('every JSON request body and success answer has an example, valid against its schema', () => {
    expect(invalidExamples(document)).toEqual({ missing: [], invalid: [] });
  });

  test('every REST route declares its success responses', () => {
    const undeclared = documented().filter((route) => {
      const answers = operationOf(route)?.responses ?? {};
      return !Object.entries(answers).some(
        ([status, response]) =>
          /^2\d\d$/.test(status) && (response.content?.['application/json']?.schema !== undefined || status === '204'),
      );
    });
    expect(undeclared.map((route) => `${route.method} ${route.url}`)).toEqual([]);
  });

  describe('the reference at /docs', () => {
    test('GET /docs serves the Swagger UI page with a CSP that allows only this server', async () => {
      const response = await server.request('GET', '/docs');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/https?:|\*/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.body).toContain(`data-document="${OPENAPI_PATH}"`);
      // Offline: no script, style or image from another origin, and no inline script (the CSP forbids it).
      expect(response.body).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(response.body).not.toMatch(/<script>(?!<\/script>)/);
    });

    test('every asset the page loads (CSS, JS, icon) is served by this server, with the CSP', async () => {
      const page: string = (await server.request('GET', '/docs')).body;
      const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
      expect(assets).toEqual(
        expect.arrayContaining([
          '/docs/assets/swagger-ui.css',
          '/docs/assets/swagger-ui-bundle.js',
          '/docs/assets/swagger-ui-standalone-preset.js',
          '/docs/init.js',
        ]),
      );
      for (const asset of assets) {
        const response = await fetch(`${server.baseUrl}${asset}`);
        const body = await response.arrayBuffer();
        expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
        expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
        expect(body.byteLength).toBeGreaterThan(0);
        const type = response.headers.get('content-type') ?? '';
        if (asset.endsWith('.css')) expect(type).toMatch(/^text\/css/);
        if (asset.endsWith('.js')) expect(type).toMatch(/^application\/javascript/);
      }
      const bundle = await (await fetch(`${server.baseUrl}/docs/assets/swagger-ui-bundle.js`)).text();
      expect(bundle).toContain('SwaggerUIBundle');
    });
  });
});

/**
 * src/rest/shared/response-check.ts: the check the suite runs on every REST answer, on a document
 * generated the way the surface generates it (zod declarations with `responses()`).
 */
describe("A surface's operations, gathered from its areas' modules", () => {
  const operation = (id: string) => ({ id, summary: `Do ${id}`, description: `Does ${id}.` });
  const payouts: OperationsByTag = {
    Payouts: { description: 'Payouts.', operations: { 'POST /payouts': operation('createPayout') } },
    Sandbox: { operations: { 'POST /sandbox/payouts/{id}/advance': operation('advanceSandboxPayout') } },
  };
  const sandbox: OperationsByTag = {
    Sandbox: { description: 'Test-mode controls.', operations: { 'GET /sandbox/clock': operation('getSandboxClock') } },
  };

  test("the tags are in the order of the areas that describe them; an area lists operations under another's tag", () => {
    const gathered = surfaceOperations([payouts, sandbox]);
    expect(gathered.tags).toEqual([
      { name: 'Payouts', description: 'Payouts.' },
      { name: 'Sandbox', description: 'Test-mode controls.' },
    ]);
    expect(gathered.nameOf('post', '/sandbox/payouts/{id}/advance')).toEqual({
      operationId: 'advanceSandboxPayout',
      summary: 'Do advanceSandboxPayout',
      description: 'Does advanceSandboxPayout.',
      tags: ['Sandbox'],
    });
    expect(gathered.nameOf('GET', '/unnamed')).toEqual({});
  });

  test('a tag described twice or never, or a route named twice, is refused', () => {
    expect(() => surfaceOperations([payouts])).toThrow('No area describes the OpenAPI tag Sandbox');
    expect(() => surfaceOperations([payouts, sandbox, sandbox])).toThrow('The OpenAPI tag Sandbox is described twice');
    const again: OperationsByTag = { Payouts: { operations: { 'POST /payouts': operation('createPayoutAgain') } } };
    expect(() => surfaceOperations([payouts, sandbox, again])).toThrow('The operation POST /payouts is named twice');
  });
});

describe('Checking answers against the document', () => {
  const thingSchema = z.object({
    id: z.string(),
    object: z.literal('thing'),
    amount: z.string(),
    note: z.string().nullable(),
    createdAt: timestampSchema,
  });
  let check: ReturnType<typeof responseChecker>;
  let document: OpenApiDocument;

  beforeAll(async () => {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(() => () => ({ value: undefined }));
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    await app.register(fastifySwagger, {
      openapi: { openapi: '3.1.0', info: { title: 'test', version: '1' } },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });
    app.get(
      '/things/:id',
      { schema: { params: idParamsSchema, response: responses({ 200: thingSchema }) } },
      async () => undefined,
    );
    app.post(
      '/things',
      { schema: { response: responses({ 201: thingSchema }, [LedgerErrorCode.INSUFFICIENT_FUNDS]) } },
      async () => undefined,
    );
    await app.ready();
    document = app.swagger() as OpenApiDocument;
    check = responseChecker(document);
    await app.close();
  });

  const thing = { id: 't_1', object: 'thing', amount: '10.00', note: null, createdAt: '2026-11-23T10:00:00.000Z' };

  test('a body that matches the declared schema is not reported', () => {
    expect(check('GET', '/things/:id', 200, { success: true, data: thing })).toBeNull();
    expect(check('POST', '/things', 201, { success: true, data: { ...thing, note: 'a note' } })).toBeNull();
  });

  test('an error answer in the envelope matches the declared 4xx and 5xx', () => {
    expect(
      check('GET', '/things/:id', 404, {
        success: false,
        error: { code: 'NOT_FOUND', message: 'Thing not found', statusCode: 404 },
      }),
    ).toBeNull();
    expect(
      check('POST', '/things', 400, {
        success: false,
        error: {
          code: 'VALIDATION_ERROR',
          message: 'Validation failed',
          statusCode: 400,
          errors: { amount: ['is required'] },
        },
      }),
    ).toBeNull();
    expect(
      check('POST', '/things', 500, {
        success: false,
        error: { code: 'INTERNAL_ERROR', message: 'Internal error', statusCode: 500 },
      }),
    ).toBeNull();
  });

  test('a body that does not match the declared schema is reported, with the fields at fault', () => {
    const problem = check('GET', '/things/:id', 200, {
      success: true,
      data: { ...thing, amount: 1000, note: undefined },
    });
    expect(problem).toMatch(/^GET \/things\/:id 200 does not match the document: /);
    expect(problem).toContain('/data/amount');
    expect(problem).toContain('note');
    expect(check('GET', '/things/:id', 200, thing)).toMatch(/does not match the document/);
    expect(check('GET', '/things/:id', 404, { success: false, error: { code: 'NOT_FOUND' } })).toMatch(
      /does not match the document/,
    );
  });

  test('the served document accepts an added field; the generated one, which the suite checks answers against, reports it', () => {
    const added = { success: true, data: { ...thing, addedLater: 'a new field' } };
    expect(check('GET', '/things/:id', 200, added)).toMatch(/must NOT have additional properties/);
    expect(responseChecker(servedDocument(document as never))('GET', '/things/:id', 200, added)).toBeNull();
    expect(
      responseChecker(servedDocument(document as never))('GET', '/things/:id', 200, {
        success: true,
        data: { ...thing, amount: 1000 },
      }),
    ).toMatch(/does not match the document/);
  });

  test('an error status declared on its own takes only the codes of that status that the operation declares', () => {
    const error = (code: string, statusCode: number) => ({ success: false, error: { code, message: 'm', statusCode } });
    expect(check('POST', '/things', 422, error('INSUFFICIENT_FUNDS', 422))).toBeNull();
    expect(check('POST', '/things', 422, error('UNPROCESSABLE', 422))).toBeNull();
    // A code of the status that this operation does not declare: what a typed client cannot narrow to.
    expect(check('POST', '/things', 422, error('KYC_REQUIRED', 422))).toMatch(
      /\/error\/code must be equal to one of the allowed values/,
    );
    expect(check('GET', '/things/:id', 422, error('INSUFFICIENT_FUNDS', 422))).toMatch(
      /\/error\/code must be equal to one of the allowed values/,
    );
    expect(check('POST', '/things', 404, error('INSUFFICIENT_FUNDS', 404))).toMatch(
      /\/error\/code must be equal to one of the allowed values/,
    );
    expect(check('POST', '/things', 422, error('INSUFFICIENT_FUNDS', 400))).toMatch(/\/error\/statusCode/);
    // A rarer status falls under 4XX: any code of the taxonomy.
    expect(check('POST', '/things', 402, error('CARD_DECLINED', 402))).toBeNull();
    expect(check('POST', '/things', 402, error('PAYMENT_REQUIRED', 402))).toMatch(
      /\/error\/code must be equal to one of the allowed values/,
    );
  });

  test('a status the route does not declare is reported', () => {
    expect(check('POST', '/things', 200, { success: true, data: thing })).toBe(
      'POST /things declares no response for status 200 (declared: 201, 400, 401, 403, 404, 409, 422, 429, 500, 4XX, 5XX)',
    );
    expect(check('GET', '/things/:id', 302, undefined)).toMatch(
      /^GET \/things\/:id declares no response for status 302/,
    );
  });

  test('a route the document does not have is reported', () => {
    expect(check('DELETE', '/things/:id', 200, { success: true, data: thing })).toBe(
      'DELETE /things/:id is not in the OpenAPI document',
    );
  });

  test('Fastify route patterns are OpenAPI paths with braces', () => {
    expect(openApiPath('/api/v1/business/customers/:customerId/payment-methods/:paymentMethodId')).toBe(
      '/api/v1/business/customers/{customerId}/payment-methods/{paymentMethodId}',
    );
    expect(Object.keys(document.paths ?? {})).toEqual(['/things/{id}', '/things']);
  });
});

describe('The OpenAPI document of the /v1 surface', () => {
  let server: TestServer;
  let document: Document;
  const registered: Array<{ method: string; url: string; hidden: boolean; isPublic: boolean }> = [];

  beforeAll(async () => {
    server = await startTestServer({}, undefined, {
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) {
          registered.push({
            method,
            url: route.url,
            hidden: Boolean(route.schema?.hide),
            isPublic: route.config?.v1Auth === 'public',
          });
        }
      },
    });
    document = (await server.request('GET', '/v1/openapi.json')).body;
  });
  afterAll(async () => {
    await server?.close();
  });

  const v1Routes = () =>
    registered.filter(
      (route) =>
        route.url.startsWith('/v1/') &&
        !route.url.startsWith('/v1/business/') &&
        route.method !== 'HEAD' &&
        !route.hidden,
    );

  test('GET /v1/openapi.json answers a valid OpenAPI 3.1 document, without a key', async () => {
    expect(document).toMatchObject({ openapi: '3.1.0', info: { title: 'Tessera alternate reference surface' } });
    const result = await validateOpenApi(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  test('every /v1 route is documented with its success answer, the /v1 error body for 4XX and 5XX, and the secret key', () => {
    expect(v1Routes().length).toBeGreaterThan(2);
    for (const route of v1Routes()) {
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      expect({ route, documented: Boolean(operation) }).toEqual({ route, documented: true });
      const statuses = Object.keys(operation.responses ?? {});
      expect(statuses.some((status) => /^2\d\d$/.test(status))).toBe(true);
      expect(statuses).toEqual(expect.arrayContaining(['4XX', '5XX']));
      expect(operation.security).toEqual([{ secretKey: [] }]);
    }
    expect(
      Object.keys(document.paths).every((path) => path.startsWith('/v1/') && !path.startsWith('/v1/business/')),
    ).toBe(true);
  });

  test('every operation has a camelCase operationId, unique in the document, and the names are the committed ones', () => {
    expectStableOperationIds(document, 'v1');
  });

  test('the document lists one described tag per area, and every operation has one of them', () => {
    expectAreaTags(document);
  });

  test('every resource is a named component referenced by the operations, and the document carries only the components it uses', () => {
    expectNamedResources(document, ['V1Payment', 'V1Transfer', 'V1Rate', 'V1Error']);
    expectOrigin(document, server, '1.0');
    expect(closedObjects(document).answers).toBe(0);
    expect(safeIntegerBounds(document)).toEqual([]);
    expect(Object.keys(document.components.schemas ?? {}).filter((name) => !name.startsWith('V1'))).toEqual([]);
  });

  test('Spectral (spectral:oas) finds no error in the document, and no more warnings than the committed ceiling', async () => {
    await expectSpectralClean(document, 0, '/v1');
  });

  test('every /v1 operation declares 400, 401, 403, 404, 409, 422, 429 and 500, error.code an enum of what any operation answers there and of its own refusals', () => {
    const schemas = document.components.schemas as Record<string, any>;
    const codesOf = (operation: Operation, status: number) => {
      const schema = operation.responses?.[String(status)]?.content?.['application/json']?.schema as
        { $ref?: string; properties?: any } | undefined;
      const resolved = schema?.$ref ? schemas[schema.$ref.split('/').pop()!] : schema;
      return (resolved?.properties?.error?.properties?.code?.enum as string[] | undefined) ?? [];
    };
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const status of V1_DECLARED_ERROR_STATUSES) {
          const codes = codesOf(operation, status);
          const surface = V1_SURFACE_ERROR_CODES.map(v1StatusOf)
            .filter(([answered]) => answered === status)
            .map(([, code]) => code);
          expect({
            operation: `${method} ${path} ${status}`,
            declared: codes.length > 0,
            surface: surface.every((code) => codes.includes(code)),
            known: codes.every((code) => v1ErrorCodesOf(status).includes(code)),
          }).toEqual({ operation: `${method} ${path} ${status}`, declared: true, surface: true, known: true });
        }
      }
    }
    expect(codesOf(document.paths['/v1/transfers'].post, 422)).toEqual(
      expect.arrayContaining(['validation_failed', 'insufficient_balance']),
    );
    expect(codesOf(document.paths['/v1/payments'].get, 422)).not.toContain('insufficient_balance');
    expect(invalidExamples(document)).toEqual({ missing: [], invalid: [] });
  });

  test('the check the suite runs on every /v1 answer refuses a body that does not match the document', () => {
    const check = responseChecker(document);
    expect(check('GET', '/v1/payments/:id', 200, { id: 'x', status: 'PAID' })).toMatch(/does not match the document/);
    expect(
      check('GET', '/v1/payments/:id', 404, { error: { code: 'not_found', message: 'Payment not found' } }),
    ).toBeNull();
    expect(check('GET', '/v1/payments/:id', 404, { success: false, error: { code: 'NOT_FOUND' } })).toMatch(
      /does not match the document/,
    );
    expect(
      check('POST', '/v1/transfers', 422, { error: { code: 'insufficient_balance', message: 'Insufficient balance' } }),
    ).toBeNull();
    expect(
      check('GET', '/v1/payments', 422, { error: { code: 'insufficient_balance', message: 'Insufficient balance' } }),
    ).toMatch(/\/error\/code must be equal to one of the allowed values/);
  });
});
