import { PageQuery, PageRequest, pageSize } from '../../domain/shared/pagination';
import { validationError } from '../../domain/shared/errors';

/** Reads `limit` (1 to 100) and `after` (an opaque cursor) from a REST query string. */
export function pageQuery(query: Record<string, string | undefined>): PageRequest {
  let first: number | undefined;
  if (query.limit !== undefined) {
    first = Number(query.limit);
    if (!Number.isInteger(first)) throw validationError({ limit: ['must be an integer between 1 and 100'] });
    pageSize(first, 20, 'limit');
  }
  return { first, after: query.after ?? null };
}

/** The offset page of a REST list from its checked `page` and `limit` (defaults 1 and 20). */
export const offsetPageQuery = (query: { page?: number; limit?: number }): PageQuery & { kind: 'offset' } =>
  ({ kind: 'offset', page: query.page ?? 1, limit: query.limit ?? 20 });
