import { createHash } from 'node:crypto';
import { EntityTarget, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { RequestContext } from './context';
import { validationError } from './errors';
import { isUuid } from './ids';
import { EntityRows } from './rows';

export const MAX_PAGE_SIZE = 100;

/**
 * How a list is paged, whatever the face: by page number (REST's `page`/`limit`, `/v1`'s and
 * payouts' `skip`/`take` map onto it) or by keyset cursor (GraphQL's `first`/`after`).
 */
export type PageQuery =
  | { kind: 'offset'; page: number; limit: number }
  /** Rows to skip and to take (the payouts family's `skip`/`take`, design section 8). */
  | { kind: 'skip'; skip: number; take: number }
  | { kind: 'keyset'; first: number | null; after: string | null };

/** A keyset page request (GraphQL's `first`/`after`, REST's `limit`/`after` where a list pages by cursor). */
export type KeysetQuery = Extract<PageQuery, { kind: 'keyset' }>;

/** The one list result: offset pages also count `total`; keyset pages do not (null). */
export interface ListPage<T> {
  items: T[];
  total: number | null;
  hasNextPage: boolean;
  /** Whether rows come before the page (it was asked for after a cursor); false when unknown. */
  hasPreviousPage?: boolean;
  endCursor: string | null;
  cursorOf: (item: T) => string;
}

/** The page of a query already ordered newest first (see `newestFirst`), paged as asked. */
export async function paginate<T extends ObjectLiteral & { id: string; createdAt: Date }>(
  query: SelectQueryBuilder<T>,
  alias: string,
  page: PageQuery,
  filters: unknown,
): Promise<ListPage<T>> {
  if (page.kind === 'keyset') return keysetPage(query, alias, page, filters);
  if (page.kind === 'skip') return skipPage(query, page, filters);
  const limit = pageSize(page.limit, 20, 'limit');
  if (!Number.isSafeInteger(page.page) || page.page < 1)
    throw validationError({ page: ['must be an integer of at least 1'] });
  const [items, total] = await query
    .skip((page.page - 1) * limit)
    .take(limit)
    .getManyAndCount();
  const cursorAt = cursorEncoder(filters);
  const cursorOf = (item: T) => cursorAt([item.createdAt.toISOString(), item.id]);
  return {
    items,
    total,
    hasNextPage: page.page * limit < total,
    hasPreviousPage: page.page > 1,
    endCursor: items.length > 0 ? cursorOf(items[items.length - 1]) : null,
    cursorOf,
  };
}

async function skipPage<T extends ObjectLiteral & { id: string; createdAt: Date }>(
  query: SelectQueryBuilder<T>,
  page: Extract<PageQuery, { kind: 'skip' }>,
  filters: unknown,
): Promise<ListPage<T>> {
  const take = pageSize(page.take, 20, 'take');
  if (!Number.isSafeInteger(page.skip) || page.skip < 0)
    throw validationError({ skip: ['must be an integer of at least 0'] });
  const [items, total] = await query.skip(page.skip).take(take).getManyAndCount();
  const cursorAt = cursorEncoder(filters);
  const cursorOf = (item: T) => cursorAt([item.createdAt.toISOString(), item.id]);
  return {
    items,
    total,
    hasNextPage: page.skip + items.length < total,
    hasPreviousPage: page.skip > 0,
    endCursor: items.length > 0 ? cursorOf(items[items.length - 1]) : null,
    cursorOf,
  };
}

const filterDigest = (filters: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(filters ?? null))
    .digest('base64url')
    .slice(0, 12);

/** Opaque keyset cursor; it carries its filters, so a cursor cannot be replayed against other filters. */
export function encodeCursor(position: Array<string | number>, filters: unknown): string {
  return cursorEncoder(filters)(position);
}

/** `encodeCursor` for every row of one page: the filters' digest is computed once, not per row. */
export function cursorEncoder(filters: unknown): (position: Array<string | number>) => string {
  const digest = filterDigest(filters);
  return (position) => Buffer.from(JSON.stringify({ p: position, f: digest })).toString('base64url');
}

export function decodeCursor(cursor: string, filters: unknown, field = 'after'): Array<string | number> {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p?: unknown; f?: unknown };
    if (!Array.isArray(parsed.p) || parsed.f !== filterDigest(filters)) throw new Error('mismatch');
    return parsed.p as Array<string | number>;
  } catch {
    throw validationError({ [field]: ['is not a valid cursor for these filters'] });
  }
}

