import { useQuery } from '@apollo/client/react';
import type { OperationVariables, TypedDocumentNode } from '@apollo/client';
import { NativeSelect } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, type ReactNode } from 'react';
import { DataTable, useCursorPages, type CursorPaging } from './DataTable';
import { Empty, LoadError, Loading } from './QueryState';
import { humanize } from './format';

/** A cursor connection as every list query reads it (docs/graphql-api.md, Cursor connections). */
export interface Connection<Row> {
  edges: readonly { node: Row }[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

const isEmpty = (value: unknown) =>
  value === null ||
  value === undefined ||
  value === '' ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);

/** A filter left empty (null, '', an object of empty filters) is not sent: the API reads its absence as "any". */
function setFilters(filters: Record<string, unknown>): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(filters)) {
    const kept =
      value && typeof value === 'object' && !Array.isArray(value)
        ? setFilters(value as Record<string, unknown>)
        : value;
    if (!isEmpty(kept)) set[name] = kept;
  }
  return set;
}

/** A range of days picked on screen as the API's `from` and `to`: the first day's start to the last day's end, local time. */
export const dayRange = ([from, to]: readonly [string | null, string | null]) => ({
  from: from ? new Date(`${from}T00:00:00`).toISOString() : null,
  to: to ? new Date(`${to}T23:59:59.999`).toISOString() : null,
});

/** What `useConnectionList` gives a screen and `<ConnectionTable>` draws. */
export interface ConnectionList<Row, TData = unknown> {
  data: TData | undefined;
  loading: boolean;
  error?: { message: string } | undefined;
  rows: Row[];
  paging: CursorPaging;
  /** Some filter is set: the empty state says so. */
  filtered: boolean;
  refetch: () => void;
  refetchIfNew: (id: string | null | undefined) => void;
}

/**
 * A list screen's data: the connection `query` read a page at a time with the given `filters`
 * (back to the first page whenever they change), its rows, the paging for `<DataTable>`, and
 * `refetchIfNew(id)` for a live subscription: a row not on screen appeared, so the first page is
 * read again (rows already on screen change in place through the cache, keyed by id).
 */
export function useConnectionList<TData, TVariables extends OperationVariables, Row extends { id: string }>(
  query: TypedDocumentNode<TData, TVariables>,
  filters: Record<string, unknown>,
  connection: (data: TData) => Connection<Row>,
  pageSize = 25,
): ConnectionList<Row, TData> {
  const pages = useCursorPages(pageSize);
  const sent = setFilters(filters);
  const filterKey = JSON.stringify(sent);
  const { reset } = pages;
  useEffect(reset, [filterKey, reset]);

  const result = useQuery(query, { variables: { ...pages.variables, ...sent } as unknown as TVariables });
  const page = result.data ? connection(result.data) : undefined;
  const rows = page?.edges.map((edge) => edge.node) ?? [];
  const refetch = () => void result.refetch();
  const paging: CursorPaging = {
    page: pages.page,
    hasNextPage: page?.pageInfo.hasNextPage ?? false,
    next: () => pages.next(page?.pageInfo.endCursor),
    previous: pages.previous,
  };
  return {
    data: result.data,
    loading: result.loading,
    error: result.error,
    rows,
    paging,
    filtered: filterKey !== '{}',
    refetch,
    refetchIfNew: (id: string | null | undefined) => {
      if (id && pages.page === 1 && !rows.some((row) => row.id === id)) refetch();
    },
  };
}

export interface EmptyText {
  title: string;
  text: ReactNode;
}

/**
 * The list's body: the error (with a retry), the first load, the empty state (`empty` with no filter,
 * `noMatch` with one), or the table with its pages.
 */
export function ConnectionTable<Row extends { id: string }>({
  list,
  caption,
  columns,
  loadingLabel,
  empty,
  noMatch,
}: {
  list: ConnectionList<Row>;
  caption: string;
  // TanStack's column definitions are invariant in the cell value's type: any is its documented way to mix columns.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<Row, any>[];
  loadingLabel: string;
  empty: EmptyText;
  /** With a filter set; `empty` when the list has no filter. */
  noMatch?: EmptyText;
}) {
  if (list.error) return <LoadError error={list.error} retry={list.refetch} />;
  if (list.loading && !list.data) return <Loading label={loadingLabel} />;
  if (list.rows.length === 0) {
    const { title, text } = list.filtered && noMatch ? noMatch : empty;
    return <Empty title={title}>{text}</Empty>;
  }
  return (
    <DataTable caption={caption} data={list.rows} columns={columns} rowId={(row) => row.id} paging={list.paging} />
  );
}

/** The status filter of a list: "Any" or one status, in words. */
export function StatusFilter<Status extends string>({
  statuses,
  label = 'Status',
  ...rest
}: {
  statuses: readonly Status[];
  value: Status | null;
  onChange: (value: Status | null) => void;
  label?: string;
  w?: number;
}) {
  return (
    <ChoiceFilter
      label={label}
      options={statuses.map((status) => ({ value: status, label: humanize(status) }))}
      {...rest}
    />
  );
}

/**
 * A list's filter of one choice among a few, or "Any". A native `<select>`: a short fixed list needs
 * no search, and Mantine's `Select` (a combobox with its options mounted, hidden, and positioned by
 * floating-ui at its first render) made each list screen's first load slower (docs/dashboard.md).
 */
export function ChoiceFilter<Value extends string>({
  label,
  options,
  value,
  onChange,
  w = 180,
}: {
  label: string;
  options: readonly { value: Value; label: string }[];
  value: Value | null;
  onChange: (value: Value | null) => void;
  w?: number;
}) {
  return (
    <NativeSelect
      label={label}
      value={value ?? ''}
      onChange={(event) => onChange((event.currentTarget.value || null) as Value | null)}
      data={[{ value: '', label: 'Any' }, ...options]}
      w={w}
    />
  );
}
