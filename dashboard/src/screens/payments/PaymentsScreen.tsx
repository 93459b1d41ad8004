import { useSubscription } from '@apollo/client/react';
import { Anchor, Group, Stack, TextInput, Title } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useDebouncedValue } from '@mantine/hooks';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Link } from 'react-router';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';
import { graphql } from '../../gql';
import type { PaymentStatus, PaymentsListQuery } from '../../gql/graphql';
import { ConnectionTable, StatusFilter, dayRange, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { formatDateTime, formatMoney } from '../../ui/format';

const PaymentsList = graphql(`
  query PaymentsList($first: Int, $after: String, $filter: PaymentFilter) {
    payments(first: $first, after: $after, filter: $filter) {
      edges {
        node {
          id
          status
          email
          createdAt
          amount {
            amount
            currency
          }
          amountRefunded {
            amount
            currency
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

/** Every change of the business's payments in this mode: the rows on screen change status in place (the cache is keyed by id). */
const PaymentsLive = graphql(`
  subscription PaymentsLive {
    paymentUpdated {
      previousStatus
      payment {
        id
        status
        email
        createdAt
        amount {
          amount
          currency
        }
        amountRefunded {
          amount
          currency
        }
      }
    }
  }
`);

const STATUSES: PaymentStatus[] = ['PENDING', 'REQUIRES_ACTION', 'COMPLETED', 'SETTLED', 'REFUNDED', 'FAILED'];

type Row = PaymentsListQuery['payments']['edges'][number]['node'];
const column = createColumnHelper<Row>();
const columns = [
  column.accessor((row) => Number(row.amount.amount), {
    id: 'amount',
    header: 'Amount',
    cell: ({ row }) => (
      <Anchor component={Link} to={`/payments/${row.original.id}`} fw={600}>
        {formatMoney(row.original.amount)}
      </Anchor>
    ),
  }),
  column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
  column.accessor('email', { header: 'Payer' }),
  column.accessor('createdAt', { header: 'Date', cell: ({ getValue }) => formatDateTime(getValue()) }),
];

/** The first page, unfiltered: the variables the screen starts with. */
export const prefetch: ScreenPrefetch = () => screenQuery(PaymentsList, { first: 25, after: null });

/** The business's payments in this mode, newest first, filtered on the server and live through `paymentUpdated`. */
export default function PaymentsScreen() {
  const [status, setStatus] = useState<PaymentStatus | null>(null);
  const [email, setEmail] = useState('');
  const [range, setRange] = useState<DatesRangeValue<string>>([null, null]);
  const [debouncedEmail] = useDebouncedValue(email.trim(), 300);
  const list = useConnectionList(
    PaymentsList,
    { filter: { status, email: debouncedEmail, ...dayRange(range) } },
    (data) => data.payments,
  );

  // A payment not on screen appeared (or changed into the filter): the first page is read again.
  useSubscription(PaymentsLive, {
    onData: ({ data: update }) => {
      const payment = update.data?.paymentUpdated.payment;
      list.refetchIfNew(payment?.id);
    },
  });

  return (
    <Stack>
      <Title order={2}>Payments</Title>
      <Group align="flex-end">
        <StatusFilter statuses={STATUSES} value={status} onChange={setStatus} />
        <TextInput
          label="Payer's email"
          placeholder="payer@example.com"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          w={240}
        />
        <DatePickerInput
          type="range"
          label="Created"
          placeholder="Any date"
          clearable
          value={range}
          onChange={setRange}
          w={260}
        />
      </Group>
      <ConnectionTable
        list={list}
        caption="Payments"
        columns={columns}
        loadingLabel="Loading payments…"
        empty={{
          title: 'No payments yet',
          text: 'Payments appear here, live, as your customers pay: through the API (chargeCard), a checkout session, a payment link or an invoice.',
        }}
        noMatch={{ title: 'No payment matches these filters', text: 'Change or clear the filters.' }}
      />
    </Stack>
  );
}
