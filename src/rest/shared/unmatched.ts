import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '../../domain/shared/errors';
import { HttpErrorCode } from '../../http/error-codes';
import { allowedMethods } from '../../http/surface';
import { errorEnvelope } from './envelope';
import { API_PREFIX } from './aliases';

/** Where a path sent without the `/api/v1` prefix would have found a route, if anywhere. */
function prefixedPath(app: FastifyInstance, path: string): string | null {
  if (path.startsWith(`${API_PREFIX}/`)) return null;
  const candidates = [`${API_PREFIX}${path}`, ...(path.startsWith('/v1/') ? [`/api${path}`] : [])];
  return candidates.find((candidate) => allowedMethods(app, candidate).length > 0) ?? null;
}

/**
 * The answer when no route matched the method and path, in the envelope: 405 with `Allow` when
 * the path is served with other methods, otherwise 404 (naming the `/api/v1` path that exists
 * when the prefix was left out). Set in the REST surface's scope, which makes it the server's
 * answer to every path no surface serves, behind the REST guards (so it is rate limited too).
 */
export function registerUnmatchedHandler(app: FastifyInstance) {
  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0];
    const allowed = allowedMethods(app, path);
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return reply
        .status(405)
        .send(
          errorEnvelope(
            HttpErrorCode.METHOD_NOT_ALLOWED,
            `Method ${request.method} is not allowed for ${path}; allowed: ${allowed.join(', ')}`,
          ),
        );
    }
    const suggestion = prefixedPath(app, path);
    const message = `No route for ${request.method} ${path}${suggestion ? `; did you mean ${suggestion}?` : ''}`;
    return reply.status(404).send(errorEnvelope(ErrorCode.NOT_FOUND, message));
  });
}
