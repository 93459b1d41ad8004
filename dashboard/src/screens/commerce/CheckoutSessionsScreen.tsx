import { useMutation, useSubscription } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { CheckoutSessionSource, CheckoutSessionStatus, CheckoutSessionsListQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ChoiceFilter, ConnectionTable, StatusFilter, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney } from '../../ui/format';
import { CreatePanel, ShareUrl, fields, thrown } from './shared';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const CheckoutSessionsList = graphql(`
  query CheckoutSessionsList(
    $first: Int
    $after: String
    $status: CheckoutSessionStatus
    $source: CheckoutSessionSource
  ) {
    checkoutSessions(first: $first, after: $after, status: $status, source: $source) {
      edges {
        node {
          id
          status
          source
          customerEmail
          description
          checkoutUrl
          paymentId
          createdAt
          expiresAt
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

/** A session was opened or left OPEN (paid, expired, locked): its row changes in place, a new one reads the first page again. */
const CheckoutSessionsLive = graphql(`
  subscription CheckoutSessionsLive {
    checkoutSessionUpdated {
      checkoutSession {
        id
        status
        paymentId
      }
    }
  }
`);

const CreateCheckoutSession = graphql(`
  mutation DashboardCreateCheckoutSession($input: CreateCheckoutSessionInput!) {
    createCheckoutSession(input: $input) {
      checkoutSession {
        id
        checkoutUrl
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const STATUSES: CheckoutSessionStatus[] = ['OPEN', 'COMPLETED', 'EXPIRED', 'LOCKED'];
const SOURCES: { value: CheckoutSessionSource; label: string }[] = [
  { value: 'API', label: 'API' },
  { value: 'PAYMENT_LINK', label: 'Payment link' },
  { value: 'INVOICE', label: 'Invoice' },
  { value: 'V1', label: '/v1 payment' },
];

type Row = CheckoutSessionsListQuery['checkoutSessions']['edges'][number]['node'];
const column = createColumnHelper<Row>();
const columns = [
  column.accessor((row) => Number(row.amount.amount), {
    id: 'amount',
    header: 'Amount',
    cell: ({ row }) => formatMoney(row.original.amount),
  }),
  column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
  column.accessor('source', {
    header: 'Source',
    cell: ({ getValue }) => SOURCES.find((source) => source.value === getValue())?.label ?? getValue(),
  }),
  column.accessor((row) => row.customerEmail ?? '', { id: 'customer', header: 'Customer' }),
  column.accessor('createdAt', { header: 'Created', cell: ({ getValue }) => formatDateTime(getValue()) }),
  column.display({
    id: 'link',
    header: 'Payment',
    cell: ({ row }) =>
      row.original.paymentId ? (
        <Anchor component={Link} to={`/payments/${row.original.paymentId}`}>
          View payment
        </Anchor>
      ) : row.original.status === 'OPEN' ? (
        <Anchor href={row.original.checkoutUrl} target="_blank" rel="noreferrer">
          Hosted page
        </Anchor>
      ) : (
        '—'
      ),
  }),
];

export const prefetch: ScreenPrefetch = () => screenQuery(CheckoutSessionsList, { first: 25, after: null });

/** The business's checkout sessions in this mode, newest first, filtered by status and source; a new one for the write roles. */
export default function CheckoutSessionsScreen() {
  const current = useCurrent();
  const [status, setStatus] = useState<CheckoutSessionStatus | null>(null);
  const [source, setSource] = useState<CheckoutSessionSource | null>(null);
  const list = useConnectionList(CheckoutSessionsList, { status, source }, (data) => data.checkoutSessions);
  useSubscription(CheckoutSessionsLive, {
    onData: ({ data: update }) => list.refetchIfNew(update.data?.checkoutSessionUpdated.checkoutSession.id),
  });

  return (
    <Stack>
      <Title order={2}>Checkout sessions</Title>
      {current.can(...WRITERS) && (
        <CreatePanel label="New checkout session" title="New checkout session">
          {(close) => <CreateSessionForm close={close} created={() => list.refetch()} />}
        </CreatePanel>
      )}
      <Group align="flex-end">
        <StatusFilter statuses={STATUSES} value={status} onChange={setStatus} />
        <ChoiceFilter label="Source" options={SOURCES} value={source} onChange={setSource} />
      </Group>
      <ConnectionTable
        list={list}
        caption="Checkout sessions"
        columns={columns}
        loadingLabel="Loading checkout sessions…"
        empty={{
          title: 'No checkout sessions yet',
          text: 'A checkout session is a hosted page where a payer pays an amount: create one here (or with createCheckoutSession) and send its URL to the payer.',
        }}
        noMatch={{ title: 'No checkout session matches these filters', text: 'Change or clear the filters.' }}
      />
    </Stack>
  );
}

const sessionSchema = z.object({
  amount: fields.amount(),
  currency: fields.currency(),
  customerEmail: fields.optionalEmail('Enter an email address, or leave it empty'),
  successUrl: fields.url('Enter an absolute URL such as https://example.com/thanks'),
  cancelUrl: fields.optionalUrl('Enter an absolute URL, or leave it empty'),
  description: z.string().trim().max(500),
});
type SessionValues = z.infer<typeof sessionSchema>;
const SESSION_FIELDS = ['amount', 'currency', 'customerEmail', 'successUrl', 'cancelUrl', 'description'] as const;

function CreateSessionForm({ close, created }: { close: () => void; created: () => void }) {
  const [create, { loading }] = useMutation(CreateCheckoutSession);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const [url, setUrl] = useState<string | null>(null);
  const form = useForm<SessionValues>({
    resolver: zodResolver(sessionSchema),
    defaultValues: { amount: '', currency: 'USD', customerEmail: '', successUrl: '', cancelUrl: '', description: '' },
  });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    try {
      const { data } = await create({
        variables: {
          input: {
            amount: values.amount,
            currency: values.currency.toUpperCase(),
            successUrl: values.successUrl,
            ...(values.customerEmail ? { customerEmail: values.customerEmail } : {}),
            ...(values.cancelUrl ? { cancelUrl: values.cancelUrl } : {}),
            ...(values.description ? { description: values.description } : {}),
          },
        },
      });
      const result = data?.createCheckoutSession;
      if (result?.checkoutSession) {
        setUrl(result.checkoutSession.checkoutUrl);
        form.reset();
        created();
      } else if (result) setRefusal(applyUserErrors(result.userErrors, form.setError, SESSION_FIELDS));
    } catch (error) {
      setRefusal(thrown(error));
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        {url && <ShareUrl label="The session's hosted page" url={url} testId="checkout-url" />}
        <UserErrorsAlert errors={refusal} />
        <Group align="flex-start" grow>
          <TextInput label="Amount" inputMode="decimal" {...form.register('amount')} error={errors.amount?.message} />
          <TextInput label="Currency" {...form.register('currency')} error={errors.currency?.message} />
          <TextInput
            label="Customer email"
            type="email"
            {...form.register('customerEmail')}
            error={errors.customerEmail?.message}
          />
        </Group>
        <Group align="flex-start" grow>
          <TextInput
            label="Success URL"
            description="Where the payer lands once paid"
            {...form.register('successUrl')}
            error={errors.successUrl?.message}
          />
          <TextInput
            label="Cancel URL"
            description="Optional: a “Cancel and return” link"
            {...form.register('cancelUrl')}
            error={errors.cancelUrl?.message}
          />
        </Group>
        <TextInput label="Description" {...form.register('description')} error={errors.description?.message} />
        <Group>
          <Button type="submit" loading={loading}>
            Create session
          </Button>
          <Button variant="default" onClick={close}>
            Close
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
