import { PageQuery } from '../../domain/shared/pagination';

/** The offset page of a REST list from its checked `page` and `limit` (defaults 1 and 20). */
export const offsetPageQuery = (query: { page?: number; limit?: number }): PageQuery & { kind: 'offset' } => ({
  kind: 'offset',
  page: query.page ?? 1,
  limit: query.limit ?? 20,
});
