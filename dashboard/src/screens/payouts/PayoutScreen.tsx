import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { graphql } from '../../gql';
import type { PayoutStatus } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney, humanize } from '../../ui/format';
import { ApprovePayout, RejectDialog } from './ReviewQueueScreen';
import { Fact } from '../../ui/Facts';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const PayoutDetail = graphql(`
  query PayoutDetail($id: ID!) {
    payout(id: $id) {
      id
      status
      rail
      rate
      reference
      providerRef
      failureReason
      batchId
      livemode
      createdAt
      settledAt
      amount {
        amount
        currency
      }
      serviceFee {
        amount
        currency
      }
      destinationAmount {
        amount
        currency
      }
      destinationMasked {
        country
        accountNumber
        bankName
      }
      recipient {
        id
        label
      }
    }
  }
`);

const PayoutLive = graphql(`
  subscription PayoutLive($id: ID!) {
    payoutUpdated(id: $id) {
      previousStatus
      payout {
        id
        status
        providerRef
        failureReason
        settledAt
      }
    }
  }
`);

const CancelPayout = graphql(`
  mutation DashboardCancelPayout($input: CancelPayoutInput!) {
    cancelPayout(input: $input) {
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

const AdvanceSandboxPayout = graphql(`
  mutation DashboardAdvanceSandboxPayout($input: AdvanceSandboxPayoutInput!) {
    advanceSandboxPayout(input: $input) {
      payout {
        id
        status
        providerRef
        failureReason
        settledAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

/** The sandbox rail's next legal moves from each status (docs/payouts.md, Sandbox). */
const SANDBOX_MOVES: Partial<Record<PayoutStatus, PayoutStatus[]>> = {
  CREATED: ['SUBMITTED', 'FAILED'],
  SUBMITTED: ['SETTLED', 'FAILED'],
};

export const prefetch: ScreenPrefetch = ({ id = '' }) => screenQuery(PayoutDetail, { id });

/** One payout, live through `payoutUpdated(id)`: cancel while CREATED, review while held, and the sandbox's advance in test mode. */
export default function PayoutScreen() {
  const { id = '' } = useParams();
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(PayoutDetail, { variables: { id } });
  useSubscription(PayoutLive, { variables: { id } });
  const [cancel, { loading: cancelling }] = useMutation(CancelPayout);
  const [approve, { loading: approving }] = useMutation(ApprovePayout);
  const [advance, { loading: advancing }] = useMutation(AdvanceSandboxPayout);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const [rejecting, setRejecting] = useState(false);

  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading label="Loading the payout…" />;
  const payout = data?.payout;
  if (!payout) return <Empty title="No such payout">It may belong to another business or mode.</Empty>;

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
  const moves = current.mode === 'test' && canWrite ? (SANDBOX_MOVES[payout.status] ?? []) : [];

  return (
    <Stack>
      <Anchor component={Link} to="/payouts" size="sm">
        ← Payouts
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>
          {formatMoney(payout.amount)} to {payout.recipient.label}
        </Title>
        <StatusBadge status={payout.status} />
      </Group>
      <UserErrorsAlert errors={refusal} />
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Fact label="Recipient gets">{formatMoney(payout.destinationAmount)}</Fact>
          <Fact label="Fee">{formatMoney(payout.serviceFee)}</Fact>
          <Fact label="Rate">{payout.rate}</Fact>
          <Fact label="Rail">{humanize(payout.rail)}</Fact>
          <Fact label="Destination">
            {[
              payout.destinationMasked.bankName,
              payout.destinationMasked.accountNumber,
              payout.destinationMasked.country,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Fact>
          <Fact label="Reference">{payout.reference ?? '—'}</Fact>
          <Fact label="Created">{formatDateTime(payout.createdAt)}</Fact>
          <Fact label="Settled">{formatDateTime(payout.settledAt)}</Fact>
          <Fact label="Rail reference">{payout.providerRef ?? '—'}</Fact>
          {payout.batchId && (
            <Fact label="Batch">
              <Anchor component={Link} to={`/payouts/batches/${payout.batchId}`} size="sm">
                Open the batch
              </Anchor>
            </Fact>
          )}
          {payout.failureReason && <Fact label="Why it failed">{payout.failureReason}</Fact>}
          <Fact label="Payout id">
            <Text span ff="monospace" size="xs">
              {payout.id}
            </Text>
          </Fact>
        </SimpleGrid>
      </Card>
      <Group>
        {payout.status === 'PENDING_REVIEW' && current.can('OWNER', 'ADMIN') && (
          <>
            <Button
              loading={approving}
              onClick={() =>
                void act(async () => (await approve({ variables: { input: { id } } })).data?.approvePayout.userErrors)
              }
            >
              Approve
            </Button>
            <Button variant="default" onClick={() => setRejecting(true)}>
              Reject
            </Button>
          </>
        )}
        {payout.status === 'CREATED' && canWrite && (
          <Button
            variant="default"
            loading={cancelling}
            onClick={() =>
              void act(async () => (await cancel({ variables: { input: { id } } })).data?.cancelPayout.userErrors)
            }
          >
            Cancel payout
          </Button>
        )}
      </Group>
      {moves.length > 0 && (
        <Card withBorder component="section" aria-labelledby="sandbox-title">
          <Stack gap="xs">
            <Title order={3} id="sandbox-title">
              Sandbox
            </Title>
            <Text size="sm">Move this test payout as the rail would (advanceSandboxPayout).</Text>
            <Group>
              {moves.map((status) => (
                <Button
                  key={status}
                  variant="outline"
                  loading={advancing}
                  onClick={() =>
                    void act(
                      async () =>
                        (await advance({ variables: { input: { id, status } } })).data?.advanceSandboxPayout.userErrors,
                    )
                  }
                >
                  Mark {humanize(status).toLowerCase()}
                </Button>
              ))}
            </Group>
          </Stack>
        </Card>
      )}
      {rejecting && <RejectDialog payoutId={id} onClose={() => setRejecting(false)} />}
    </Stack>
  );
}