export function pageSize(first: number | null | undefined, fallback = 20, field = 'first'): number {
  if (first === undefined || first === null) return fallback;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw validationError({ [field]: [`must be an integer between 1 and ${MAX_PAGE_SIZE}`] });
  }
  return first;
}

/** Turns `limit + 1` fetched rows into a keyset page (no total). */
export function toPage<T>(rows: T[], limit: number, cursorOf: (item: T) => string): ListPage<T> {
  const items = rows.slice(0, limit);
  return {
    items,
    total: null,
    hasNextPage: rows.length > limit,
    endCursor: items.length > 0 ? cursorOf(items[items.length - 1]) : null,
    cursorOf,
  };
}

/** The rows of the context's business and mode, newest first (on createdAt, then id). */
export function newestFirst<T extends ObjectLiteral>(
  ctx: RequestContext,
  entity: EntityTarget<T>,
  alias: string,
): SelectQueryBuilder<T> {
  return ctx
    .repo(entity)
    .createQueryBuilder(alias)
    .where(`${alias}.business_id = :businessId AND ${alias}.livemode = :livemode`, {
      businessId: ctx.requireBusiness(),
      livemode: ctx.livemode,
    })
    .orderBy(`${alias}.created_at`, 'DESC')
    .addOrderBy(`${alias}.id`, 'DESC');
}

/** A cursor's creation time: ISO 8601 in UTC with up to microseconds (older cursors carry milliseconds). */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** The (createdAt as text, id) a keyset cursor of these filters points after; VALIDATION_ERROR otherwise. */
export function keysetPosition(cursor: string, filters: unknown): [string, string] {
  const [createdAt, id] = decodeCursor(cursor, filters);
  if (typeof createdAt !== 'string' || !CURSOR_TIME.test(createdAt) || !isUuid(id)) {
    throw validationError({ after: ['is not a valid cursor for these filters'] });
  }
  return [createdAt, id];
}

/**
 * GraphQL connection page on (createdAt, id), newest first; the cursor carries its filters.
 * PostgreSQL keeps `created_at` to the microsecond and a JavaScript Date to the millisecond, so the
 * cursor's time is read as text from SQL at full precision: a time rounded to the millisecond would
 * skip the rows created later within the same millisecond as a page's last row.
 */
