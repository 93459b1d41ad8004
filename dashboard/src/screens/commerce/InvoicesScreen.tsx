import { useMutation } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { InvoiceStatus, InvoicesListQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ConnectionTable, StatusFilter, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDate, formatMoney } from '../../ui/format';
import { CreatePanel, fields, thrown } from './shared';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const InvoiceFields = graphql(`
  fragment InvoiceRow on Invoice {
    id
    invoiceNumber
    status
    customerEmail
    description
    dueDate
    checkoutUrl
    createdAt
    finalizedAt
    paidAt
    voidedAt
    paymentId
    totalAmount {
      amount
      currency
    }
  }
`);

const InvoicesList = graphql(`
  query InvoicesList($first: Int, $after: String, $status: InvoiceStatus) {
    invoices(first: $first, after: $after, status: $status) {
      edges {
        node {
          ...InvoiceRow
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const CreateInvoice = graphql(`
  mutation DashboardCreateInvoice($input: CreateInvoiceInput!) {
    createInvoice(input: $input) {
      invoice {
        id
        invoiceNumber
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const FinalizeInvoice = graphql(`
  mutation DashboardFinalizeInvoice($input: FinalizeInvoiceInput!) {
    finalizeInvoice(input: $input) {
      invoice {
        ...InvoiceRow
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const VoidInvoice = graphql(`
  mutation DashboardVoidInvoice($input: VoidInvoiceInput!) {
    voidInvoice(input: $input) {
      invoice {
        ...InvoiceRow
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

void InvoiceFields;

const STATUSES: InvoiceStatus[] = ['DRAFT', 'OPEN', 'PAID', 'VOID'];

type Row = InvoicesListQuery['invoices']['edges'][number]['node'];
const column = createColumnHelper<Row>();

export const prefetch: ScreenPrefetch = () => screenQuery(InvoicesList, { first: 25, after: null });

/** The business's invoices in this mode, newest first, by status; create (a DRAFT), send (finalize) and void for the write roles. */
export default function InvoicesScreen() {
  const current = useCurrent();
  const writer = current.can(...WRITERS);
  const [status, setStatus] = useState<InvoiceStatus | null>(null);
  const list = useConnectionList(InvoicesList, { status }, (data) => data.invoices);

  const columns = [
    column.accessor('invoiceNumber', { header: 'Number', cell: ({ getValue }) => <Text fw={600}>{getValue()}</Text> }),
    column.accessor((row) => Number(row.totalAmount.amount), {
      id: 'amount',
      header: 'Amount',
      cell: ({ row }) => formatMoney(row.original.totalAmount),
    }),
    column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
    column.accessor('customerEmail', { header: 'Customer' }),
    column.accessor((row) => row.dueDate ?? '', {
      id: 'due',
      header: 'Due',
      cell: ({ row }) => (row.original.dueDate ? formatDate(`${row.original.dueDate}T00:00:00`) : '—'),
    }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) => <InvoiceActions invoice={row.original} writer={writer} />,
    }),
  ];

  return (
    <Stack>
      <Title order={2}>Invoices</Title>
      {writer && (
        <CreatePanel label="New invoice" title="New invoice">
          {(close) => <CreateInvoiceForm close={close} created={() => list.refetch()} />}
        </CreatePanel>
      )}
      <Group align="flex-end">
        <StatusFilter statuses={STATUSES} value={status} onChange={setStatus} />
      </Group>
      <ConnectionTable
        list={list}
        caption="Invoices"
        columns={columns}
        loadingLabel="Loading invoices…"
        empty={{
          title: 'No invoices yet',
          text: 'Create an invoice (a draft), then send it: the customer gets an email with a link to pay it.',
        }}
        noMatch={{ title: 'No invoice has this status', text: 'Change or clear the filter.' }}
      />
    </Stack>
  );
}

/** Send (DRAFT), void (DRAFT, OPEN) and the payment page (OPEN); the API's refusal beside the buttons. */
function InvoiceActions({ invoice, writer }: { invoice: Row; writer: boolean }) {
  const [finalize, finalizing] = useMutation(FinalizeInvoice);
  const [voidIt, voiding] = useMutation(VoidInvoice);
  const [refusal, setRefusal] = useState<string | null>(null);
  const run = async (action: 'send' | 'void') => {
    setRefusal(null);
    try {
      const variables = { input: { id: invoice.id } };
      const errors =
        action === 'send'
          ? (await finalize({ variables })).data?.finalizeInvoice.userErrors
          : (await voidIt({ variables })).data?.voidInvoice.userErrors;
      if (errors && errors.length > 0) setRefusal(errors.map((error) => error.message).join(' '));
    } catch (error) {
      setRefusal((error as Error).message);
    }
  };
  return (
    <Group gap="xs" wrap="nowrap">
      {invoice.status === 'OPEN' && invoice.checkoutUrl && (
        <Button size="xs" variant="default" component="a" href={invoice.checkoutUrl} target="_blank" rel="noreferrer">
          Payment page
        </Button>
      )}
      {writer && invoice.status === 'DRAFT' && (
        <Button
          size="xs"
          variant="default"
          loading={finalizing.loading}
          onClick={() => void run('send')}
          aria-label={`Send invoice ${invoice.invoiceNumber}`}
        >
          Send
        </Button>
      )}
      {writer && (invoice.status === 'DRAFT' || invoice.status === 'OPEN') && (
        <Button
          size="xs"
          variant="default"
          loading={voiding.loading}
          onClick={() => void run('void')}
          aria-label={`Void invoice ${invoice.invoiceNumber}`}
        >
          Void
        </Button>
      )}
      {refusal && (
        <Text size="xs" role="alert">
          {refusal}
        </Text>
      )}
    </Group>
  );
}

const invoiceSchema = z.object({
  customerEmail: fields.email('Enter the customer’s email address'),
  currency: fields.currency(),
  description: z.string().trim().max(500),
  dueDate: z
    .string()
    .trim()
    .refine(
      (value) => value === '' || /^\d{4}-\d{2}-\d{2}$/.test(value),
      'Enter a date as YYYY-MM-DD, or leave it empty',
    ),
  items: z
    .array(
      z.object({
        description: z.string().trim().min(1, 'Describe the line'),
        quantity: z
          .string()
          .trim()
          .regex(/^[1-9]\d{0,5}$/, 'A whole number, 1 or more'),
        unitAmount: fields.amount('An amount such as 12.50'),
      }),
    )
    .min(1),
});
type InvoiceValues = z.infer<typeof invoiceSchema>;

function CreateInvoiceForm({ close, created }: { close: () => void; created: () => void }) {
  const [create, { loading }] = useMutation(CreateInvoice);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const [made, setMade] = useState<string | null>(null);
  const form = useForm<InvoiceValues>({
    resolver: zodResolver(invoiceSchema),
    defaultValues: {
      customerEmail: '',
      currency: 'USD',
      description: '',
      dueDate: '',
      items: [{ description: '', quantity: '1', unitAmount: '' }],
    },
  });
  const lines = useFieldArray({ control: form.control, name: 'items' });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    setMade(null);
    try {
      const { data } = await create({
        variables: {
          input: {
            customerEmail: values.customerEmail,
            currency: values.currency.toUpperCase(),
            items: values.items.map((item) => ({
              description: item.description,
              quantity: Number(item.quantity),
              unitAmount: item.unitAmount,
            })),
            ...(values.description ? { description: values.description } : {}),
            ...(values.dueDate ? { dueDate: values.dueDate } : {}),
          },
        },
      });
      const result = data?.createInvoice;
      if (result?.invoice) {
        setMade(result.invoice.invoiceNumber);
        form.reset();
        created();
      } else if (result) {
        const names = [
          'customerEmail',
          'currency',
          'description',
          'dueDate',
          ...values.items.flatMap((_, index) =>
            (['description', 'quantity', 'unitAmount'] as const).map((name) => `items.${index}.${name}` as const),
          ),
        ] as const;
        setRefusal(applyUserErrors(result.userErrors, form.setError, names));
      }
    } catch (error) {
      setRefusal(thrown(error));
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        {made && (
          <Text role="status" fw={600}>
            Invoice {made} created as a draft: send it from the list.
          </Text>
        )}
        <UserErrorsAlert errors={refusal} />
        <Group align="flex-start" grow>
          <TextInput
            label="Customer email"
            type="email"
            {...form.register('customerEmail')}
            error={errors.customerEmail?.message}
          />
          <TextInput label="Currency" {...form.register('currency')} error={errors.currency?.message} />
          <TextInput
            label="Due date"
            placeholder="YYYY-MM-DD"
            {...form.register('dueDate')}
            error={errors.dueDate?.message}
          />
        </Group>
        <TextInput label="Description" {...form.register('description')} error={errors.description?.message} />
        {lines.fields.map((line, index) => (
          <Group key={line.id} align="flex-start" wrap="nowrap">
            <TextInput
              label={`Line ${index + 1}: description`}
              style={{ flex: 3 }}
              {...form.register(`items.${index}.description`)}
              error={errors.items?.[index]?.description?.message}
            />
            <TextInput
              label={`Line ${index + 1}: quantity`}
              inputMode="numeric"
              style={{ flex: 1 }}
              {...form.register(`items.${index}.quantity`)}
              error={errors.items?.[index]?.quantity?.message}
            />
            <TextInput
              label={`Line ${index + 1}: unit amount`}
              inputMode="decimal"
              style={{ flex: 1 }}
              {...form.register(`items.${index}.unitAmount`)}
              error={errors.items?.[index]?.unitAmount?.message}
            />
            {lines.fields.length > 1 && (
              <ActionIcon
                variant="default"
                mt={24}
                size="lg"
                aria-label={`Remove line ${index + 1}`}
                onClick={() => lines.remove(index)}
              >
                ×
              </ActionIcon>
            )}
          </Group>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() => lines.append({ description: '', quantity: '1', unitAmount: '' })}
            disabled={lines.fields.length >= 100}
          >
            Add a line
          </Button>
        </Group>
        <Group>
          <Button type="submit" loading={loading}>
            Create invoice
          </Button>
          <Button variant="default" onClick={close}>
            Close
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
