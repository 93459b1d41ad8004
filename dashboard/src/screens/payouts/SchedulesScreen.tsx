import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Card, Group, PinInput, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { PayoutSchedulesListQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { ConnectionTable, useConnectionList } from '../../ui/ListScreen';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, humanize } from '../../ui/format';
import { SCHEDULE_FIELDS } from './schedule.fields';
import { ScheduleCadenceFields, dayOfMonthInput, monthlyNeedsDay, scheduleBasics } from './ScheduleFields';
import { RecipientPicker, type PickedRecipient } from './RecipientPicker';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const SchedulesList = graphql(`
  query PayoutSchedulesList($first: Int, $after: String) {
    payoutSchedules(first: $first, after: $after) {
      edges {
        node {
          id
          name
          status
          cadence
          dayOfMonth
          nextRunAt
          lastRunAt
          runCount
          maxRunAmountUsd
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const SchedulesLive = graphql(`
  subscription PayoutSchedulesLive {
    payoutScheduleUpdated {
      previousStatus
      payoutSchedule {
        id
        name
        status
        cadence
        dayOfMonth
        nextRunAt
        lastRunAt
        runCount
        maxRunAmountUsd
      }
    }
  }
`);

const ScheduleFormData = graphql(`
  query PayoutScheduleFormData {
    wallets {
      id
      currency
    }
  }
`);

const CreateSchedule = graphql(`
  mutation DashboardCreatePayoutSchedule($input: CreatePayoutScheduleInput!) {
    createPayoutSchedule(input: $input) {
      payoutSchedule {
        id
        status
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

type Row = PayoutSchedulesListQuery['payoutSchedules']['edges'][number]['node'];
const column = createColumnHelper<Row>();
const columns = [
  column.accessor('name', {
    header: 'Schedule',
    cell: ({ row }) => (
      <Anchor component={Link} to={`/payouts/schedules/${row.original.id}`} fw={600}>
        {row.original.name}
      </Anchor>
    ),
  }),
  column.accessor('status', { header: 'Status', cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
  column.accessor('cadence', {
    header: 'Cadence',
    cell: ({ row }) =>
      humanize(row.original.cadence) + (row.original.dayOfMonth ? `, day ${row.original.dayOfMonth}` : ''),
  }),
  column.accessor('nextRunAt', { header: 'Next run', cell: ({ getValue }) => formatDateTime(getValue()) }),
  column.accessor('runCount', { header: 'Runs' }),
  column.accessor('maxRunAmountUsd', { header: 'Cap per run (USD)' }),
];

export const prefetch: ScreenPrefetch = () => screenQuery(SchedulesList, { first: 25, after: null });

/** The business's payout schedules in this mode, live through `payoutScheduleUpdated`, and a form to create one. */
export default function SchedulesScreen() {
  const current = useCurrent();
  const list = useConnectionList(SchedulesList, {}, (data) => data.payoutSchedules);
  useSubscription(SchedulesLive, {
    onData: ({ data: update }) => {
      const schedule = update.data?.payoutScheduleUpdated.payoutSchedule;
      list.refetchIfNew(schedule?.id);
    },
  });

  return (
    <Stack>
      <Title order={2}>Payout schedules</Title>
      {current.can(...WRITERS) && <ScheduleForm />}
      <ConnectionTable
        list={list}
        caption="Payout schedules"
        columns={columns}
        loadingLabel="Loading schedules…"
        empty={{
          title: 'No schedules yet',
          text: 'A schedule pays a recipient on a cadence (once, weekly, every two weeks or monthly), within a cap per run.',
        }}
      />
    </Stack>
  );
}

const scheduleSchema = z
  .object({
    ...scheduleBasics,
    startAt: z.string().min(1, 'Choose when the first run is'),
    recipientId: z.string().min(1, 'Choose a recipient'),
    currency: z.string().min(1, 'Choose the wallet to pay from'),
    amount: z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, 'Enter an amount such as 100.50'),
    pin: z.string().regex(/^\d{6}$/, 'Enter the 6-digit payout PIN'),
  })
  .superRefine(monthlyNeedsDay);
type ScheduleValues = z.infer<typeof scheduleSchema>;

function ScheduleForm() {
  const navigate = useNavigate();
  const { data } = useQuery(ScheduleFormData);
  const [create, { loading }] = useMutation(CreateSchedule);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const [recipient, setRecipient] = useState<PickedRecipient | null>(null);
  const form = useForm<ScheduleValues>({
    resolver: zodResolver(scheduleSchema),
    defaultValues: {
      name: '',
      cadence: 'MONTHLY',
      dayOfMonth: '1',
      startAt: '',
      recipientId: '',
      currency: '',
      amount: '',
      maxRunAmountUsd: '',
      pin: '',
    },
  });
  const errors = form.formState.errors;
  const cadence = form.watch('cadence');

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    try {
      const { data: result } = await create({
        variables: {
          input: {
            name: values.name,
            cadence: values.cadence,
            ...dayOfMonthInput(values),
            startAt: new Date(values.startAt).toISOString(),
            payloadKind: 'SINGLE',
            payload: { recipientId: values.recipientId, amount: values.amount, currency: values.currency },
            maxRunAmountUsd: values.maxRunAmountUsd,
            pin: values.pin,
          },
        },
      });
      const answer = result?.createPayoutSchedule;
      if (answer?.payoutSchedule) {
        notifications.show({
          color: 'green',
          message: `Schedule ${values.name} created`,
          closeButtonProps: { 'aria-label': 'Dismiss' },
        });
        void navigate(`/payouts/schedules/${answer.payoutSchedule.id}`);
      } else if (answer) {
        // The payload's fields are named under payload (["input", "payload", "amount"]); the PIN's refusals name no field.
        const flattened = answer.userErrors.map((error) => ({
          ...error,
          field: ['INVALID_PIN', 'PIN_LOCKED', 'PIN_NOT_SET'].includes(error.code)
            ? ['pin']
            : error.field
              ? error.field.filter((part) => part !== 'payload')
              : null,
        }));
        setRefusal(
          applyUserErrors(flattened, form.setError, [
            ...SCHEDULE_FIELDS,
            'startAt',
            'recipientId',
            'currency',
            'amount',
            'pin',
          ]),
        );
      }
    } catch (failure) {
      setRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="schedule-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Title order={3} id="schedule-title">
            New schedule
          </Title>
          <UserErrorsAlert errors={refusal} />
          <Group align="flex-start" grow>
            <ScheduleCadenceFields
              name={form.register('name')}
              dayOfMonth={form.register('dayOfMonth')}
              cadence={cadence}
              onCadenceChange={(value) => form.setValue('cadence', value, { shouldDirty: true })}
              errors={{ name: errors.name?.message, dayOfMonth: errors.dayOfMonth?.message }}
            />
            <TextInput
              type="datetime-local"
              label="First run"
              {...form.register('startAt')}
              error={errors.startAt?.message}
            />
          </Group>
          <Group align="flex-start" grow>
            <Controller
              control={form.control}
              name="recipientId"
              render={({ field, fieldState }) => (
                <RecipientPicker
                  label="Pay recipient"
                  value={recipient}
                  onChange={(picked) => {
                    setRecipient(picked);
                    field.onChange(picked?.id ?? '');
                  }}
                  error={fieldState.error?.message}
                />
              )}
            />
            <Controller
              control={form.control}
              name="currency"
              render={({ field, fieldState }) => (
                <Select
                  label="From wallet"
                  value={field.value || null}
                  onChange={(value) => field.onChange(value ?? '')}
                  data={(data?.wallets ?? []).map((wallet) => wallet.currency)}
                  error={fieldState.error?.message}
                />
              )}
            />
            <TextInput
              label="Amount per run"
              inputMode="decimal"
              {...form.register('amount')}
              error={errors.amount?.message}
            />
            <TextInput
              label="Cap per run (USD)"
              inputMode="decimal"
              {...form.register('maxRunAmountUsd')}
              error={errors.maxRunAmountUsd?.message}
            />
          </Group>
          <div>
            <Text size="sm" fw={500}>
              Payout PIN
            </Text>
            <Controller
              control={form.control}
              name="pin"
              render={({ field }) => (
                <PinInput
                  length={6}
                  type="number"
                  mask
                  value={field.value}
                  onChange={field.onChange}
                  ariaLabel="Payout PIN"
                  getInputProps={(index) => ({
                    'aria-label': `Schedule PIN digit ${index + 1}`,
                    'aria-invalid': Boolean(errors.pin),
                    'aria-describedby': errors.pin ? 'schedule-pin-error' : undefined,
                  })}
                />
              )}
            />
            {errors.pin?.message && (
              <Text size="sm" fw={600} role="alert" mt={4} id="schedule-pin-error">
                {errors.pin.message}
              </Text>
            )}
          </div>
          <Group>
            <Button type="submit" loading={loading}>
              Create schedule
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
