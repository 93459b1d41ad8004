import { useMutation, useQuery } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, PasswordInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { graphql } from '../../gql';
import { useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime } from '../../ui/format';
import { ADMINS, done, thrown } from './feedback';
import { BlocklistEntries, BlocklistSection, FraudRules, FraudRulesSection } from './FraudSections';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const RenameBusiness = graphql(`
  mutation DashboardRenameBusiness($input: UpdateBusinessSettingsInput!) {
    updateBusinessSettings(input: $input) {
      businessSettings {
        id
        updatedAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const PayoutPin = graphql(`
  query DashboardPayoutPin {
    payoutPin {
      id
      isSet
      lockedUntil
      updatedAt
    }
  }
`);

const SetPayoutPin = graphql(`
  mutation DashboardSetPayoutPin($input: SetPayoutPinInput!) {
    setPayoutPin(input: $input) {
      payoutPin {
        id
        isSet
        lockedUntil
        updatedAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const Thresholds = graphql(`
  query DashboardLowBalanceThresholds {
    walletLowBalanceThresholds {
      id
      currency
      threshold
      updatedAt
    }
  }
`);

const SetThreshold = graphql(`
  mutation DashboardSetLowBalanceThreshold($input: SetWalletLowBalanceThresholdInput!) {
    setWalletLowBalanceThreshold(input: $input) {
      walletLowBalanceThreshold {
        id
        currency
        threshold
        updatedAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

export const prefetch: ScreenPrefetch = () => [
  screenQuery(PayoutPin, {}),
  screenQuery(Thresholds, {}),
  screenQuery(FraudRules, { first: 25, after: null }),
  screenQuery(BlocklistEntries, { first: 25, after: null }),
];

/** The business's settings: its name, the payout PIN, low-balance thresholds, fraud rules and the block list. */
export default function SettingsScreen() {
  return (
    <Stack>
      <Title order={2}>Settings</Title>
      <BusinessNameSection />
      <PayoutPinSection />
      <ThresholdsSection />
      <FraudRulesSection />
      <BlocklistSection />
    </Stack>
  );
}

const nameSchema = z.object({ name: z.string().trim().min(1, 'Enter a name').max(200, 'At most 200 characters') });
type NameValues = z.infer<typeof nameSchema>;

function BusinessNameSection() {
  const current = useCurrent();
  const [rename, { loading }] = useMutation(RenameBusiness, { refetchQueries: ['DashboardShell'] });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<NameValues>({
    resolver: zodResolver(nameSchema),
    defaultValues: { name: current.business.name },
  });

  const submit = form.handleSubmit(async ({ name }) => {
    setRefusal([]);
    try {
      const { data } = await rename({ variables: { input: { name } } });
      const result = data?.updateBusinessSettings;
      if (result?.businessSettings) done('The business was renamed');
      else if (result) setRefusal(applyUserErrors(result.userErrors, form.setError, ['name']));
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="business-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="business-title">
          Business
        </Title>
        {current.can(...ADMINS) ? (
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack gap="sm">
              <UserErrorsAlert errors={refusal} />
              <TextInput
                label="Business name"
                w={360}
                {...form.register('name')}
                error={form.formState.errors.name?.message}
              />
              <Group>
                <Button type="submit" variant="default" loading={loading}>
                  Save name
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Text size="sm">{current.business.name} (an owner or admin renames the business)</Text>
        )}
      </Stack>
    </Card>
  );
}

const pinField = z.string().refine((value) => /^\d{6}$/.test(value), 'Exactly 6 digits');

function PayoutPinSection() {
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(PayoutPin);
  const status = data?.payoutPin;

  return (
    <Card withBorder component="section" aria-labelledby="pin-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="pin-title">
          Payout PIN
        </Title>
        {error ? (
          <LoadError error={error} retry={() => void refetch()} />
        ) : loading && !status ? (
          <Loading label="Loading the PIN's status…" />
        ) : status ? (
          <>
            <Text size="sm" data-testid="pin-status">
              {status.isSet
                ? `A PIN is set (last changed ${formatDateTime(status.updatedAt)}).`
                : 'No PIN is set yet: scheduling payouts needs one.'}
              {status.lockedUntil && ` Locked after too many wrong tries until ${formatDateTime(status.lockedUntil)}.`}
            </Text>
            {current.can('OWNER') ? (
              <PinForm key={String(status.isSet)} isSet={status.isSet} />
            ) : (
              <Text size="sm" c="dimmed">
                Only an owner sets or changes the PIN.
              </Text>
            )}
          </>
        ) : null}
      </Stack>
    </Card>
  );
}

function PinForm({ isSet }: { isSet: boolean }) {
  const [setPin, { loading }] = useMutation(SetPayoutPin);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const schema = z.object({ currentPin: isSet ? pinField : z.string(), pin: pinField });
  type PinValues = z.infer<typeof schema>;
  const form = useForm<PinValues>({ resolver: zodResolver(schema), defaultValues: { currentPin: '', pin: '' } });

  const submit = form.handleSubmit(async ({ currentPin, pin }) => {
    setRefusal([]);
    try {
      const { data } = await setPin({ variables: { input: { pin, ...(isSet ? { currentPin } : {}) } } });
      const result = data?.setPayoutPin;
      if (result?.payoutPin) {
        form.reset();
        done(isSet ? 'The payout PIN was changed' : 'The payout PIN was set');
      } else if (result) {
        // A wrong current PIN names no field: it is the Current PIN field's.
        const errors = result.userErrors.map((error) =>
          error.code === 'INVALID_PIN' && !error.field ? { ...error, field: ['input', 'currentPin'] } : error,
        );
        setRefusal(applyUserErrors(errors, form.setError, ['pin', 'currentPin']));
      }
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <UserErrorsAlert errors={refusal} />
        <Group align="flex-start">
          {isSet && (
            <PasswordInput
              label="Current PIN"
              inputMode="numeric"
              autoComplete="off"
              w={200}
              {...form.register('currentPin')}
              error={form.formState.errors.currentPin?.message}
            />
          )}
          <PasswordInput
            label={isSet ? 'New PIN' : 'PIN'}
            description="6 digits"
            inputMode="numeric"
            autoComplete="off"
            w={200}
            {...form.register('pin')}
            error={form.formState.errors.pin?.message}
          />
        </Group>
        <Group>
          <Button type="submit" variant="default" loading={loading}>
            {isSet ? 'Change PIN' : 'Set PIN'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const thresholdSchema = z.object({
  currency: z
    .string()
    .trim()
    .refine((value) => /^[A-Za-z]{3,5}$/.test(value), 'A currency code such as USD'),
  threshold: z
    .string()
    .trim()
    .refine((value) => /^\d+(\.\d+)?$/.test(value), 'An amount such as 100.00'),
});
type ThresholdValues = z.infer<typeof thresholdSchema>;

function ThresholdsSection() {
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(Thresholds);
  const [setThreshold, { loading: saving }] = useMutation(SetThreshold, {
    refetchQueries: ['DashboardLowBalanceThresholds'],
  });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<ThresholdValues>({
    resolver: zodResolver(thresholdSchema),
    defaultValues: { currency: 'USD', threshold: '' },
  });
  const thresholds = data?.walletLowBalanceThresholds ?? [];
  const writer = current.can(...ADMINS);

  const save = async (input: { currency: string; threshold: string | null }, values?: boolean) => {
    setRefusal([]);
    try {
      const { data: result } = await setThreshold({ variables: { input } });
      const payload = result?.setWalletLowBalanceThreshold;
      if (payload && payload.userErrors.length === 0) {
        if (values) form.reset({ currency: input.currency, threshold: '' });
        done(
          input.threshold === null
            ? `The ${input.currency} threshold was removed`
            : `The ${input.currency} threshold is now ${input.threshold}`,
        );
      } else if (payload) setRefusal(applyUserErrors(payload.userErrors, form.setError, ['currency', 'threshold']));
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  };
  const submit = form.handleSubmit(({ currency, threshold }) =>
    save({ currency: currency.toUpperCase(), threshold }, true),
  );

  return (
    <Card withBorder component="section" aria-labelledby="thresholds-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="thresholds-title">
          Low-balance thresholds
        </Title>
        <Text size="sm" c="dimmed">
          A debit that takes a wallet below its currency&apos;s threshold sends the wallet.low_balance event.
        </Text>
        <UserErrorsAlert errors={refusal} />
        {error ? (
          <LoadError error={error} retry={() => void refetch()} />
        ) : loading && !data ? (
          <Loading label="Loading the thresholds…" />
        ) : thresholds.length === 0 ? (
          <Empty title="No thresholds">
            {writer ? 'Set one per currency below.' : 'An owner or admin sets one per currency.'}
          </Empty>
        ) : (
          <Table>
            <caption className="visually-hidden">Low-balance thresholds</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Currency</Table.Th>
                <Table.Th>Threshold</Table.Th>
                <Table.Th>Updated</Table.Th>
                {writer && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {thresholds.map((row) => (
                <Table.Tr key={row.id} data-threshold={row.currency}>
                  <Table.Td>{row.currency}</Table.Td>
                  <Table.Td>{row.threshold}</Table.Td>
                  <Table.Td>{formatDateTime(row.updatedAt)}</Table.Td>
                  {writer && (
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Remove the ${row.currency} threshold`}
                        onClick={() => void save({ currency: row.currency, threshold: null })}
                      >
                        Remove
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {writer && (
          <form onSubmit={(event) => void submit(event)} noValidate aria-label="Set a low-balance threshold">
            <Group align="flex-start">
              <TextInput
                label="Currency"
                w={120}
                {...form.register('currency')}
                error={form.formState.errors.currency?.message}
              />
              <TextInput
                label="Threshold"
                inputMode="decimal"
                placeholder="100.00"
                w={160}
                {...form.register('threshold')}
                error={form.formState.errors.threshold?.message}
              />
              <Button type="submit" variant="default" loading={saving} mt={25}>
                Set threshold
              </Button>
            </Group>
          </form>
        )}
      </Stack>
    </Card>
  );
}
