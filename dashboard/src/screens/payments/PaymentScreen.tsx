import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { graphql } from '../../gql';
import { WRITERS, useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney } from '../../ui/format';
import { Fact } from '../../ui/Facts';

const PaymentDetail = graphql(`
  query PaymentDetail($id: ID!) {
    payment(id: $id) {
      id
      status
      email
      source
      createdAt
      capturedAt
      settledAt
      failureMessage
      amount {
        amount
        currency
      }
      amountRefunded {
        amount
        currency
      }
      amountDisputed {
        amount
        currency
      }
      fee {
        amount
        currency
      }
      card {
        brand
        last4
        expiryMonth
        expiryYear
        country
      }
      customer {
        id
        email
        firstName
        lastName
      }
      refunds {
        id
        status
        reason
        createdAt
        amount {
          amount
          currency
        }
      }
      disputes {
        id
        status
        reason
        createdAt
        amount {
          amount
          currency
        }
      }
      events {
        id
        type
        createdAt
        deliveries {
          id
          url
          status
          attemptCount
          responseStatus
          lastAttemptAt
        }
      }
    }
  }
`);

const PaymentLive = graphql(`
  subscription PaymentLive($id: ID!) {
    paymentUpdated(paymentId: $id) {
      payment {
        id
        status
        settledAt
        capturedAt
        amountRefunded {
          amount
          currency
        }
        amountDisputed {
          amount
          currency
        }
      }
    }
  }
`);

