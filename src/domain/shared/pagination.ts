import { createHash } from 'node:crypto';
import { validationError } from './errors';

export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  first?: number | null;
  after?: string | null;
}

export interface Page<T> {
  items: T[];
  hasNextPage: boolean;
  endCursor: string | null;
  cursorOf: (item: T) => string;
}

const filterDigest = (filters: unknown) =>
  createHash('sha256').update(JSON.stringify(filters ?? null)).digest('base64url').slice(0, 12);

/** Opaque keyset cursor; it carries its filters, so a cursor cannot be replayed against other filters. */
export function encodeCursor(position: Array<string | number>, filters: unknown): string {
  return Buffer.from(JSON.stringify({ p: position, f: filterDigest(filters) })).toString('base64url');
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

/** Turns `limit + 1` fetched rows into a page. */
export function toPage<T>(rows: T[], limit: number, cursorOf: (item: T) => string): Page<T> {
  const items = rows.slice(0, limit);
  return {
    items,
    hasNextPage: rows.length > limit,
    endCursor: items.length > 0 ? cursorOf(items[items.length - 1]) : null,
    cursorOf,
  };
}
