import { useQuery, useSubscription } from '@apollo/client/react';
import { useState } from 'react';
import { Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';
import { graphql } from '../../gql';
import { useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { formatDateTime, formatMoney } from '../../ui/format';
import { VolumeCard, volumeWindow } from './VolumeCard';

const HomeOverview = graphql(`
  query HomeOverview($monthFrom: DateTimeISO!, $to: DateTimeISO!, $timeZone: String!) {
    month: paymentVolume(from: $monthFrom, to: $to, interval: DAY, timeZone: $timeZone) {
      buckets {
        start
        currency
        count
        amount {
          amount
          currency
        }
      }
      totals {
        currency
        count
        amount {
          amount
          currency
        }
      }
    }
    wallets {
      id
      currency
      balance {
        amount
        currency
      }
    }
    events(first: 10) {
      edges {
        node {
          id
          type
          createdAt
        }
      }
    }
  }
`);

const ActivityLive = graphql(`
  subscription HomeActivityLive {
    eventCreated {
      id
      type
      createdAt
    }
  }
`);

const WalletsLive = graphql(`
  subscription HomeWalletsLive {
    walletBalanceUpdated {
      walletId
      balance {
        amount
        currency
      }
    }
  }
`);

export const prefetch: ScreenPrefetch = () => screenQuery(HomeOverview, volumeWindow());

/** The business at a glance: today's and this month's volume with a chart, balances per wallet, and the latest activity, arriving live. */
export default function HomeScreen() {
  const current = useCurrent();
  const [range] = useState(volumeWindow);
  const { data, loading, error, refetch } = useQuery(HomeOverview, { variables: range });
  useSubscription(ActivityLive, { onData: () => void refetch() });
  useSubscription(WalletsLive, { onData: () => void refetch() });

  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading />;
  const wallets = data?.wallets ?? [];
  const events = data?.events.edges.map((edge) => edge.node) ?? [];

  return (
    <Stack>
      <Title order={2}>{current.business.name}</Title>
      {data && <VolumeCard month={data.month} todayStart={range.todayStart} />}
      <Title order={3} size="h4">
        Balances
      </Title>
      {wallets.length === 0 ? (
        <Empty title="No wallets yet">A wallet opens in a currency with its first payment or funding.</Empty>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
          {wallets.map((wallet) => (
            <Card withBorder key={wallet.id} data-wallet={wallet.currency}>
              <Text size="xs" c="dimmed">
                {wallet.currency} wallet
              </Text>
              <Text fw={700} size="xl">
                {formatMoney(wallet.balance)}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <Group justify="space-between">
        <Title order={3} size="h4">
          Recent activity
        </Title>
        <Text size="xs" c="dimmed" aria-live="off">
          Live
        </Text>
      </Group>
      {events.length === 0 ? (
        <Empty title="Nothing has happened yet">Events appear here as they happen.</Empty>
      ) : (
        <Table>
          <caption className="visually-hidden">Recent activity</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              <Table.Th>When</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {events.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td>
                  <Text ff="monospace" size="sm">
                    {event.type}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDateTime(event.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
