import { useMutation, useQuery } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, SegmentedControl, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { PayoutRecipientsListQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { DataTable, useCursorPages } from '../../ui/DataTable';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, humanize } from '../../ui/format';
import { maskedDestination } from './payouts.format';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const RecipientsList = graphql(`
  query PayoutRecipientsList($first: Int, $after: String, $includeArchived: Boolean) {
    payoutRecipients(first: $first, after: $after, includeArchived: $includeArchived) {
      edges {
        node {
          ...PayoutRecipientSummary
          screenedAt
          archivedAt
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

const CreateRecipient = graphql(`
  mutation DashboardCreatePayoutRecipient($input: CreatePayoutRecipientInput!) {
    createPayoutRecipient(input: $input) {
      created
      recipient {
        id
        label
        archivedAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const ArchiveRecipient = graphql(`
  mutation DashboardArchivePayoutRecipient($input: ArchivePayoutRecipientInput!) {
    archivePayoutRecipient(input: $input) {
      recipient {
        id
        archivedAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

type Row = PayoutRecipientsListQuery['payoutRecipients']['edges'][number]['node'];
const column = createColumnHelper<Row>();

export const prefetch: ScreenPrefetch = () =>
  screenQuery(RecipientsList, { first: 25, after: null, includeArchived: true });

/** The business's payout recipients in this mode (archived ones too when asked), a form to add one, and archive. */
export default function RecipientsScreen() {
  const current = useCurrent();
  const [includeArchived, setIncludeArchived] = useState(true);
  const pages = useCursorPages(25);
  const { data, loading, error, refetch } = useQuery(RecipientsList, {
    variables: { ...pages.variables, includeArchived },
  });
  const [archive] = useMutation(ArchiveRecipient);
  const [archiveRefusal, setArchiveRefusal] = useState<UserErrorValue[]>([]);
  const rows = data?.payoutRecipients.edges.map((edge) => edge.node) ?? [];
  const canWrite = current.can(...WRITERS);

  const archiveOne = async (id: string) => {
    setArchiveRefusal([]);
    try {
      const { data: result } = await archive({ variables: { input: { id } } });
      const errors = result?.archivePayoutRecipient.userErrors ?? [];
      if (errors.length > 0) setArchiveRefusal([...errors]);
    } catch (failure) {
      setArchiveRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  };

  const columns = [
    column.accessor('label', { header: 'Recipient', cell: ({ getValue }) => <Text fw={600}>{getValue()}</Text> }),
    column.accessor('rail', { header: 'Rail', cell: ({ getValue }) => humanize(getValue()) }),
    column.accessor((row) => maskedDestination(row.detailsMasked), { id: 'destination', header: 'Destination' }),
    column.accessor('currency', { header: 'Currency' }),
    column.accessor((row) => (row.archivedAt ? 'ARCHIVED' : 'ACTIVE'), {
      id: 'state',
      header: 'State',
      cell: ({ getValue }) => <StatusBadge status={getValue()} />,
    }),
    column.accessor('createdAt', { header: 'Created', cell: ({ getValue }) => formatDateTime(getValue()) }),
    ...(canWrite
      ? [
          column.display({
            id: 'actions',
            header: 'Actions',
            cell: ({ row }) =>
              row.original.archivedAt ? null : (
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`Archive ${row.original.label}`}
                  onClick={() => void archiveOne(row.original.id)}
                >
                  Archive
                </Button>
              ),
          }),
        ]
      : []),
  ];

  return (
    <Stack>
      <Title order={2}>Recipients</Title>
      {canWrite && <RecipientForm onCreated={() => void refetch()} />}
      <UserErrorsAlert errors={archiveRefusal} />
      <Switch
        label="Show archived recipients"
        checked={includeArchived}
        onChange={(event) => {
          setIncludeArchived(event.currentTarget.checked);
          pages.reset();
        }}
      />
      {error ? (
        <LoadError error={error} retry={() => void refetch()} />
      ) : loading && !data ? (
        <Loading label="Loading recipients…" />
      ) : rows.length === 0 ? (
        <Empty title="No recipients yet">
          Add a bank account or a mobile-money wallet above; payouts are sent to a recipient.
        </Empty>
      ) : (
        <DataTable
          caption="Payout recipients"
          data={rows}
          columns={columns}
          rowId={(row) => row.id}
          paging={{
            page: pages.page,
            hasNextPage: data?.payoutRecipients.pageInfo.hasNextPage ?? false,
            next: () => pages.next(data?.payoutRecipients.pageInfo.endCursor),
            previous: pages.previous,
          }}
        />
      )}
    </Stack>
  );
}

const recipientSchema = z
  .object({
    rail: z.enum(['LOCAL_BANK', 'MOBILE_MONEY']),
    label: z.string().trim().min(1, 'Enter a name for the recipient').max(200),
    country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'Two letters, such as NG'),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, 'Three letters, such as NGN'),
    accountName: z.string().trim().min(1, "Enter the account holder's name").max(200),
    bankCode: z.string().trim(),
    bankName: z.string().trim(),
    accountNumber: z.string().trim(),
    networkId: z.string().trim(),
    phone: z.string().trim(),
  })
  .superRefine((values, context) => {
    const required = (field: keyof typeof values, message: string) => {
      if (!values[field]) context.addIssue({ code: 'custom', path: [field], message });
    };
    if (values.rail === 'LOCAL_BANK') {
      required('bankCode', "Enter the bank's code");
      required('bankName', "Enter the bank's name");
      required('accountNumber', 'Enter the account number');
    } else {
      required('networkId', 'Enter the mobile network, such as mtn-gh');
      required('phone', 'Enter the phone number in international format');
    }
  });
type RecipientValues = z.infer<typeof recipientSchema>;
const RECIPIENT_FIELDS = [
  'label',
  'country',
  'currency',
  'accountName',
  'bankCode',
  'bankName',
  'accountNumber',
  'networkId',
  'phone',
] as const;

function RecipientForm({ onCreated }: { onCreated: () => void }) {
  const [create, { loading }] = useMutation(CreateRecipient);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<RecipientValues>({
    resolver: zodResolver(recipientSchema),
    defaultValues: {
      rail: 'LOCAL_BANK',
      label: '',
      country: '',
      currency: '',
      accountName: '',
      bankCode: '',
      bankName: '',
      accountNumber: '',
      networkId: '',
      phone: '',
    },
  });
  const rail = form.watch('rail');
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    const common = {
      rail: values.rail,
      country: values.country,
      currency: values.currency,
      accountName: values.accountName,
    };
    const details =
      values.rail === 'LOCAL_BANK'
        ? { ...common, bankCode: values.bankCode, bankName: values.bankName, accountNumber: values.accountNumber }
        : { ...common, networkId: values.networkId, phone: values.phone };
    try {
      const { data } = await create({ variables: { input: { label: values.label, details } } });
      const result = data?.createPayoutRecipient;
      if (result?.recipient) {
        form.reset({ ...form.getValues(), label: '', accountName: '', accountNumber: '', phone: '' });
        notifications.show({
          color: 'green',
          message: result.created
            ? `Recipient ${result.recipient.label} added`
            : 'That destination was already a recipient',
          closeButtonProps: { 'aria-label': 'Dismiss' },
        });
        onCreated();
      } else if (result) {
        // The API names the account fields under details (["input", "details", "phone"]).
        const flattened = result.userErrors.map((error) => ({
          ...error,
          field: error.field ? error.field.filter((part) => part !== 'details') : null,
        }));
        setRefusal(applyUserErrors(flattened, form.setError, RECIPIENT_FIELDS));
      }
    } catch (failure) {
      setRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="recipient-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Title order={3} id="recipient-title">
            Add a recipient
          </Title>
          <UserErrorsAlert errors={refusal} />
          <Controller
            control={form.control}
            name="rail"
            render={({ field }) => (
              <SegmentedControl
                aria-label="Rail"
                value={field.value}
                onChange={(value) => field.onChange(value)}
                data={[
                  { value: 'LOCAL_BANK', label: 'Bank account' },
                  { value: 'MOBILE_MONEY', label: 'Mobile money' },
                ]}
                w="fit-content"
              />
            )}
          />
          <Group align="flex-start" grow>
            <TextInput label="Name" {...form.register('label')} error={errors.label?.message} />
            <TextInput label="Account holder" {...form.register('accountName')} error={errors.accountName?.message} />
          </Group>
          <Group align="flex-start" grow>
            <TextInput
              label="Country"
              description="ISO code, e.g. NG"
              {...form.register('country')}
              error={errors.country?.message}
            />
            <TextInput
              label="Currency received"
              description="e.g. NGN"
              {...form.register('currency')}
              error={errors.currency?.message}
            />
          </Group>
          {rail === 'LOCAL_BANK' ? (
            <Group align="flex-start" grow>
              <TextInput label="Bank code" {...form.register('bankCode')} error={errors.bankCode?.message} />
              <TextInput label="Bank name" {...form.register('bankName')} error={errors.bankName?.message} />
              <TextInput
                label="Account number"
                {...form.register('accountNumber')}
                error={errors.accountNumber?.message}
              />
            </Group>
          ) : (
            <Group align="flex-start" grow>
              <TextInput
                label="Mobile network"
                description="e.g. mtn-gh"
                {...form.register('networkId')}
                error={errors.networkId?.message}
              />
              <TextInput
                label="Phone"
                description="International format, e.g. +233241234567"
                {...form.register('phone')}
                error={errors.phone?.message}
              />
            </Group>
          )}
          <Group>
            <Button type="submit" loading={loading}>
              Add recipient
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
