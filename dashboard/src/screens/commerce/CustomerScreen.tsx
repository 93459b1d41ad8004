import { useQuery } from '@apollo/client/react';
import { Anchor, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { graphql } from '../../gql';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { formatDateTime, formatMoney } from '../../ui/format';
import { Mono } from './shared';
import { Fact } from '../../ui/Facts';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const CustomerDetail = graphql(`
  query CustomerDetail($id: ID!) {
    customer(id: $id) {
      id
      email
      firstName
      lastName
      phoneNumber
      userId
      createdAt
      defaultPaymentMethod {
        id
      }
      paymentMethods {
        id
        brand
        last4
        expiryMonth
        expiryYear
        country
        createdAt
      }
      recentPayments {
        paymentId
        status
        email
        cardBrand
        cardLast4
        createdAt
        failureReason
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

export const prefetch: ScreenPrefetch = ({ id = '' }) => screenQuery(CustomerDetail, { id });

/** One customer profile: its details, saved cards (the default marked) and recent payments (each linking to its page). */
export default function CustomerScreen() {
  const { id = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(CustomerDetail, { variables: { id } });

  if (error) {
    if (error.message.toLowerCase().includes('not found'))
      return <Empty title="No such customer">It may belong to another business or mode.</Empty>;
    return <LoadError error={error} retry={() => void refetch()} />;
  }
  if (loading && !data) return <Loading label="Loading the customer…" />;
  const customer = data?.customer;
  if (!customer) return <Empty title="No such customer">It may belong to another business or mode.</Empty>;
  const name = [customer.firstName, customer.lastName].filter(Boolean).join(' ');

  return (
    <Stack>
      <Anchor component={Link} to="/customers" size="sm">
        ← Customers
      </Anchor>
      <Title order={2}>{name || customer.email}</Title>
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Fact label="Email">{customer.email}</Fact>
          <Fact label="Phone">{customer.phoneNumber ?? '—'}</Fact>
          <Fact label="Your id">{customer.userId ?? '—'}</Fact>
          <Fact label="Created">{formatDateTime(customer.createdAt)}</Fact>
          <Fact label="Customer id">
            <Mono>{customer.id}</Mono>
          </Fact>
        </SimpleGrid>
      </Card>

      <Title order={3}>Saved cards</Title>
      {customer.paymentMethods.length === 0 ? (
        <Text size="sm" c="dimmed">
          No saved cards. A card is saved with attachPaymentMethod, or when the customer pays by card.
        </Text>
      ) : (
        <Table>
          <caption className="visually-hidden">Saved cards</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Card</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Country</Table.Th>
              <Table.Th>Saved</Table.Th>
              <Table.Th>Default</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {customer.paymentMethods.map((card) => (
              <Table.Tr key={card.id} data-payment-method-id={card.id}>
                <Table.Td>
                  {card.brand} •••• {card.last4}
                </Table.Td>
                <Table.Td>
                  {String(card.expiryMonth).padStart(2, '0')}/{card.expiryYear}
                </Table.Td>
                <Table.Td>{card.country}</Table.Td>
                <Table.Td>{formatDateTime(card.createdAt)}</Table.Td>
                <Table.Td>{customer.defaultPaymentMethod?.id === card.id ? 'Default' : ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <Title order={3}>Recent payments</Title>
      {customer.recentPayments.length === 0 ? (
        <Text size="sm" c="dimmed">
          No payments yet.
        </Text>
      ) : (
        <Table>
          <caption className="visually-hidden">Recent payments</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Card</Table.Th>
              <Table.Th>Date</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {customer.recentPayments.map((payment) => (
              <Table.Tr key={payment.paymentId} data-payment-id={payment.paymentId}>
                <Table.Td>
                  <Anchor component={Link} to={`/payments/${payment.paymentId}`} fw={600}>
                    {formatMoney(payment.amount)}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs">
                    <StatusBadge status={payment.status} />
                    {payment.failureReason && (
                      <Text size="xs" c="dimmed">
                        {payment.failureReason}
                      </Text>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  {payment.cardBrand} •••• {payment.cardLast4}
                </Table.Td>
                <Table.Td>{formatDateTime(payment.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
