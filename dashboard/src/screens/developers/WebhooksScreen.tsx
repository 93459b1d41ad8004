import { useMutation, useQuery } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Card, Group, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { DeveloperWebhookEndpointsQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { DataTable, useCursorPages } from '../../ui/DataTable';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime } from '../../ui/format';
import { DeliveriesTable, useDeliveriesLive } from './deliveries';
import { thrown } from './parts';
import { Dialog } from '../../ui/Dialog';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const Settings = graphql(`
  query DeveloperWebhookSettings {
    businessSettings {
      id
      mode
      webhookUrl
      updatedAt
    }
  }
`);

const UpdateWebhookUrl = graphql(`
  mutation DashboardUpdateWebhookUrl($input: UpdateBusinessSettingsInput!) {
    updateBusinessSettings(input: $input) {
      businessSettings {
        id
        mode
        webhookUrl
        updatedAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const UrlDeliveries = graphql(`
  query DeveloperWebhookUrlDeliveries($first: Int, $after: String) {
    webhookUrlDeliveries(first: $first, after: $after) {
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
`);

const Endpoints = graphql(`
  query DeveloperWebhookEndpoints {
    webhookEndpoints(first: 20) {
      edges {
        node {
          id
          url
          events
          status
          description
          createdAt
          updatedAt
        }
      }
    }
  }
`);

const CreateEndpoint = graphql(`
  mutation DashboardCreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      webhookEndpoint {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const UpdateEndpoint = graphql(`
  mutation DashboardUpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(input: $input) {
      webhookEndpoint {
        id
        url
        events
        status
        description
        updatedAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const DeleteEndpoint = graphql(`
  mutation DashboardDeleteWebhookEndpoint($input: DeleteWebhookEndpointInput!) {
    deleteWebhookEndpoint(input: $input) {
      webhookEndpoint {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const urlSchema = z
  .string()
  .trim()
  .refine(
    (value) => value === '' || /^https?:\/\/\S+$/i.test(value),
    'Enter an absolute http(s) URL, or leave it empty',
  );

const done = (message: string) =>
  notifications.show({ color: 'green', message, closeButtonProps: { 'aria-label': 'Dismiss' } });

export const prefetch: ScreenPrefetch = () => [
  screenQuery(Settings, {}),
  screenQuery(UrlDeliveries, { first: 25, after: null }),
  screenQuery(Endpoints, {}),
];

/**
 * Where the business's events go: its webhook URL (every event of this mode) and its deliveries,
 * live, with Redeliver; the registered endpoints (each for some event types), created, changed and
 * deleted here.
 */
export default function WebhooksScreen() {
  return (
    <Stack>
      <Title order={2}>Webhooks</Title>
      <WebhookUrl />
      <UrlDeliveriesSection />
      <EndpointsSection />
    </Stack>
  );
}

function WebhookUrl() {
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(Settings);
  const [update, { loading: saving }] = useMutation(UpdateWebhookUrl);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<{ webhookUrl: string }>({
    resolver: zodResolver(z.object({ webhookUrl: urlSchema })),
    values: { webhookUrl: data?.businessSettings.webhookUrl ?? '' },
  });

  const submit = form.handleSubmit(async ({ webhookUrl }) => {
    setRefusal([]);
    try {
      const result = await update({ variables: { input: { webhookUrl: webhookUrl || null } } });
      const payload = result.data?.updateBusinessSettings;
      if (payload?.businessSettings) done(webhookUrl ? 'Webhook URL saved' : 'Webhook URL removed');
      else if (payload) setRefusal(applyUserErrors(payload.userErrors, form.setError, ['webhookUrl']));
    } catch (error) {
      setRefusal(thrown(error));
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="webhook-url-title">
      <Stack gap="sm">
        <Title order={3} id="webhook-url-title">
          Webhook URL
        </Title>
        <Text size="sm" c="dimmed">
          Receives every event of this business in {current.mode} mode, signed with your API secret
          (x-service-signature).
        </Text>
        {error ? (
          <LoadError error={error} retry={() => void refetch()} />
        ) : loading && !data ? (
          <Loading label="Loading the webhook URL…" />
        ) : current.can(...WRITERS) ? (
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack gap="sm">
              <UserErrorsAlert errors={refusal} />
              <Group align="flex-start">
                <TextInput
                  label="Webhook URL"
                  description="Empty: no webhook URL"
                  placeholder="https://example.com/webhooks"
                  w={480}
                  {...form.register('webhookUrl')}
                  error={form.formState.errors.webhookUrl?.message}
                />
              </Group>
              <Group>
                <Button type="submit" variant="default" loading={saving}>
                  Save webhook URL
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Text size="sm" ff="monospace">
            {data?.businessSettings.webhookUrl ?? 'No webhook URL.'}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

function UrlDeliveriesSection() {
  const pages = useCursorPages(25);
  const { data, loading, error, refetch } = useQuery(UrlDeliveries, { variables: pages.variables });
  const rows = data?.webhookUrlDeliveries.edges.map((edge) => edge.node) ?? [];
  useDeliveriesLive(rows, () => {
    if (pages.page === 1) void refetch();
  });

  return (
    <Stack gap="xs" component="section" aria-labelledby="url-deliveries-title">
      <Title order={3} id="url-deliveries-title">
        Deliveries to the webhook URL
      </Title>
      {error ? (
        <LoadError error={error} retry={() => void refetch()} />
      ) : loading && !data ? (
        <Loading label="Loading the deliveries…" />
      ) : rows.length === 0 ? (
        <Empty title="No deliveries yet">
          Set a webhook URL: each event of this mode (a payment, a payout, a funded wallet) is then delivered to it, and
          appears here live.
        </Empty>
      ) : (
        <DeliveriesTable
          caption="Deliveries to the webhook URL"
          deliveries={rows}
          target="webhookUrl"
          onRedelivered={() => void refetch()}
          paging={{
            page: pages.page,
            hasNextPage: data?.webhookUrlDeliveries.pageInfo.hasNextPage ?? false,
            next: () => pages.next(data?.webhookUrlDeliveries.pageInfo.endCursor),
            previous: pages.previous,
          }}
        />
      )}
    </Stack>
  );
}

type Endpoint = DeveloperWebhookEndpointsQuery['webhookEndpoints']['edges'][number]['node'];
const column = createColumnHelper<Endpoint>();

function EndpointsSection() {
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(Endpoints);
  const [editing, setEditing] = useState<Endpoint | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Endpoint | null>(null);
  const rows = data?.webhookEndpoints.edges.map((edge) => edge.node) ?? [];
  const writer = current.can(...WRITERS);

  const columns = [
    column.accessor('url', {
      header: 'URL',
      cell: ({ row }) => (
        <Anchor
          component={Link}
          to={`/developers/webhooks/${row.original.id}`}
          size="sm"
          style={{ wordBreak: 'break-all' }}
        >
          {row.original.url}
        </Anchor>
      ),
    }),
    column.accessor((row) => row.events.join(', '), {
      id: 'events',
      header: 'Events',
      cell: ({ getValue }) => (getValue() === '*' ? 'All events' : getValue()),
    }),
    column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
    column.accessor((row) => row.description ?? '', { id: 'description', header: 'Description' }),
    column.accessor('createdAt', { header: 'Created', cell: ({ getValue }) => formatDateTime(getValue()) }),
    ...(writer
      ? [
          column.display({
            id: 'actions',
            header: () => <span className="visually-hidden">Actions</span>,
            cell: ({ row }) => (
              <Group gap="xs" wrap="nowrap">
                <Button size="xs" variant="default" onClick={() => setEditing(row.original)}>
                  Edit
                </Button>
                <Button size="xs" variant="default" onClick={() => setDeleting(row.original)}>
                  Delete
                </Button>
              </Group>
            ),
          }),
        ]
      : []),
  ];

  return (
    <Stack gap="xs" component="section" aria-labelledby="endpoints-title">
      <Group justify="space-between">
        <Title order={3} id="endpoints-title">
          Endpoints
        </Title>
        {writer && (
          <Button variant="default" onClick={() => setEditing('new')}>
            Add endpoint
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        Each endpoint receives the event types it lists (at most 20 endpoints per mode); open one for its deliveries.
      </Text>
      {error ? (
        <LoadError error={error} retry={() => void refetch()} />
      ) : loading && !data ? (
        <Loading label="Loading the endpoints…" />
      ) : rows.length === 0 ? (
        <Empty title="No endpoints">
          {writer
            ? 'Add an endpoint to send some event types to another URL than the webhook URL.'
            : 'A member with a developer, admin or owner role can add one.'}
        </Empty>
      ) : (
        <DataTable caption="Webhook endpoints" data={rows} columns={columns} rowId={(row) => row.id} />
      )}
      {editing && <EndpointModal endpoint={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteModal endpoint={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

const endpointSchema = z.object({
  url: z
    .string()
    .trim()
    .refine((value) => /^https?:\/\/\S+$/i.test(value), 'Enter an absolute http(s) URL'),
  events: z.string().trim().min(1, 'Enter event types such as wallet.funded, or * for all'),
  description: z.string().trim().max(500),
  enabled: z.boolean(),
});
type EndpointValues = z.infer<typeof endpointSchema>;

function EndpointModal({ endpoint, onClose }: { endpoint: Endpoint | null; onClose: () => void }) {
  const [create, { loading: creating }] = useMutation(CreateEndpoint, {
    refetchQueries: ['DeveloperWebhookEndpoints'],
  });
  const [update, { loading: updating }] = useMutation(UpdateEndpoint);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<EndpointValues>({
    resolver: zodResolver(endpointSchema),
    defaultValues: {
      url: endpoint?.url ?? '',
      events: endpoint?.events.join(', ') ?? '*',
      description: endpoint?.description ?? '',
      enabled: (endpoint?.status ?? 'enabled') === 'enabled',
    },
  });

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    const fields = {
      url: values.url,
      events: values.events
        .split(',')
        .map((type) => type.trim())
        .filter(Boolean),
      status: values.enabled ? 'enabled' : 'disabled',
    };
    try {
      const payload = endpoint
        ? (
            await update({
              variables: { input: { id: endpoint.id, ...fields, description: values.description || null } },
            })
          ).data?.updateWebhookEndpoint
        : (
            await create({
              variables: { input: { ...fields, ...(values.description ? { description: values.description } : {}) } },
            })
          ).data?.createWebhookEndpoint;
      if (payload?.webhookEndpoint) {
        done(endpoint ? 'Endpoint saved' : 'Endpoint added');
        onClose();
      } else if (payload) {
        setRefusal(applyUserErrors(payload.userErrors, form.setError, ['url', 'events', 'description']));
      }
    } catch (error) {
      setRefusal(thrown(error));
    }
  });

  return (
    <Dialog onClose={onClose} title={endpoint ? 'Edit the endpoint' : 'Add an endpoint'}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <UserErrorsAlert errors={refusal} />
          <TextInput
            label="Endpoint URL"
            placeholder="https://example.com/webhooks"
            {...form.register('url')}
            error={form.formState.errors.url?.message}
          />
          <TextInput
            label="Event types"
            description="Comma-separated (wallet.funded, payment.completed), or * for every event"
            {...form.register('events')}
            error={form.formState.errors.events?.message}
          />
          <TextInput
            label="Description"
            {...form.register('description')}
            error={form.formState.errors.description?.message}
          />
          <Switch
            label="Enabled"
            checked={form.watch('enabled')}
            onChange={(event) => form.setValue('enabled', event.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={creating || updating}>
              {endpoint ? 'Save endpoint' : 'Add endpoint'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

function DeleteModal({ endpoint, onClose }: { endpoint: Endpoint; onClose: () => void }) {
  const [remove, { loading }] = useMutation(DeleteEndpoint, { refetchQueries: ['DeveloperWebhookEndpoints'] });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);

  const confirm = async () => {
    setRefusal([]);
    try {
      const payload = (await remove({ variables: { input: { id: endpoint.id } } })).data?.deleteWebhookEndpoint;
      if (payload?.webhookEndpoint) {
        done('Endpoint deleted');
        onClose();
      } else if (payload) setRefusal([...payload.userErrors]);
    } catch (error) {
      setRefusal(thrown(error));
    }
  };

  return (
    <Dialog onClose={onClose} title="Delete the endpoint?">
      <Stack gap="sm">
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {endpoint.url} receives nothing more. Its past deliveries are kept.
        </Text>
        <UserErrorsAlert errors={refusal} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={loading} onClick={() => void confirm()}>
            Delete endpoint
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
