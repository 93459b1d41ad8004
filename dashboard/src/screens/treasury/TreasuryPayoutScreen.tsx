import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { Anchor, Button, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { graphql } from '../../gql';
import { WRITERS, useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { Fact } from '../../ui/Facts';
import { UserErrorsAlert, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney, humanize } from '../../ui/format';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const PayoutFields = graphql(`
  fragment TreasuryPayoutFields on TreasuryPayout {
    ...TreasuryPayoutRow
    destinationDetails
    metadata
    livemode
    updatedAt
    wallet {
      id
      currency
      balance {
        amount
        currency
      }
    }
  }
`);

const TreasuryPayoutDetail = graphql(`
  query TreasuryPayoutDetail($id: ID!) {
    treasuryPayout(id: $id) {
      ...TreasuryPayoutFields
    }
  }
`);

/** The payout's changes as they happen; the cache is keyed by id, so the page shows each at once. */
const TreasuryPayoutLive = graphql(`
  subscription TreasuryPayoutLive($id: ID!) {
    treasuryPayoutUpdated(id: $id) {
      treasuryPayout {
        ...TreasuryPayoutFields
      }
    }
  }
`);

const CancelTreasuryPayout = graphql(`
  mutation DashboardCancelTreasuryPayout($input: CancelTreasuryPayoutInput!) {
    cancelTreasuryPayout(input: $input) {
      treasuryPayout {
        ...TreasuryPayoutFields
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

// Spread into the operations below by name (codegen reads it from this file; TreasuryPayoutRow from operations.ts).
void PayoutFields;

export const prefetch: ScreenPrefetch = ({ id = '' }) => screenQuery(TreasuryPayoutDetail, { id });

/**
 * One treasury payout, live through `treasuryPayoutUpdated(id)`: amount, end-user, wallet,
 * destination (masked by the API), status; cancel while it is PENDING (the debit is reversed).
 */
export default function TreasuryPayoutScreen() {
  const { id = '' } = useParams();
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(TreasuryPayoutDetail, { variables: { id } });
  useSubscription(TreasuryPayoutLive, { variables: { id } });
  const [cancel, { loading: cancelling }] = useMutation(CancelTreasuryPayout);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);

  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading label="Loading the payout…" />;
  const payout = data?.treasuryPayout;
  if (!payout) return <Empty title="No such payout">It may belong to another business or mode.</Empty>;

  const cancelPayout = async () => {
    setRefusal([]);
    try {
      const { data: result } = await cancel({ variables: { input: { id } } });
      const answer = result?.cancelTreasuryPayout;
      if (answer?.treasuryPayout) {
        notifications.show({
          color: 'green',
          message: `Payout cancelled: ${formatMoney(answer.treasuryPayout.amount)} back in the wallet`,
          closeButtonProps: { 'aria-label': 'Dismiss' },
        });
      } else if (answer) setRefusal(answer.userErrors);
    } catch (failure) {
      setRefusal([{ field: null, code: 'ERROR', message: (failure as Error).message }]);
    }
  };

  const destination = Object.entries(payout.destinationDetails ?? {});

  return (
    <Stack>
      <Anchor component={Link} to="/treasury/payouts" size="sm">
        ← Treasury payouts
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>Treasury payout of {formatMoney(payout.amount)}</Title>
        <StatusBadge status={payout.status} />
      </Group>
      <UserErrorsAlert errors={refusal} />
      <Card withBorder component="section" aria-labelledby="treasury-payout-facts">
        <Title order={3} size="h4" id="treasury-payout-facts" mb="sm">
          Details
        </Title>
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Fact label="Amount">{formatMoney(payout.amount)}</Fact>
          <Fact label="Status">{humanize(payout.status)}</Fact>
          <Fact label="End-user">
            <Anchor component={Link} to={`/treasury/end-users/${payout.endUser.id}`} size="sm">
              {payout.endUser.name ?? payout.endUser.externalId}
            </Anchor>
          </Fact>
          <Fact label="Wallet balance now">{formatMoney(payout.wallet.balance)}</Fact>
          <Fact label="Created">{formatDateTime(payout.createdAt)}</Fact>
          <Fact label="Last change">{formatDateTime(payout.updatedAt)}</Fact>
          <Fact label="Completed">{payout.completedAt ? formatDateTime(payout.completedAt) : '—'}</Fact>
          <Fact label="Mode">{payout.livemode ? 'Live' : 'Test'}</Fact>
          {payout.failureReason && <Fact label="Why it failed">{payout.failureReason}</Fact>}
        </SimpleGrid>
      </Card>
      <Card withBorder component="section" aria-labelledby="treasury-payout-destination">
        <Title order={3} size="h4" id="treasury-payout-destination" mb="sm">
          To: {humanize(payout.destinationType)}
        </Title>
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          {destination.map(([key, value]) => (
            <Fact key={key} label={humanize(key.replace(/([a-z])([A-Z])/g, '$1_$2'))}>
              <Code>{String(value)}</Code>
            </Fact>
          ))}
        </SimpleGrid>
      </Card>
      {payout.status === 'PENDING' && current.can(...WRITERS) && (
        <Group>
          <Button color="red" variant="light" loading={cancelling} onClick={() => void cancelPayout()}>
            Cancel payout
          </Button>
          <Text size="sm" c="dimmed">
            Only while pending: the amount goes back to the wallet.
          </Text>
        </Group>
      )}
    </Stack>
  );
}
