import crypto from 'node:crypto';
import { ApiResponse, TestMerchant, TestServer, startTestServer } from './support/harness';

/**
 * Tenant isolation (design section 4): one business never reads or changes another's rows, and
 * another business's ids answer 404 / NOT_FOUND, exactly like ids that do not exist.
 */

const WALLETS = '/api/v1/business/wallets';
const FUND = '/api/v1/business/sandbox/wallets/fund';
const CHANGE_ROLE = `mutation($id: ID!, $role: Role!) {
  changeTeamMemberRole(input: { membershipId: $id, role: $role }) { membership { id role } userErrors { field message code } }
}`;
const REMOVE_MEMBER =
  'mutation($id: ID!) { removeTeamMember(input: { id: $id }) { membership { id } userErrors { field message code } } }';

type Headers = Record<string, string>;

const notFoundEnvelope = { success: false, error: { code: 'NOT_FOUND', message: expect.any(String), statusCode: 404 } };

function expectNotFound(response: ApiResponse) {
  expect(response.status).toBe(404);
  expect(response.body).toEqual(notFoundEnvelope);
}

/** A mutation's NOT_FOUND: a userError without a field, and no object. */
function expectUserErrorNotFound(
  response: ApiResponse<{ data?: any; errors?: any[] }>,
  mutation: string,
  message: string,
) {
  expect(response.body.errors).toBeUndefined();
  expect(response.body.data[mutation]).toEqual({
    membership: null,
    userErrors: [{ field: null, message, code: 'NOT_FOUND' }],
  });
}

function expectGraphQLNotFound(response: ApiResponse<{ data?: any; errors?: any[] }>) {
  expect(response.body.errors).toEqual([
    expect.objectContaining({ extensions: expect.objectContaining({ code: 'NOT_FOUND' }) }),
  ]);
  expect(response.body.data ?? null).toBeNull();
}