export async function keysetPage<T extends ObjectLiteral & { id: string }>(
  query: SelectQueryBuilder<T>,
  alias: string,
  request: KeysetQuery,
  filters: unknown,
): Promise<ListPage<T>> {
  const limit = pageSize(request.first);
  if (request.after) {
    const [createdAt, id] = keysetPosition(request.after, filters);
    query.andWhere(
      `(${alias}.created_at, ${alias}.id) < (CAST(:cursorCreatedAt AS timestamptz), CAST(:cursorId AS uuid))`,
      { cursorCreatedAt: createdAt, cursorId: id },
    );
  }
  // One table only (EntityRows hydrates one row per entity; a join would repeat them), so LIMIT is the page.
  const { joinAttributes, relationIdAttributes } = query.expressionMap;
  if (joinAttributes.length + relationIdAttributes.length > 0) {
    throw new Error('keysetPage pages one table, without joins or relation ids');
  }
  const cursorTime = `${alias}_cursor_created_at`;
  const raw: Array<Record<string, unknown>> = await query
    .addSelect(`to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, cursorTime)
    .limit(limit + 1)
    .getRawMany();
  const rows = EntityRows.ofMetadata<T>(query.expressionMap.mainAlias!.metadata);
  const timeOf = new Map<string, string>();
  const entities = raw.map((row) => {
    const entity = rows.hydrate(row, alias);
    timeOf.set(entity.id, row[cursorTime] as string);
    return entity;
  });
  const cursorAt = cursorEncoder(filters);
  return {
    ...toPage(entities, limit, (row) => cursorAt([timeOf.get(row.id)!, row.id])),
    hasPreviousPage: Boolean(request.after),
  };
}

/** One parent's page in `keysetPagesPerParent`: its id and the cursor it continues after. */
export interface ParentPage {
  parentId: string;
  after: string | null;
}

/**
 * A keyset page of child rows for each of several parents (a batch's payouts, a schedule's runs) of
 * the context's business and mode, in one statement, aligned to `pages` (an unknown or foreign
 * parent has none): `row_number()` over each requested page's rows, newest first by `orderColumn`
 * then id, keeps the first `first` + 1 of each (the extra row says whether there is a next page).
 * Cursors are on (created_at, id) and bound to `filtersOf(parentId)`, the filters of the parent's
 * own list, so a page continues with either; `orderColumn` must order as created_at does.
 */
export async function keysetPagesPerParent<T extends ObjectLiteral & { id: string }>(
  ctx: RequestContext,
  entity: EntityTarget<T>,
  {
    alias,
    parentColumn,
    orderColumn,
    first,
    pages,
    filtersOf,
  }: {
    alias: string;
    parentColumn: string;
    orderColumn: string;
    first: number | null;
    pages: readonly ParentPage[];
    filtersOf: (parentId: string) => unknown;
  },
): Promise<Array<ListPage<T>>> {
  const limit = pageSize(first);
  const positions = pages.map((page) =>
    page.after ? keysetPosition(page.after, filtersOf(page.parentId)) : [null, null],
  );
  const rows = EntityRows.of(ctx, entity);
  const raw: Array<Record<string, unknown>> =
    pages.length === 0
      ? []
      : await ctx.em.query(
          `SELECT * FROM (
       SELECT ${rows.selectList(alias)}, wanted.slot::int AS wanted_slot,
              to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_created_at,
              row_number() OVER (PARTITION BY wanted.slot ORDER BY ${alias}.${orderColumn} DESC, ${alias}.id DESC) AS position
         FROM unnest($1::uuid[], $2::timestamptz[], $3::uuid[]) WITH ORDINALITY AS wanted(parent_id, after_created_at, after_id, slot)
         JOIN "${rows.tableName}" ${alias} ON ${alias}.${parentColumn} = wanted.parent_id
        WHERE ${alias}.business_id = $4 AND ${alias}.livemode = $5
          AND (wanted.after_id IS NULL OR (${alias}.created_at, ${alias}.id) < (wanted.after_created_at, wanted.after_id))
     ) ranked WHERE position <= $6 ORDER BY wanted_slot, position`,
          [
            pages.map((page) => (isUuid(page.parentId) ? page.parentId : null)),
            positions.map(([createdAt]) => createdAt),
            positions.map(([, id]) => id),
            ctx.requireBusiness(),
            ctx.livemode,
            limit + 1,
          ],
        );
  const bySlot: T[][] = pages.map(() => []);
  const timeOf = new Map<string, string>();
  for (const row of raw) {
    const child = rows.hydrate(row, alias);
    timeOf.set(child.id, row.cursor_created_at as string);
    bySlot[(row.wanted_slot as number) - 1].push(child);
  }
  return pages.map(({ parentId }, slot) => {
    const cursorAt = cursorEncoder(filtersOf(parentId));
    return toPage(bySlot[slot], limit, (child) => cursorAt([timeOf.get(child.id)!, child.id]));
  });
}
