import { useMutation } from '@apollo/client/react';
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { RecurringGiftStatus, RecurringGiftsListQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ConnectionTable, StatusFilter, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { formatDateTime, formatMoney, humanize } from '../../ui/format';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const GiftFields = graphql(`
  fragment RecurringGiftRow on RecurringGift {
    id
    status
    email
    interval
    customerId
    chargeCount
    failureCount
    lastChargeAt
    nextChargeAt
    lastError
    lastPaymentId
    cancelledAt
    pausedAt
    amount {
      amount
      currency
    }
    paymentLink {
      id
      name
    }
  }
`);
void GiftFields;

const RecurringGiftsList = graphql(`
  query RecurringGiftsList($first: Int, $after: String, $status: RecurringGiftStatus) {
    recurringGifts(first: $first, after: $after, status: $status) {
      edges {
        node {
          ...RecurringGiftRow
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const CancelGift = graphql(`
  mutation DashboardCancelRecurringGift($input: CancelRecurringGiftInput!) {
    cancelRecurringGift(input: $input) {
      recurringGift {
        ...RecurringGiftRow
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const ResumeGift = graphql(`
  mutation DashboardResumeRecurringGift($input: ResumeRecurringGiftInput!) {
    resumeRecurringGift(input: $input) {
      recurringGift {
        ...RecurringGiftRow
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const ChargeGiftNow = graphql(`
  mutation DashboardSandboxChargeRecurringGift($input: SandboxChargeRecurringGiftInput!) {
    sandboxChargeRecurringGift(input: $input) {
      recurringGift {
        ...RecurringGiftRow
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const STATUSES: RecurringGiftStatus[] = ['ACTIVE', 'PAUSED', 'CANCELLED'];

type Row = RecurringGiftsListQuery['recurringGifts']['edges'][number]['node'];
const column = createColumnHelper<Row>();

export const prefetch: ScreenPrefetch = () => screenQuery(RecurringGiftsList, { first: 25, after: null });

/**
 * Recurring gifts made on the business's payment links in this mode, by status: cancel (ACTIVE,
 * PAUSED), resume (PAUSED) and, in test mode, charge now, for the write roles.
 */
export default function RecurringGiftsScreen() {
  const current = useCurrent();
  const writer = current.can(...WRITERS);
  const [status, setStatus] = useState<RecurringGiftStatus | null>(null);
  const list = useConnectionList(RecurringGiftsList, { status }, (data) => data.recurringGifts);

  const columns = [
    column.accessor((row) => Number(row.amount.amount), {
      id: 'amount',
      header: 'Amount',
      cell: ({ row }) => `${formatMoney(row.original.amount)} ${humanize(row.original.interval).toLowerCase()}`,
    }),
    column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
    column.accessor('email', {
      header: 'Giver',
      cell: ({ row }) => (
        <Anchor component={Link} to={`/customers/${row.original.customerId}`}>
          {row.original.email}
        </Anchor>
      ),
    }),
    column.accessor((row) => row.paymentLink?.name ?? '', { id: 'link', header: 'Payment link' }),
    column.accessor('chargeCount', { header: 'Charges' }),
    column.accessor((row) => row.nextChargeAt ?? '', {
      id: 'next',
      header: 'Next charge',
      cell: ({ row }) => (
        <>
          {formatDateTime(row.original.nextChargeAt)}
          {row.original.lastError && (
            <Text size="xs" c="dimmed">
              Last attempt: {row.original.lastError}
            </Text>
          )}
        </>
      ),
    }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => <GiftActions gift={row.original} writer={writer} testMode={current.mode === 'test'} />,
    }),
  ];

  return (
    <Stack>
      <Title order={2}>Recurring gifts</Title>
      <Group align="flex-end">
        <StatusFilter statuses={STATUSES} value={status} onChange={setStatus} />
      </Group>
      <ConnectionTable
        list={list}
        caption="Recurring gifts"
        columns={columns}
        loadingLabel="Loading recurring gifts…"
        empty={{
          title: 'No recurring gifts yet',
          text: 'A payer starts a recurring gift on a payment link that allows recurring giving: create one under Payment links and share it.',
        }}
        noMatch={{ title: 'No recurring gift has this status', text: 'Change or clear the filter.' }}
      />
    </Stack>
  );
}

function GiftActions({ gift, writer, testMode }: { gift: Row; writer: boolean; testMode: boolean }) {
  const [cancel, cancelling] = useMutation(CancelGift);
  const [resume, resuming] = useMutation(ResumeGift);
  const [charge, charging] = useMutation(ChargeGiftNow);
  const [refusal, setRefusal] = useState<string | null>(null);
  if (!writer || gift.status === 'CANCELLED') return null;

  const run = async (action: 'cancel' | 'resume' | 'charge') => {
    setRefusal(null);
    try {
      const variables = { input: { id: gift.id } };
      const errors =
        action === 'cancel'
          ? (await cancel({ variables })).data?.cancelRecurringGift.userErrors
          : action === 'resume'
            ? (await resume({ variables })).data?.resumeRecurringGift.userErrors
            : (await charge({ variables })).data?.sandboxChargeRecurringGift.userErrors;
      if (errors && errors.length > 0) setRefusal(errors.map((error) => error.message).join(' '));
    } catch (error) {
      setRefusal((error as Error).message);
    }
  };
  return (
    <Group gap="xs" wrap="nowrap">
      {gift.status === 'PAUSED' && (
        <Button size="xs" variant="default" loading={resuming.loading} onClick={() => void run('resume')}>
          Resume
        </Button>
      )}
      {testMode && gift.status === 'ACTIVE' && (
        <Button size="xs" variant="default" loading={charging.loading} onClick={() => void run('charge')}>
          Charge now
        </Button>
      )}
      <Button size="xs" variant="default" loading={cancelling.loading} onClick={() => void run('cancel')}>
        Cancel gift
      </Button>
      {refusal && (
        <Text size="xs" role="alert">
          {refusal}
        </Text>
      )}
    </Group>
  );
}
