import { useMutation } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { PaymentLinksListQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ConnectionTable, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney, humanize } from '../../ui/format';
import { CreatePanel, ShareUrl, fields, thrown } from './shared';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const PaymentLinksList = graphql(`
  query PaymentLinksList($first: Int, $after: String, $active: Boolean) {
    paymentLinks(first: $first, after: $after, active: $active) {
      edges {
        node {
          id
          name
          description
          active
          url
          allowRecurring
          recurringInterval
          createdAt
          deactivatedAt
          amount {
            amount
            currency
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const CreatePaymentLink = graphql(`
  mutation DashboardCreatePaymentLink($input: CreatePaymentLinkInput!) {
    createPaymentLink(input: $input) {
      paymentLink {
        id
        url
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const DeactivatePaymentLink = graphql(`
  mutation DashboardDeactivatePaymentLink($input: DeactivatePaymentLinkInput!) {
    deactivatePaymentLink(input: $input) {
      paymentLink {
        id
        active
        deactivatedAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

type Row = PaymentLinksListQuery['paymentLinks']['edges'][number]['node'];
const column = createColumnHelper<Row>();

export const prefetch: ScreenPrefetch = () => screenQuery(PaymentLinksList, { first: 25, after: null });

/** The business's payment links in this mode, newest first (all, active or deactivated); create and deactivate for the write roles. */
export default function PaymentLinksScreen() {
  const current = useCurrent();
  const writer = current.can(...WRITERS);
  const [shown, setShown] = useState('all');
  const active = shown === 'all' ? null : shown === 'active';
  const list = useConnectionList(PaymentLinksList, { active }, (data) => data.paymentLinks);

  const columns = [
    column.accessor('name', { header: 'Name', cell: ({ getValue }) => <Text fw={600}>{getValue()}</Text> }),
    column.accessor((row) => Number(row.amount.amount), {
      id: 'amount',
      header: 'Amount',
      cell: ({ row }) => formatMoney(row.original.amount),
    }),
    column.accessor((row) => (row.active ? 'ACTIVE' : 'DEACTIVATED'), {
      id: 'status',
      header: 'Status',
      cell: ({ getValue }) => <StatusBadge status={getValue()} />,
    }),
    column.accessor((row) => (row.allowRecurring ? humanize(row.recurringInterval ?? 'MONTHLY') : 'One-off'), {
      id: 'recurring',
      header: 'Giving',
    }),
    column.accessor('createdAt', { header: 'Created', cell: ({ getValue }) => formatDateTime(getValue()) }),
    column.display({
      id: 'actions',
      header: 'Link',
      cell: ({ row }) => (
        <Group gap="xs" wrap="nowrap">
          {row.original.active && (
            <Anchor href={row.original.url} target="_blank" rel="noreferrer" size="sm">
              Open
            </Anchor>
          )}
          {row.original.active && writer && <DeactivateButton id={row.original.id} name={row.original.name} />}
        </Group>
      ),
    }),
  ];

  return (
    <Stack>
      <Title order={2}>Payment links</Title>
      {writer && (
        <CreatePanel label="New payment link" title="New payment link">
          {(close) => <CreateLinkForm close={close} created={() => list.refetch()} />}
        </CreatePanel>
      )}
      <SegmentedControl
        aria-label="Which links"
        value={shown}
        onChange={setShown}
        data={[
          { value: 'all', label: 'All' },
          { value: 'active', label: 'Active' },
          { value: 'inactive', label: 'Deactivated' },
        ]}
        w="fit-content"
      />
      <ConnectionTable
        list={list}
        caption="Payment links"
        columns={columns}
        loadingLabel="Loading payment links…"
        empty={{
          title: 'No payment links yet',
          text: 'A payment link is a URL that opens a checkout session for a fixed amount each time a payer visits it: share it anywhere. Create one here.',
        }}
        noMatch={{ title: 'No payment link matches this filter', text: 'Show all links.' }}
      />
    </Stack>
  );
}

/** Deactivates a link (the URL then shows a "no longer active" page); a refusal is shown beside the button. */
function DeactivateButton({ id, name }: { id: string; name: string }) {
  const [deactivate, { loading }] = useMutation(DeactivatePaymentLink);
  const [refusal, setRefusal] = useState<string | null>(null);
  const run = async () => {
    setRefusal(null);
    try {
      const { data } = await deactivate({ variables: { input: { id } } });
      const errors = data?.deactivatePaymentLink.userErrors ?? [];
      if (errors.length > 0) setRefusal(errors.map((error) => error.message).join(' '));
    } catch (error) {
      setRefusal((error as Error).message);
    }
  };
  return (
    <>
      <Button
        size="xs"
        variant="default"
        loading={loading}
        onClick={() => void run()}
        aria-label={`Deactivate ${name}`}
      >
        Deactivate
      </Button>
      {refusal && (
        <Text size="xs" role="alert">
          {refusal}
        </Text>
      )}
    </>
  );
}

const linkSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(200),
  amount: fields.amount(),
  currency: fields.currency(),
  description: z.string().trim().max(500),
  successUrl: fields.optionalUrl('Enter an absolute URL, or leave it empty'),
  allowRecurring: z.boolean(),
  recurringInterval: z.enum(['MONTHLY', 'WEEKLY']),
});
type LinkValues = z.infer<typeof linkSchema>;
const LINK_FIELDS = ['name', 'amount', 'currency', 'description', 'successUrl', 'recurringInterval'] as const;

function CreateLinkForm({ close, created }: { close: () => void; created: () => void }) {
  const [create, { loading }] = useMutation(CreatePaymentLink);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const [url, setUrl] = useState<string | null>(null);
  const form = useForm<LinkValues>({
    resolver: zodResolver(linkSchema),
    defaultValues: {
      name: '',
      amount: '',
      currency: 'USD',
      description: '',
      successUrl: '',
      allowRecurring: false,
      recurringInterval: 'MONTHLY',
    },
  });
  const errors = form.formState.errors;
  const recurring = form.watch('allowRecurring');

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    try {
      const { data } = await create({
        variables: {
          input: {
            name: values.name,
            amount: values.amount,
            currency: values.currency.toUpperCase(),
            ...(values.description ? { description: values.description } : {}),
            ...(values.successUrl ? { successUrl: values.successUrl } : {}),
            ...(values.allowRecurring ? { allowRecurring: true, recurringInterval: values.recurringInterval } : {}),
          },
        },
      });
      const result = data?.createPaymentLink;
      if (result?.paymentLink) {
        setUrl(result.paymentLink.url);
        form.reset();
        created();
      } else if (result) setRefusal(applyUserErrors(result.userErrors, form.setError, LINK_FIELDS));
    } catch (error) {
      setRefusal(thrown(error));
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        {url && <ShareUrl label="The payment link" url={url} testId="payment-link-url" />}
        <UserErrorsAlert errors={refusal} />
        <Group align="flex-start" grow>
          <TextInput label="Name" {...form.register('name')} error={errors.name?.message} />
          <TextInput label="Amount" inputMode="decimal" {...form.register('amount')} error={errors.amount?.message} />
          <TextInput label="Currency" {...form.register('currency')} error={errors.currency?.message} />
        </Group>
        <Group align="flex-start" grow>
          <TextInput label="Description" {...form.register('description')} error={errors.description?.message} />
          <TextInput
            label="Success URL"
            description="Optional: where payers land once paid"
            {...form.register('successUrl')}
            error={errors.successUrl?.message}
          />
        </Group>
        <Group align="flex-end">
          <Checkbox label="Payers may give every interval (recurring gift)" {...form.register('allowRecurring')} />
          {recurring && (
            <Controller
              control={form.control}
              name="recurringInterval"
              render={({ field }) => (
                <Select
                  label="Interval"
                  value={field.value}
                  onChange={(value) => field.onChange(value ?? 'MONTHLY')}
                  data={[
                    { value: 'MONTHLY', label: 'Monthly' },
                    { value: 'WEEKLY', label: 'Weekly' },
                  ]}
                  error={errors.recurringInterval?.message}
                  w={160}
                />
              )}
            />
          )}
        </Group>
        <Group>
          <Button type="submit" loading={loading}>
            Create link
          </Button>
          <Button variant="default" onClick={close}>
            Close
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
