import { useMutation, useQuery } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Anchor,
  Button,
  Card,
  Group,
  PinInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { DashboardCreatePayoutQuoteMutation } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney } from '../../ui/format';
import { Fact } from '../../ui/Facts';
import { RecipientPicker, type PickedRecipient } from './RecipientPicker';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const SendPayoutData = graphql(`
  query SendPayoutData {
    payoutRecipients(first: 1) {
      edges {
        node {
          id
        }
      }
    }
    wallets {
      id
      currency
      balance {
        amount
        currency
      }
    }
    payoutPin {
      id
      isSet
      lockedUntil
    }
  }
`);

const CreateQuote = graphql(`
  mutation DashboardCreatePayoutQuote($input: CreatePayoutQuoteInput!) {
    createPayoutQuote(input: $input) {
      quote {
        id
        rate
        expiresAt
        amount {
          amount
          currency
        }
        dstAmount {
          amount
          currency
        }
        serviceFee {
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

const CreatePayout = graphql(`
  mutation DashboardCreatePayout($input: CreatePayoutInput!) {
    createPayout(input: $input) {
      payout {
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

const quoteSchema = z.object({
  recipientId: z.string().min(1, 'Choose a recipient'),
  currency: z.string().min(1, 'Choose the wallet to pay from'),
  amount: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, 'Enter an amount such as 100.50'),
  reference: z.string().trim().max(200),
});
type QuoteValues = z.infer<typeof quoteSchema>;
type Quote = NonNullable<DashboardCreatePayoutQuoteMutation['createPayoutQuote']['quote']>;

const PIN_CODES = ['INVALID_PIN', 'PIN_LOCKED', 'PIN_NOT_SET'];

export const prefetch: ScreenPrefetch = () => screenQuery(SendPayoutData, {});

/**
 * Send a payout: a quote first (rate, fee, what the recipient gets, until when), then the payout
 * with the payout PIN. Each confirmation is one attempt with its own Idempotency-Key, so a
 * double click or a retried request pays once.
 */
export default function SendPayoutScreen() {
  const current = useCurrent();
  const navigate = useNavigate();
  const { data, loading, error, refetch } = useQuery(SendPayoutData);
  const [quoteFor, { loading: quoting }] = useMutation(CreateQuote);
  const [pay, { loading: paying }] = useMutation(CreatePayout);
  const [quote, setQuote] = useState<{ quote: Quote; values: QuoteValues } | null>(null);
  const [recipient, setRecipient] = useState<PickedRecipient | null>(null);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const [pin, setPin] = useState('');
  const [pinError, setPinError] = useState<string | null>(null);
  const [attemptKey, setAttemptKey] = useState(() => crypto.randomUUID());
  const form = useForm<QuoteValues>({
    resolver: zodResolver(quoteSchema),
    defaultValues: { recipientId: '', currency: '', amount: '', reference: '' },
  });

  if (!current.can(...WRITERS)) {
    return <Empty title="Your role cannot send payouts">Ask an owner, admin or developer of the business.</Empty>;
  }
  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading label="Loading recipients and wallets…" />;
  const wallets = data?.wallets ?? [];
  if (data?.payoutRecipients.edges.length === 0) {
    return (
      <Empty title="Add a recipient first">
        Payouts go to a saved recipient:{' '}
        <Anchor component={Link} to="/payouts/recipients">
          add one
        </Anchor>
        .
      </Empty>
    );
  }

  const getQuote = form.handleSubmit(async (values) => {
    setRefusal([]);
    setQuote(null);
    if (recipient?.id !== values.recipientId) return;
    try {
      const { data: result } = await quoteFor({
        variables: {
          input: {
            amount: values.amount,
            currency: values.currency,
            destinationCurrency: recipient.currency,
            rail: recipient.rail,
            ...(recipient.country ? { country: recipient.country } : {}),
          },
        },
      });
      const answer = result?.createPayoutQuote;
      if (answer?.quote) {
        setQuote({ quote: answer.quote, values });
        setPin('');
        setPinError(null);
        setAttemptKey(crypto.randomUUID());
      } else if (answer) setRefusal(applyUserErrors(answer.userErrors, form.setError, ['amount', 'currency']));
    } catch (failure) {
      setRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  });

  const confirm = async () => {
    if (!quote) return;
    setRefusal([]);
    setPinError(null);
    if (!/^\d{6}$/.test(pin)) {
      setPinError('Enter the 6-digit payout PIN');
      return;
    }
    const { values } = quote;
    try {
      const { data: result } = await pay({
        variables: {
          input: {
            recipientId: values.recipientId,
            amount: values.amount,
            currency: values.currency,
            quoteId: quote.quote.id,
            pin,
            ...(values.reference ? { reference: values.reference } : {}),
          },
        },
        context: { headers: { 'Idempotency-Key': attemptKey } },
      });
      const answer = result?.createPayout;
      if (answer?.payout) {
        void navigate(`/payouts/${answer.payout.id}`);
        return;
      }
      // A refused attempt wrote nothing: the next one is a new attempt with a new key.
      setAttemptKey(crypto.randomUUID());
      const errors = answer?.userErrors ?? [];
      const pinErrors = errors.filter((item) => PIN_CODES.includes(item.code) || item.field?.includes('pin'));
      if (pinErrors.length > 0) setPinError(pinErrors.map((item) => item.message).join(' '));
      setRefusal(
        applyUserErrors(
          errors.filter((item) => !pinErrors.includes(item)),
          form.setError,
          ['amount', 'currency', 'recipientId', 'reference'],
        ),
      );
    } catch (failure) {
      setAttemptKey(crypto.randomUUID());
      setRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  };

  return (
    <Stack maw={720}>
      <Anchor component={Link} to="/payouts" size="sm">
        ← Payouts
      </Anchor>
      <Title order={2}>Send a payout</Title>
      {data?.payoutPin.isSet === false && (
        <Text size="sm">
          The business has no payout PIN yet: an owner sets it (setPayoutPin) before payouts can be confirmed here.
        </Text>
      )}
      <UserErrorsAlert errors={refusal} />
      <Card withBorder component="section" aria-labelledby="quote-title">
        <form onSubmit={(event) => void getQuote(event)} noValidate>
          <Stack gap="sm">
            <Title order={3} id="quote-title">
              1. Quote
            </Title>
            <Controller
              control={form.control}
              name="recipientId"
              render={({ field, fieldState }) => (
                <RecipientPicker
                  value={recipient}
                  onChange={(picked) => {
                    setRecipient(picked);
                    field.onChange(picked?.id ?? '');
                    setQuote(null);
                  }}
                  error={fieldState.error?.message}
                />
              )}
            />
            <Group align="flex-start" grow>
              <Controller
                control={form.control}
                name="currency"
                render={({ field, fieldState }) => (
                  <Select
                    label="From wallet"
                    placeholder={wallets.length ? 'Choose a wallet' : 'No wallet yet'}
                    value={field.value || null}
                    onChange={(value) => {
                      field.onChange(value ?? '');
                      setQuote(null);
                    }}
                    data={wallets.map((wallet) => ({
                      value: wallet.currency,
                      label: `${wallet.currency} (balance ${formatMoney(wallet.balance)})`,
                    }))}
                    error={fieldState.error?.message}
                  />
                )}
              />
              <TextInput
                label="Amount"
                inputMode="decimal"
                {...form.register('amount', { onChange: () => setQuote(null) })}
                error={form.formState.errors.amount?.message}
              />
            </Group>
            <TextInput
              label="Reference"
              description="Optional, shown on the payout"
              {...form.register('reference')}
              error={form.formState.errors.reference?.message}
            />
            <Group>
              <Button type="submit" variant={quote ? 'default' : 'filled'} loading={quoting}>
                {quote ? 'Quote again' : 'Get a quote'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      {quote && (
        <Card withBorder component="section" aria-labelledby="confirm-title">
          <Stack gap="sm">
            <Title order={3} id="confirm-title">
              2. Confirm with the payout PIN
            </Title>
            <SimpleGrid cols={{ base: 2, md: 4 }} data-testid="quote">
              <Fact label="You send">{formatMoney(quote.quote.amount)}</Fact>
              <Fact label="Fee">{formatMoney(quote.quote.serviceFee)}</Fact>
              <Fact label="Rate">{quote.quote.rate}</Fact>
              <Fact label="Recipient gets">{formatMoney(quote.quote.dstAmount)}</Fact>
              <Fact label="Quote valid until">{formatDateTime(quote.quote.expiresAt)}</Fact>
            </SimpleGrid>
            <div>
              <Text size="sm" fw={500} id="pin-label">
                Payout PIN
              </Text>
              <PinInput
                length={6}
                type="number"
                mask
                oneTimeCode={false}
                value={pin}
                onChange={setPin}
                ariaLabel="Payout PIN"
                // Not Mantine's error colour (light red digits fail contrast): the message below says it, linked to each digit.
                getInputProps={(index) => ({
                  'aria-label': `Payout PIN digit ${index + 1}`,
                  'aria-invalid': Boolean(pinError),
                  'aria-describedby': pinError ? 'pin-error' : undefined,
                })}
              />
              {pinError && (
                <Text size="sm" fw={600} role="alert" mt={4} id="pin-error" data-testid="pin-error">
                  {pinError}
                </Text>
              )}
            </div>
            <Group>
              <Button onClick={() => void confirm()} loading={paying}>
                Send payout
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
