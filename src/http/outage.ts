import { FastifyInstance, FastifyReply } from 'fastify';
import { DatabaseOutage, isDatabaseUnreachable } from '../db/outage';
import { DomainError, ErrorCode } from '../domain/shared/errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's view of a database outage: counts refused requests, logs once per interval (src/db/outage.ts). */
    databaseOutage: DatabaseOutage;
  }
}

/** Seconds a client is told to wait before retrying a 503 (Retry-After), on every face. */
export const RETRY_AFTER_SECONDS = 5;

export const SERVICE_UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable; retry in a few seconds';

/** Sets Retry-After on a 503 answer. */
export const retryLater = (reply: FastifyReply) => reply.header('retry-after', String(RETRY_AFTER_SECONDS));

/** The server's outage watch over its database, closed with the server. */
export function registerOutageWatch(app: FastifyInstance, dataSource: { query(sql: string): Promise<unknown> }) {
  const outage = new DatabaseOutage(() => dataSource.query('SELECT 1'), app.log);
  app.decorate('databaseOutage', outage);
  app.addHook('onClose', async () => outage.stop());
}

/**
 * What a face answers for an error that is not a domain error: when it means the database cannot
 * be reached, the request is counted on the outage (which logs it, once) and the answer is
 * SERVICE_UNAVAILABLE; otherwise null (the face's own mapping applies).
 */
export function outageErrorOf(outage: DatabaseOutage, error: unknown): DomainError | null {
  const unavailable = unavailableErrorOf(error);
  if (unavailable) outage.refused(error);
  return unavailable;
}

/** SERVICE_UNAVAILABLE for an error that means the database cannot be reached (a domain error never does); otherwise null. */
export function unavailableErrorOf(error: unknown): DomainError | null {
  if (error instanceof DomainError || !isDatabaseUnreachable(error)) return null;
  return new DomainError(ErrorCode.SERVICE_UNAVAILABLE, SERVICE_UNAVAILABLE_MESSAGE);
}
