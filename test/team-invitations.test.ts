import crypto from 'node:crypto';
import { TestMerchant, TestServer, startTestServer } from './support/harness';

/**
 * Finding 8, "Team members are added without consent": joining a team is an invitation the invitee
 * accepts; inviting reveals nothing about who has an account; a user of several businesses keeps a
 * working default business.
 */

const ERRORS = 'userErrors { field message code }';
const INVITE = `mutation($input: InviteTeamMemberInput!) {
  inviteTeamMember(input: $input) { teamInvitation { id email role status expiresAt createdAt business { id name } } ${ERRORS} }
}`;
const MINE = '{ myInvitations { edges { node { id role status business { id name } } } } }';
const ACCEPT = `mutation($id: ID!) { acceptTeamInvitation(input: { id: $id }) { membership { id role } ${ERRORS} } }`;
const DECLINE = `mutation($id: ID!) { declineTeamInvitation(input: { id: $id }) { teamInvitation { id status } ${ERRORS} } }`;
const REVOKE = `mutation($id: ID!) { revokeTeamInvitation(input: { id: $id }) { teamInvitation { id status } ${ERRORS} } }`;
const PENDING = '{ teamInvitations { edges { node { id email role status } } } }';
const nodes = (connection: { edges: Array<{ node: unknown }> }) => connection.edges.map((edge) => edge.node);
/** The one userError of a refused answer (its object null), e.g. an invitation that is not the caller's to answer. */
const refusal = (body: any, mutation: string) => {
  expect(body.errors).toBeUndefined();
  const { userErrors, ...objects } = body.data[mutation];
  expect(Object.values(objects)).toEqual([null]);
  expect(userErrors).toHaveLength(1);
  return userErrors[0];
};
const NOT_FOUND = { field: null, message: 'Invitation not found', code: 'NOT_FOUND' };

const bearer = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
const email = (label: string) => `${label}-${crypto.randomBytes(4).toString('hex')}@example.com`;

