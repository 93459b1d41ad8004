import { useSubscription } from '@apollo/client/react';
import { Anchor, Button, Group, Stack, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { PayoutStatus, PayoutsListQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ConnectionTable, StatusFilter, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { formatDateTime, formatMoney } from '../../ui/format';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const PayoutsList = graphql(`
  query PayoutsList($first: Int, $after: String, $status: PayoutStatus) {
    payouts(first: $first, after: $after, status: $status) {
      edges {
        node {
          id
          status
          createdAt
          reference
          amount {
            amount
            currency
          }
          destinationAmount {
            amount
            currency
          }
          recipient {
            id
            label
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

/** Every change of the business's payouts in this mode: rows change status in place (the cache is keyed by id). */
const PayoutsLive = graphql(`
  subscription PayoutsLive {
    payoutUpdated {
      previousStatus
      payout {
        id
        status
        settledAt
        providerRef
        failureReason
      }
    }
  }
`);

const STATUSES: PayoutStatus[] = ['CREATED', 'PENDING_REVIEW', 'SUBMITTED', 'SETTLED', 'FAILED', 'CANCELLED'];

type Row = PayoutsListQuery['payouts']['edges'][number]['node'];
const column = createColumnHelper<Row>();
const columns = [
  column.accessor((row) => Number(row.amount.amount), {
    id: 'amount',
    header: 'Amount',
    cell: ({ row }) => (
      <Anchor component={Link} to={`/payouts/${row.original.id}`} fw={600}>
        {formatMoney(row.original.amount)}
      </Anchor>
    ),
  }),
  column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
  column.accessor((row) => row.recipient.label, { id: 'recipient', header: 'Recipient' }),
  column.accessor((row) => formatMoney(row.destinationAmount), { id: 'receives', header: 'Recipient gets' }),
  column.accessor('reference', { header: 'Reference', cell: ({ getValue }) => getValue() ?? '—' }),
  column.accessor('createdAt', { header: 'Date', cell: ({ getValue }) => formatDateTime(getValue()) }),
];

export const prefetch: ScreenPrefetch = () => screenQuery(PayoutsList, { first: 25, after: null });

/** The business's payouts in this mode, newest first, by status, live through `payoutUpdated`. */
export default function PayoutsScreen() {
  const current = useCurrent();
  const [status, setStatus] = useState<PayoutStatus | null>(null);
  const list = useConnectionList(PayoutsList, { status }, (data) => data.payouts);

  // A payout not on screen appeared: the first page is read again.
  useSubscription(PayoutsLive, {
    onData: ({ data: update }) => {
      const payout = update.data?.payoutUpdated.payout;
      list.refetchIfNew(payout?.id);
    },
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Payouts</Title>
        <Group gap="xs">
          {current.can('OWNER', 'ADMIN') && (
            <Button component={Link} to="/payouts/review" variant="default">
              Review queue
            </Button>
          )}
          <Button component={Link} to="/payouts/batches" variant="default">
            Batches
          </Button>
          {current.can(...WRITERS) && (
            <Button component={Link} to="/payouts/send">
              Send a payout
            </Button>
          )}
        </Group>
      </Group>
      <StatusFilter statuses={STATUSES} value={status} onChange={setStatus} w={200} />
      <ConnectionTable
        list={list}
        caption="Payouts"
        columns={columns}
        loadingLabel="Loading payouts…"
        empty={{
          title: 'No payouts yet',
          text: 'Add a recipient, then send a payout: it appears here and its status changes live.',
        }}
        noMatch={{ title: 'No payout has this status', text: 'Choose another status, or clear the filter.' }}
      />
    </Stack>
  );
}
