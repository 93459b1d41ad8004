import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Anchor,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { PayoutScheduleDetailQuery } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, humanize } from '../../ui/format';
import { Fact } from '../../ui/Facts';
import { SCHEDULE_FIELDS } from './schedule.fields';
import { ScheduleCadenceFields, dayOfMonthInput, monthlyNeedsDay, scheduleBasics } from './ScheduleFields';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const ScheduleDetail = graphql(`
  query PayoutScheduleDetail($id: ID!) {
    payoutSchedule(id: $id) {
      id
      name
      status
      cadence
      dayOfMonth
      payloadKind
      itemCount
      nextRunAt
      lastRunAt
      endAt
      runCount
      maxRunAmountUsd
      maxRunLocalCaps {
        currency
        amount
      }
      authorizedAt
      createdAt
      runs(first: 50) {
        edges {
          node {
            id
            runAt
            status
            reason
            payoutIds
            batchId
          }
        }
      }
    }
  }
`);

const ScheduleLive = graphql(`
  subscription PayoutScheduleLive($id: ID!) {
    payoutScheduleUpdated(id: $id) {
      changedFields
      payoutSchedule {
        id
        name
        status
        cadence
        dayOfMonth
        nextRunAt
        lastRunAt
        endAt
        runCount
        maxRunAmountUsd
        maxRunLocalCaps {
          currency
          amount
        }
      }
    }
  }
`);

