import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Card, Group, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import type { TreasuryDestinationType, TreasuryPayoutRowFragment, TreasuryPayoutStatus } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ConnectionTable, StatusFilter, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney, humanize } from '../../ui/format';
import { CreateTreasuryPayout, PayoutSources, TreasuryPayoutsList, TreasuryPayoutsLive } from './operations';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const STATUSES: TreasuryPayoutStatus[] = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'];

const column = createColumnHelper<TreasuryPayoutRowFragment>();
const columns = [
  column.accessor((row) => Number(row.amount.amount), {
    id: 'amount',
    header: 'Amount',
    cell: ({ row }) => (
      <Anchor component={Link} to={`/treasury/payouts/${row.original.id}`} fw={600}>
        {formatMoney(row.original.amount)}
      </Anchor>
    ),
  }),
  column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
  column.accessor((row) => row.endUser.name ?? row.endUser.externalId, { id: 'endUser', header: 'End-user' }),
  column.accessor((row) => humanize(row.destinationType), { id: 'destination', header: 'To' }),
  column.accessor((row) => row.failureReason ?? '', { id: 'failure', header: 'Failure' }),
  column.accessor('createdAt', { header: 'Created', cell: ({ getValue }) => formatDateTime(getValue()) }),
];

export const prefetch: ScreenPrefetch = () => screenQuery(TreasuryPayoutsList, { first: 25, after: null });

/** The partner's treasury payouts in this mode, newest first, live through `treasuryPayoutUpdated`; and a form to send one. */
export default function TreasuryPayoutsScreen() {
  const current = useCurrent();
  const [status, setStatus] = useState<TreasuryPayoutStatus | null>(null);
  const list = useConnectionList(TreasuryPayoutsList, { status }, (data) => data.treasuryPayouts);

  useSubscription(TreasuryPayoutsLive, {
    onData: ({ data: update }) => {
      const payout = update.data?.treasuryPayoutUpdated.treasuryPayout;
      list.refetchIfNew(payout?.id);
    },
  });

  return (
    <Stack>
      <Title order={2}>Treasury payouts</Title>
      <Text size="sm" c="dimmed">
        Money your end-users send out of their wallets to a bank account, a mobile-money wallet or a chain address.
      </Text>
      {current.can(...WRITERS) && <CreatePayoutForm onCreated={() => list.refetch()} />}
      <Group align="flex-end">
        <StatusFilter statuses={STATUSES} value={status} onChange={setStatus} />
      </Group>
      <ConnectionTable
        list={list}
        caption="Treasury payouts"
        columns={columns}
        loadingLabel="Loading treasury payouts…"
        empty={{
          title: 'No treasury payouts yet',
          text: 'Send one with the form above once an end-user has a wallet with funds (or createTreasuryPayout in the API).',
        }}
        noMatch={{ title: 'No payout in this status', text: 'Choose another status, or clear the filter.' }}
      />
    </Stack>
  );
}

const DESTINATION_FIELDS: Record<TreasuryDestinationType, readonly (keyof Destination)[]> = {
  BANK_ACCOUNT: ['accountNumber', 'routingNumber', 'accountName', 'country', 'bankName'],
  MOBILE_MONEY: ['phone', 'networkId', 'country', 'accountName'],
  CRYPTO: ['address', 'chain'],
};
const FIELD_LABELS: Record<keyof Destination, string> = {
  accountNumber: 'Account number',
  routingNumber: 'Routing number or bank code',
  accountName: 'Account holder',
  country: 'Country (two letters)',
  bankName: 'Bank name (optional)',
  phone: 'Phone (international format)',
  networkId: 'Network, e.g. mtn-gh',
  address: 'Address',
  chain: 'Chain, e.g. ethereum',
};

const destinationSchema = z.object({
  accountNumber: z.string().trim(),
  routingNumber: z.string().trim(),
  accountName: z.string().trim(),
  country: z.string().trim(),
  bankName: z.string().trim(),
  phone: z.string().trim(),
  networkId: z.string().trim(),
  address: z.string().trim(),
  chain: z.string().trim(),
});
type Destination = z.infer<typeof destinationSchema>;

const payoutSchema = z.object({
  endUserId: z.string().min(1, 'Choose the end-user paying out'),
  walletId: z.string().min(1, 'Choose the wallet to pay from'),
  amount: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'Enter an amount such as 25.00'),
  destinationType: z.enum(['BANK_ACCOUNT', 'MOBILE_MONEY', 'CRYPTO']),
  destination: destinationSchema,
  testOutcome: z.string(),
});
type PayoutValues = z.infer<typeof payoutSchema>;

