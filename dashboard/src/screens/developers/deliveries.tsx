import { useMutation, useSubscription } from '@apollo/client/react';
import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { graphql } from '../../gql';
import type { DeliveryFieldsFragment } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { DataTable, type CursorPaging } from '../../ui/DataTable';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime } from '../../ui/format';
import { thrown } from './parts';

export const DeliveryFields = graphql(`
  fragment DeliveryFields on WebhookDelivery {
    id
    eventId
    eventType
    url
    status
    attemptCount
    lastAttemptAt
    nextRetryAt
    responseStatus
    responseTimeMs
    errorMessage
    createdAt
    updatedAt
  }
`);

/** Every created or attempted delivery of the business in this mode: rows on screen change in place (cached by id). */
const DeliveriesLive = graphql(`
  subscription DeveloperDeliveriesLive {
    webhookDeliveryUpdated {
      previousStatus
      webhookDelivery {
        ...DeliveryFields
      }
    }
  }
`);

const RedeliverUrlDelivery = graphql(`
  mutation DashboardRedeliverWebhookUrlDelivery($input: RedeliverWebhookUrlDeliveryInput!) {
    redeliverWebhookUrlDelivery(input: $input) {
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

const RedeliverDelivery = graphql(`
  mutation DashboardRedeliverWebhook($input: RedeliverWebhookInput!) {
    redeliverWebhook(input: $input) {
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

/** Calls `onNew` when a delivery that is not among `known` is created or changes (the list is read again). */
export function useDeliveriesLive(known: readonly { id: string }[], onNew: () => void) {
  useSubscription(DeliveriesLive, {
    onData: ({ data: update }) => {
      const delivery = update.data?.webhookDeliveryUpdated.webhookDelivery;
      if (delivery && !known.some((row) => row.id === delivery.id)) onNew();
    },
  });
}

/** What the latest attempt got: the HTTP status and time, or why nothing was answered. */
function LastAttempt({ delivery }: { delivery: DeliveryFieldsFragment }) {
  if (!delivery.lastAttemptAt) return <>Not attempted yet</>;
  return (
    <Stack gap={0}>
      <Text size="sm">{formatDateTime(delivery.lastAttemptAt)}</Text>
      <Text size="xs" c="dimmed">
        {delivery.responseStatus !== null ? `HTTP ${delivery.responseStatus}` : 'No answer'}
        {delivery.responseTimeMs !== null ? `, ${delivery.responseTimeMs} ms` : ''}
        {delivery.errorMessage ? `: ${delivery.errorMessage}` : ''}
      </Text>
    </Stack>
  );
}

const column = createColumnHelper<DeliveryFieldsFragment>();

/**
 * Deliveries with their attempts (how many, the latest's answer, the next retry) and, for the
 * roles that may, a Redeliver button: a new delivery of the same event to the same URL.
 */
export function DeliveriesTable({
  caption,
  deliveries,
  target,
  paging,
  onRedelivered,
}: {
  caption: string;
  deliveries: readonly DeliveryFieldsFragment[];
  /** Which mutation redelivers: the business's webhookUrl's, or any delivery (an endpoint's). */
  target: 'webhookUrl' | 'endpoint';
  paging?: CursorPaging;
  onRedelivered?: () => void;
}) {
  const current = useCurrent();
  const [redeliverUrl] = useMutation(RedeliverUrlDelivery);
  const [redeliverAny] = useMutation(RedeliverDelivery);
  const [busy, setBusy] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);

  const redeliver = async (id: string) => {
    setRefusal([]);
    setBusy(id);
    try {
      const payload =
        target === 'webhookUrl'
          ? (await redeliverUrl({ variables: { input: { id } } })).data?.redeliverWebhookUrlDelivery
          : (await redeliverAny({ variables: { input: { id } } })).data?.redeliverWebhook;
      if (payload?.webhookDelivery) {
        notifications.show({
          message: 'Sent again: a new delivery of the event',
          closeButtonProps: { 'aria-label': 'Dismiss' },
        });
        onRedelivered?.();
      } else if (payload) setRefusal([...payload.userErrors]);
    } catch (error) {
      setRefusal(thrown(error));
    } finally {
      setBusy(null);
    }
  };

  const columns = [
    column.accessor('eventType', { header: 'Event' }),
    column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
    column.accessor('attemptCount', { header: 'Attempts' }),
    column.accessor((row) => row.lastAttemptAt ?? '', {
      id: 'lastAttempt',
      header: 'Latest attempt',
      cell: ({ row }) => <LastAttempt delivery={row.original} />,
    }),
    column.accessor((row) => row.nextRetryAt ?? '', {
      id: 'nextRetry',
      header: 'Next retry',
      cell: ({ row }) => (row.original.nextRetryAt ? formatDateTime(row.original.nextRetryAt) : '—'),
    }),
    column.accessor('createdAt', { header: 'Created', cell: ({ getValue }) => formatDateTime(getValue()) }),
    ...(current.can(...WRITERS)
      ? [
          column.display({
            id: 'redeliver',
            header: () => <span className="visually-hidden">Actions</span>,
            cell: ({ row }) => (
              <Button
                size="xs"
                variant="default"
                loading={busy === row.original.id}
                onClick={() => void redeliver(row.original.id)}
              >
                Redeliver
              </Button>
            ),
          }),
        ]
      : []),
  ];

  return (
    <>
      <UserErrorsAlert errors={refusal} />
      <DataTable caption={caption} data={deliveries} columns={columns} rowId={(row) => row.id} paging={paging} />
    </>
  );
}
