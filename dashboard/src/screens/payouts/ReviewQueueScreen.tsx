import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { Anchor, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { PayoutReviewQueueQuery } from '../../gql/graphql';
import { useCurrent } from '../../shell/current';
import { DataTable, useCursorPages } from '../../ui/DataTable';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { UserErrorsAlert, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney } from '../../ui/format';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';
import { Dialog } from '../../ui/Dialog';

const ReviewQueue = graphql(`
  query PayoutReviewQueue($first: Int, $after: String) {
    payouts(first: $first, after: $after, status: PENDING_REVIEW) {
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

const ReviewLive = graphql(`
  subscription PayoutReviewLive {
    payoutUpdated {
      payout {
        id
        status
      }
    }
  }
`);

export const ApprovePayout = graphql(`
  mutation DashboardApprovePayout($input: ApprovePayoutInput!) {
    approvePayout(input: $input) {
      payout {
        id
        status
        failureReason
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

export const RejectPayout = graphql(`
  mutation DashboardRejectPayout($input: RejectPayoutInput!) {
    rejectPayout(input: $input) {
      payout {
        id
        status
        failureReason
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

type Row = PayoutReviewQueueQuery['payouts']['edges'][number]['node'];
const column = createColumnHelper<Row>();

export const prefetch: ScreenPrefetch = () => screenQuery(ReviewQueue, { first: 25, after: null });

/** Payouts held for review (PENDING_REVIEW), for an OWNER or ADMIN to approve or reject. */
export default function ReviewQueueScreen() {
  const current = useCurrent();
  const pages = useCursorPages(25);
  const { data, loading, error, refetch } = useQuery(ReviewQueue, { variables: pages.variables });
  const [approve] = useMutation(ApprovePayout);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const [rejecting, setRejecting] = useState<Row | null>(null);
  // A payout held, approved or rejected elsewhere: the queue is read again.
  useSubscription(ReviewLive, { onData: () => void refetch() });

  if (!current.can('OWNER', 'ADMIN')) {
    return <Empty title="Only owners and admins review payouts">Payouts held for review wait for one of them.</Empty>;
  }
  const rows = data?.payouts.edges.map((edge) => edge.node) ?? [];

  const approveOne = async (row: Row) => {
    setRefusal([]);
    try {
      const { data: result } = await approve({ variables: { input: { id: row.id } } });
      const errors = result?.approvePayout.userErrors ?? [];
      if (errors.length > 0) setRefusal([...errors]);
      else {
        notifications.show({
          color: 'green',
          message: `Payout to ${row.recipient.label} approved`,
          closeButtonProps: { 'aria-label': 'Dismiss' },
        });
        void refetch();
      }
    } catch (failure) {
      setRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  };

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
    column.accessor((row) => row.recipient.label, { id: 'recipient', header: 'Recipient' }),
    column.accessor('reference', { header: 'Reference', cell: ({ getValue }) => getValue() ?? '—' }),
    column.accessor('createdAt', { header: 'Held since', cell: ({ getValue }) => formatDateTime(getValue()) }),
    column.display({
      id: 'actions',
      header: 'Decision',
      cell: ({ row }) => (
        <Group gap="xs">
          <Button
            size="xs"
            onClick={() => void approveOne(row.original)}
            aria-label={`Approve ${formatMoney(row.original.amount)} to ${row.original.recipient.label}`}
          >
            Approve
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => setRejecting(row.original)}
            aria-label={`Reject ${formatMoney(row.original.amount)} to ${row.original.recipient.label}`}
          >
            Reject
          </Button>
        </Group>
      ),
    }),
  ];

  return (
    <Stack>
      <Anchor component={Link} to="/payouts" size="sm">
        ← Payouts
      </Anchor>
      <Title order={2}>Review queue</Title>
      <UserErrorsAlert errors={refusal} />
      {error ? (
        <LoadError error={error} retry={() => void refetch()} />
      ) : loading && !data ? (
        <Loading label="Loading held payouts…" />
      ) : rows.length === 0 ? (
        <Empty title="Nothing to review">
          Payouts at or above the business's review threshold, or held by the rail's compliance check, wait here.
        </Empty>
      ) : (
        <DataTable
          caption="Payouts held for review"
          data={rows}
          columns={columns}
          rowId={(row) => row.id}
          paging={{
            page: pages.page,
            hasNextPage: data?.payouts.pageInfo.hasNextPage ?? false,
            next: () => pages.next(data?.payouts.pageInfo.endCursor),
            previous: pages.previous,
          }}
        />
      )}
      {rejecting && (
        <RejectDialog
          payoutId={rejecting.id}
          onClose={(rejected) => {
            setRejecting(null);
            if (rejected) void refetch();
          }}
        />
      )}
    </Stack>
  );
}

/** Asks the reason of a rejection (it becomes the payout's failureReason). */
export function RejectDialog({ payoutId, onClose }: { payoutId: string; onClose: (rejected: boolean) => void }) {
  const [reject, { loading }] = useMutation(RejectPayout);
  const [reason, setReason] = useState('');
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const [reasonError, setReasonError] = useState<string | null>(null);

  const submit = async () => {
    setRefusal([]);
    setReasonError(null);
    if (!reason.trim()) {
      setReasonError('Say why the payout is rejected');
      return;
    }
    try {
      const { data } = await reject({ variables: { input: { id: payoutId, reason: reason.trim() } } });
      const errors = data?.rejectPayout.userErrors ?? [];
      const onReason = errors.filter((error) => error.field?.includes('reason'));
      if (onReason.length > 0) setReasonError(onReason.map((error) => error.message).join(' '));
      setRefusal(errors.filter((error) => !onReason.includes(error)));
      if (errors.length === 0) onClose(true);
    } catch (failure) {
      setRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  };

  return (
    <Dialog title="Reject the payout" onClose={() => onClose(false)}>
      <Stack gap="sm">
        <UserErrorsAlert errors={refusal} />
        <TextInput
          label="Reason"
          description="Recorded as the payout's failure reason"
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          error={reasonError}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose(false)}>
            Keep it held
          </Button>
          <Button color="red" onClick={() => void submit()} loading={loading}>
            Reject payout
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
