import { useQuery } from '@apollo/client/react';
import { Anchor, Button, Group, Stack, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { PayoutBatchesListQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { DataTable, useCursorPages } from '../../ui/DataTable';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { formatDateTime, formatMoney } from '../../ui/format';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const BatchesList = graphql(`
  query PayoutBatchesList($first: Int, $after: String) {
    payoutBatches(first: $first, after: $after) {
      edges {
        node {
          id
          name
          status
          itemCount
          createdAt
          totalAmount {
            amount
            currency
          }
          counts {
            settled
            failed
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

type Row = PayoutBatchesListQuery['payoutBatches']['edges'][number]['node'];
const column = createColumnHelper<Row>();
const columns = [
  column.accessor((row) => row.name ?? 'Unnamed batch', {
    id: 'name',
    header: 'Batch',
    cell: ({ row, getValue }) => (
      <Anchor component={Link} to={`/payouts/batches/${row.original.id}`} fw={600}>
        {getValue<string>()}
      </Anchor>
    ),
  }),
  column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
  column.accessor('itemCount', { header: 'Payouts' }),
  column.accessor((row) => Number(row.totalAmount.amount), {
    id: 'total',
    header: 'Total',
    cell: ({ row }) => formatMoney(row.original.totalAmount),
  }),
  column.accessor((row) => `${row.counts.settled} settled, ${row.counts.failed} failed`, {
    id: 'progress',
    header: 'Progress',
  }),
  column.accessor('createdAt', { header: 'Created', cell: ({ getValue }) => formatDateTime(getValue()) }),
];

export const prefetch: ScreenPrefetch = () => screenQuery(BatchesList, { first: 25, after: null });

/** The business's payout batches in this mode, newest first, with their status read from their payouts. */
export default function BatchesScreen() {
  const current = useCurrent();
  const pages = useCursorPages(25);
  const { data, loading, error, refetch } = useQuery(BatchesList, { variables: pages.variables });
  const rows = data?.payoutBatches.edges.map((edge) => edge.node) ?? [];

  return (
    <Stack>
      <Anchor component={Link} to="/payouts" size="sm">
        ← Payouts
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>Payout batches</Title>
        {current.can(...WRITERS) && (
          <Button component={Link} to="/payouts/batches/new">
            New batch
          </Button>
        )}
      </Group>
      {error ? (
        <LoadError error={error} retry={() => void refetch()} />
      ) : loading && !data ? (
        <Loading label="Loading batches…" />
      ) : rows.length === 0 ? (
        <Empty title="No batches yet">
          A batch pays up to 1,000 recipients at once: create one here, through the API (createPayoutBatch) or with a
          BATCH schedule.
        </Empty>
      ) : (
        <DataTable
          caption="Payout batches"
          data={rows}
          columns={columns}
          rowId={(row) => row.id}
          paging={{
            page: pages.page,
            hasNextPage: data?.payoutBatches.pageInfo.hasNextPage ?? false,
            next: () => pages.next(data?.payoutBatches.pageInfo.endCursor),
            previous: pages.previous,
          }}
        />
      )}
    </Stack>
  );
}
