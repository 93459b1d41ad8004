import { useMutation, useQuery, useSubscription } from '@apollo/client/react';
import { Anchor, Button, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { CollectionFieldsFragment } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { StatusBadge } from '../../ui/StatusBadge';
import { UserErrorsAlert, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime, formatMoney } from '../../ui/format';
import { CollectionDetail, CollectionLive, PaySandboxCollection, RAILS } from './operations';
import { Fact } from '../../ui/Facts';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

export const prefetch: ScreenPrefetch = ({ id = '' }) => screenQuery(CollectionDetail, { id });

/** One collection: what the payer is told to do, its status live through `collectionUpdated(id)`, and in test mode the sandbox payer. */
export default function CollectionScreen() {
  const { id = '' } = useParams();
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(CollectionDetail, { variables: { id } });
  useSubscription(CollectionLive, { variables: { id } });

  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading label="Loading the collection…" />;
  const collection = data?.collection;
  if (!collection) return <Empty title="No such collection">It may belong to another business or mode.</Empty>;

  return (
    <Stack>
      <Anchor component={Link} to="/collections" size="sm">
        ← Collections
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>{formatMoney(collection.amount)}</Title>
        <StatusBadge status={collection.status} />
      </Group>
      <Card withBorder>
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <Fact label="Reference">{collection.businessPaymentId}</Fact>
          <Fact label="Created">{formatDateTime(collection.createdAt)}</Fact>
          <Fact label="Expires">{formatDateTime(collection.expiresAt)}</Fact>
          <Fact label="Rail">
            {RAILS[collection.channel.rail] ?? collection.channel.rail} · {collection.channel.provider}
            {collection.channel.networkId ? ` · ${collection.channel.networkId}` : ''}
          </Fact>
          <Fact label="Received">{collection.amountReceived ? formatMoney(collection.amountReceived) : '—'}</Fact>
          <Fact label="Credited (USDC)">
            {collection.settlement ? formatMoney(collection.settlement.netAmount) : '—'}
          </Fact>
          <Fact label="Fee">{collection.settlement ? formatMoney(collection.settlement.fee) : '—'}</Fact>
          <Fact label="Collection id">
            <Text span ff="monospace" size="xs">
              {collection.id}
            </Text>
          </Fact>
          {collection.failureReason && <Fact label="Why it failed">{collection.failureReason}</Fact>}
        </SimpleGrid>
      </Card>

      <Title order={3}>What the payer does</Title>
      <Instructions collection={collection} />

      {current.mode === 'test' && current.can(...WRITERS) && collection.status === 'PENDING' && (
        <SandboxPay collection={collection} />
      )}
    </Stack>
  );
}

function Instructions({ collection }: { collection: CollectionFieldsFragment }) {
  const instructions = collection.instructions;
  return (
    <Card withBorder data-testid="collection-instructions">
      {instructions.__typename === 'BankTransferInstructions' ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Fact label="Transfer">{formatMoney(collection.amount)}</Fact>
          <Fact label="To the bank">{instructions.bankName}</Fact>
          <Fact label="Account number">
            <Code>{instructions.accountNumber}</Code>
          </Fact>
          <Fact label="Account name">{instructions.accountName}</Fact>
          <Fact label="Reference">
            {instructions.reference ? (
              <Code>{instructions.reference}</Code>
            ) : (
              'None needed: the account is this collection’s own'
            )}
          </Fact>
        </SimpleGrid>
      ) : instructions.__typename === 'MomoPromptInstructions' ? (
        <Stack gap="xs">
          <Fact label="Prompt sent to">{instructions.phone}</Fact>
          <Fact label="The payer sees">{instructions.prompt}</Fact>
        </Stack>
      ) : instructions.__typename === 'HostedPageInstructions' ? (
        <Fact label="The payer’s page (bank account, amount and the reference to quote)">
          <Anchor href={instructions.url} target="_blank" rel="noreferrer">
            {instructions.url}
          </Anchor>
        </Fact>
      ) : (
        <Text size="sm">No instructions.</Text>
      )}
    </Card>
  );
}

/** The sandbox's payer: pays the collection's exact amount, which completes it (docs/collections.md, Sandbox). */
function SandboxPay({ collection }: { collection: CollectionFieldsFragment }) {
  const [pay, { loading }] = useMutation(PaySandboxCollection);
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);

  const onPay = async () => {
    setRefusal([]);
    try {
      const { data } = await pay({
        variables: { input: { id: collection.id, amount: collection.amount.amountMinor } },
      });
      const errors = data?.paySandboxCollection.userErrors ?? [];
      if (errors.length > 0) setRefusal([...errors]);
    } catch (err) {
      setRefusal([{ field: null, code: 'ERROR', message: (err as Error).message }]);
    }
  };

  return (
    <Card withBorder component="section" aria-labelledby="sandbox-pay-title">
      <Stack gap="sm" align="flex-start">
        <Title order={4} id="sandbox-pay-title">
          Sandbox
        </Title>
        <Text size="sm">Play the payer: send {formatMoney(collection.amount)} and watch the collection complete.</Text>
        <UserErrorsAlert errors={refusal} />
        <Button variant="default" loading={loading} onClick={() => void onPay()}>
          Pay this collection (sandbox)
        </Button>
      </Stack>
    </Card>
  );
}
