import { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/**
 * Which of `offered` (in the server's order of preference) the request's Accept header prefers;
 * without an Accept header, the first. Undefined when it accepts none of them.
 */
export function preferredType<T extends string>(request: FastifyRequest, offered: readonly T[]): T | undefined {
  const accept = request.headers.accept;
  if (!accept) return offered[0];
  return new Negotiator({ headers: { accept } }).mediaType([...offered]) as T | undefined;
}
