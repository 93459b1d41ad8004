import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import type { CollectionChannelsQuery, CollectionStatus, CollectionsListQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ConnectionTable, StatusFilter, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney } from '../../ui/format';
import { decimalsOf, toMinorUnits } from './minor-units';
import { CollectionChannels, CollectionsList, CollectionsLive, CreateCollection, RAILS } from './operations';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const STATUSES: CollectionStatus[] = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'];

type Row = CollectionsListQuery['collections']['edges'][number]['node'];
type Channel = CollectionChannelsQuery['collectionChannels'][number];
const column = createColumnHelper<Row>();
const columns = [
  column.accessor((row) => Number(row.amount.amount), {
    id: 'amount',
    header: 'Amount',
    cell: ({ row }) => (
      <Anchor component={Link} to={`/collections/${row.original.id}`} fw={600}>
        {formatMoney(row.original.amount)}
      </Anchor>
    ),
  }),
  column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
  column.accessor((row) => RAILS[row.channel.rail] ?? row.channel.rail, { id: 'rail', header: 'Rail' }),
  column.accessor('country', { header: 'Country' }),
  column.accessor('businessPaymentId', { header: 'Reference' }),
  column.accessor('createdAt', { header: 'Date', cell: ({ getValue }) => formatDateTime(getValue()) }),
];

export const prefetch: ScreenPrefetch = () => screenQuery(CollectionsList, { first: 25, after: null });

/** The business's collections over local rails in this mode, newest first, live through `collectionUpdated`; and a form to open one. */
export default function CollectionsScreen() {
  const current = useCurrent();
  const [status, setStatus] = useState<CollectionStatus | null>(null);
  const list = useConnectionList(CollectionsList, { status }, (data) => data.collections);

  useSubscription(CollectionsLive, {
    onData: ({ data: update }) => {
      const collection = update.data?.collectionUpdated.collection;
      list.refetchIfNew(collection?.id);
    },
  });

  return (
    <Stack>
      <Title order={2}>Collections</Title>
      <Text size="sm" c="dimmed">
        Money collected over local rails (bank transfer, mobile money, EFT), settled to your USDC wallet.
      </Text>
      {current.can(...WRITERS) && <CreateCollectionForm />}
      <Group align="flex-end">
        <StatusFilter statuses={STATUSES} value={status} onChange={setStatus} />
      </Group>
      <ConnectionTable
        list={list}
        caption="Collections"
        columns={columns}
        loadingLabel="Loading collections…"
        empty={{
          title: 'No collections yet',
          text: 'Open a collection with the form above (or createCollection in the API): the payer gets bank details or a mobile-money prompt, and it appears here, live.',
        }}
        noMatch={{ title: 'No collection in this status', text: 'Choose another status, or clear the filter.' }}
      />
    </Stack>
  );
}

const createSchema = z.object({
  channelId: z.string().min(1, 'Choose a channel'),
  amount: z.string().trim().min(1, 'Enter the amount to collect'),
  phone: z.string().trim(),
  networkId: z.string(),
  name: z.string().trim().max(200),
  email: z
    .string()
    .trim()
    .refine((value) => value === '' || /^\S+@\S+\.\S+$/.test(value), 'Enter an email address'),
});
type CreateValues = z.infer<typeof createSchema>;

const channelLabel = (channel: Channel) =>
  `${channel.country} · ${channel.currency} · ${RAILS[channel.rail] ?? channel.rail} (${channel.provider})`;

function CreateCollectionForm() {
  const navigate = useNavigate();
  const channels = useQuery(CollectionChannels);
  const [create, { loading }] = useMutation(CreateCollection);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<CreateValues>({
    resolver: zodResolver(createSchema),
    defaultValues: { channelId: '', amount: '', phone: '', networkId: '', name: '', email: '' },
  });
  const channel = channels.data?.collectionChannels.find((c) => c.id === form.watch('channelId'));

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    if (!channel) return;
    const amount = toMinorUnits(values.amount, decimalsOf(channel.minAmount.amount));
    if (amount === null || amount === '0') {
      form.setError('amount', {
        message: `Enter an amount in ${channel.currency}, such as ${channel.minAmount.amount}`,
      });
      return;
    }
    if (channel.rail === 'MOMO' && !values.networkId) {
      form.setError('networkId', { message: 'Choose the payer’s network' });
      return;
    }
    const customer = {
      ...(values.phone ? { phone: values.phone } : {}),
      ...(channel.rail === 'MOMO' && values.networkId ? { networkId: values.networkId } : {}),
      ...(values.name ? { name: values.name } : {}),
      ...(values.email ? { email: values.email } : {}),
    };
    try {
      const { data } = await create({
        variables: {
          input: {
            amount,
            currency: channel.currency,
            country: channel.country,
            rail: channel.rail,
            channelId: channel.id,
            ...(Object.keys(customer).length > 0 ? { customer } : {}),
          },
        },
      });
      const result = data?.createCollection;
      if (result?.collection) void navigate(`/collections/${result.collection.id}`);
      else if (result) {
        setRefusal(
          applyUserErrors(
            result.userErrors.map((e) => ({ ...e, field: e.field?.filter((part) => part !== 'customer') ?? null })),
            form.setError,
            ['amount', 'phone', 'networkId', 'name', 'email', 'channelId'],
          ),
        );
      }
    } catch (err) {
      setRefusal([{ field: null, code: 'ERROR', message: (err as Error).message }]);
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="new-collection-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Title order={3} id="new-collection-title" size="h4">
            New collection
          </Title>
          {channels.error && <UserErrorsAlert errors={[channels.error]} />}
          <UserErrorsAlert errors={refusal} />
          <Group align="flex-start">
            <Controller
              control={form.control}
              name="channelId"
              render={({ field, fieldState }) => (
                <Select
                  label="Channel"
                  placeholder={channels.loading ? 'Loading channels…' : 'Choose a channel'}
                  data={(channels.data?.collectionChannels ?? []).map((c) => ({ value: c.id, label: channelLabel(c) }))}
                  value={field.value || null}
                  onChange={(value) => {
                    field.onChange(value ?? '');
                    form.setValue('networkId', '');
                  }}
                  error={fieldState.error?.message}
                  w={320}
                />
              )}
            />
            <TextInput
              label={channel ? `Amount (${channel.currency})` : 'Amount'}
              description={
                channel
                  ? `${formatMoney(channel.minAmount)} to ${formatMoney(channel.maxAmount)}`
                  : 'In the channel’s currency'
              }
              inputMode="decimal"
              {...form.register('amount')}
              error={form.formState.errors.amount?.message}
            />
          </Group>
          {channel?.rail === 'MOMO' && (
            <Group align="flex-start">
              <TextInput
                label="Payer’s phone"
                description="International format: the prompt is sent there"
                placeholder="+233241234567"
                {...form.register('phone')}
                error={form.formState.errors.phone?.message}
              />
              <Controller
                control={form.control}
                name="networkId"
                render={({ field, fieldState }) => (
                  <Select
                    label="Network"
                    placeholder="Choose the payer’s network"
                    data={channel.networkIds ?? []}
                    value={field.value || null}
                    onChange={(value) => field.onChange(value ?? '')}
                    error={fieldState.error?.message}
                  />
                )}
              />
            </Group>
          )}
          <Group align="flex-start">
            <TextInput label="Payer’s name" {...form.register('name')} error={form.formState.errors.name?.message} />
            <TextInput
              label="Payer’s email"
              type="email"
              {...form.register('email')}
              error={form.formState.errors.email?.message}
            />
          </Group>
          <Group>
            <Button type="submit" loading={loading}>
              Create collection
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