function CreatePayoutForm({ onCreated }: { onCreated: () => void }) {
  const current = useCurrent();
  const sources = useQuery(PayoutSources);
  const [create, { loading }] = useMutation(CreateTreasuryPayout);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<PayoutValues>({
    resolver: zodResolver(payoutSchema),
    defaultValues: {
      endUserId: '',
      walletId: '',
      amount: '',
      destinationType: 'BANK_ACCOUNT',
      destination: {
        accountNumber: '',
        routingNumber: '',
        accountName: '',
        country: '',
        bankName: '',
        phone: '',
        networkId: '',
        address: '',
        chain: '',
      },
      testOutcome: 'success',
    },
  });
  const endUsers = sources.data?.treasuryEndUsers.edges.map((edge) => edge.node) ?? [];
  const endUser = endUsers.find((user) => user.id === form.watch('endUserId'));
  const destinationType = form.watch('destinationType');
  const wallet = endUser?.wallets.find((w) => w.id === form.watch('walletId'));

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    const destination = Object.fromEntries(
      DESTINATION_FIELDS[values.destinationType]
        .map((key) => [key, values.destination[key]] as const)
        .filter(([, value]) => value !== ''),
    );
    try {
      const { data } = await create({
        variables: {
          input: {
            partnerEndUserId: values.endUserId,
            partnerWalletId: values.walletId,
            amount: values.amount,
            destinationType: values.destinationType,
            destination,
            ...(current.mode === 'test' ? { metadata: { test_outcome: values.testOutcome } } : {}),
          },
        },
      });
      const result = data?.createTreasuryPayout;
      if (result?.treasuryPayout) {
        form.reset({ ...values, amount: '' });
        onCreated();
        void sources.refetch();
        notifications.show({
          color: 'green',
          message: `Payout of ${formatMoney(result.treasuryPayout.amount)} sent`,
          closeButtonProps: { 'aria-label': 'Dismiss' },
        });
      } else if (result) {
        const renamed = result.userErrors.map((e) => ({
          ...e,
          field:
            e.field?.map((part) =>
              part === 'partnerEndUserId' ? 'endUserId' : part === 'partnerWalletId' ? 'walletId' : part,
            ) ?? null,
        }));
        setRefusal(
          applyUserErrors(renamed, form.setError, [
            'endUserId',
            'walletId',
            'amount',
            ...DESTINATION_FIELDS[values.destinationType].map((key) => `destination.${key}` as const),
          ]),
        );
      }
    } catch (err) {
      setRefusal([{ field: null, code: 'ERROR', message: (err as Error).message }]);
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="new-treasury-payout-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Title order={3} id="new-treasury-payout-title" size="h4">
            New treasury payout
          </Title>
          {sources.error && <UserErrorsAlert errors={[sources.error]} />}
          {sources.data && endUsers.length === 0 && (
            <Text size="sm">No end-user can pay out yet: an end-user needs an approved KYC check and a wallet.</Text>
          )}
          <UserErrorsAlert errors={refusal} />
          <Group align="flex-start">
            <Controller
              control={form.control}
              name="endUserId"
              render={({ field, fieldState }) => (
                <Select
                  label="End-user"
                  placeholder="Choose an end-user"
                  data={endUsers.map((user) => ({
                    value: user.id,
                    label: user.name ? `${user.name} (${user.externalId})` : user.externalId,
                  }))}
                  value={field.value || null}
                  onChange={(value) => {
                    field.onChange(value ?? '');
                    form.setValue('walletId', '');
                  }}
                  error={fieldState.error?.message}
                  w={260}
                />
              )}
            />
            <Controller
              control={form.control}
              name="walletId"
              render={({ field, fieldState }) => (
                <Select
                  label="Wallet"
                  placeholder={endUser ? 'Choose a wallet' : 'Choose the end-user first'}
                  data={(endUser?.wallets ?? []).map((w) => ({
                    value: w.id,
                    label: `${w.currency} (${formatMoney(w.balance)})`,
                  }))}
                  value={field.value || null}
                  onChange={(value) => field.onChange(value ?? '')}
                  error={fieldState.error?.message}
                  w={220}
                />
              )}
            />
            <TextInput
              label={wallet ? `Amount (${wallet.currency})` : 'Amount'}
              inputMode="decimal"
              {...form.register('amount')}
              error={form.formState.errors.amount?.message}
            />
          </Group>
          <div>
            <Text size="sm" fw={500} id="destination-type-label">
              Destination
            </Text>
            <Controller
              control={form.control}
              name="destinationType"
              render={({ field }) => (
                <SegmentedControl
                  aria-labelledby="destination-type-label"
                  value={field.value}
                  onChange={field.onChange}
                  data={[
                    { value: 'BANK_ACCOUNT', label: 'Bank account' },
                    { value: 'MOBILE_MONEY', label: 'Mobile money' },
                    { value: 'CRYPTO', label: 'Crypto' },
                  ]}
                />
              )}
            />
          </div>
          <Group align="flex-start">
            {DESTINATION_FIELDS[destinationType].map((key) => (
              <TextInput
                key={`${destinationType}-${key}`}
                label={FIELD_LABELS[key]}
                {...form.register(`destination.${key}`)}
                error={form.formState.errors.destination?.[key]?.message}
              />
            ))}
          </Group>
          {current.mode === 'test' && (
            <Controller
              control={form.control}
              name="testOutcome"
              render={({ field }) => (
                <Select
                  label="Sandbox outcome"
                  allowDeselect={false}
                  data={[
                    { value: 'success', label: 'Completes' },
                    { value: 'failed', label: 'Fails' },
                    { value: 'pending', label: 'Stays pending' },
                  ]}
                  value={field.value}
                  onChange={(value) => field.onChange(value ?? 'success')}
                  w={200}
                />
              )}
            />
          )}
          <Group>
            <Button type="submit" loading={loading}>
              Send payout
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
