import { useMutation, useQuery } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { graphql } from '../../gql';
import { WRITERS, useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney } from '../../ui/format';
import { done, thrown } from '../settings/feedback';
import { Fact } from '../../ui/Facts';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const SandboxClock = graphql(`
  query DashboardSandboxClock {
    sandboxClock {
      id
      now
      offsetSeconds
      advance {
        id
        seconds
        status
        runsDue
        runsFired
        payoutsDue
        untilAt
        createdAt
        completedAt
      }
    }
  }
`);

const AdvanceSandboxClock = graphql(`
  mutation DashboardAdvanceSandboxClock($input: AdvanceSandboxClockInput!) {
    advanceSandboxClock(input: $input) {
      sandboxClock {
        id
        now
        offsetSeconds
        advance {
          id
          seconds
          status
          runsDue
          runsFired
          payoutsDue
          untilAt
          createdAt
          completedAt
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

const SandboxFundWallet = graphql(`
  mutation DashboardSandboxFundWallet($input: SandboxFundWalletInput!) {
    sandboxFundWallet(input: $input) {
      wallet {
        id
        currency
        balance {
          amount
          currency
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

const DAY = 86_400;

export const prefetch: ScreenPrefetch = () => screenQuery(SandboxClock, {});

/** Test mode's tools: the business's test clock (schedules' runs fall due as it moves) and play money. */
export default function SandboxScreen() {
  const current = useCurrent();
  if (current.mode !== 'test') {
    return (
      <Empty title="The sandbox is for test mode">
        Switch to Test in the header to use the test clock and fund wallets.
      </Empty>
    );
  }
  return (
    <Stack>
      <Title order={2}>Sandbox</Title>
      <ClockSection />
      <FundSection />
    </Stack>
  );
}

const advanceSchema = z.object({
  days: z
    .string()
    .trim()
    .refine((value) => /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 366, 'From 1 to 366 days'),
});
type AdvanceValues = z.infer<typeof advanceSchema>;

function ClockSection() {
  const current = useCurrent();
  const { data, loading, error, refetch, startPolling, stopPolling } = useQuery(SandboxClock);
  const [advance, { loading: advancing }] = useMutation(AdvanceSandboxClock);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<AdvanceValues>({ resolver: zodResolver(advanceSchema), defaultValues: { days: '1' } });
  const clock = data?.sandboxClock;
  const running = clock?.advance?.status === 'RUNNING';
  // While an advance runs, its progress (runs fired) is read again every 2 seconds.
  useEffect(() => {
    if (!running) return;
    startPolling(2000);
    return () => stopPolling();
  }, [running, startPolling, stopPolling]);

  const submit = form.handleSubmit(async ({ days }) => {
    setRefusal([]);
    try {
      const { data: result } = await advance({ variables: { input: { seconds: Number(days) * DAY } } });
      const payload = result?.advanceSandboxClock;
      if (payload?.sandboxClock) done(`The test clock moved ${days} day${days === '1' ? '' : 's'} ahead`);
      else if (payload) {
        const errors = payload.userErrors.map((e) =>
          e.field?.[1] === 'seconds' ? { ...e, field: ['input', 'days'] } : e,
        );
        setRefusal(applyUserErrors(errors, form.setError, ['days']));
      }
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="clock-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="clock-title">
          Test clock
        </Title>
        <Text size="sm" c="dimmed">
          Scheduled payouts in test mode run on this clock: moving it ahead fires the runs that fall due, in order.
        </Text>
        {error ? (
          <LoadError error={error} retry={() => void refetch()} />
        ) : loading && !clock ? (
          <Loading label="Loading the test clock…" />
        ) : clock ? (
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Fact label="Test time">
              <span data-testid="clock-now">{formatDateTime(clock.now)}</span>
            </Fact>
            <Fact label="Ahead of the wall clock">
              <span data-testid="clock-offset">{formatOffset(clock.offsetSeconds)}</span>
            </Fact>
            <Fact label="Last advance">
              {clock.advance ? (
                <>
                  {formatOffset(clock.advance.seconds)}, {formatDateTime(clock.advance.createdAt)}{' '}
                  <StatusBadge status={clock.advance.status} />
                </>
              ) : (
                'None yet'
              )}
            </Fact>
            {clock.advance && (
              <Fact label="Schedule runs fired">
                {clock.advance.runsFired} of {clock.advance.runsDue} ({clock.advance.payoutsDue} payouts)
              </Fact>
            )}
          </SimpleGrid>
        ) : null}
        {current.can(...WRITERS) && (
          <form onSubmit={(event) => void submit(event)} noValidate aria-label="Advance the test clock">
            <Stack gap="sm">
              <UserErrorsAlert errors={refusal} />
              <Group align="flex-start">
                <TextInput
                  label="Days to advance"
                  inputMode="numeric"
                  w={160}
                  {...form.register('days')}
                  error={form.formState.errors.days?.message}
                />
                <Button type="submit" variant="default" loading={advancing} disabled={running} mt={25}>
                  Advance the clock
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}

/** 90061 → "1 d 1 h 1 min"; 0 → "0 min". */
function formatOffset(seconds: number): string {
  const days = Math.floor(seconds / DAY);
  const hours = Math.floor((seconds % DAY) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts = [days && `${days} d`, hours && `${hours} h`, minutes && `${minutes} min`].filter(Boolean);
  return parts.length ? parts.join(' ') : '0 min';
}

const fundSchema = z.object({
  currency: z
    .string()
    .trim()
    .refine((value) => /^[A-Za-z]{3,5}$/.test(value), 'A currency code such as USD'),
  amount: z
    .string()
    .trim()
    .refine((value) => /^\d+(\.\d+)?$/.test(value) && Number(value) > 0, 'An amount such as 100.00'),
});
type FundValues = z.infer<typeof fundSchema>;

function FundSection() {
  const current = useCurrent();
  const [fund, { loading }] = useMutation(SandboxFundWallet);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const [funded, setFunded] = useState<{ amount: string; currency: string } | null>(null);
  const form = useForm<FundValues>({
    resolver: zodResolver(fundSchema),
    defaultValues: { currency: 'USD', amount: '' },
  });

  const submit = form.handleSubmit(async ({ currency, amount }) => {
    setRefusal([]);
    try {
      const { data } = await fund({ variables: { input: { currency: currency.toUpperCase(), amount } } });
      const result = data?.sandboxFundWallet;
      if (result?.wallet) {
        setFunded(result.wallet.balance);
        form.reset({ currency, amount: '' });
        done(`Added ${amount} ${currency.toUpperCase()} of play money`);
      } else if (result) setRefusal(applyUserErrors(result.userErrors, form.setError, ['currency', 'amount']));
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="fund-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="fund-title">
          Fund a wallet
        </Title>
        <Text size="sm" c="dimmed">
          Adds play money to the test wallet of a currency (opening it if needed), to try payouts and transfers.
        </Text>
        {current.can(...WRITERS) ? (
          <form onSubmit={(event) => void submit(event)} noValidate aria-label="Fund a test wallet">
            <Stack gap="sm">
              <UserErrorsAlert errors={refusal} />
              <Group align="flex-start">
                <TextInput
                  label="Currency"
                  w={120}
                  {...form.register('currency')}
                  error={form.formState.errors.currency?.message}
                />
                <TextInput
                  label="Amount"
                  inputMode="decimal"
                  placeholder="100.00"
                  w={160}
                  {...form.register('amount')}
                  error={form.formState.errors.amount?.message}
                />
                <Button type="submit" variant="default" loading={loading} mt={25}>
                  Fund
                </Button>
              </Group>
              {funded && (
                <Text size="sm" role="status" data-testid="funded-balance">
                  The {funded.currency} wallet now holds {formatMoney(funded)}.
                </Text>
              )}
            </Stack>
          </form>
        ) : (
          <Text size="sm">A developer, admin or owner funds test wallets.</Text>
        )}
      </Stack>
    </Card>
  );
}