describe('team invitations', () => {
  let server: TestServer;
  let owner: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer();
    owner = await server.signUp({ businessName: 'Inviting Co' });
  });
  afterAll(async () => server.close());

  const gql = async (
    query: string,
    variables: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<any> => (await server.graphql(query, variables, headers)).body;
  const membershipsOf = async (userId: string): Promise<string[]> =>
    (await server.runtime.dataSource.query('SELECT business_id FROM memberships WHERE user_id = $1', [userId])).map(
      (row: any) => row.business_id,
    );

  test('inviting an email that has an account and one that has none answer exactly the same way', async () => {
    const existing = await server.signUp();
    const unknown = email('nobody');
    const answers = [];
    for (const address of [existing.email, unknown]) {
      const response = await server.graphql(INVITE, { input: { email: address, role: 'DEVELOPER' } }, bearer(owner));
      answers.push({ status: response.status, headers: response.headers.get('content-type'), body: response.body });
    }
    const shape = (answer: any) => {
      const invitation = answer.body.data.inviteTeamMember.teamInvitation;
      return {
        ...answer,
        body: {
          ...invitation,
          userErrors: answer.body.data.inviteTeamMember.userErrors,
          id: typeof invitation.id,
          email: typeof invitation.email,
          expiresAt: typeof invitation.expiresAt,
          createdAt: typeof invitation.createdAt,
        },
      };
    };
    expect(shape(answers[0])).toEqual(shape(answers[1]));
    expect(answers[0].body.data.inviteTeamMember.teamInvitation).toMatchObject({
      role: 'DEVELOPER',
      status: 'PENDING',
      business: { id: owner.businessId, name: 'Inviting Co' },
    });
    expect(await membershipsOf(existing.userId)).toEqual([existing.businessId]);
  });

  test("nobody joins without accepting: the invitee's memberships and default business stay as they were until then", async () => {
    const invitee = await server.signUp({ businessName: 'Own Co' });
    const invited = await gql(INVITE, { input: { email: invitee.email, role: 'ADMIN' } }, bearer(owner));
    expect(await membershipsOf(invitee.userId)).toEqual([invitee.businessId]);
    expect((await gql('{ business { id } }', {}, bearer(invitee))).data.business.id).toBe(invitee.businessId);

    const mine = await gql(MINE, {}, bearer(invitee));
    expect(nodes(mine.data.myInvitations)).toEqual([
      {
        id: invited.data.inviteTeamMember.teamInvitation.id,
        role: 'ADMIN',
        status: 'PENDING',
        business: { id: owner.businessId, name: 'Inviting Co' },
      },
    ]);
    const accepted = await gql(ACCEPT, { id: invited.data.inviteTeamMember.teamInvitation.id }, bearer(invitee));
    expect(accepted.data.acceptTeamInvitation).toEqual({
      membership: { id: expect.any(String), role: 'ADMIN' },
      userErrors: [],
    });
    expect((await membershipsOf(invitee.userId)).sort()).toEqual([invitee.businessId, owner.businessId].sort());
    expect(nodes((await gql(MINE, {}, bearer(invitee))).data.myInvitations)).toEqual([]);
  });

  test('a user in several businesses keeps a working default business without X-Service-Business-Id, and picks the others with it', async () => {
    const invitee = await server.signUp();
    await server.addTeamMember(owner, invitee, 'VIEWER');
    expect((await gql('{ business { id } }', {}, bearer(invitee))).data.business.id).toBe(invitee.businessId);
    const rest = await server.request('GET', '/api/v1/business/config', { headers: bearer(invitee) });
    expect(rest.status).toBe(200);
    expect(rest.body.data.businessId).toBe(invitee.businessId);
    const funded = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: bearer(invitee),
      body: { currency: 'USD', amount: '1.00' },
    });
    expect(funded.status).toBe(201);
    const picked = await gql(
      '{ business { id } }',
      {},
      { ...bearer(invitee), 'x-service-business-id': owner.businessId },
    );
    expect(picked.data.business.id).toBe(owner.businessId);
  });

  test('only the invitee sees and answers an invitation: anyone else gets NOT_FOUND, and an answered invitation cannot be answered again', async () => {
    const invitee = await server.signUp();
    const intruder = await server.signUp();
    const { id } = (await gql(INVITE, { input: { email: invitee.email, role: 'VIEWER' } }, bearer(owner))).data
      .inviteTeamMember.teamInvitation;
    expect(nodes((await gql(MINE, {}, bearer(intruder))).data.myInvitations)).toEqual([]);
    for (const [mutation, name] of [
      [ACCEPT, 'acceptTeamInvitation'],
      [DECLINE, 'declineTeamInvitation'],
    ]) {
      expect(refusal(await gql(mutation, { id }, bearer(intruder)), name)).toEqual(NOT_FOUND);
    }
    expect(await membershipsOf(intruder.userId)).toEqual([intruder.businessId]);
    expect((await gql(DECLINE, { id }, bearer(invitee))).data.declineTeamInvitation.teamInvitation.status).toBe(
      'DECLINED',
    );
    expect(refusal(await gql(ACCEPT, { id }, bearer(invitee)), 'acceptTeamInvitation')).toEqual(NOT_FOUND);
    expect(await membershipsOf(invitee.userId)).toEqual([invitee.businessId]);
    const apiKey = await server.graphql(MINE, {}, { 'x-api-key': invitee.apiKey });
    expect(apiKey.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  test('a revoked invitation can no longer be accepted; an ADMIN cannot invite as OWNER nor revoke an OWNER invitation', async () => {
    const admin = await server.signUp();
    await server.addTeamMember(owner, admin, 'ADMIN');
    const asAdmin = { ...bearer(admin), 'x-service-business-id': owner.businessId };
    const invitee = await server.signUp();
    expect(
      (await gql(INVITE, { input: { email: invitee.email, role: 'OWNER' } }, asAdmin)).errors[0].extensions.code,
    ).toBe('FORBIDDEN');
    const ownerInvite = (await gql(INVITE, { input: { email: invitee.email, role: 'OWNER' } }, bearer(owner))).data
      .inviteTeamMember.teamInvitation;
    expect((await gql(REVOKE, { id: ownerInvite.id }, asAdmin)).errors[0].extensions.code).toBe('FORBIDDEN');
    expect(nodes((await gql(PENDING, {}, asAdmin)).data.teamInvitations)).toEqual(
      expect.arrayContaining([{ id: ownerInvite.id, email: invitee.email, role: 'OWNER', status: 'PENDING' }]),
    );
    expect(
      (await gql(REVOKE, { id: ownerInvite.id }, bearer(owner))).data.revokeTeamInvitation.teamInvitation.status,
    ).toBe('REVOKED');
    expect(refusal(await gql(ACCEPT, { id: ownerInvite.id }, bearer(invitee)), 'acceptTeamInvitation')).toEqual(
      NOT_FOUND,
    );
    // Refused by the invitation's table now, not by a WHERE on PENDING: the same NOT_FOUND.
    expect(refusal(await gql(REVOKE, { id: ownerInvite.id }, bearer(owner)), 'revokeTeamInvitation')).toEqual(
      NOT_FOUND,
    );
    expect(await membershipsOf(invitee.userId)).toEqual([invitee.businessId]);
  });

  test('an invitation to an email without an account is waiting for that person once they sign up', async () => {
    const address = email('later');
    const { id } = (await gql(INVITE, { input: { email: address, role: 'DEVELOPER' } }, bearer(owner))).data
      .inviteTeamMember.teamInvitation;
    const newcomer = await server.signUp({ email: address });
    expect(
      nodes((await gql(MINE, {}, bearer(newcomer))).data.myInvitations).map((invitation: any) => invitation.id),
    ).toEqual([id]);
    expect((await gql(ACCEPT, { id }, bearer(newcomer))).data.acceptTeamInvitation.membership.role).toBe('DEVELOPER');
  });
  test('an invalid email is a VALIDATION_ERROR userError on input.email, and no invitation is written', async () => {
    const before = await server.runtime.dataSource.query(
      'SELECT count(*)::int AS n FROM team_invitations WHERE business_id = $1',
      [owner.businessId],
    );
    const response = await gql(INVITE, { input: { email: 'not an email', role: 'VIEWER' } }, bearer(owner));
    expect(response.errors).toBeUndefined();
    expect(response.data.inviteTeamMember).toEqual({
      teamInvitation: null,
      userErrors: [{ field: ['input', 'email'], message: expect.any(String), code: 'VALIDATION_ERROR' }],
    });
    const after = await server.runtime.dataSource.query(
      'SELECT count(*)::int AS n FROM team_invitations WHERE business_id = $1',
      [owner.businessId],
    );
    expect(after).toEqual(before);
  });

  test('inviting a member is a CONFLICT userError, and nothing is written', async () => {
    const member = await server.signUp();
    await server.addTeamMember(owner, member, 'VIEWER');
    const response = await gql(INVITE, { input: { email: member.email, role: 'ADMIN' } }, bearer(owner));
    expect(refusal(response, 'inviteTeamMember')).toEqual({
      field: null,
      message: 'This user is already a member',
      code: 'CONFLICT',
    });
    const rows = await server.runtime.dataSource.query(
      `SELECT 1 FROM team_invitations WHERE business_id = $1 AND email = $2 AND status = 'PENDING'`,
      [owner.businessId, member.email],
    );
    expect(rows).toEqual([]);
  });

  test('teamInvitations and myInvitations page newest first with a complete pageInfo', async () => {
    const inviter = await server.signUp();
    const invitee = await server.signUp();
    const others = await Promise.all([1, 2].map(() => server.signUp()));
    const ids: string[] = [];
    for (const address of [invitee.email, ...others.map((other) => other.email)]) {
      ids.push(
        (await gql(INVITE, { input: { email: address, role: 'VIEWER' } }, bearer(inviter))).data.inviteTeamMember
          .teamInvitation.id,
      );
    }
    const PAGE = `query($after: String) { teamInvitations(first: 2, after: $after) {
      edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
    const first = (await gql(PAGE, {}, bearer(inviter))).data.teamInvitations;
    expect(nodes(first)).toEqual([{ id: ids[2] }, { id: ids[1] }]);
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[1].cursor,
    });
    const second = (await gql(PAGE, { after: first.pageInfo.endCursor }, bearer(inviter))).data.teamInvitations;
    expect(nodes(second)).toEqual([{ id: ids[0] }]);
    expect(second.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: second.edges[0].cursor,
      endCursor: second.edges[0].cursor,
    });

    const other = await server.signUp();
    const second2 = (await gql(INVITE, { input: { email: invitee.email, role: 'ADMIN' } }, bearer(other))).data
      .inviteTeamMember.teamInvitation.id;
    const MY_PAGE =
      'query($after: String) { myInvitations(first: 1, after: $after) { edges { node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }';
    const mine = (await gql(MY_PAGE, {}, bearer(invitee))).data.myInvitations;
    expect(nodes(mine)).toEqual([{ id: second2 }]);
    expect(mine.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const rest = (await gql(MY_PAGE, { after: mine.pageInfo.endCursor }, bearer(invitee))).data.myInvitations;
    expect(nodes(rest)).toEqual([{ id: ids[0] }]);
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  test('node(id:) answers a pending invitation to its business and to its invitee, and null to anyone else or once answered', async () => {
    const invitee = await server.signUp();
    const stranger = await server.signUp();
    const { id } = (await gql(INVITE, { input: { email: invitee.email, role: 'VIEWER' } }, bearer(owner))).data
      .inviteTeamMember.teamInvitation;
    const NODE = 'query($id: ID!) { node(id: $id) { __typename id ... on TeamInvitation { status } } }';
    const expected = { __typename: 'TeamInvitation', id, status: 'PENDING' };
    expect((await gql(NODE, { id }, bearer(owner))).data.node).toEqual(expected);
    expect((await gql(NODE, { id }, bearer(invitee))).data.node).toEqual(expected);
    expect((await gql(NODE, { id }, bearer(stranger))).data.node).toBeNull();
    await gql(DECLINE, { id }, bearer(invitee));
    expect((await gql(NODE, { id }, bearer(invitee))).data.node).toBeNull();
  });
});
