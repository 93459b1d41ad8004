import { useMutation, useQuery } from '@apollo/client/react';
import { Anchor, Button, Code, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { graphql } from '../../gql';
import type { DeveloperEventsQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ConnectionTable, dayRange, useConnectionList } from '../../ui/ListScreen';
import { LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime } from '../../ui/format';
import { thrown } from './parts';
import { Dialog } from '../../ui/Dialog';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const Events = graphql(`
  query DeveloperEvents($first: Int, $after: String, $type: String, $from: DateTimeISO, $to: DateTimeISO) {
    events(first: $first, after: $after, type: $type, from: $from, to: $to) {
      edges {
        node {
          id
          type
          createdAt
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const EventDetail = graphql(`
  query DeveloperEvent($id: ID!) {
    event(id: $id) {
      id
      type
      mode
      data
      createdAt
      deliveries {
        ...DeliveryFields
      }
    }
    webhookEndpoints(first: 20) {
      edges {
        node {
          id
          url
        }
      }
    }
  }
`);

const ReplayEvent = graphql(`
  mutation DashboardReplayEvent($input: ReplayEventInput!) {
    replayEvent(input: $input) {
      webhookDelivery {
        ...DeliveryFields
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

type Row = DeveloperEventsQuery['events']['edges'][number]['node'];
const column = createColumnHelper<Row>();

export const prefetch: ScreenPrefetch = () => screenQuery(Events, { first: 25, after: null });

/** The event log of this business and mode, newest first, filtered by type and date; an event's data and deliveries, and Replay. */
export default function EventsScreen() {
  const [type, setType] = useState('');
  const [range, setRange] = useState<DatesRangeValue<string>>([null, null]);
  const [debouncedType] = useDebouncedValue(type.trim(), 300);
  const [open, setOpen] = useState<string | null>(null);
  const list = useConnectionList(Events, { type: debouncedType, ...dayRange(range) }, (data) => data.events);

  const columns = [
    column.accessor('type', {
      header: 'Type',
      cell: ({ row }) => (
        <Anchor component="button" type="button" fw={600} size="sm" onClick={() => setOpen(row.original.id)}>
          {row.original.type}
        </Anchor>
      ),
    }),
    column.accessor('createdAt', { header: 'Date', cell: ({ getValue }) => formatDateTime(getValue()) }),
    column.accessor('id', {
      header: 'Event id',
      enableSorting: false,
      cell: ({ getValue }) => (
        <Text span ff="monospace" size="xs">
          {getValue()}
        </Text>
      ),
    }),
  ];

  return (
    <Stack>
      <Title order={2}>Event log</Title>
      <Group align="flex-end">
        <TextInput
          label="Event type"
          placeholder="wallet.funded"
          value={type}
          onChange={(event) => setType(event.currentTarget.value)}
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
        caption="Events"
        columns={columns}
        loadingLabel="Loading events…"
        empty={{
          title: 'No events yet',
          text: 'Events are recorded as things happen in this mode: a payment, a refund, a payout, a funded wallet.',
        }}
        noMatch={{
          title: 'No event matches these filters',
          text: 'Change or clear the filters (the type is exact, such as wallet.funded).',
        }}
      />
      {open && <EventModal id={open} onClose={() => setOpen(null)} />}
    </Stack>
  );
}

const WEBHOOK_URL = 'webhookUrl';

function EventModal({ id, onClose }: { id: string; onClose: () => void }) {
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(EventDetail, { variables: { id } });
  const [replay, { loading: replaying }] = useMutation(ReplayEvent);
  const [target, setTarget] = useState<string | null>(WEBHOOK_URL);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const event = data?.event;

  const submit = async () => {
    setRefusal([]);
    try {
      const payload = (
        await replay({
          variables: { input: { eventId: id, ...(target && target !== WEBHOOK_URL ? { endpointId: target } : {}) } },
        })
      ).data?.replayEvent;
      if (payload?.webhookDelivery) {
        notifications.show({
          color: 'green',
          message: `Replayed to ${payload.webhookDelivery.url}`,
          closeButtonProps: { 'aria-label': 'Dismiss' },
        });
        void refetch();
      } else if (payload) setRefusal([...payload.userErrors]);
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  };

  return (
    <Dialog onClose={onClose} size="xl" title={event ? `Event ${event.type}` : 'Event'}>
      {error ? (
        <LoadError error={error} retry={() => void refetch()} />
      ) : loading && !data ? (
        <Loading label="Loading the event…" />
      ) : event ? (
        <Stack>
          <Text size="sm">
            {formatDateTime(event.createdAt)}, {event.mode.toLowerCase()} mode,{' '}
            <Text span ff="monospace" size="xs">
              {event.id}
            </Text>
          </Text>
          <Title order={3}>Data</Title>
          <Code block data-testid="event-data" style={{ maxHeight: 320, overflow: 'auto' }}>
            {JSON.stringify(event.data, null, 2)}
          </Code>
          <Title order={3}>Deliveries</Title>
          {event.deliveries.length === 0 ? (
            <Text size="sm" c="dimmed">
              Not delivered: no webhook URL or endpoint took this event when it was recorded.
            </Text>
          ) : (
            <Table>
              <caption className="visually-hidden">Deliveries of this event</caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>URL</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {event.deliveries.map((delivery) => (
                  <Table.Tr key={delivery.id} data-delivery-id={delivery.id}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{delivery.url}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={delivery.status} />
                    </Table.Td>
                    <Table.Td>{delivery.attemptCount}</Table.Td>
                    <Table.Td>{formatDateTime(delivery.createdAt)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {current.can(...WRITERS) && (
            <Stack gap="xs">
              <UserErrorsAlert errors={refusal} />
              <Group align="flex-end">
                <Select
                  label="Replay to"
                  value={target}
                  onChange={setTarget}
                  allowDeselect={false}
                  data={[
                    { value: WEBHOOK_URL, label: 'The webhook URL' },
                    ...(data?.webhookEndpoints.edges.map(({ node }) => ({ value: node.id, label: node.url })) ?? []),
                  ]}
                  w={360}
                />
                <Button variant="default" loading={replaying} onClick={() => void submit()}>
                  Replay
                </Button>
              </Group>
            </Stack>
          )}
        </Stack>
      ) : null}
    </Dialog>
  );
}
