import { useMutation, useQuery } from '@apollo/client/react';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { graphql } from '../../gql';
import type { Mode } from '../../gql/graphql';
import { WRITERS, useCurrent } from '../../shell/current';
import { LoadError, Loading } from '../../ui/QueryState';
import { UserErrorsAlert, type UserErrorValue } from '../../ui/UserErrors';
import { formatDateTime } from '../../ui/format';
import { Fact } from '../../ui/Facts';
import { ShownOnce, thrown } from './parts';
import { Dialog } from '../../ui/Dialog';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const Credentials = graphql(`
  query DeveloperCredentials {
    apiCredentials {
      id
      mode
      keyHint
      secretHint
      keyVersion
      publishableKey
      lastUsedAt
      createdAt
    }
  }
`);

const RegenerateApiKey = graphql(`
  mutation DashboardRegenerateApiKey($input: RegenerateApiKeyInput!) {
    regenerateApiKey(input: $input) {
      regeneratedApiKey {
        mode
        apiKey
        keyHint
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const CreateLiveCredentials = graphql(`
  mutation DashboardCreateLiveCredentials {
    createLiveCredentials {
      credentials {
        mode
        apiKey
        apiSecret
        publishableKey
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

export const prefetch: ScreenPrefetch = () => screenQuery(Credentials, {});

/**
 * The business's API credentials of both modes (hints, never the key): regenerate a key after a
 * confirmation, the new key shown once; live credentials created once, by an OWNER.
 */
export default function CredentialsScreen() {
  const current = useCurrent();
  const { data, loading, error, refetch } = useQuery(Credentials);
  const [regenerating, setRegenerating] = useState<Mode | null>(null);
  const [live, setLive] = useState<IssuedLive | null>(null);

  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (loading && !data) return <Loading label="Loading the API credentials…" />;
  const credentials = data?.apiCredentials ?? [];

  return (
    <Stack>
      <Title order={2}>API keys</Title>
      <Text size="sm" c="dimmed" maw={720}>
        A key and secret act for the business in their mode with full rights: exchange them for a token (POST
        /api/v1/business/auth/token) or send the key as x-api-key. Keep them on your server; the publishable key is the
        only one safe in a browser.
      </Text>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {MODES.map((mode) => {
          const credential = credentials.find((item) => item.mode === mode);
          return (
            <Card withBorder key={mode} component="section" aria-labelledby={`credential-${mode}`}>
              <Stack gap="sm">
                <Title order={3} id={`credential-${mode}`}>
                  {mode === 'TEST' ? 'Test mode' : 'Live mode'}
                </Title>
                {credential ? (
                  <>
                    <SimpleGrid cols={2}>
                      <Fact label="API key">
                        <Text span ff="monospace" size="sm" data-testid={`key-hint-${mode}`}>
                          {credential.keyHint}
                        </Text>
                      </Fact>
                      <Fact label="API secret">
                        <Text span ff="monospace" size="sm">
                          {credential.secretHint}
                        </Text>
                      </Fact>
                      <Fact label="Key version">{credential.keyVersion}</Fact>
                      <Fact label="Last used">
                        {credential.lastUsedAt ? formatDateTime(credential.lastUsedAt) : 'Never'}
                      </Fact>
                      <Fact label="Created">{formatDateTime(credential.createdAt)}</Fact>
                    </SimpleGrid>
                    <Fact label="Publishable key">
                      <Text span ff="monospace" size="xs" style={{ wordBreak: 'break-all' }}>
                        {credential.publishableKey}
                      </Text>
                    </Fact>
                    {current.can(...WRITERS) && (
                      <Group>
                        <Button variant="default" onClick={() => setRegenerating(mode)}>
                          Regenerate the {modeName(mode)} key
                        </Button>
                      </Group>
                    )}
                  </>
                ) : mode === 'LIVE' ? (
                  <CreateLive canCreate={current.can('OWNER')} onCreated={setLive} />
                ) : (
                  <Text size="sm">No test credentials.</Text>
                )}
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
      {regenerating && (
        <RegenerateModal
          mode={regenerating}
          keyHint={credentials.find((item) => item.mode === regenerating)?.keyHint ?? ''}
          onClose={() => setRegenerating(null)}
        />
      )}
      {live && (
        <Dialog onClose={() => setLive(null)} title="Your live credentials">
          <Stack>
            <Alert color="gray" title="Shown once" role="note">
              Store the key and secret now: they cannot be shown again.
            </Alert>
            <ShownOnce label="API key" value={live.apiKey} testId="live-api-key" />
            <ShownOnce label="API secret" value={live.apiSecret} testId="live-api-secret" />
            <ShownOnce label="Publishable key" value={live.publishableKey} testId="live-publishable-key" />
            <Group justify="flex-end">
              <Button onClick={() => setLive(null)}>Done</Button>
            </Group>
          </Stack>
        </Dialog>
      )}
    </Stack>
  );
}

function RegenerateModal({ mode, keyHint, onClose }: { mode: Mode; keyHint: string; onClose: () => void }) {
  const [regenerate, { loading, data }] = useMutation(RegenerateApiKey, {
    refetchQueries: ['DeveloperCredentials'],
  });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const issued = data?.regenerateApiKey.regeneratedApiKey;

  const confirm = async () => {
    setRefusal([]);
    try {
      const result = await regenerate({ variables: { input: { mode } } });
      const payload = result.data?.regenerateApiKey;
      if (payload && !payload.regeneratedApiKey) setRefusal([...payload.userErrors]);
    } catch (error) {
      setRefusal(thrown(error));
    }
  };

  return (
    <Dialog
      onClose={onClose}
      title={issued ? `The new ${modeName(mode)} key` : `Regenerate the ${modeName(mode)} key?`}
    >
      {issued ? (
        <Stack>
          <Alert color="gray" title="Shown once" role="note">
            Store the key now: it cannot be shown again. The previous key no longer works.
          </Alert>
          <ShownOnce label="API key" value={issued.apiKey} testId="new-api-key" />
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            The current key ({keyHint}) and every token made from it <strong>stop working at once</strong>: update every
            server that uses it. The secret and the publishable key stay the same.
          </Text>
          <UserErrorsAlert errors={refusal} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button color="red" loading={loading} onClick={() => void confirm()}>
              Regenerate key
            </Button>
          </Group>
        </Stack>
      )}
    </Dialog>
  );
}

interface IssuedLive {
  apiKey: string;
  apiSecret: string;
  publishableKey: string;
}

function CreateLive({ canCreate, onCreated }: { canCreate: boolean; onCreated: (issued: IssuedLive) => void }) {
  const [create, { loading }] = useMutation(CreateLiveCredentials, {
    refetchQueries: ['DeveloperCredentials', 'DashboardShell'],
  });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);

  const submit = async () => {
    setRefusal([]);
    try {
      const result = await create();
      const payload = result.data?.createLiveCredentials;
      if (payload?.credentials) onCreated(payload.credentials);
      else if (payload) setRefusal([...payload.userErrors]);
    } catch (error) {
      setRefusal(thrown(error));
    }
  };

  return (
    <>
      <Text size="sm">
        No live credentials yet.{' '}
        {canCreate
          ? 'Create them once; the key and secret are shown only then.'
          : 'An OWNER of the business creates them, once.'}
      </Text>
      <UserErrorsAlert errors={refusal} />
      {canCreate && (
        <Group>
          <Button loading={loading} onClick={() => void submit()}>
            Create live credentials
          </Button>
        </Group>
      )}
    </>
  );
}
