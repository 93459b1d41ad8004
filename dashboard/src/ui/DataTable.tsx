import { Box, Group, Button, Table, Text, UnstyledButton } from '@mantine/core';
import {
  flexRender,
  getCoreRowModel,
  getSortedRowModel,
  useReactTable,
  type Cell,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table';
import { useCallback, useState, type ReactNode } from 'react';

/** Paging through a cursor connection (docs/graphql-api.md, Cursor connections): forward by `after`, back by the cursors seen. */
export interface CursorPaging {
  page: number;
  hasNextPage: boolean;
  next: () => void;
  previous: () => void;
}

/**
 * The cursors of the pages seen so far: `variables` for the connection's query, `next(endCursor)`
 * and `previous()`; `reset()` when the filters change. The API pages forward only (`first`/`after`),
 * so going back re-reads a page by the cursor it was reached with.
 */
export function useCursorPages(pageSize = 25) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1] ?? null;
  const next = useCallback((endCursor: string | null | undefined) => {
    if (endCursor) setCursors((seen) => [...seen, endCursor]);
  }, []);
  const previous = useCallback(() => setCursors((seen) => (seen.length > 1 ? seen.slice(0, -1) : seen)), []);
  const reset = useCallback(() => setCursors([null]), []);
  return { variables: { first: pageSize, after }, page: cursors.length, next, previous, reset };
}

export interface DataTableProps<Row> {
  /** What the table lists, for screen readers (a visually hidden caption). */
  caption: string;
  data: readonly Row[];
  // TanStack's column definitions are invariant in the cell value's type: any is its documented way to mix columns.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  columns: ColumnDef<Row, any>[];
  rowId: (row: Row) => string;
  paging?: CursorPaging;
}

/**
 * A table on TanStack Table, drawn with Mantine: columns sort the page on screen (header buttons,
 * announced with aria-sort), and the connection's pages are walked with Previous / Next.
 */
export function DataTable<Row>({ caption, data, columns, rowId, paging }: DataTableProps<Row>) {
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useReactTable({
    data: data as Row[],
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getRowId: rowId,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
  });

  return (
    <>
      {/* The browser's own horizontal scrolling: Mantine's ScrollArea measured itself (a ResizeObserver and
          forced layouts) on every table's mount, which a profile of the settings screen showed among its top costs. */}
      <Box style={{ overflowX: 'auto' }}>
        <Table striped highlightOnHover verticalSpacing="xs" miw={640}>
          <caption className="visually-hidden">{caption}</caption>
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const label = flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <Table.Th
                      key={header.id}
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    >
                      {header.column.getCanSort() ? (
                        <UnstyledButton onClick={header.column.getToggleSortingHandler()} fw={600} fz="sm">
                          {label}
                          {sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}
                        </UnstyledButton>
                      ) : (
                        label
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr key={row.id} data-row-id={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <Table.Td key={cell.id}>{cellContent(cell)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Box>
      {paging && (paging.page > 1 || paging.hasNextPage) && (
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed">
            Page {paging.page}
          </Text>
          <Group gap="xs">
            <Button variant="default" size="xs" disabled={paging.page <= 1} onClick={paging.previous}>
              Previous
            </Button>
            <Button variant="default" size="xs" disabled={!paging.hasNextPage} onClick={paging.next}>
              Next
            </Button>
          </Group>
        </Group>
      )}
    </>
  );
}

/**
 * A cell's content, its column's renderer called rather than drawn as a component (`flexRender`): the
 * screens write their columns inline, so a renderer is a new function at every render, and as a
 * component React would replace the cell's elements each time: a row's button lost the focus when
 * anything on the screen changed, and a dialog it opened could not give it back.
 */
function cellContent<Row>(cell: Cell<Row, unknown>): ReactNode {
  const render = cell.column.columnDef.cell;
  return typeof render === 'function' ? (render(cell.getContext()) as ReactNode) : render;
}
