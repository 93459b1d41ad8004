/** The checker of answers against an OpenAPI document is shared plumbing (src/http), used by every surface. */
export { openApiPath, responseChecker } from '../../http/response-check';
export type { OpenApiDocument } from '../../http/response-check';
