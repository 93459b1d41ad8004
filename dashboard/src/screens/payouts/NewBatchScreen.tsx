import { useMutation, useQuery } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Anchor, Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { graphql } from '../../gql';
import { WRITERS, useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatMoney } from '../../ui/format';
import { RecipientPicker, type PickedRecipient } from './RecipientPicker';

const BatchWallets = graphql(`
  query NewBatchWallets {
    wallets {
      id
      currency
      balance {
        amount
        currency
      }
    }
  }
`);

const CreateBatch = graphql(`
  mutation DashboardCreatePayoutBatch($input: CreatePayoutBatchInput!) {
    createPayoutBatch(input: $input) {
      batch {
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

/** The API's own cap on a batch; the form stops adding rows there. */
const MAX_ROWS = 1000;

const rowSchema = z.object({
  recipient: z.custom<PickedRecipient | null>((value) => value != null, 'Choose a recipient'),
  amount: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'Enter an amount such as 100.50'),
  currency: z.string().min(1, 'Choose the wallet to pay from'),
  reference: z.string().trim().max(200, 'At most 200 characters'),
});
const batchSchema = z.object({
  name: z.string().trim().max(200, 'At most 200 characters'),
  items: z.array(rowSchema).min(1).max(MAX_ROWS),
});
type BatchValues = z.infer<typeof batchSchema>;
type Row = BatchValues['items'][number];

const emptyRow = (currency = ''): Row => ({ recipient: null, amount: '', currency, reference: '' });
const ROW_FIELDS = ['recipient', 'amount', 'currency', 'reference'] as const;

/**
 * A payout batch typed in: rows of recipient, amount, currency and reference, created at once
 * (createPayoutBatch checks every row first: all are created or none, each refusal on its row).
 */
export default function NewBatchScreen() {
  const current = useCurrent();
  const navigate = useNavigate();
  const wallets = useQuery(BatchWallets);
  const [create, { loading: creating }] = useMutation(CreateBatch);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<BatchValues>({
    resolver: zodResolver(batchSchema),
    defaultValues: { name: '', items: [emptyRow()] },
  });
  const rows = useFieldArray({ control: form.control, name: 'items' });
  const errors = form.formState.errors;

  if (!current.can(...WRITERS)) {
    return <Empty title="Your role cannot create batches">Ask an owner, admin or developer of the business.</Empty>;
  }
  if (wallets.error) return <LoadError error={wallets.error} retry={() => void wallets.refetch()} />;
  if (wallets.loading && !wallets.data) return <Loading label="Loading wallets…" />;
  const currencies = (wallets.data?.wallets ?? []).map((wallet) => ({
    value: wallet.currency,
    label: `${wallet.currency} (balance ${formatMoney(wallet.balance)})`,
  }));

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    try {
      const { data } = await create({
        variables: {
          input: {
            ...(values.name ? { name: values.name } : {}),
            items: values.items.map((row) => ({
              recipientId: row.recipient?.id ?? '',
              amount: row.amount,
              currency: row.currency,
              ...(row.reference ? { reference: row.reference } : {}),
            })),
          },
        },
      });
      const answer = data?.createPayoutBatch;
      if (answer?.batch) {
        void navigate(`/payouts/batches/${answer.batch.id}`);
        return;
      }
      // ["input", "items", N, "recipientId"] is the row's recipient picker.
      const onRows = (answer?.userErrors ?? []).map((error) => ({
        ...error,
        field: error.field?.map((part) => (part === 'recipientId' ? 'recipient' : part)) ?? null,
      }));
      setRefusal(
        applyUserErrors(onRows, form.setError, [
          'name',
          ...values.items.flatMap((_, index) => ROW_FIELDS.map((field) => `items.${index}.${field}` as const)),
        ]),
      );
    } catch (failure) {
      setRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  });

  return (
    <Stack>
      <Anchor component={Link} to="/payouts/batches" size="sm">
        ← Batches
      </Anchor>
      <Title order={2}>New payout batch</Title>
      <Text size="sm" c="dimmed">
        Up to {MAX_ROWS.toLocaleString('en-US')} payouts from one wallet, checked together: if a row is refused, none is
        created.
      </Text>
      <UserErrorsAlert errors={refusal} />
      <Card withBorder component="section" aria-labelledby="new-batch-title">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="sm">
            <Title order={3} id="new-batch-title" size="h4">
              Payouts
            </Title>
            <TextInput
              label="Batch name"
              description="Optional"
              maw={400}
              {...form.register('name')}
              error={errors.name?.message}
            />
            {rows.fields.map((row, index) => (
              <Group key={row.id} align="flex-start" wrap="nowrap" data-testid={`batch-row-${index + 1}`}>
                <div style={{ flex: 3 }}>
                  <Controller
                    control={form.control}
                    name={`items.${index}.recipient`}
                    render={({ field, fieldState }) => (
                      <RecipientPicker
                        label={`Row ${index + 1}: recipient`}
                        value={field.value}
                        onChange={field.onChange}
                        error={fieldState.error?.message}
                      />
                    )}
                  />
                </div>
                <TextInput
                  label={`Row ${index + 1}: amount`}
                  inputMode="decimal"
                  style={{ flex: 1 }}
                  {...form.register(`items.${index}.amount`)}
                  error={errors.items?.[index]?.amount?.message}
                />
                <Controller
                  control={form.control}
                  name={`items.${index}.currency`}
                  render={({ field, fieldState }) => (
                    <Select
                      label={`Row ${index + 1}: currency`}
                      placeholder={currencies.length ? 'Wallet' : 'No wallet yet'}
                      style={{ flex: 1 }}
                      data={currencies}
                      allowDeselect={false}
                      value={field.value || null}
                      onChange={(value) => field.onChange(value ?? '')}
                      error={fieldState.error?.message}
                    />
                  )}
                />
                <TextInput
                  label={`Row ${index + 1}: reference`}
                  style={{ flex: 2 }}
                  {...form.register(`items.${index}.reference`)}
                  error={errors.items?.[index]?.reference?.message}
                />
                {rows.fields.length > 1 && (
                  <ActionIcon
                    variant="default"
                    mt={24}
                    size="lg"
                    aria-label={`Remove row ${index + 1}`}
                    onClick={() => rows.remove(index)}
                  >
                    ×
                  </ActionIcon>
                )}
              </Group>
            ))}
            <Group>
              <Button
                variant="default"
                onClick={() => rows.append(emptyRow(form.getValues(`items.${rows.fields.length - 1}.currency`)))}
                disabled={rows.fields.length >= MAX_ROWS}
              >
                Add a row
              </Button>
              <Button type="submit" loading={creating}>
                Create batch
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
