import Ajv2020, { ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type OpenApiResponses = Record<string, { content?: Record<string, { schema?: object }> }>;
export interface OpenApiDocument {
  paths?: Record<string, Record<string, { responses?: OpenApiResponses }>>;
  components?: { schemas?: Record<string, object> };
}

/** The OpenAPI path of a Fastify route pattern: `/payments/:id` → `/payments/{id}`. */
export const openApiPath = (route: string) => route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * Checks answers against an OpenAPI 3.1 document: for the route, method and status, the declared
 * schema (exact status, then its class `4XX`, then `default`). A route or status the document does
 * not declare is a violation too. Used by the test suite on every REST response.
 */
export function responseChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const [id, schema] of Object.entries(document.components?.schemas ?? {})) {
    ajv.addSchema(schema, `#/components/schemas/${id}`);
  }
  const compiled = new Map<string, ValidateFunction>();

  return (method: string, route: string, status: number, body: unknown): string | null => {
    // Fastify answers HEAD on every GET route like the GET, without a body: the GET documents it.
    if (method === 'HEAD' && document.paths?.[openApiPath(route)]?.get) return null;
    const operation = document.paths?.[openApiPath(route)]?.[method.toLowerCase()];
    if (!operation) return `${method} ${route} is not in the OpenAPI document`;
    const declared = operation.responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => candidate in declared);
    if (!key)
      return `${method} ${route} declares no response for status ${status} (declared: ${Object.keys(declared).join(', ') || 'none'})`;
    const schema = declared[key].content?.['application/json']?.schema;
    if (!schema) return body === undefined ? null : `${method} ${route} ${status} declares no JSON body`;
    const cacheKey = `${method} ${route} ${key}`;
    let validate = compiled.get(cacheKey);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(cacheKey, validate);
    }
    if (validate(body)) return null;
    const problems = (validate.errors ?? [])
      .slice(0, 5)
      .map((error) => `${error.instancePath || '/'} ${error.message}`);
    return `${method} ${route} ${status} does not match the document: ${problems.join('; ')}`;
  };
}
