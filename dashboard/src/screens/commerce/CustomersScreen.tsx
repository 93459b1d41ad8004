import { Anchor, Group, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Link } from 'react-router';
import { graphql } from '../../gql';
import type { CustomersListQuery } from '../../gql/graphql';
import { ConnectionTable, useConnectionList } from '../../ui/ListScreen';
import { formatDateTime } from '../../ui/format';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const CustomersList = graphql(`
  query CustomersList($first: Int, $after: String, $email: String) {
    customers(first: $first, after: $after, email: $email) {
      edges {
        node {
          id
          email
          firstName
          lastName
          phoneNumber
          createdAt
          defaultPaymentMethod {
            id
            brand
            last4
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

type Row = CustomersListQuery['customers']['edges'][number]['node'];
const column = createColumnHelper<Row>();
const columns = [
  column.accessor('email', {
    header: 'Email',
    cell: ({ row }) => (
      <Anchor component={Link} to={`/customers/${row.original.id}`} fw={600}>
        {row.original.email}
      </Anchor>
    ),
  }),
  column.accessor((row) => [row.firstName, row.lastName].filter(Boolean).join(' '), { id: 'name', header: 'Name' }),
  column.accessor(
    (row) =>
      row.defaultPaymentMethod ? `${row.defaultPaymentMethod.brand} •••• ${row.defaultPaymentMethod.last4}` : '—',
    {
      id: 'card',
      header: 'Default card',
    },
  ),
  column.accessor('createdAt', { header: 'Created', cell: ({ getValue }) => formatDateTime(getValue()) }),
];

export const prefetch: ScreenPrefetch = () => screenQuery(CustomersList, { first: 25, after: null });

/** The business's customer profiles in this mode, newest first, found by email. */
export default function CustomersScreen() {
  const [email, setEmail] = useState('');
  const [debouncedEmail] = useDebouncedValue(email.trim(), 300);
  const list = useConnectionList(CustomersList, { email: debouncedEmail }, (data) => data.customers);

  return (
    <Stack>
      <Title order={2}>Customers</Title>
      <Group align="flex-end">
        <TextInput
          label="Email"
          placeholder="customer@example.com"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          w={280}
        />
      </Group>
      <ConnectionTable
        list={list}
        caption="Customers"
        columns={columns}
        loadingLabel="Loading customers…"
        empty={{
          title: 'No customers yet',
          text: 'Customer profiles keep payers’ saved cards: create them with createCustomer (REST: POST /business/customers) and save cards with attachPaymentMethod.',
        }}
        noMatch={{ title: 'No customer has this email', text: 'Check the address, or clear the filter.' }}
      />
    </Stack>
  );
}
