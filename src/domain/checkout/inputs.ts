import { z } from 'zod';
import { validationError } from '../shared/errors';
import { toMinor } from '../shared/money';
import { MAX_PAGE_SIZE, Page, PageRequest, decodeCursor, encodeCursor, pageSize, toPage } from '../shared/pagination';
import { absoluteUrlSchema, integerParam, isUuid } from '../shared/validation';
import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';

/** Input pieces shared by checkout sessions, payment links and invoices. */
export const amountSchema = z.union([z.number(), z.string()], { error: 'is required: a positive decimal amount such as 25.00' });
export const currencySchema = z.string({ error: 'is required: a currency code such as usd' }).min(3, 'must be a currency code such as usd').max(8, 'must be a currency code such as usd');
export const metadataSchema = z.record(z.string(), z.unknown(), { error: 'must be a JSON object' })
  .refine((value) => JSON.stringify(value).length <= 8192, 'must be at most 8 KB of JSON').nullish();
export const descriptionSchema = z.string({ error: 'must be a string' }).trim().max(500, 'must be at most 500 characters').nullish();
export const requiredUrlSchema = z.string({ error: 'is required: an absolute http(s) URL' }).pipe(absoluteUrlSchema);
export const optionalUrlSchema = z.string({ error: 'must be an absolute http(s) URL' }).pipe(absoluteUrlSchema).nullish();
export const intervalSchema = z.enum(['weekly', 'monthly'], { error: 'must be weekly or monthly' });

/** A positive amount in minor units of the currency. */
export function positiveMinor(raw: string | number, currency: string, field = 'amount'): bigint {
  const minor = toMinor(raw, currency, field);
  if (minor <= 0n) throw validationError({ [field]: ['must be greater than zero'] });
  return minor;
}

/** `page` (from 1) and `limit` (1 to 100) of REST lists. */
export const pageParams = {
  page: integerParam(Number.MAX_SAFE_INTEGER),
  limit: integerParam(MAX_PAGE_SIZE),
};

export interface OffsetPage<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

/** REST list page of a query already ordered newest first. */
export async function offsetPage<T extends ObjectLiteral>(query: SelectQueryBuilder<T>, page = 1, limit = 20): Promise<OffsetPage<T>> {
  const [items, total] = await query.skip((page - 1) * limit).take(limit).getManyAndCount();
  return { items, total, page, limit };
}

/** GraphQL connection page on (createdAt, id), newest first; the cursor carries its filters. */
export async function keysetPage<T extends ObjectLiteral & { id: string; createdAt: Date }>(
  query: SelectQueryBuilder<T>, alias: string, request: PageRequest, filters: unknown,
): Promise<Page<T>> {
  const limit = pageSize(request.first);
  if (request.after) {
    const [createdAt, id] = decodeCursor(request.after, filters);
    if (typeof createdAt !== 'string' || !isUuid(id) || Number.isNaN(Date.parse(createdAt))) throw validationError({ after: ['is not a valid cursor for these filters'] });
    query.andWhere(`(${alias}.created_at, ${alias}.id) < (:cursorCreatedAt, :cursorId)`, { cursorCreatedAt: createdAt, cursorId: id });
  }
  const rows = await query.take(limit + 1).getMany();
  return toPage(rows, limit, (row) => encodeCursor([row.createdAt.toISOString(), row.id], filters));
}

/** Adds one interval to a date (monthly keeps the day of month, clamped to the month's last day). */
export function addInterval(from: Date, interval: 'weekly' | 'monthly'): Date {
  if (interval === 'weekly') return new Date(from.getTime() + 7 * 24 * 3600 * 1000);
  const next = new Date(from.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}
