import { useQuery, useSubscription } from '@apollo/client/react';
import { Anchor, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { graphql } from '../../gql';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { formatDateTime, formatMoney } from '../../ui/format';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const BatchDetail = graphql(`
  query PayoutBatchDetail($id: ID!) {
    payoutBatch(id: $id) {
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
        created
        submitted
        settled
        failed
        cancelled
        pendingReview
      }
      payouts(first: 100) {
        edges {
          node {
            id
            status
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
      }
    }
  }
`);

const BatchLive = graphql(`
  subscription PayoutBatchLive {
    payoutUpdated {
      payout {
        id
        status
        batchId
      }
    }
  }
`);

export const prefetch: ScreenPrefetch = ({ id = '' }) => screenQuery(BatchDetail, { id });

/** One batch: its counts by status and its payouts, live (a change of one of its payouts reads the counts again). */
export default function BatchScreen() {
  const { id = '' } = useParams();
  const { data, loading, error, refetch } = useQuery(BatchDetail, { variables: { id } });
  useSubscription(BatchLive, {
    onData: ({ data: update }) => {
      if (update.data?.payoutUpdated.payout.batchId === id) void refetch();
    },
  });

  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading label="Loading the batch…" />;
  const batch = data?.payoutBatch;
  if (!batch) return <Empty title="No such batch">It may belong to another business or mode.</Empty>;
  const payouts = batch.payouts.edges.map((edge) => edge.node);

  return (
    <Stack>
      <Anchor component={Link} to="/payouts/batches" size="sm">
        ← Batches
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>{batch.name ?? 'Unnamed batch'}</Title>
        <StatusBadge status={batch.status} />
      </Group>
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          {(
            [
              ['Total', formatMoney(batch.totalAmount)],
              ['Payouts', batch.itemCount],
              ['Created', formatDateTime(batch.createdAt)],
              ['Settled', batch.counts.settled],
              ['Failed', batch.counts.failed],
              ['Cancelled', batch.counts.cancelled],
              ['In flight', batch.counts.created + batch.counts.submitted],
              ['Held for review', batch.counts.pendingReview],
            ] as const
          ).map(([label, value]) => (
            <div key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text size="sm">{value}</Text>
            </div>
          ))}
        </SimpleGrid>
      </Card>
      <Table>
        <caption className="visually-hidden">Payouts of the batch</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Amount</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Recipient</Table.Th>
            <Table.Th>Reference</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payouts.map((payout) => (
            <Table.Tr key={payout.id}>
              <Table.Td>
                <Anchor component={Link} to={`/payouts/${payout.id}`} size="sm">
                  {formatMoney(payout.amount)}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={payout.status} />
              </Table.Td>
              <Table.Td>{payout.recipient.label}</Table.Td>
              <Table.Td>{payout.reference ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
