import { useMutation, useQuery } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { Mode } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { LoadError, Loading } from '../../ui/QueryState';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime } from '../../ui/format';
import { Fact } from '../../ui/Facts';
import { ShownOnce, thrown } from './parts';
import { Dialog } from '../../ui/Dialog';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const V1Keys = graphql(`
  query DeveloperV1Keys {
    v1ApiKeys {
      id
      mode
      keyHint
      createdAt
    }
    v1WebhookUrl {
      mode
      webhookUrl
    }
  }
`);

const IssueV1ApiKey = graphql(`
  mutation DashboardIssueV1ApiKey($input: IssueV1ApiKeyInput!) {
    issueV1ApiKey(input: $input) {
      issuedV1ApiKey {
        apiKey
        mode
        keyHint
        createdAt
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const SetV1WebhookUrl = graphql(`
  mutation DashboardSetV1WebhookUrl($input: SetV1WebhookUrlInput!) {
    setV1WebhookUrl(input: $input) {
      v1WebhookSettings {
        mode
        webhookUrl
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const MODES: Mode[] = ['TEST', 'LIVE'];
const modeName = (mode: Mode) => (mode === 'TEST' ? 'test' : 'live');

export const prefetch: ScreenPrefetch = () => screenQuery(V1Keys, {});

/** The /v1 surface's keys (one active per mode, hints only), issued by an OWNER of a verified business; the /v1 webhook URL. */
export default function V1KeysScreen() {
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(V1Keys);
  const [issuing, setIssuing] = useState<Mode | null>(null);

  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading label="Loading the /v1 keys…" />;
  const keys = data?.v1ApiKeys ?? [];
  const mayIssue = current.can('OWNER') && current.business.verified;
  const whyNot = !current.can('OWNER')
    ? 'Only an OWNER of the business issues /v1 keys.'
    : !current.business.verified
      ? 'Keys are issued to verified businesses only: ask the platform operator to verify this business.'
      : null;

  return (
    <Stack>
      <Title order={2}>/v1 keys</Title>
      <Text size="sm" c="dimmed" maw={720}>
        The /v1 API takes a key as Authorization: Bearer tessera_test_sk_… (or tessera_live_sk_…). One key is active per
        mode; issuing another revokes the previous one at once.
      </Text>
      {whyNot && (
        <Alert color="gray" title="You cannot issue keys" role="note" data-testid="v1-why-not">
          {whyNot}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {MODES.map((mode) => {
          const key = keys.find((item) => item.mode === mode);
          return (
            <Card withBorder key={mode} component="section" aria-labelledby={`v1-${mode}`}>
              <Stack gap="sm">
                <Title order={3} id={`v1-${mode}`}>
                  {mode === 'TEST' ? 'Test key' : 'Live key'}
                </Title>
                {key ? (
                  <SimpleGrid cols={2}>
                    <Fact label="Key">
                      <Text span ff="monospace" size="sm" data-testid={`v1-key-hint-${mode}`}>
                        {key.keyHint}
                      </Text>
                    </Fact>
                    <Fact label="Issued">{formatDateTime(key.createdAt)}</Fact>
                  </SimpleGrid>
                ) : (
                  <Text size="sm">No active {modeName(mode)} key.</Text>
                )}
                {mayIssue && (
                  <Group>
                    <Button variant="default" onClick={() => setIssuing(mode)}>
                      {key ? `Replace the ${modeName(mode)} key` : `Issue a ${modeName(mode)} key`}
                    </Button>
                  </Group>
                )}
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
      <V1WebhookUrl webhookUrl={data?.v1WebhookUrl.webhookUrl ?? null} />
      {issuing && (
        <IssueModal
          mode={issuing}
          replaces={keys.some((key) => key.mode === issuing)}
          onClose={() => setIssuing(null)}
        />
      )}
    </Stack>
  );
}

function IssueModal({ mode, replaces, onClose }: { mode: Mode; replaces: boolean; onClose: () => void }) {
  const [issue, { loading, data }] = useMutation(IssueV1ApiKey, { refetchQueries: ['DeveloperV1Keys'] });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const issued = data?.issueV1ApiKey.issuedV1ApiKey;

  const confirm = async () => {
    setRefusal([]);
    try {
      const payload = (await issue({ variables: { input: { mode } } })).data?.issueV1ApiKey;
      if (payload && !payload.issuedV1ApiKey) setRefusal([...payload.userErrors]);
    } catch (error) {
      setRefusal(thrown(error));
    }
  };

  return (
    <Dialog
      onClose={onClose}
      title={issued ? `The new /v1 ${modeName(mode)} key` : `Issue a /v1 ${modeName(mode)} key?`}
    >
      {issued ? (
        <Stack>
          <Alert color="gray" title="Shown once" role="note">
            Store the key now: it cannot be shown again.
          </Alert>
          <ShownOnce label="/v1 key" value={issued.apiKey} testId="new-v1-key" />
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            {replaces
              ? `The current /v1 ${modeName(mode)} key stops working at once, and /v1 webhooks are signed with the new one.`
              : `The key reaches the business's ${modeName(mode)} data through /v1.`}
          </Text>
          <UserErrorsAlert errors={refusal} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color={replaces ? 'red' : undefined} loading={loading} onClick={() => void confirm()}>
              Issue key
            </Button>
          </Group>
        </Stack>
      )}
    </Dialog>
  );
}

const urlSchema = z.object({
  webhookUrl: z
    .string()
    .trim()
    .refine(
      (value) => value === '' || /^https?:\/\/\S+$/i.test(value),
      'Enter an absolute http(s) URL, or leave it empty',
    ),
});

function V1WebhookUrl({ webhookUrl }: { webhookUrl: string | null }) {
  const current = useCurrent();
  const [save, { loading }] = useMutation(SetV1WebhookUrl, { refetchQueries: ['DeveloperV1Keys'] });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<{ webhookUrl: string }>({
    resolver: zodResolver(urlSchema),
    values: { webhookUrl: webhookUrl ?? '' },
  });

  const submit = form.handleSubmit(async (values) => {
    setRefusal([]);
    try {
      const payload = (await save({ variables: { input: { webhookUrl: values.webhookUrl || null } } })).data
        ?.setV1WebhookUrl;
      if (payload?.v1WebhookSettings)
        notifications.show({
          color: 'green',
          message: values.webhookUrl ? '/v1 webhook URL saved' : '/v1 webhook URL removed',
          closeButtonProps: { 'aria-label': 'Dismiss' },
        });
      else if (payload) setRefusal(applyUserErrors(payload.userErrors, form.setError, ['webhookUrl']));
    } catch (error) {
      setRefusal(thrown(error));
    }
  });

  return (
    <Card withBorder component="section" aria-labelledby="v1-webhook-title">
      <Stack gap="sm">
        <Title order={3} id="v1-webhook-title">
          /v1 webhook URL
        </Title>
        <Text size="sm" c="dimmed">
          Receives every /v1 event of {current.mode} mode, signed with the /v1 key (Service-Signature). The webhook URL
          and endpoints of the Webhooks page never receive them.
        </Text>
        {current.can(...WRITERS) ? (
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack gap="sm">
              <UserErrorsAlert errors={refusal} />
              <TextInput
                label="/v1 webhook URL"
                description="Empty: none"
                placeholder="https://example.com/v1-events"
                w={480}
                {...form.register('webhookUrl')}
                error={form.formState.errors.webhookUrl?.message}
              />
              <Group>
                <Button type="submit" variant="default" loading={loading}>
                  Save /v1 webhook URL
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Text size="sm" ff="monospace">
            {webhookUrl ?? 'No /v1 webhook URL.'}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