describe('Tenant isolation', () => {
  let server: TestServer;
  let a: TestMerchant;
  let b: TestMerchant;
  let bWalletId: string;
  let bTransactionId: string;
  /** The three ways A can call: API key, API token, dashboard JWT. */
  let callersOfA: Array<[string, Headers]>;

  beforeAll(async () => {
    server = await startTestServer();
    a = await server.signUp();
    b = await server.signUp();
    for (const merchant of [a, b]) {
      const funded = await server.request('POST', FUND, {
        body: { currency: 'USD', amount: '10.00' },
        headers: { 'x-api-key': merchant.apiKey },
      });
      expect(funded.status).toBe(201);
      if (merchant === b) {
        bWalletId = funded.body.data.wallet.id;
        bTransactionId = funded.body.data.transactionId;
      }
    }
    const token = await server.request('POST', '/api/v1/business/auth/token', {
      body: { apiKey: a.apiKey, apiSecret: a.apiSecret },
    });
    callersOfA = [
      ['API key', { 'x-api-key': a.apiKey }],
      ['API token', { authorization: `Bearer ${token.body.data.accessToken}` }],
      ['dashboard JWT', { authorization: `Bearer ${a.token}` }],
    ];
  });
  afterAll(async () => server.close());

  test("A cannot read B's wallet by id over REST: 404, like an id that does not exist", async () => {
    for (const [, headers] of callersOfA) {
      expectNotFound(await server.request('GET', `${WALLETS}/${bWalletId}`, { headers }));
      expectNotFound(await server.request('GET', `${WALLETS}/${crypto.randomUUID()}`, { headers }));
    }
    expect(
      (await server.request('GET', `${WALLETS}/${bWalletId}`, { headers: { 'x-api-key': b.apiKey } })).status,
    ).toBe(200);
  });

  test("A cannot read the entries of B's wallet over REST: 404", async () => {
    for (const [, headers] of callersOfA) {
      expectNotFound(await server.request('GET', `${WALLETS}/${bWalletId}/entries`, { headers }));
    }
    const own = await server.request('GET', `${WALLETS}/${bWalletId}/entries`, { headers: { 'x-api-key': b.apiKey } });
    expect(own.body.data.items.map((entry: { transactionId: string }) => entry.transactionId)).toContain(
      bTransactionId,
    );
  });

  test("A cannot read B's wallet by id over GraphQL, nor its entries: NOT_FOUND", async () => {
    for (const [, headers] of callersOfA) {
      expectGraphQLNotFound(
        await server.graphql(
          'query($id: ID!) { wallet(id: $id) { id balance { amount } } }',
          { id: bWalletId },
          headers,
        ),
      );
      expectGraphQLNotFound(
        await server.graphql(
          'query($id: ID!) { wallet(id: $id) { entries(first: 5) { edges { node { id } } } } }',
          { id: bWalletId },
          headers,
        ),
      );
    }
  });

  test("A's wallet lists never include B's rows, on REST and GraphQL", async () => {
    const [aRows, bRows]: Array<Array<{ id: string }>> = await Promise.all(
      [a, b].map((merchant) =>
        server.runtime.dataSource.query(
          "SELECT id FROM ledger_accounts WHERE business_id = $1 AND kind = 'merchant_wallet' AND NOT livemode ORDER BY currency",
          [merchant.businessId],
        ),
      ),
    );
    expect(aRows.length).toBeGreaterThan(0);
    expect(bRows.map((row) => row.id)).toContain(bWalletId);

    for (const [, headers] of callersOfA) {
      const rest = await server.request('GET', WALLETS, { headers });
      expect(rest.body.data.items.map((wallet: { id: string }) => wallet.id)).toEqual(aRows.map((row) => row.id));
      const graphql = await server.graphql('{ wallets { id } }', {}, headers);
      expect(graphql.body.data.wallets.map((wallet: { id: string }) => wallet.id)).toEqual(aRows.map((row) => row.id));
    }
  });

  test("A's team list never includes B's members", async () => {
    const { body } = await server.graphql(
      '{ teamMembers { edges { node { id user { id email } } } } }',
      {},
      { authorization: `Bearer ${a.token}` },
    );
    expect(body.data.teamMembers.edges.map(({ node }: { node: { user: { id: string } } }) => node.user.id)).toEqual([
      a.userId,
    ]);
  });

  test("A's API key naming B in X-Service-Business-Id answers 404 / NOT_FOUND instead of acting for B", async () => {
    const headers = { 'x-api-key': a.apiKey, 'x-service-business-id': b.businessId };
    expectNotFound(await server.request('GET', WALLETS, { headers }));
    expectNotFound(await server.request('GET', `${WALLETS}/${bWalletId}`, { headers }));
    expectGraphQLNotFound(await server.graphql('{ wallets { id } }', {}, headers));
  });

  test("a dashboard user of A cannot re-role or remove B's memberships by id: NOT_FOUND, and B's team is unchanged", async () => {
    const bMember = await server.signUp();
    const bMembershipId = await server.addTeamMember(b, bMember, 'VIEWER');
    const [bOwnerMembership] = await server.runtime.dataSource.query(
      'SELECT id FROM memberships WHERE business_id = $1 AND user_id = $2',
      [b.businessId, b.userId],
    );
    const teamOfB = () =>
      server.runtime.dataSource.query('SELECT id, user_id, role FROM memberships WHERE business_id = $1 ORDER BY id', [
        b.businessId,
      ]);
    const before = await teamOfB();

    const asOwnerOfA = { authorization: `Bearer ${a.token}` };
    for (const id of [bMembershipId, bOwnerMembership.id]) {
      expectUserErrorNotFound(
        await server.graphql(CHANGE_ROLE, { id, role: 'OWNER' }, asOwnerOfA),
        'changeTeamMemberRole',
        'Member not found',
      );
      expectUserErrorNotFound(
        await server.graphql(CHANGE_ROLE, { id, role: 'VIEWER' }, asOwnerOfA),
        'changeTeamMemberRole',
        'Member not found',
      );
      expectUserErrorNotFound(
        await server.graphql(REMOVE_MEMBER, { id }, asOwnerOfA),
        'removeTeamMember',
        'Member not found',
      );
    }
    expect(await teamOfB()).toEqual(before);
  });

  test("a teammate's memberships show only the business the viewer shares with them, never their other businesses", async () => {
    // `shared` owns a private business and is also a DEVELOPER of A.
    const shared = await server.signUp({ businessName: `Private ${crypto.randomBytes(3).toString('hex')}` });
    await server.addTeamMember(a, shared, 'DEVELOPER');

    const response = await server.graphql(
      '{ teamMembers { edges { node { user { email memberships { role business { id name } } } } } } }',
      {},
      { authorization: `Bearer ${a.token}` },
    );
    expect(response.body.errors).toBeUndefined();
    const sharedView = response.body.data.teamMembers.edges
      .map(({ node }: { node: unknown }) => node)
      .find((member: { user: { email: string } }) => member.user.email === shared.email);
    expect(sharedView.user.memberships).toEqual([
      { role: 'DEVELOPER', business: { id: a.businessId, name: expect.any(String) } },
    ]);
    expect(JSON.stringify(response.body)).not.toContain(shared.businessId);

    // The member still sees all of their own businesses.
    const own = await server.graphql(
      '{ me { memberships { business { id } } } }',
      {},
      { authorization: `Bearer ${shared.token}` },
    );
    expect(own.body.data.me.memberships.map((m: { business: { id: string } }) => m.business.id).sort()).toEqual(
      [a.businessId, shared.businessId].sort(),
    );
  });

  describe('identity reads by id (the domain scopes them, whichever face asks)', () => {
    const asDashboardOf = (merchant: TestMerchant) =>
      server.runtime.core.identity.auth.authenticate(server.runtime.core.anonymousContext(), {
        bearerToken: merchant.token,
      });
    const asApiKeyOf = (merchant: TestMerchant) =>
      server.runtime.core.identity.auth.authenticate(server.runtime.core.anonymousContext(), {
        apiKey: merchant.apiKey,
      });
    const membershipOf = async (merchant: TestMerchant): Promise<string> =>
      (
        await server.runtime.dataSource.query('SELECT id FROM memberships WHERE business_id = $1 AND user_id = $2', [
          merchant.businessId,
          merchant.userId,
        ])
      )[0].id;

    test("a membership id of another business is not answered; the caller's own is", async () => {
      const { team } = server.runtime.core.identity;
      const [own, ofB] = [await membershipOf(a), await membershipOf(b)];
      for (const ctx of [await asDashboardOf(a), await asApiKeyOf(a)]) {
        expect((await team.membershipsByIds(ctx, [own, ofB])).map((membership) => membership.id)).toEqual([own]);
        expect(await team.membershipsOfUsers(ctx, [b.userId])).toEqual([]);
        expect(await team.usersByIds(ctx, [b.userId])).toEqual([]);
        expect(await team.businessesByIds(ctx, [b.businessId])).toEqual([]);
      }
    });

    test("the answers that reach identity rows another way keep them: a sign-in's user lists its memberships, a removed member's answer its user", async () => {
      const signedIn = await server.graphql(
        'mutation($input: SignInInput!) { signIn(input: $input) { session { user { memberships { business { id } } } } userErrors { code } } }',
        { input: { email: a.email, password: a.password } },
      );
      expect(
        signedIn.body.data.signIn.session.user.memberships.map((m: { business: { id: string } }) => m.business.id),
      ).toContain(a.businessId);

      const leaving = await server.signUp();
      const membershipId = await server.addTeamMember(a, leaving, 'VIEWER');
      const removed = await server.graphql(
        'mutation($id: ID!) { removeTeamMember(input: { id: $id }) { membership { id user { email } } userErrors { code } } }',
        { id: membershipId },
        { authorization: `Bearer ${a.token}` },
      );
      expect(removed.body.data.removeTeamMember).toEqual({
        membership: { id: membershipId, user: { email: leaving.email } },
        userErrors: [],
      });
    });

    test("a teammate's memberships in other businesses are not answered, the caller's own in every business are", async () => {
      const { team } = server.runtime.core.identity;
      const teammate = await server.signUp();
      await server.addTeamMember(a, teammate, 'VIEWER');
      const ofTeammate = await team.membershipsOfUsers(await asDashboardOf(a), [teammate.userId]);
      expect(ofTeammate.map((membership) => membership.businessId)).toEqual([a.businessId]);
      const own = await team.membershipsOfUsers(await asDashboardOf(teammate), [teammate.userId]);
      expect(own.map((membership) => membership.businessId).sort()).toEqual([a.businessId, teammate.businessId].sort());
      expect(await team.businessesByIds(await asDashboardOf(a), [teammate.businessId])).toEqual([]);
    });
  });

  test('a dashboard user of A naming B in X-Service-Business-Id answers 404 / NOT_FOUND', async () => {
    expectNotFound(
      await server.request('GET', '/api/v1/business/config', {
        headers: { authorization: `Bearer ${a.token}`, 'x-service-business-id': b.businessId },
      }),
    );
    expectGraphQLNotFound(
      await server.graphql(
        'query($id: ID!) { wallet(id: $id) { id } }',
        { id: bWalletId },
        { authorization: `Bearer ${a.token}`, 'x-service-business-id': b.businessId },
      ),
    );
  });
});
