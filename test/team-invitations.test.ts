import crypto from 'node:crypto';
import { TestMerchant, TestServer, startTestServer } from './support/harness';

/**
 * Finding 8, "Team members are added without consent": joining a team is an invitation the invitee
 * accepts; inviting reveals nothing about who has an account; a user of several businesses keeps a
 * working default business.
 */

const INVITE = 'mutation($input: InviteTeamMemberInput!) { inviteTeamMember(input: $input) { id email role status expiresAt createdAt business { id name } } }';
const MINE = '{ myInvitations { id role status business { id name } } }';
const ACCEPT = 'mutation($id: ID!) { acceptTeamInvitation(id: $id) { id role } }';
const DECLINE = 'mutation($id: ID!) { declineTeamInvitation(id: $id) { id status } }';
const REVOKE = 'mutation($id: ID!) { revokeTeamInvitation(id: $id) { id status } }';
const PENDING = '{ teamInvitations { id email role status } }';

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

  const gql = async (query: string, variables: Record<string, unknown>, headers: Record<string, string>): Promise<any> =>
    (await server.graphql(query, variables, headers)).body;
  const membershipsOf = async (userId: string): Promise<string[]> =>
    (await server.runtime.dataSource.query('SELECT business_id FROM memberships WHERE user_id = $1', [userId])).map((row: any) => row.business_id);

  test('inviting an email that has an account and one that has none answer exactly the same way', async () => {
    const existing = await server.signUp();
    const unknown = email('nobody');
    const answers = [];
    for (const address of [existing.email, unknown]) {
      const response = await server.graphql(INVITE, { input: { email: address, role: 'DEVELOPER' } }, bearer(owner));
      answers.push({ status: response.status, headers: response.headers.get('content-type'), body: response.body });
    }
    const shape = (answer: any) => {
      const invitation = answer.body.data.inviteTeamMember;
      return { ...answer, body: { ...invitation, id: typeof invitation.id, email: typeof invitation.email, expiresAt: typeof invitation.expiresAt, createdAt: typeof invitation.createdAt } };
    };
    expect(shape(answers[0])).toEqual(shape(answers[1]));
    expect(answers[0].body.data.inviteTeamMember).toMatchObject({ role: 'DEVELOPER', status: 'PENDING', business: { id: owner.businessId, name: 'Inviting Co' } });
    expect(await membershipsOf(existing.userId)).toEqual([existing.businessId]);
  });

  test("nobody joins without accepting: the invitee's memberships and default business stay as they were until then", async () => {
    const invitee = await server.signUp({ businessName: 'Own Co' });
    const invited = await gql(INVITE, { input: { email: invitee.email, role: 'ADMIN' } }, bearer(owner));
    expect(await membershipsOf(invitee.userId)).toEqual([invitee.businessId]);
    expect((await gql('{ business { id } }', {}, bearer(invitee))).data.business.id).toBe(invitee.businessId);

    const mine = await gql(MINE, {}, bearer(invitee));
    expect(mine.data.myInvitations).toEqual([{ id: invited.data.inviteTeamMember.id, role: 'ADMIN', status: 'PENDING', business: { id: owner.businessId, name: 'Inviting Co' } }]);
    const accepted = await gql(ACCEPT, { id: invited.data.inviteTeamMember.id }, bearer(invitee));
    expect(accepted.data.acceptTeamInvitation.role).toBe('ADMIN');
    expect((await membershipsOf(invitee.userId)).sort()).toEqual([invitee.businessId, owner.businessId].sort());
    expect((await gql(MINE, {}, bearer(invitee))).data.myInvitations).toEqual([]);
  });

  test('a user in several businesses keeps a working default business without X-Service-Business-Id, and picks the others with it', async () => {
    const invitee = await server.signUp();
    await server.addTeamMember(owner, invitee, 'VIEWER');
    expect((await gql('{ business { id } }', {}, bearer(invitee))).data.business.id).toBe(invitee.businessId);
    const rest = await server.request('GET', '/api/v1/business/config', { headers: bearer(invitee) });
    expect(rest.status).toBe(200);
    expect(rest.body.data.businessId).toBe(invitee.businessId);
    const funded = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', { headers: bearer(invitee), body: { currency: 'USD', amount: '1.00' } });
    expect(funded.status).toBe(201);
    const picked = await gql('{ business { id } }', {}, { ...bearer(invitee), 'x-service-business-id': owner.businessId });
    expect(picked.data.business.id).toBe(owner.businessId);
  });

  test('only the invitee sees and answers an invitation: anyone else gets NOT_FOUND, and an answered invitation cannot be answered again', async () => {
    const invitee = await server.signUp();
    const intruder = await server.signUp();
    const { id } = (await gql(INVITE, { input: { email: invitee.email, role: 'VIEWER' } }, bearer(owner))).data.inviteTeamMember;
    expect((await gql(MINE, {}, bearer(intruder))).data.myInvitations).toEqual([]);
    for (const mutation of [ACCEPT, DECLINE]) {
      expect((await gql(mutation, { id }, bearer(intruder))).errors[0].extensions.code).toBe('NOT_FOUND');
    }
    expect(await membershipsOf(intruder.userId)).toEqual([intruder.businessId]);
    expect((await gql(DECLINE, { id }, bearer(invitee))).data.declineTeamInvitation.status).toBe('DECLINED');
    expect((await gql(ACCEPT, { id }, bearer(invitee))).errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await membershipsOf(invitee.userId)).toEqual([invitee.businessId]);
    const apiKey = await server.graphql(MINE, {}, { 'x-api-key': invitee.apiKey });
    expect(apiKey.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  test('a revoked invitation can no longer be accepted; an ADMIN cannot invite as OWNER nor revoke an OWNER invitation', async () => {
    const admin = await server.signUp();
    await server.addTeamMember(owner, admin, 'ADMIN');
    const asAdmin = { ...bearer(admin), 'x-service-business-id': owner.businessId };
    const invitee = await server.signUp();
    expect((await gql(INVITE, { input: { email: invitee.email, role: 'OWNER' } }, asAdmin)).errors[0].extensions.code).toBe('FORBIDDEN');
    const ownerInvite = (await gql(INVITE, { input: { email: invitee.email, role: 'OWNER' } }, bearer(owner))).data.inviteTeamMember;
    expect((await gql(REVOKE, { id: ownerInvite.id }, asAdmin)).errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(PENDING, {}, asAdmin)).data.teamInvitations).toEqual(
      expect.arrayContaining([{ id: ownerInvite.id, email: invitee.email, role: 'OWNER', status: 'PENDING' }]));
    expect((await gql(REVOKE, { id: ownerInvite.id }, bearer(owner))).data.revokeTeamInvitation.status).toBe('REVOKED');
    expect((await gql(ACCEPT, { id: ownerInvite.id }, bearer(invitee))).errors[0].extensions.code).toBe('NOT_FOUND');
    expect(await membershipsOf(invitee.userId)).toEqual([invitee.businessId]);
  });

  test('an invitation to an email without an account is waiting for that person once they sign up', async () => {
    const address = email('later');
    const { id } = (await gql(INVITE, { input: { email: address, role: 'DEVELOPER' } }, bearer(owner))).data.inviteTeamMember;
    const newcomer = await server.signUp({ email: address });
    expect((await gql(MINE, {}, bearer(newcomer))).data.myInvitations.map((invitation: any) => invitation.id)).toEqual([id]);
    expect((await gql(ACCEPT, { id }, bearer(newcomer))).data.acceptTeamInvitation.role).toBe('DEVELOPER');
  });
});
