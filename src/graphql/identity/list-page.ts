import { ListPage, cursorEncoder, keysetPosition, pageSize } from '../../domain/shared/pagination';

type Position = [createdAt: string, id: string];
const positionOf = (item: { id: string; createdAt: Date }): Position => [item.createdAt.toISOString(), item.id];
const compare = (a: Position, b: Position) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

/**
 * A connection page of a list its service answers whole (a business's team, its invitations, its
 * fraud rules, its webhook endpoints: tens of rows, at most a few hundred). Ordered on (createdAt,
 * id) and paged on that key, so a cursor stays right when rows before it are added or removed;
 * `list` names the list in the cursor, so a cursor of one list is refused by another.
 */
export function pageOfList<T extends { id: string; createdAt: Date }>(
  items: readonly T[],
  order: 'oldestFirst' | 'newestFirst',
  list: string,
  args: { first?: number | null; after?: string | null },
): ListPage<T> {
  const limit = pageSize(args.first);
  const filters = { list };
  const sign = order === 'newestFirst' ? -1 : 1;
  const after = args.after ? keysetPosition(args.after, filters) : null;
  const sorted = [...items].sort((a, b) => sign * compare(positionOf(a), positionOf(b)));
  const rest = after ? sorted.filter((item) => sign * compare(positionOf(item), after) > 0) : sorted;
  const page = rest.slice(0, limit);
  const cursorAt = cursorEncoder(filters);
  const cursorOf = (item: T) => cursorAt(positionOf(item));
  return {
    items: page,
    total: null,
    hasNextPage: rest.length > limit,
    hasPreviousPage: after !== null,
    endCursor: page.length > 0 ? cursorOf(page[page.length - 1]) : null,
    cursorOf,
  };
}