const RefundPayment = graphql(`
  mutation DashboardRefundPayment($input: RefundPaymentInput!) {
    refundPayment(input: $input) {
      refund {
        id
      }
      payment {
        id
        status
        amountRefunded {
          amount
          currency
        }
        refunds {
          id
          status
          reason
          createdAt
          amount {
            amount
            currency
          }
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

const refundSchema = z.object({
  amount: z
    .string()
    .trim()
    .refine((value) => value === '' || /^\d+(\.\d+)?$/.test(value), 'Enter an amount such as 12.50, or leave it empty'),
  reason: z.string().trim().max(500),
});
type RefundValues = z.infer<typeof refundSchema>;

/** One payment: its card, customer, refunds and disputes, live; and a (partial) refund for the roles that may. */
export default function PaymentScreen() {
  const { id = '' } = useParams();
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(PaymentDetail, { variables: { id } });
  useSubscription(PaymentLive, { variables: { id } });

  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading label="Loading the payment…" />;
  const payment = data?.payment;
  if (!payment) return <Empty title="No such payment">It may belong to another business or mode.</Empty>;

  const refundable =
    (payment.status === 'COMPLETED' || payment.status === 'SETTLED') &&
    Number(payment.amountRefunded.amount) < Number(payment.amount.amount);

  return (
    <Stack>
      <Anchor component={Link} to="/payments" size="sm">
        ← Payments
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>{formatMoney(payment.amount)}</Title>
        <StatusBadge status={payment.status} />
      </Group>
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Fact label="Payer">{payment.email}</Fact>
          <Fact label="Created">{formatDateTime(payment.createdAt)}</Fact>
          <Fact label="Captured">{formatDateTime(payment.capturedAt)}</Fact>
          <Fact label="Settled">{formatDateTime(payment.settledAt)}</Fact>
          <Fact label="Refunded">{formatMoney(payment.amountRefunded)}</Fact>
          <Fact label="Disputed">{formatMoney(payment.amountDisputed)}</Fact>
          <Fact label="Fee">{formatMoney(payment.fee)}</Fact>
          <Fact label="Source">{payment.source}</Fact>
          <Fact label="Card">
            {payment.card.brand} •••• {payment.card.last4} ({String(payment.card.expiryMonth).padStart(2, '0')}/
            {payment.card.expiryYear}, {payment.card.country})
          </Fact>
          <Fact label="Customer">
            {payment.customer
              ? [payment.customer.firstName, payment.customer.lastName].filter(Boolean).join(' ') ||
                payment.customer.email
              : '—'}
          </Fact>
          <Fact label="Payment id">
            <Text span ff="monospace" size="xs">
              {payment.id}
            </Text>
          </Fact>
          {payment.failureMessage && <Fact label="Why it failed">{payment.failureMessage}</Fact>}
        </SimpleGrid>
      </Card>

      <Title order={3}>Refunds</Title>
      {payment.refunds.length === 0 ? (
        <Text size="sm" c="dimmed">
          No refunds.
        </Text>
      ) : (
        <Table>
          <caption className="visually-hidden">Refunds</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th>Date</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {payment.refunds.map((refund) => (
              <Table.Tr key={refund.id} data-refund-id={refund.id}>
                <Table.Td>{formatMoney(refund.amount)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={refund.status} />
                </Table.Td>
                <Table.Td>{refund.reason ?? '—'}</Table.Td>
                <Table.Td>{formatDateTime(refund.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {refundable && current.can(...WRITERS) && (
        <RefundForm paymentId={payment.id} currency={payment.amount.currency} />
      )}

      <Title order={3}>Events and webhook deliveries</Title>
      {payment.events.length === 0 ? (
        <Text size="sm" c="dimmed">
          No events yet.
        </Text>
      ) : (
        <Table>
          <caption className="visually-hidden">Events of this payment and their webhook deliveries</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Event</Table.Th>
              <Table.Th>When</Table.Th>
              <Table.Th>Deliveries</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {payment.events.map((event) => (
              <Table.Tr key={event.id} data-event-type={event.type}>
                <Table.Td>
                  <Text ff="monospace" size="sm">
                    {event.type}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDateTime(event.createdAt)}</Table.Td>
                <Table.Td>
                  {event.deliveries.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      None (no webhook URL or endpoint for it)
                    </Text>
                  ) : (
                    <Stack gap={4}>
                      {event.deliveries.map((delivery) => (
                        <Group key={delivery.id} gap="xs" wrap="nowrap">
                          <StatusBadge status={delivery.status} />
                          <Text size="xs">
                            {delivery.url} · {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? '' : 's'}
                            {delivery.responseStatus !== null ? ` · HTTP ${delivery.responseStatus}` : ''}
                          </Text>
                        </Group>
                      ))}
                    </Stack>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <Title order={3}>Disputes</Title>
      {payment.disputes.length === 0 ? (
        <Text size="sm" c="dimmed">
          No disputes.
        </Text>
      ) : (
        <Table>
          <caption className="visually-hidden">Disputes</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th>Opened</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {payment.disputes.map((dispute) => (
              <Table.Tr key={dispute.id}>
                <Table.Td>{formatMoney(dispute.amount)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={dispute.status} />
                </Table.Td>
                <Table.Td>{dispute.reason}</Table.Td>
                <Table.Td>{formatDateTime(dispute.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function RefundForm({ paymentId, currency }: { paymentId: string; currency: string }) {
  const [refund, { loading }] = useMutation(RefundPayment);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<RefundValues>({
    resolver: zodResolver(refundSchema),
    defaultValues: { amount: '', reason: '' },
  });

  const submit = form.handleSubmit(async ({ amount, reason }) => {
    setRefusal([]);
    try {
      const { data } = await refund({
        variables: { input: { paymentId, ...(amount ? { amount } : {}), ...(reason ? { reason } : {}) } },
      });
      const result = data?.refundPayment;
      if (result?.refund) {
        form.reset();
        notifications.show({
          color: 'green',
          message: 'Refund created',
          closeButtonProps: { 'aria-label': 'Dismiss' },
        });
      } else if (result) setRefusal(applyUserErrors(result.userErrors, form.setError, ['amount', 'reason']));
    } catch (error) {
      setRefusal([{ field: null, code: 'ERROR', message: (error as Error).message }]);
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="refund-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Title order={4} id="refund-title">
            Refund
          </Title>
          <UserErrorsAlert errors={refusal} />
          <Group align="flex-start">
            <TextInput
              label={`Amount (${currency})`}
              description="Empty: the rest of the payment"
              inputMode="decimal"
              {...form.register('amount')}
              error={form.formState.errors.amount?.message}
            />
            <TextInput label="Reason" {...form.register('reason')} error={form.formState.errors.reason?.message} />
          </Group>
          <Group>
            <Button type="submit" variant="default" loading={loading}>
              Refund
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
