import { useMutation, useSubscription } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import type { TreasuryEndUserStatus, TreasuryEndUsersListQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ConnectionTable, StatusFilter, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime } from '../../ui/format';
import { CreateTreasuryEndUser, TreasuryEndUsersList, TreasuryKycLive } from './operations';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const STATUSES: TreasuryEndUserStatus[] = ['PENDING_KYC', 'ACTIVE', 'REJECTED'];

type Row = TreasuryEndUsersListQuery['treasuryEndUsers']['edges'][number]['node'];
const column = createColumnHelper<Row>();
const columns = [
  column.accessor('externalId', {
    header: 'Your id',
    cell: ({ row }) => (
      <Anchor component={Link} to={`/treasury/end-users/${row.original.id}`} fw={600}>
        {row.original.externalId}
      </Anchor>
    ),
  }),
  column.accessor((row) => row.name ?? '', { id: 'name', header: 'Name' }),
  column.accessor('email', { header: 'Email' }),
  column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
  column.accessor((row) => row.kyc?.status ?? '', {
    id: 'kyc',
    header: 'KYC',
    cell: ({ getValue }) => (getValue() ? <StatusBadge status={getValue()} /> : 'Not started'),
  }),
  column.accessor('createdAt', { header: 'Created', cell: ({ getValue }) => formatDateTime(getValue()) }),
];

export const prefetch: ScreenPrefetch = () => screenQuery(TreasuryEndUsersList, { first: 25, after: null });

/** The partner's treasury end-users in this mode, newest first; KYC moves live (`treasuryKycUpdated`). */
export default function EndUsersScreen() {
  const current = useCurrent();
  const [status, setStatus] = useState<TreasuryEndUserStatus | null>(null);
  const list = useConnectionList(TreasuryEndUsersList, { status }, (data) => data.treasuryEndUsers);
  // A check started or decided: the end-user's status and latest check may both have changed.
  useSubscription(TreasuryKycLive, { variables: {}, onData: () => list.refetch() });

  return (
    <Stack>
      <Title order={2}>Treasury end-users</Title>
      <Text size="sm" c="dimmed">
        Your users who hold treasury wallets: each passes KYC before a wallet opens.
      </Text>
      {current.can(...WRITERS) && <CreateEndUserForm />}
      <Group align="flex-end">
        <StatusFilter statuses={STATUSES} value={status} onChange={setStatus} />
      </Group>
      <ConnectionTable
        list={list}
        caption="Treasury end-users"
        columns={columns}
        loadingLabel="Loading end-users…"
        empty={{
          title: 'No end-users yet',
          text: 'Add an end-user with the form above (or createTreasuryEndUser in the API), then start their KYC.',
        }}
        noMatch={{ title: 'No end-user in this status', text: 'Choose another status, or clear the filter.' }}
      />
    </Stack>
  );
}

const createSchema = z.object({
  externalId: z.string().trim().min(1, 'Enter your own id of the user').max(200),
  email: z
    .string()
    .trim()
    .regex(/^\S+@\S+\.\S+$/, 'Enter an email address'),
  name: z.string().trim().max(200),
  phone: z.string().trim(),
});
type CreateValues = z.infer<typeof createSchema>;

function CreateEndUserForm() {
  const navigate = useNavigate();
  const [create, { loading }] = useMutation(CreateTreasuryEndUser);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<CreateValues>({
    resolver: zodResolver(createSchema),
    defaultValues: { externalId: '', email: '', name: '', phone: '' },
  });

  const submit = form.handleSubmit(async ({ externalId, email, name, phone }) => {
    setRefusal([]);
    try {
      const { data } = await create({
        variables: { input: { externalId, email, ...(name ? { name } : {}), ...(phone ? { phone } : {}) } },
      });
      const result = data?.createTreasuryEndUser;
      if (result?.treasuryEndUser) void navigate(`/treasury/end-users/${result.treasuryEndUser.id}`);
      else if (result)
        setRefusal(applyUserErrors(result.userErrors, form.setError, ['externalId', 'email', 'name', 'phone']));
    } catch (err) {
      setRefusal([{ field: null, code: 'ERROR', message: (err as Error).message }]);
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="new-end-user-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Title order={3} id="new-end-user-title" size="h4">
            New end-user
          </Title>
          <UserErrorsAlert errors={refusal} />
          <Group align="flex-start">
            <TextInput
              label="Your id of the user"
              {...form.register('externalId')}
              error={form.formState.errors.externalId?.message}
            />
            <TextInput
              label="Email"
              type="email"
              {...form.register('email')}
              error={form.formState.errors.email?.message}
            />
            <TextInput label="Name" {...form.register('name')} error={form.formState.errors.name?.message} />
            <TextInput
              label="Phone"
              placeholder="+14155550100"
              {...form.register('phone')}
              error={form.formState.errors.phone?.message}
            />
          </Group>
          <Group>
            <Button type="submit" loading={loading}>
              Add end-user
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