const UpdateSchedule = graphql(`
  mutation DashboardUpdatePayoutSchedule($input: UpdatePayoutScheduleInput!) {
    updatePayoutSchedule(input: $input) {
      payoutSchedule {
        id
        name
        status
        cadence
        dayOfMonth
        nextRunAt
        maxRunAmountUsd
        maxRunLocalCaps {
          currency
          amount
        }
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const PauseSchedule = graphql(`
  mutation DashboardPausePayoutSchedule($input: PausePayoutScheduleInput!) {
    pausePayoutSchedule(input: $input) {
      payoutSchedule {
        id
        status
        nextRunAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const ResumeSchedule = graphql(`
  mutation DashboardResumePayoutSchedule($input: ResumePayoutScheduleInput!) {
    resumePayoutSchedule(input: $input) {
      payoutSchedule {
        id
        status
        nextRunAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const CancelSchedule = graphql(`
  mutation DashboardCancelPayoutSchedule($input: CancelPayoutScheduleInput!) {
    cancelPayoutSchedule(input: $input) {
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

type Schedule = PayoutScheduleDetailQuery['payoutSchedule'];

export const prefetch: ScreenPrefetch = ({ id = '' }) => screenQuery(ScheduleDetail, { id });

/** One schedule, live through `payoutScheduleUpdated(id)`: its editor (cadence, caps), pause, resume, cancel, and its runs. */
export default function ScheduleScreen() {
  const { id = '' } = useParams();
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(ScheduleDetail, { variables: { id } });
  useSubscription(ScheduleLive, {
    variables: { id },
    // A run adds a row to the runs: read them again.
    onData: ({ data: update }) => {
      if (update.data?.payoutScheduleUpdated.changedFields.includes('runCount')) void refetch();
    },
  });
  const [pause, { loading: pausing }] = useMutation(PauseSchedule);
  const [resume, { loading: resuming }] = useMutation(ResumeSchedule);
  const [cancel, { loading: cancelling }] = useMutation(CancelSchedule);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);

  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading label="Loading the schedule…" />;
  const schedule = data?.payoutSchedule;
  if (!schedule) return <Empty title="No such schedule">It may belong to another business or mode.</Empty>;

  const act = async (run: () => Promise<readonly UserErrorValue[] | undefined>) => {
    setRefusal([]);
    try {
      const errors = (await run()) ?? [];
      if (errors.length > 0) setRefusal([...errors]);
    } catch (failure) {
      setRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  };
  const canWrite = current.can(...WRITERS);
  const open = schedule.status === 'ACTIVE' || schedule.status === 'PAUSED';
  const runs = schedule.runs.edges.map((edge) => edge.node);

  return (
    <Stack>
      <Anchor component={Link} to="/payouts/schedules" size="sm">
        ← Schedules
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>{schedule.name}</Title>
        <StatusBadge status={schedule.status} />
      </Group>
      <UserErrorsAlert errors={refusal} />
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Fact label="Cadence">
            {humanize(schedule.cadence)}
            {schedule.dayOfMonth ? `, day ${schedule.dayOfMonth}` : ''}
          </Fact>
          <Fact label="Next run">{formatDateTime(schedule.nextRunAt)}</Fact>
          <Fact label="Last run">{formatDateTime(schedule.lastRunAt)}</Fact>
          <Fact label="Runs">{schedule.runCount}</Fact>
          <Fact label="Cap per run (USD)">{schedule.maxRunAmountUsd}</Fact>
          <Fact label="Local caps">
            {schedule.maxRunLocalCaps?.map((cap) => `${cap.amount} ${cap.currency}`).join(', ') || '—'}
          </Fact>
          <Fact label="Pays">
            {schedule.payloadKind === 'SINGLE' ? 'One payout' : `A batch of ${schedule.itemCount}`} per run
          </Fact>
          <Fact label="Ends">{formatDateTime(schedule.endAt)}</Fact>
        </SimpleGrid>
      </Card>
      {canWrite && open && (
        <Group>
          {schedule.status === 'ACTIVE' ? (
            <Button
              variant="default"
              loading={pausing}
              onClick={() =>
                void act(
                  async () => (await pause({ variables: { input: { id } } })).data?.pausePayoutSchedule.userErrors,
                )
              }
            >
              Pause
            </Button>
          ) : (
            <Button
              loading={resuming}
              onClick={() =>
                void act(
                  async () => (await resume({ variables: { input: { id } } })).data?.resumePayoutSchedule.userErrors,
                )
              }
            >
              Resume
            </Button>
          )}
          <Button
            variant="default"
            loading={cancelling}
            onClick={() =>
              void act(
                async () => (await cancel({ variables: { input: { id } } })).data?.cancelPayoutSchedule.userErrors,
              )
            }
          >
            Cancel schedule
          </Button>
        </Group>
      )}
      {canWrite && open && <ScheduleEditor schedule={schedule} key={schedule.id} />}

      <Title order={3}>Runs</Title>
      {runs.length === 0 ? (
        <Text size="sm" c="dimmed">
          No run yet: the first fires at {formatDateTime(schedule.nextRunAt)}.
        </Text>
      ) : (
        <Table>
          <caption className="visually-hidden">Runs of the schedule</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Occurrence</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Why it failed</Table.Th>
              <Table.Th>Payouts</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {runs.map((run) => (
              <Table.Tr key={run.id}>
                <Table.Td>{formatDateTime(run.runAt)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={run.status} />
                </Table.Td>
                <Table.Td>{run.reason ? humanize(run.reason) : '—'}</Table.Td>
                <Table.Td>
                  {run.batchId ? (
                    <Anchor component={Link} to={`/payouts/batches/${run.batchId}`} size="sm">
                      The batch
                    </Anchor>
                  ) : (
                    run.payoutIds.map((payoutId) => (
                      <Anchor key={payoutId} component={Link} to={`/payouts/${payoutId}`} size="sm">
                        Payout {payoutId.slice(0, 8)}
                      </Anchor>
                    ))
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

const editorSchema = z
  .object({
    ...scheduleBasics,
    maxRunLocalCaps: z.array(
      z.object({
        currency: z
          .string()
          .trim()
          .regex(/^[A-Za-z]{3,4}$/, 'A currency such as NGN'),
        amount: z
          .string()
          .trim()
          .regex(/^\d+(\.\d+)?$/, 'An amount such as 500000'),
      }),
    ),
  })
  .superRefine(monthlyNeedsDay);
type EditorValues = z.infer<typeof editorSchema>;

/** Edits the schedule's name, cadence and caps; the payload (and so the PIN) is not changed here. */
function ScheduleEditor({ schedule }: { schedule: Schedule }) {
  const [update, { loading }] = useMutation(UpdateSchedule);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<EditorValues>({
    resolver: zodResolver(editorSchema),
    defaultValues: {
      name: schedule.name,
      cadence: schedule.cadence,
      dayOfMonth: schedule.dayOfMonth ? String(schedule.dayOfMonth) : '',
      maxRunAmountUsd: schedule.maxRunAmountUsd,
      maxRunLocalCaps: (schedule.maxRunLocalCaps ?? []).map(({ currency, amount }) => ({ currency, amount })),
    },
  });
  const caps = useFieldArray({ control: form.control, name: 'maxRunLocalCaps' });
  const errors = form.formState.errors;
  const cadence = form.watch('cadence');

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    try {
      const { data } = await update({
        variables: {
          input: {
            id: schedule.id,
            name: values.name,
            cadence: values.cadence,
            ...dayOfMonthInput(values),
            maxRunAmountUsd: values.maxRunAmountUsd,
            maxRunLocalCaps: values.maxRunLocalCaps.length > 0 ? values.maxRunLocalCaps : null,
          },
        },
      });
      const answer = data?.updatePayoutSchedule;
      if (answer?.payoutSchedule) {
        form.reset(values);
        notifications.show({
          color: 'green',
          message: 'Schedule saved',
          closeButtonProps: { 'aria-label': 'Dismiss' },
        });
      } else if (answer) {
        setRefusal(
          applyUserErrors(answer.userErrors, form.setError, [
            ...SCHEDULE_FIELDS,
            ...values.maxRunLocalCaps.flatMap(
              (_, index) => [`maxRunLocalCaps.${index}.currency`, `maxRunLocalCaps.${index}.amount`] as const,
            ),
          ]),
        );
      }
    } catch (failure) {
      setRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="editor-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Title order={3} id="editor-title">
            Edit the schedule
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
              label="Cap per run (USD)"
              inputMode="decimal"
              {...form.register('maxRunAmountUsd')}
              error={errors.maxRunAmountUsd?.message}
            />
          </Group>
          <Text size="sm" fw={500}>
            Caps per local currency (besides the USD cap)
          </Text>
          {caps.fields.map((cap, index) => (
            <Group key={cap.id} align="flex-start">
              <TextInput
                label={`Cap ${index + 1} currency`}
                {...form.register(`maxRunLocalCaps.${index}.currency`)}
                error={errors.maxRunLocalCaps?.[index]?.currency?.message}
              />
              <TextInput
                label={`Cap ${index + 1} amount`}
                inputMode="decimal"
                {...form.register(`maxRunLocalCaps.${index}.amount`)}
                error={errors.maxRunLocalCaps?.[index]?.amount?.message}
              />
              <ActionIcon
                variant="default"
                mt={26}
                size="lg"
                aria-label={`Remove cap ${index + 1}`}
                onClick={() => caps.remove(index)}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button variant="default" size="xs" onClick={() => caps.append({ currency: '', amount: '' })}>
              Add a local cap
            </Button>
          </Group>
          <Group>
            <Button type="submit" loading={loading}>
              Save schedule
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
