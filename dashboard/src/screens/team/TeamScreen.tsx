import { useMutation, useQuery } from '@apollo/client/react';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { createColumnHelper } from '@tanstack/react-table';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { graphql } from '../../gql';
import type { Role, TeamMembersQuery } from '../../gql/graphql';
import { useCurrent } from '../../shell/current';
import { DataTable, useCursorPages } from '../../ui/DataTable';
import { Empty, LoadError, Loading } from '../../ui/QueryState';
import { UserErrorsAlert, applyUserErrors, type UserErrorValue } from '../../ui/UserErrors';
import { formatDate, formatDateTime, humanize } from '../../ui/format';
import { screenQuery, type ScreenPrefetch } from '../../api/prefetch';

const TeamMembers = graphql(`
  query TeamMembers($first: Int, $after: String) {
    teamMembers(first: $first, after: $after) {
      edges {
        node {
          id
          role
          createdAt
          user {
            id
            name
            email
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);

const TeamInvitations = graphql(`
  query TeamInvitations {
    teamInvitations(first: 100) {
      edges {
        node {
          id
          email
          role
          status
          expiresAt
          createdAt
        }
      }
    }
  }
`);

const MyInvitations = graphql(`
  query MyInvitations {
    myInvitations(first: 100) {
      edges {
        node {
          id
          role
          expiresAt
          business {
            id
            name
          }
        }
      }
    }
  }
`);

const InviteTeamMember = graphql(`
  mutation DashboardInviteTeamMember($input: InviteTeamMemberInput!) {
    inviteTeamMember(input: $input) {
      teamInvitation {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const RevokeTeamInvitation = graphql(`
  mutation DashboardRevokeTeamInvitation($input: RevokeTeamInvitationInput!) {
    revokeTeamInvitation(input: $input) {
      teamInvitation {
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

const ChangeTeamMemberRole = graphql(`
  mutation DashboardChangeTeamMemberRole($input: ChangeTeamMemberRoleInput!) {
    changeTeamMemberRole(input: $input) {
      membership {
        id
        role
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const RemoveTeamMember = graphql(`
  mutation DashboardRemoveTeamMember($input: RemoveTeamMemberInput!) {
    removeTeamMember(input: $input) {
      membership {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const AcceptTeamInvitation = graphql(`
  mutation DashboardAcceptTeamInvitation($input: AcceptTeamInvitationInput!) {
    acceptTeamInvitation(input: $input) {
      membership {
        id
        role
        business {
          id
          name
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

const DeclineTeamInvitation = graphql(`
  mutation DashboardDeclineTeamInvitation($input: DeclineTeamInvitationInput!) {
    declineTeamInvitation(input: $input) {
      teamInvitation {
        id
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`);

const ROLES: Role[] = ['OWNER', 'ADMIN', 'DEVELOPER', 'VIEWER'];
/** Who may manage the team (docs/graphql-api.md, Roles); OWNER is granted, taken or removed by an OWNER only. */
const MANAGERS: Role[] = ['OWNER', 'ADMIN'];

const done = (message: string) =>
  notifications.show({ color: 'green', message, closeButtonProps: { 'aria-label': 'Dismiss' } });

const thrown = (error: unknown): UserErrorValue[] => [
  { field: null, code: 'ERROR', message: (error as Error).message },
];

export const prefetch: ScreenPrefetch = () => [
  screenQuery(MyInvitations, {}),
  screenQuery(TeamMembers, { first: 25, after: null }),
  screenQuery(TeamInvitations, {}),
];

/** The team of the business (members, pending invitations) and the signed-in user's own invitations. */
export default function TeamScreen() {
  return (
    <Stack>
      <Title order={2}>Team</Title>
      <MyInvitationsSection />
      <MembersSection />
      <InvitationsSection />
    </Stack>
  );
}

/** The invitations sent to the signed-in user, by any business: accepting one adds it to the header's business switch. */
function MyInvitationsSection() {
  const { data, error, refetch } = useQuery(MyInvitations);
  const [accept, accepting] = useMutation(AcceptTeamInvitation, {
    refetchQueries: ['DashboardShell', 'MyInvitations'],
  });
  const [decline, declining] = useMutation(DeclineTeamInvitation, { refetchQueries: ['MyInvitations'] });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const invitations = data?.myInvitations.edges.map((edge) => edge.node) ?? [];
  if (error) return <LoadError error={error} retry={() => void refetch()} />;
  if (invitations.length === 0) return null;

  const answer = async (id: string, yes: boolean) => {
    setRefusal([]);
    try {
      if (yes) {
        const { data: result } = await accept({ variables: { input: { id } } });
        const payload = result?.acceptTeamInvitation;
        if (payload?.membership)
          done(`You joined ${payload.membership.business.name}: switch to it in the header's business menu`);
        else if (payload) setRefusal([...payload.userErrors]);
      } else {
        const { data: result } = await decline({ variables: { input: { id } } });
        const payload = result?.declineTeamInvitation;
        if (payload?.teamInvitation) done('Invitation declined');
        else if (payload) setRefusal([...payload.userErrors]);
      }
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  };

  return (
    <Card withBorder component="section" aria-labelledby="my-invitations-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="my-invitations-title">
          Your invitations
        </Title>
        <UserErrorsAlert errors={refusal} />
        <Table>
          <caption className="visually-hidden">Your invitations</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Business</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Answer</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invitations.map((invitation) => (
              <Table.Tr key={invitation.id} data-invitation-id={invitation.id}>
                <Table.Td>{invitation.business.name}</Table.Td>
                <Table.Td>{humanize(invitation.role)}</Table.Td>
                <Table.Td>{formatDate(invitation.expiresAt)}</Table.Td>
                <Table.Td>
                  <Group gap="xs">
                    <Button
                      size="xs"
                      loading={accepting.loading}
                      onClick={() => void answer(invitation.id, true)}
                      aria-label={`Accept the invitation of ${invitation.business.name}`}
                    >
                      Accept
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      loading={declining.loading}
                      onClick={() => void answer(invitation.id, false)}
                      aria-label={`Decline the invitation of ${invitation.business.name}`}
                    >
                      Decline
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}

type Member = TeamMembersQuery['teamMembers']['edges'][number]['node'];
const memberColumn = createColumnHelper<Member>();

function MembersSection() {
  const current = useCurrent();
  const pages = useCursorPages(25);
  const { data, loading, error, refetch } = useQuery(TeamMembers, { variables: pages.variables });
  const [changeRole] = useMutation(ChangeTeamMemberRole);
  const [remove] = useMutation(RemoveTeamMember, { refetchQueries: ['TeamMembers'] });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const members = data?.teamMembers.edges.map((edge) => edge.node) ?? [];
  const owner = current.can('OWNER');

  /** An OWNER manages everyone but themselves; an ADMIN everyone but OWNERs and themselves. */
  const manageable = (member: Member) =>
    current.can(...MANAGERS) && member.user.id !== current.user.id && (owner || member.role !== 'OWNER');

  const act = async (run: () => Promise<readonly UserErrorValue[] | null>, message: string) => {
    setRefusal([]);
    try {
      const errors = await run();
      if (errors && errors.length > 0) setRefusal([...errors]);
      else done(message);
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  };

  const columns = [
    memberColumn.accessor((row) => row.user.name, { id: 'name', header: 'Name' }),
    memberColumn.accessor((row) => row.user.email, { id: 'email', header: 'Email' }),
    memberColumn.accessor('role', {
      header: 'Role',
      cell: ({ row }) =>
        manageable(row.original) ? (
          <NativeSelect
            aria-label={`Role of ${row.original.user.email}`}
            size="xs"
            w={150}
            value={row.original.role}
            data={ROLES.filter((role) => owner || role !== 'OWNER').map((role) => ({
              value: role,
              label: humanize(role),
            }))}
            onChange={(event) => {
              const role = event.currentTarget.value as Role;
              if (role === row.original.role) return;
              void act(
                async () => {
                  const { data: result } = await changeRole({
                    variables: { input: { membershipId: row.original.id, role: role } },
                  });
                  return result?.changeTeamMemberRole.userErrors ?? null;
                },
                `${row.original.user.email} is now ${humanize(role)}`,
              );
            }}
          />
        ) : (
          humanize(row.original.role)
        ),
    }),
    memberColumn.accessor('createdAt', { header: 'Joined', cell: ({ getValue }) => formatDate(getValue()) }),
    memberColumn.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row }) =>
        manageable(row.original) ? (
          <Button
            size="xs"
            variant="default"
            aria-label={`Remove ${row.original.user.email}`}
            onClick={() =>
              void act(async () => {
                const { data: result } = await remove({ variables: { input: { id: row.original.id } } });
                return result?.removeTeamMember.userErrors ?? null;
              }, `${row.original.user.email} was removed`)
            }
          >
            Remove
          </Button>
        ) : row.original.user.id === current.user.id ? (
          <Text size="sm" c="dimmed">
            You
          </Text>
        ) : null,
    }),
  ];

  return (
    <Stack gap="sm" component="section" aria-labelledby="members-title">
      <Title order={3} size="h4" id="members-title">
        Members
      </Title>
      <UserErrorsAlert errors={refusal} />
      {error ? (
        <LoadError error={error} retry={() => void refetch()} />
      ) : loading && !data ? (
        <Loading label="Loading the team…" />
      ) : members.length === 0 ? (
        <Empty title="No members">Invite someone below.</Empty>
      ) : (
        <DataTable
          caption="Team members"
          data={members}
          columns={columns}
          rowId={(row) => row.id}
          paging={{
            page: pages.page,
            hasNextPage: data?.teamMembers.pageInfo.hasNextPage ?? false,
            next: () => pages.next(data?.teamMembers.pageInfo.endCursor),
            previous: pages.previous,
          }}
        />
      )}
    </Stack>
  );
}

const inviteSchema = z.object({
  email: z
    .string()
    .trim()
    .refine((value) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value), 'Enter an email address'),
  role: z.enum(['OWNER', 'ADMIN', 'DEVELOPER', 'VIEWER']),
});
type InviteValues = z.infer<typeof inviteSchema>;

function InvitationsSection() {
  const current = useCurrent();
  const owner = current.can('OWNER');
  const { data, loading, error, refetch } = useQuery(TeamInvitations);
  const [revoke] = useMutation(RevokeTeamInvitation, { refetchQueries: ['TeamInvitations'] });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const invitations = data?.teamInvitations.edges.map((edge) => edge.node) ?? [];

  const revokeOne = async (id: string, email: string) => {
    setRefusal([]);
    try {
      const { data: result } = await revoke({ variables: { input: { id } } });
      const payload = result?.revokeTeamInvitation;
      if (payload?.teamInvitation) done(`The invitation of ${email} was revoked`);
      else if (payload) setRefusal([...payload.userErrors]);
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="invitations-title">
      <Title order={3} size="h4" id="invitations-title">
        Invitations
      </Title>
      {current.can(...MANAGERS) && <InviteForm owner={owner} />}
      <UserErrorsAlert errors={refusal} />
      {error ? (
        <LoadError error={error} retry={() => void refetch()} />
      ) : loading && !data ? (
        <Loading label="Loading the invitations…" />
      ) : invitations.length === 0 ? (
        <Empty title="No pending invitations">
          {current.can(...MANAGERS)
            ? 'Invite someone by email: they join once they accept, signed in with that address.'
            : 'An owner or admin invites new members.'}
        </Empty>
      ) : (
        <Table>
          <caption className="visually-hidden">Pending invitations</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Email</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Sent</Table.Th>
              <Table.Th>Expires</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invitations.map((invitation) => (
              <Table.Tr key={invitation.id} data-invitation-id={invitation.id}>
                <Table.Td>{invitation.email}</Table.Td>
                <Table.Td>{humanize(invitation.role)}</Table.Td>
                <Table.Td>{formatDateTime(invitation.createdAt)}</Table.Td>
                <Table.Td>{formatDate(invitation.expiresAt)}</Table.Td>
                <Table.Td>
                  {current.can(...MANAGERS) && (owner || invitation.role !== 'OWNER') && (
                    <Button
                      size="xs"
                      variant="default"
                      aria-label={`Revoke the invitation of ${invitation.email}`}
                      onClick={() => void revokeOne(invitation.id, invitation.email)}
                    >
                      Revoke
                    </Button>
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

function InviteForm({ owner }: { owner: boolean }) {
  const [invite, { loading }] = useMutation(InviteTeamMember, { refetchQueries: ['TeamInvitations'] });
  const [refusal, setRefusal] = useState<UserErrorValue[]>([]);
  const form = useForm<InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { email: '', role: 'DEVELOPER' },
  });

  const submit = form.handleSubmit(async (input) => {
    setRefusal([]);
    try {
      const { data } = await invite({ variables: { input } });
      const result = data?.inviteTeamMember;
      if (result?.teamInvitation) {
        form.reset();
        done(`${input.email} was invited`);
      } else if (result) setRefusal(applyUserErrors(result.userErrors, form.setError, ['email', 'role']));
    } catch (caught) {
      setRefusal(thrown(caught));
    }
  });

  return (
    <Card withBorder component="form" onSubmit={(event) => void submit(event)} noValidate aria-label="Invite a member">
      <Stack gap="sm">
        <UserErrorsAlert errors={refusal} />
        <Group align="flex-start">
          <TextInput
            label="Email"
            type="email"
            placeholder="colleague@example.com"
            w={280}
            {...form.register('email')}
            error={form.formState.errors.email?.message}
          />
          <Controller
            control={form.control}
            name="role"
            render={({ field, fieldState }) => (
              <NativeSelect
                label="Role"
                w={180}
                value={field.value}
                onChange={(event) => field.onChange(event.currentTarget.value)}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
                data={ROLES.filter((role) => owner || role !== 'OWNER').map((role) => ({
                  value: role,
                  label: humanize(role),
                }))}
              />
            )}
          />
        </Group>
        <Group>
          <Button type="submit" variant="default" loading={loading}>
            Invite
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
