import { useQuery } from '@apollo/client/react';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { graphql } from '../../gql';
import { useCursorPages } from '../../ui/DataTable';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { formatDateTime } from '../../ui/format';
import { DeliveriesTable, useDeliveriesLive } from './deliveries';
import { Fact } from '../../ui/Facts';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const EndpointDeliveries = graphql(`
  query DeveloperWebhookEndpoint($id: ID!, $first: Int, $after: String) {
    webhookEndpoint(id: $id) {
      id
      url
      events
      status
      description
      createdAt
      deliveries(first: $first, after: $after) {
        edges {
          node {
            ...DeliveryFields
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`);

export const prefetch: ScreenPrefetch = ({ id = '' }) =>
  screenQuery(EndpointDeliveries, { id, first: 25, after: null });

/** One webhook endpoint and its deliveries, live, with Redeliver. */
export default function EndpointScreen() {
  const { id = '' } = useParams();
  const pages = useCursorPages(25);
  const { data, loading, error, refetch } = useQuery(EndpointDeliveries, { variables: { id, ...pages.variables } });
  const rows = data?.webhookEndpoint.deliveries.edges.map((edge) => edge.node) ?? [];
  useDeliveriesLive(rows, () => {
    if (pages.page === 1) void refetch();
  });

  const back = (
    <Anchor component={Link} to="/developers/webhooks" size="sm">
      ← Webhooks
    </Anchor>
  );
  if (error)
    return (
      <Stack>
        {back}
        <LoadError error={error} retry={() => void refetch()} />
      </Stack>
    );
  if (loading && !data) return <Loading label="Loading the endpoint…" />;
  const endpoint = data?.webhookEndpoint;
  if (!endpoint) return <Empty title="No such endpoint">It may belong to another business or mode.</Empty>;

  return (
    <Stack>
      {back}
      <Group justify="space-between">
        <Title order={2} style={{ wordBreak: 'break-all' }}>
          {endpoint.url}
        </Title>
        <StatusBadge status={endpoint.status} />
      </Group>
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <Fact label="Events">{endpoint.events.includes('*') ? 'All events' : endpoint.events.join(', ')}</Fact>
          <Fact label="Description">{endpoint.description ?? '—'}</Fact>
          <Fact label="Created">{formatDateTime(endpoint.createdAt)}</Fact>
        </SimpleGrid>
      </Card>
      <Title order={3}>Deliveries</Title>
      {rows.length === 0 ? (
        <Empty title="No deliveries yet">
          <Text span size="sm">
            Each event of the types this endpoint lists is delivered to it, and appears here live.
          </Text>
        </Empty>
      ) : (
        <DeliveriesTable
          caption="Deliveries to this endpoint"
          deliveries={rows}
          target="endpoint"
          onRedelivered={() => void refetch()}
          paging={{
            page: pages.page,
            hasNextPage: endpoint.deliveries.pageInfo.hasNextPage,
            next: () => pages.next(endpoint.deliveries.pageInfo.endCursor),
            previous: pages.previous,
          }}
        />
      )}
    </Stack>
  );
}
