import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import {
  ApiResponse,
  TestMerchant,
  TestServer,
  codeIn,
  overSocket,
  startTestServer,
  waitUntil,
} from './support/harness';

/**
 * The dashboard's identity operations over GraphQL: sign-up, sign-in, the active business, team
 * and roles, live credentials (design section 4; docs/graphql-api.md, Authentication and Roles).
 */

const JWT_SECRET = 'test-jwt-secret';
const CONFIG = '/api/v1/business/config';

type GraphQLResponse = ApiResponse<{ data?: any; errors?: any[] }>;
type Headers = Record<string, string>;

const ERRORS = 'userErrors { field message code }';
const SIGN_UP = `mutation($input: SignUpInput!) { signUp(input: $input) { pendingSignUp { signUpToken expiresIn } ${ERRORS} } }`;
const CONFIRM_SIGN_UP = `mutation($signUpToken: String!, $code: String!) {
  confirmSignUp(input: { signUpToken: $signUpToken, code: $code }) {
    account { token expiresIn user { id email name } business { id name email } testCredentials { mode apiKey apiSecret } }
    ${ERRORS}
  }
}`;
const SIGN_IN = `mutation($input: SignInInput!) { signIn(input: $input) { session { token expiresIn user { id email } } ${ERRORS} } }`;
const ME = '{ me { id email name memberships { role business { id name } } } }';
const INVITE = `mutation($input: InviteTeamMemberInput!) { inviteTeamMember(input: $input) { teamInvitation { id email role status business { id } } ${ERRORS} } }`;
const CHANGE_ROLE = `mutation($id: ID!, $role: Role!) { changeTeamMemberRole(input: { membershipId: $id, role: $role }) { membership { id role } ${ERRORS} } }`;
const REMOVE_MEMBER = `mutation($id: ID!) { removeTeamMember(input: { id: $id }) { membership { id role } ${ERRORS} } }`;
const TEAM = '{ teamMembers { edges { node { id role user { id email } } } } }';
const CREATE_LIVE = `mutation { createLiveCredentials { credentials { mode apiKey apiSecret } ${ERRORS} } }`;
const REGENERATE = (mode: string, fields: string) =>
  `mutation { regenerateApiKey(input: { mode: ${mode} }) { regeneratedApiKey { ${fields} } ${ERRORS} } }`;

const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
const inBusiness = (member: { token: string }, businessId: string): Headers => ({
  ...bearer(member.token),
  'x-service-business-id': businessId,
});

/** The response failed with exactly one error of this `extensions.code`, and returned no data for it. */
function expectGraphQLError(response: GraphQLResponse, code: string) {
  expect(response.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code }) })]);
  expect(response.body.data ?? null).toBeNull();
}

function expectData(response: GraphQLResponse) {
  expect(response.body.errors).toBeUndefined();
  return response.body.data;
}

/** The mutation answered one userError (and no object): a failure the caller fixes, with nothing written. */
function expectUserError(
  response: GraphQLResponse,
  mutation: string,
  userError: { field: string[] | null; message: unknown; code: string },
) {
  const { userErrors, ...objects } = expectData(response)[mutation];
  expect(Object.values(objects)).toEqual([null]);
  expect(userErrors).toEqual([userError]);
}

/** What a mutation came to: OK, or the code of its GraphQL error or of its userError. */
const outcomeOf = (response: GraphQLResponse, mutation: string): string =>
  response.body.errors?.[0]?.extensions?.code ?? response.body.data?.[mutation]?.userErrors[0]?.code ?? 'OK';

const nodesOf = (connection: { edges: Array<{ node: any }> }) => connection.edges.map((edge) => edge.node);

const uniqueEmail = (label: string) => `${label}-${crypto.randomBytes(4).toString('hex')}@example.com`;

describe('Dashboard identity over GraphQL', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  const gql = (query: string, variables: Record<string, unknown> = {}, headers: Headers = {}) =>
    server.graphql(query, variables, headers) as Promise<GraphQLResponse>;

  async function usersWithEmail(email: string): Promise<number> {
    const [row] = await server.runtime.dataSource.query(
      'SELECT count(*)::int AS count FROM users WHERE lower(email) = lower($1)',
      [email],
    );
    return row.count;
  }

  /** Adds `member` to the business whose OWNER is `owner` (invitation, then acceptance), and returns the membership id. */
  const addMember = (owner: TestMerchant, member: TestMerchant, role: string): Promise<string> =>
    server.addTeamMember(owner, member, role);

  async function membershipIdOf(owner: TestMerchant, userId: string, businessId = owner.businessId): Promise<string> {
    const [row] = await server.runtime.dataSource.query(
      'SELECT id FROM memberships WHERE user_id = $1 AND business_id = $2',
      [userId, businessId],
    );
    return row.id;
  }

  async function rolesOf(businessId: string): Promise<Record<string, string>> {
    const rows: Array<{ user_id: string; role: string }> = await server.runtime.dataSource.query(
      'SELECT user_id, role FROM memberships WHERE business_id = $1',
      [businessId],
    );
    return Object.fromEntries(rows.map((row) => [row.user_id, row.role]));
  }

  describe('sign-up and sign-in', () => {
    test('signUp answers a sign-up token and mails a code; confirmSignUp with it returns a dashboard token, the user, the business and its test credentials', async () => {
      const email = uniqueEmail('signup');
      const started = await gql(SIGN_UP, {
        input: { email, password: 'correct horse battery', name: 'Ada', businessName: 'Ada Co' },
      });
      expect(expectData(started).signUp).toEqual({
        pendingSignUp: { signUpToken: expect.stringMatching(/^su_[A-Za-z0-9_-]{43}$/), expiresIn: 900 },
        userErrors: [],
      });
      expect(await usersWithEmail(email)).toBe(0);
      const [mail] = await server.mailTo(email);
      expect(mail.subject).toBe('Your Tessera sign-up code');

      const response = await gql(CONFIRM_SIGN_UP, {
        signUpToken: started.body.data!.signUp.pendingSignUp.signUpToken,
        code: codeIn(mail),
      });
      expect(expectData(response).confirmSignUp.userErrors).toEqual([]);
      const confirmSignUp = expectData(response).confirmSignUp.account;
      expect(confirmSignUp).toEqual({
        token: expect.any(String),
        expiresIn: 3600,
        user: { id: expect.any(String), email, name: 'Ada' },
        business: { id: expect.any(String), name: 'Ada Co', email },
        testCredentials: {
          mode: 'TEST',
          apiKey: expect.stringMatching(/^bk_test_/),
          apiSecret: expect.stringMatching(/^bs_test_/),
        },
      });

      const config = await server.request('GET', CONFIG, {
        headers: { 'x-api-key': confirmSignUp.testCredentials.apiKey },
      });
      expect(config.body.data).toMatchObject({ businessId: confirmSignUp.business.id, livemode: false });
      const token = await server.request('POST', '/api/v1/business/auth/token', {
        body: { apiKey: confirmSignUp.testCredentials.apiKey, apiSecret: confirmSignUp.testCredentials.apiSecret },
      });
      expect(token.status).toBe(200);
      const signIn = expectData(await gql(SIGN_IN, { input: { email, password: 'correct horse battery' } })).signIn
        .session;
      expect(signIn.user.id).toBe(confirmSignUp.user.id);
    });

    test('signUp makes the new user the OWNER of the new business', async () => {
      const owner = await server.signUp();
      const { me } = expectData(await gql(ME, {}, bearer(owner.token)));
      expect(me.memberships).toEqual([{ role: 'OWNER', business: { id: owner.businessId, name: expect.any(String) } }]);
    });

    test('test credentials are shown once: afterwards apiCredentials returns only hints', async () => {
      const owner = await server.signUp();
      const { apiCredentials } = expectData(
        await gql('{ apiCredentials { mode keyHint secretHint keyVersion } }', {}, bearer(owner.token)),
      );
      expect(apiCredentials).toEqual([
        {
          mode: 'TEST',
          keyHint: `${owner.apiKey.slice(0, 12)}…`,
          secretHint: `${owner.apiSecret.slice(0, 12)}…`,
          keyVersion: 1,
        },
      ]);
      const askForKey = await gql('{ apiCredentials { apiKey } }', {}, bearer(owner.token));
      expect(askForKey.body.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    });

    test('signIn with the right password returns an HS256 dashboard JWT that works for me', async () => {
      const owner = await server.signUp();
      const { signIn } = expectData(await gql(SIGN_IN, { input: { email: owner.email, password: owner.password } }));
      expect(signIn).toEqual({
        session: { token: expect.any(String), expiresIn: 3600, user: { id: owner.userId, email: owner.email } },
        userErrors: [],
      });
      const claims = jwt.verify(signIn.session.token, JWT_SECRET, {
        algorithms: ['HS256'],
        issuer: 'tessera',
      }) as jwt.JwtPayload;
      expect(claims).toMatchObject({ kind: 'dashboard', sub: owner.userId });
      expect(claims.exp! - claims.iat!).toBe(3600);

      const { me } = expectData(await gql(ME, {}, bearer(signIn.session.token)));
      expect(me).toMatchObject({ id: owner.userId, email: owner.email });
    });

    test('signIn ignores the case of the email', async () => {
      const owner = await server.signUp();
      const response = await gql(SIGN_IN, { input: { email: owner.email.toUpperCase(), password: owner.password } });
      expect(expectData(response).signIn.session.user.id).toBe(owner.userId);
    });

    test('signIn with a wrong password answers the userError UNAUTHORIZED without a field, and no session', async () => {
      const owner = await server.signUp();
      const response = await gql(SIGN_IN, { input: { email: owner.email, password: `${owner.password}!` } });
      expectUserError(response, 'signIn', { field: null, message: 'Invalid email or password', code: 'UNAUTHORIZED' });
    });

    test('signIn with an unknown email answers exactly what a wrong password answers', async () => {
      const owner = await server.signUp();
      const unknown = await gql(SIGN_IN, { input: { email: uniqueEmail('nobody'), password: owner.password } });
      const wrong = await gql(SIGN_IN, { input: { email: owner.email, password: 'wrong password here' } });
      expectUserError(unknown, 'signIn', { field: null, message: 'Invalid email or password', code: 'UNAUTHORIZED' });
      expect(unknown.status).toBe(wrong.status);
      expect(unknown.body).toEqual(wrong.body);
    });

    test('me returns the signed-in user with the dashboard JWT', async () => {
      const owner = await server.signUp();
      const { me } = expectData(await gql(ME, {}, bearer(owner.token)));
      expect(me).toEqual({
        id: owner.userId,
        email: owner.email,
        name: 'Ada Owner',
        memberships: [expect.any(Object)],
      });
    });

    test('me without credentials answers UNAUTHENTICATED', async () => {
      expectGraphQLError(await gql(ME), 'UNAUTHENTICATED');
    });

    test('me with a garbage or forged bearer token answers UNAUTHENTICATED', async () => {
      const owner = await server.signUp();
      const forgedNone = jwt.sign({ kind: 'dashboard', sub: owner.userId }, null as unknown as string, {
        algorithm: 'none',
        issuer: 'tessera',
        expiresIn: 60,
      });
      const forgedSecret = jwt.sign({ kind: 'dashboard', sub: owner.userId }, 'not-the-secret', {
        algorithm: 'HS256',
        issuer: 'tessera',
        expiresIn: 60,
      });
      const now = Math.floor(Date.now() / 1000);
      const expired = jwt.sign({ kind: 'dashboard', sub: owner.userId, iat: now - 7200, exp: now - 1 }, JWT_SECRET, {
        algorithm: 'HS256',
        issuer: 'tessera',
      });
      for (const token of ['garbage', forgedNone, forgedSecret, expired]) {
        expectGraphQLError(await gql(ME, {}, bearer(token)), 'UNAUTHENTICATED');
      }
    });

    test('me with API credentials answers UNAUTHENTICATED: it is for dashboard users only', async () => {
      const owner = await server.signUp();
      expectGraphQLError(await gql(ME, {}, { 'x-api-key': owner.apiKey }), 'UNAUTHENTICATED');
    });

    // A registered email, wrong or expired codes and concurrent confirmations: test/sign-up-enumeration.test.ts.

    test('signUp with a short password and a malformed email answers VALIDATION_ERROR userErrors per field, and creates no user', async () => {
      const email = 'not-an-email';
      const response = await gql(SIGN_UP, { input: { email, password: 'short', name: 'Bob', businessName: 'Bob Co' } });
      expect(expectData(response).signUp).toEqual({
        pendingSignUp: null,
        userErrors: [
          { field: ['input', 'email'], message: expect.any(String), code: 'VALIDATION_ERROR' },
          { field: ['input', 'password'], message: 'must be at least 10 characters', code: 'VALIDATION_ERROR' },
        ],
      });
      expect(await usersWithEmail(email)).toBe(0);
      expect(await server.mailTo(email)).toEqual([]);
    });

    test('signUp with a blank name and business name answers VALIDATION_ERROR userErrors naming both fields, and creates no user', async () => {
      const email = uniqueEmail('blank');
      const response = await gql(SIGN_UP, {
        input: { email, password: 'correct horse battery', name: '  ', businessName: '' },
      });
      const { pendingSignUp, userErrors } = expectData(response).signUp;
      expect(pendingSignUp).toBeNull();
      expect(userErrors.map((error: { field: string[] }) => error.field.join('.')).sort()).toEqual([
        'input.businessName',
        'input.name',
      ]);
      expect(userErrors.every((error: { code: string }) => error.code === 'VALIDATION_ERROR')).toBe(true);
      expect(await usersWithEmail(email)).toBe(0);
      expect(await server.mailTo(email)).toEqual([]);
    });
  });

  describe('X-Service-Business-Id picks the active business of a dashboard user', () => {
    let member: TestMerchant;
    let otherOwner: TestMerchant;
    let stranger: TestMerchant;

    beforeAll(async () => {
      member = await server.signUp();
      otherOwner = await server.signUp();
      stranger = await server.signUp();
      await addMember(otherOwner, member, 'DEVELOPER');
    });

    test('a user of two businesses picks each of them with the header, on GraphQL and REST', async () => {
      for (const businessId of [member.businessId, otherOwner.businessId]) {
        const { business } = expectData(await gql('{ business { id } }', {}, inBusiness(member, businessId)));
        expect(business.id).toBe(businessId);
        const config = await server.request('GET', CONFIG, { headers: inBusiness(member, businessId) });
        expect(config.status).toBe(200);
        expect(config.body.data.businessId).toBe(businessId);
      }
    });

    test('me lists both memberships with their roles', async () => {
      const { me } = expectData(await gql(ME, {}, bearer(member.token)));
      expect(me.memberships.map((m: any) => [m.business.id, m.role]).sort()).toEqual(
        [
          [member.businessId, 'OWNER'],
          [otherOwner.businessId, 'DEVELOPER'],
        ].sort(),
      );
    });

    test('the header also picks the role: the member is OWNER in one business and DEVELOPER in the other', async () => {
      const newcomer = await server.signUp();
      const asDeveloper = await gql(
        INVITE,
        { input: { email: newcomer.email, role: 'VIEWER' } },
        inBusiness(member, otherOwner.businessId),
      );
      expectGraphQLError(asDeveloper, 'FORBIDDEN');
      const asOwner = await gql(
        INVITE,
        { input: { email: newcomer.email, role: 'VIEWER' } },
        inBusiness(member, member.businessId),
      );
      expect(expectData(asOwner).inviteTeamMember.teamInvitation.business.id).toBe(member.businessId);
    });

    test('without the header a user of two businesses keeps working in their default business, the first they joined', async () => {
      const { business } = expectData(await gql('{ business { id } }', {}, bearer(member.token)));
      expect(business.id).toBe(member.businessId);
      const config = await server.request('GET', CONFIG, { headers: bearer(member.token) });
      expect(config.status).toBe(200);
      expect(config.body.data.businessId).toBe(member.businessId);
    });

    test.each([
      ['a business the user does not belong to', () => stranger.businessId],
      ['an unknown business id', () => crypto.randomUUID()],
      ['a value that is not a UUID', () => 'not-a-uuid'],
    ])('X-Service-Business-Id of %s answers NOT_FOUND (GraphQL) and 404 (REST)', async (_name, businessIdOf) => {
      const headers = inBusiness(member, businessIdOf());
      expectGraphQLError(await gql('{ business { id } }', {}, headers), 'NOT_FOUND');
      expectGraphQLError(await gql('{ wallets { id } }', {}, headers), 'NOT_FOUND');
      const config = await server.request('GET', CONFIG, { headers });
      expect(config.status).toBe(404);
      expect(config.body).toEqual({
        success: false,
        error: { code: 'NOT_FOUND', message: expect.any(String), statusCode: 404 },
      });
    });
  });

  describe('team and roles', () => {
    let owner: TestMerchant;
    let admin: TestMerchant;
    let developer: TestMerchant;
    let viewer: TestMerchant;
    const as = (member: TestMerchant) => inBusiness(member, owner.businessId);

    beforeAll(async () => {
      owner = await server.signUp();
      [admin, developer, viewer] = [await server.signUp(), await server.signUp(), await server.signUp()];
      await addMember(owner, admin, 'ADMIN');
      await addMember(owner, developer, 'DEVELOPER');
      await addMember(owner, viewer, 'VIEWER');
    });

    test('an accepted invitation adds the user with the role; teamMembers lists every member', async () => {
      const teamMembers = nodesOf(expectData(await gql(TEAM, {}, as(viewer))).teamMembers);
      expect(teamMembers.map((m: any) => [m.user.email, m.role]).sort()).toEqual(
        [
          [owner.email, 'OWNER'],
          [admin.email, 'ADMIN'],
          [developer.email, 'DEVELOPER'],
          [viewer.email, 'VIEWER'],
        ].sort(),
      );
    });

    test('inviteTeamMember of someone who is already a member answers the userError CONFLICT', async () => {
      const response = await gql(INVITE, { input: { email: viewer.email, role: 'ADMIN' } }, bearer(owner.token));
      expectUserError(response, 'inviteTeamMember', {
        field: null,
        message: 'This user is already a member',
        code: 'CONFLICT',
      });
      expect((await rolesOf(owner.businessId))[viewer.userId]).toBe('VIEWER');
    });

    test('concurrent invitations of one email leave one pending invitation; accepting it twice at once adds one membership', async () => {
      const member = await server.signUp();
      const responses = await Promise.all(
        Array.from({ length: 6 }, () =>
          gql(INVITE, { input: { email: member.email, role: 'VIEWER' } }, bearer(owner.token)),
        ),
      );
      const ids = new Set(responses.map((response) => expectData(response).inviteTeamMember.teamInvitation.id));
      expect(ids.size).toBe(1);
      const accept = () =>
        gql(
          `mutation($id: ID!) { acceptTeamInvitation(input: { id: $id }) { membership { id } ${ERRORS} } }`,
          { id: [...ids][0] },
          bearer(member.token),
        );
      const codes = (await Promise.all([accept(), accept(), accept()]))
        .map((response) => outcomeOf(response, 'acceptTeamInvitation'))
        .sort();
      expect(codes).toEqual(['NOT_FOUND', 'NOT_FOUND', 'OK']);
      expect((await rolesOf(owner.businessId))[member.userId]).toBe('VIEWER');
      await gql(REMOVE_MEMBER, { id: await membershipIdOf(owner, member.userId) }, bearer(owner.token));
    });

    test('inviteTeamMember with a malformed email answers a VALIDATION_ERROR userError on input.email', async () => {
      const response = await gql(INVITE, { input: { email: 'nope', role: 'VIEWER' } }, bearer(owner.token));
      expectUserError(response, 'inviteTeamMember', {
        field: ['input', 'email'],
        message: expect.any(String),
        code: 'VALIDATION_ERROR',
      });
    });

    test('a VIEWER can read the business, its settings, wallets, credentials (hints) and team', async () => {
      const response = await gql(
        '{ business { id } businessSettings { mode } wallets { id currency } apiCredentials { keyHint } teamMembers { edges { node { role } } } }',
        {},
        as(viewer),
      );
      const data = expectData(response);
      expect(data.business.id).toBe(owner.businessId);
      expect(data.wallets).toEqual([{ id: expect.any(String), currency: 'USD' }]);
      expect(data.teamMembers.edges).toHaveLength(4);
      const rest = await server.request('GET', '/api/v1/business/wallets', { headers: as(viewer) });
      expect(rest.status).toBe(200);
    });

    test.each([
      [
        'updateBusinessSettings',
        'mutation { updateBusinessSettings(input: { webhookUrl: "https://viewer.example.com" }) { businessSettings { webhookUrl } } }',
      ],
      [
        'sandboxFundWallet',
        'mutation { sandboxFundWallet(input: { currency: "USD", amount: "5.00" }) { wallet { id } } }',
      ],
      ['regenerateApiKey', REGENERATE('TEST', 'apiKey')],
      ['createLiveCredentials', CREATE_LIVE],
      [
        'inviteTeamMember',
        `mutation { inviteTeamMember(input: { email: "x@example.com", role: VIEWER }) { teamInvitation { id } } }`,
      ],
    ])('a VIEWER cannot %s: FORBIDDEN, and nothing changes', async (_name, mutation) => {
      const before = await server.runtime.dataSource.query(
        `SELECT (SELECT webhook_url FROM business_settings WHERE business_id = $1 AND NOT livemode) AS webhook_url,
                (SELECT string_agg(key_hash || key_version, ',') FROM api_credentials WHERE business_id = $1) AS credentials,
                (SELECT count(*)::int FROM journal_transactions WHERE business_id = $1) AS transactions,
                (SELECT count(*)::int FROM memberships WHERE business_id = $1) AS members`,
        [owner.businessId],
      );
      expectGraphQLError(await gql(mutation, {}, as(viewer)), 'FORBIDDEN');
      const after = await server.runtime.dataSource.query(
        `SELECT (SELECT webhook_url FROM business_settings WHERE business_id = $1 AND NOT livemode) AS webhook_url,
                (SELECT string_agg(key_hash || key_version, ',') FROM api_credentials WHERE business_id = $1) AS credentials,
                (SELECT count(*)::int FROM journal_transactions WHERE business_id = $1) AS transactions,
                (SELECT count(*)::int FROM memberships WHERE business_id = $1) AS members`,
        [owner.businessId],
      );
      expect(after).toEqual(before);
    });

    test('a VIEWER cannot write over REST either: PUT /config, regenerate-api-key and sandbox funding answer 403', async () => {
      const calls: Array<[string, string, unknown]> = [
        ['PUT', CONFIG, { webhookUrl: 'https://viewer.example.com' }],
        ['POST', '/api/v1/business/regenerate-api-key', {}],
        ['POST', '/api/v1/business/sandbox/wallets/fund', { currency: 'USD', amount: '5.00' }],
      ];
      for (const [method, path, body] of calls) {
        const response = await server.request(method, path, { body, headers: as(viewer) });
        expect(response.status).toBe(403);
        expect(response.body.error).toMatchObject({ code: 'FORBIDDEN', statusCode: 403 });
      }
    });

    test('a DEVELOPER can set the webhook URL but cannot rename the business or change the team', async () => {
      const settings = await gql(
        'mutation { updateBusinessSettings(input: { webhookUrl: "https://dev.example.com/hook" }) { businessSettings { webhookUrl } } }',
        {},
        as(developer),
      );
      expect(expectData(settings).updateBusinessSettings.businessSettings.webhookUrl).toBe(
        'https://dev.example.com/hook',
      );
      expectGraphQLError(
        await gql(
          'mutation { updateBusinessSettings(input: { name: "Renamed" }) { businessSettings { mode } } }',
          {},
          as(developer),
        ),
        'FORBIDDEN',
      );
      expectGraphQLError(
        await gql(CHANGE_ROLE, { id: await membershipIdOf(owner, viewer.userId), role: 'ADMIN' }, as(developer)),
        'FORBIDDEN',
      );
    });

    test('changeTeamMemberRole changes a role, and the new role applies on the next request', async () => {
      const member = await server.signUp();
      const id = await addMember(owner, member, 'VIEWER');
      expectGraphQLError(await gql(REGENERATE('TEST', 'apiKey'), {}, as(member)), 'FORBIDDEN');

      const changed = await gql(CHANGE_ROLE, { id, role: 'DEVELOPER' }, as(admin));
      expect(expectData(changed).changeTeamMemberRole).toEqual({
        membership: { id, role: 'DEVELOPER' },
        userErrors: [],
      });
      const settings = await gql(
        'mutation { updateBusinessSettings(input: { webhookUrl: "https://member.example.com" }) { businessSettings { webhookUrl } } }',
        {},
        as(member),
      );
      expect(expectData(settings).updateBusinessSettings.businessSettings.webhookUrl).toBe(
        'https://member.example.com',
      );
    });

    test('removeTeamMember removes the membership; the removed user can no longer select the business', async () => {
      const member = await server.signUp();
      const id = await addMember(owner, member, 'DEVELOPER');
      expectData(await gql('{ business { id } }', {}, as(member)));

      const removed = await gql(REMOVE_MEMBER, { id }, as(admin));
      expect(expectData(removed).removeTeamMember).toEqual({ membership: { id, role: 'DEVELOPER' }, userErrors: [] });
      expectGraphQLError(await gql('{ business { id } }', {}, as(member)), 'NOT_FOUND');
      expect((await server.request('GET', CONFIG, { headers: as(member) })).status).toBe(404);
      expect((await rolesOf(owner.businessId))[member.userId]).toBeUndefined();
    });

    test('an unknown or malformed membership id answers the userError NOT_FOUND', async () => {
      const notFound = { field: null, message: 'Member not found', code: 'NOT_FOUND' };
      for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
        expectUserError(
          await gql(CHANGE_ROLE, { id, role: 'VIEWER' }, bearer(owner.token)),
          'changeTeamMemberRole',
          notFound,
        );
        expectUserError(await gql(REMOVE_MEMBER, { id }, bearer(owner.token)), 'removeTeamMember', notFound);
      }
    });

    test('only an OWNER grants OWNER: an ADMIN answers FORBIDDEN on add and on change', async () => {
      const member = await server.signUp();
      expectGraphQLError(await gql(INVITE, { input: { email: member.email, role: 'OWNER' } }, as(admin)), 'FORBIDDEN');
      const id = await addMember(owner, member, 'VIEWER');
      expectGraphQLError(await gql(CHANGE_ROLE, { id, role: 'OWNER' }, as(admin)), 'FORBIDDEN');
      expectGraphQLError(
        await gql(CHANGE_ROLE, { id: await membershipIdOf(owner, admin.userId), role: 'OWNER' }, as(admin)),
        'FORBIDDEN',
      );
      expect((await rolesOf(owner.businessId))[member.userId]).toBe('VIEWER');
      expect((await rolesOf(owner.businessId))[admin.userId]).toBe('ADMIN');

      expect(
        expectData(await gql(CHANGE_ROLE, { id, role: 'OWNER' }, as(owner))).changeTeamMemberRole.membership.role,
      ).toBe('OWNER');
      // Back to VIEWER, so the business keeps a single OWNER for the tests below.
      expect(
        expectData(await gql(CHANGE_ROLE, { id, role: 'VIEWER' }, as(owner))).changeTeamMemberRole.membership.role,
      ).toBe('VIEWER');
    });

    test('an ADMIN cannot demote or remove an OWNER (FORBIDDEN)', async () => {
      const ownerMembership = await membershipIdOf(owner, owner.userId);
      expectGraphQLError(await gql(CHANGE_ROLE, { id: ownerMembership, role: 'ADMIN' }, as(admin)), 'FORBIDDEN');
      expectGraphQLError(await gql(REMOVE_MEMBER, { id: ownerMembership }, as(admin)), 'FORBIDDEN');
      expect((await rolesOf(owner.businessId))[owner.userId]).toBe('OWNER');
    });

    test('the last OWNER cannot be removed (CONFLICT) or demote themself (FORBIDDEN: their own role)', async () => {
      const ownerMembership = await membershipIdOf(owner, owner.userId);
      expectGraphQLError(await gql(CHANGE_ROLE, { id: ownerMembership, role: 'ADMIN' }, as(owner)), 'FORBIDDEN');
      expectUserError(await gql(REMOVE_MEMBER, { id: ownerMembership }, as(owner)), 'removeTeamMember', {
        field: null,
        message: 'A business must keep at least one OWNER',
        code: 'CONFLICT',
      });
      expect((await rolesOf(owner.businessId))[owner.userId]).toBe('OWNER');
    });

    test('with two OWNERs one may be demoted by the other, or removed', async () => {
      const founder = await server.signUp();
      const partner = await server.signUp();
      const partnerId = await addMember(founder, partner, 'OWNER');
      const founderId = await membershipIdOf(founder, founder.userId);

      expect(
        expectData(await gql(CHANGE_ROLE, { id: founderId, role: 'ADMIN' }, inBusiness(partner, founder.businessId)))
          .changeTeamMemberRole.membership.role,
      ).toBe('ADMIN');
      expectUserError(
        await gql(REMOVE_MEMBER, { id: partnerId }, inBusiness(partner, founder.businessId)),
        'removeTeamMember',
        { field: null, message: 'A business must keep at least one OWNER', code: 'CONFLICT' },
      );
      expect(
        expectData(await gql(CHANGE_ROLE, { id: founderId, role: 'OWNER' }, inBusiness(partner, founder.businessId)))
          .changeTeamMemberRole.membership.role,
      ).toBe('OWNER');
      expect(
        expectData(await gql(REMOVE_MEMBER, { id: partnerId }, bearer(founder.token))).removeTeamMember.membership.id,
      ).toBe(partnerId);
    });

    test('finding 26.1: a member cannot change their own role (FORBIDDEN over HTTP and the socket), not even an OWNER stepping down', async () => {
      const founder = await server.signUp();
      const partner = await server.signUp();
      const partnerId = await addMember(founder, partner, 'OWNER');
      const founderId = await membershipIdOf(founder, founder.userId);
      const refused = await gql(CHANGE_ROLE, { id: founderId, role: 'ADMIN' }, bearer(founder.token));
      expectGraphQLError(refused, 'FORBIDDEN');
      expect(refused.body.errors![0].message).toMatch(/own role/);
      expectGraphQLError(
        await gql(CHANGE_ROLE, { id: await membershipIdOf(owner, admin.userId), role: 'DEVELOPER' }, as(admin)),
        'FORBIDDEN',
      );

      const socket = server.socket({ authorization: `Bearer ${partner.token}`, businessId: founder.businessId });
      const overTheSocket = await overSocket(socket.client, CHANGE_ROLE, { id: partnerId, role: 'ADMIN' });
      expect(overTheSocket.result?.errors).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(/own role/),
          extensions: expect.objectContaining({ code: 'FORBIDDEN' }),
        }),
      ]);
      expect(await rolesOf(founder.businessId)).toEqual({ [founder.userId]: 'OWNER', [partner.userId]: 'OWNER' });
      expect((await rolesOf(owner.businessId))[admin.userId]).toBe('ADMIN');
    });

    /**
     * The OWNER's demotion of an ADMIN commits while that ADMIN's request, authorised as ADMIN, waits
     * for the team's lock (held here, so the order is certain): the request must be judged by the
     * role of now, inside its transaction, and change nothing.
     */
    test.each([
      [
        'changeTeamMemberRole',
        (accompliceId: string) => ({ query: CHANGE_ROLE, variables: { id: accompliceId, role: 'ADMIN' } }),
      ],
      ['removeTeamMember', (accompliceId: string) => ({ query: REMOVE_MEMBER, variables: { id: accompliceId } })],
      [
        'inviteTeamMember',
        () => ({ query: INVITE, variables: { input: { email: uniqueEmail('accomplice'), role: 'ADMIN' } } }),
      ],
    ])(
      'finding 26.1: %s by an ADMIN demoted while it waits is refused (FORBIDDEN) and changes nothing',
      async (_name, request) => {
        const boss = await server.signUp();
        const insider = await server.signUp();
        const accomplice = await server.signUp();
        const insiderId = await addMember(boss, insider, 'ADMIN');
        const accompliceId = await addMember(boss, accomplice, 'VIEWER');
        const holder = server.runtime.dataSource.createQueryRunner();
        await holder.connect();
        try {
          await holder.startTransaction();
          await holder.query('SELECT 1 FROM businesses WHERE id = $1 FOR UPDATE', [boss.businessId]);
          const { query, variables } = request(accompliceId);
          const inFlight = gql(query, variables, inBusiness(insider, boss.businessId));
          await waitUntil(async () => {
            // Asked outside the holder's transaction, which would keep seeing its first snapshot of pg_stat_activity.
            const [row] = await server.runtime.dataSource.query(
              `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
            );
            return row.waiting > 0;
          }, "the ADMIN's request waits for the team lock");
          // The OWNER's demotion commits first.
          await holder.query(`UPDATE memberships SET role = 'VIEWER' WHERE id = $1`, [insiderId]);
          await holder.commitTransaction();

          const answer = await inFlight;
          expectGraphQLError(answer, 'FORBIDDEN');
          expect(await rolesOf(boss.businessId)).toEqual({
            [boss.userId]: 'OWNER',
            [insider.userId]: 'VIEWER',
            [accomplice.userId]: 'VIEWER',
          });
          const [invitations] = await server.runtime.dataSource.query(
            `SELECT count(*)::int AS count FROM team_invitations WHERE business_id = $1 AND status = 'PENDING'`,
            [boss.businessId],
          );
          expect(invitations.count).toBe(0);
        } finally {
          if (holder.isTransactionActive) await holder.rollbackTransaction();
          await holder.release();
        }
      },
    );

    test('two OWNERs demoting each other at the same moment leave exactly one OWNER', async () => {
      for (let round = 0; round < 5; round += 1) {
        const first = await server.signUp();
        const second = await server.signUp();
        const secondId = await addMember(first, second, 'OWNER');
        const firstId = await membershipIdOf(first, first.userId);
        const responses = await Promise.all([
          gql(CHANGE_ROLE, { id: secondId, role: 'ADMIN' }, bearer(first.token)),
          gql(CHANGE_ROLE, { id: firstId, role: 'ADMIN' }, inBusiness(second, first.businessId)),
        ]);
        const owners = Object.values(await rolesOf(first.businessId)).filter((role) => role === 'OWNER');
        expect(owners).toHaveLength(1);
        const codes = responses.map((response) => outcomeOf(response, 'changeTeamMemberRole')).sort();
        // The loser is refused either by the last-OWNER rule (both checks saw two OWNERs: CONFLICT) or,
        // when the winner committed before its check, because it is no longer an OWNER (FORBIDDEN).
        expect(codes).toEqual([expect.stringMatching(/^(CONFLICT|FORBIDDEN)$/), 'OK']);
      }
    });

    test('createLiveCredentials by an ADMIN or DEVELOPER answers FORBIDDEN', async () => {
      expectGraphQLError(await gql(CREATE_LIVE, {}, as(admin)), 'FORBIDDEN');
      expectGraphQLError(await gql(CREATE_LIVE, {}, as(developer)), 'FORBIDDEN');
      const [row] = await server.runtime.dataSource.query(
        'SELECT count(*)::int AS count FROM api_credentials WHERE business_id = $1 AND livemode',
        [owner.businessId],
      );
      expect(row.count).toBe(0);
    });

    test('createLiveCredentials by the OWNER returns bk_live_/bs_live_ credentials once; a second call answers CONFLICT', async () => {
      const business = await server.signUp();
      const createLiveCredentials = expectData(await gql(CREATE_LIVE, {}, bearer(business.token))).createLiveCredentials
        .credentials;
      expect(createLiveCredentials).toEqual({
        mode: 'LIVE',
        apiKey: expect.stringMatching(/^bk_live_/),
        apiSecret: expect.stringMatching(/^bs_live_/),
      });
      const config = await server.request('GET', CONFIG, { headers: { 'x-api-key': createLiveCredentials.apiKey } });
      expect(config.body.data).toMatchObject({ businessId: business.businessId, livemode: true });

      expectUserError(await gql(CREATE_LIVE, {}, bearer(business.token)), 'createLiveCredentials', {
        field: null,
        message: 'Live credentials already exist; regenerate the key instead',
        code: 'CONFLICT',
      });
      const stillWorks = await server.request('GET', CONFIG, {
        headers: { 'x-api-key': createLiveCredentials.apiKey },
      });
      expect(stillWorks.status).toBe(200);
    });

    test('concurrent createLiveCredentials calls issue one set; every other call answers CONFLICT, never an internal error (found by fuzzing)', async () => {
      const business = await server.signUp();
      // Every call passes the "none yet" check before any of them inserts: the race the unique index settles.
      const { credentials } = server.runtime.core.identity;
      const issue = credentials.issue.bind(credentials);
      let arrived = 0;
      const spy = jest.spyOn(credentials, 'issue').mockImplementation(async (...args) => {
        arrived += 1;
        await waitUntil(() => arrived === 3, 'all three calls past the check');
        return issue(...args);
      });
      try {
        const responses = await Promise.all(
          Array.from({ length: 3 }, () => gql(CREATE_LIVE, {}, bearer(business.token))),
        );
        const codes = responses.map((response) => outcomeOf(response, 'createLiveCredentials')).sort();
        expect(codes).toEqual(['CONFLICT', 'CONFLICT', 'OK']);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('API credentials act for their business and mode only; people decisions stay with dashboard users', () => {
    test('a test API key or API token cannot issue live credentials (FORBIDDEN), and none are created', async () => {
      const business = await server.signUp();
      const exchanged = await server.request('POST', '/api/v1/business/auth/token', {
        body: { apiKey: business.apiKey, apiSecret: business.apiSecret },
      });
      for (const headers of [{ 'x-api-key': business.apiKey }, bearer(exchanged.body.data.accessToken)]) {
        expectGraphQLError(await gql(CREATE_LIVE, {}, headers), 'FORBIDDEN');
      }
      const [row] = await server.runtime.dataSource.query(
        'SELECT count(*)::int AS count FROM api_credentials WHERE business_id = $1 AND livemode',
        [business.businessId],
      );
      expect(row.count).toBe(0);
    });

    test('a test API key cannot regenerate the live key (FORBIDDEN), but regenerates its own', async () => {
      const business = await server.signUp();
      const live = expectData(await gql(CREATE_LIVE, {}, bearer(business.token))).createLiveCredentials.credentials;
      expectGraphQLError(await gql(REGENERATE('LIVE', 'apiKey'), {}, { 'x-api-key': business.apiKey }), 'FORBIDDEN');
      expect((await server.request('GET', CONFIG, { headers: { 'x-api-key': live.apiKey } })).status).toBe(200);

      const own = await gql(REGENERATE('TEST', 'mode apiKey'), {}, { 'x-api-key': business.apiKey });
      expect(expectData(own).regenerateApiKey).toEqual({
        regeneratedApiKey: { mode: 'TEST', apiKey: expect.stringMatching(/^bk_test_/) },
        userErrors: [],
      });
    });

    test('an API key cannot add, re-role or remove team members (FORBIDDEN)', async () => {
      const business = await server.signUp();
      const outsider = await server.signUp();
      const headers = { 'x-api-key': business.apiKey };
      const ownerMembership = await membershipIdOf(business, business.userId);
      expectGraphQLError(await gql(INVITE, { input: { email: outsider.email, role: 'OWNER' } }, headers), 'FORBIDDEN');
      expectGraphQLError(await gql(CHANGE_ROLE, { id: ownerMembership, role: 'VIEWER' }, headers), 'FORBIDDEN');
      expectGraphQLError(await gql(REMOVE_MEMBER, { id: ownerMembership }, headers), 'FORBIDDEN');
      expect(await rolesOf(business.businessId)).toEqual({ [business.userId]: 'OWNER' });
    });

    test('a test API key lists only its own mode in apiCredentials', async () => {
      const business = await server.signUp();
      expectData(await gql(CREATE_LIVE, {}, bearer(business.token)));
      const byKey = expectData(await gql('{ apiCredentials { mode } }', {}, { 'x-api-key': business.apiKey }));
      expect(byKey.apiCredentials).toEqual([{ mode: 'TEST' }]);
      const byOwner = expectData(await gql('{ apiCredentials { mode } }', {}, bearer(business.token)));
      expect(byOwner.apiCredentials).toEqual([{ mode: 'TEST' }, { mode: 'LIVE' }]);
    });
  });
  describe('payloads, node(id:) and paging', () => {
    const NODE = 'query($id: ID!) { node(id: $id) { __typename id } }';
    const nodeOf = async (id: string, headers: Headers) => expectData(await gql(NODE, { id }, headers)).node;

    test('updateBusinessSettings with a webhookUrl that is no URL is a VALIDATION_ERROR userError on input.webhookUrl, and nothing changes', async () => {
      const owner = await server.signUp();
      const before = expectData(
        await gql('{ businessSettings { id webhookUrl updatedAt } }', {}, bearer(owner.token)),
      ).businessSettings;
      const response = await gql(
        `mutation { updateBusinessSettings(input: { webhookUrl: "not a url" }) { businessSettings { webhookUrl } ${ERRORS} } }`,
        {},
        bearer(owner.token),
      );
      expectUserError(response, 'updateBusinessSettings', {
        field: ['input', 'webhookUrl'],
        message: expect.any(String),
        code: 'VALIDATION_ERROR',
      });
      expect(
        expectData(await gql('{ businessSettings { id webhookUrl updatedAt } }', {}, bearer(owner.token)))
          .businessSettings,
      ).toEqual(before);
    });

    test("the user, business, membership, settings and credential answer node(id:) for their business, and null for another's", async () => {
      const owner = await server.signUp();
      const stranger = await server.signUp();
      const ids = expectData(
        await gql(
          '{ me { id memberships { id business { id } } } businessSettings { id } apiCredentials { id } }',
          {},
          bearer(owner.token),
        ),
      );
      const objects: Array<[string, string]> = [
        ['User', ids.me.id],
        ['Membership', ids.me.memberships[0].id],
        ['Business', ids.me.memberships[0].business.id],
        ['BusinessSettings', ids.businessSettings.id],
        ['ApiCredential', ids.apiCredentials[0].id],
      ];
      for (const [type, id] of objects) {
        expect(await nodeOf(id, bearer(owner.token))).toEqual({ __typename: type, id });
        expect(await nodeOf(id, bearer(stranger.token))).toBeNull();
      }
      // The settings are those of one mode; their id is the same on every read.
      expect(await nodeOf(ids.businessSettings.id, { ...bearer(owner.token), 'x-service-mode': 'live' })).toBeNull();
      const live = expectData(
        await gql('{ businessSettings { id mode } }', {}, { ...bearer(owner.token), 'x-service-mode': 'live' }),
      ).businessSettings;
      expect(live.id).not.toBe(ids.businessSettings.id);
      expect(expectData(await gql('{ businessSettings { id } }', {}, bearer(owner.token))).businessSettings.id).toBe(
        ids.businessSettings.id,
      );
      // An API key of the test mode does not see the live credential.
      const issued = expectData(await gql(CREATE_LIVE, {}, bearer(owner.token))).createLiveCredentials.credentials;
      const liveCredential = expectData(
        await gql('{ apiCredentials { id mode } }', {}, bearer(owner.token)),
      ).apiCredentials.find((row: any) => row.mode === 'LIVE');
      expect(await nodeOf(liveCredential.id, { 'x-api-key': owner.apiKey })).toBeNull();
      expect(await nodeOf(liveCredential.id, { 'x-api-key': issued.apiKey })).toEqual({
        __typename: 'ApiCredential',
        id: liveCredential.id,
      });
    });

    test("a teammate answers node(id:) through the business they share; another business's member does not", async () => {
      const owner = await server.signUp();
      const teammate = await server.signUp();
      const stranger = await server.signUp();
      const membershipId = await addMember(owner, teammate, 'VIEWER');
      expect(await nodeOf(teammate.userId, bearer(owner.token))).toEqual({ __typename: 'User', id: teammate.userId });
      expect(await nodeOf(membershipId, bearer(owner.token))).toEqual({ __typename: 'Membership', id: membershipId });
      expect(await nodeOf(owner.businessId, bearer(teammate.token))).toEqual({
        __typename: 'Business',
        id: owner.businessId,
      });
      for (const id of [teammate.userId, membershipId, owner.businessId])
        expect(await nodeOf(id, bearer(stranger.token))).toBeNull();
    });

    test('teamMembers pages oldest first with first/after and a complete pageInfo', async () => {
      const owner = await server.signUp();
      const members = [await server.signUp(), await server.signUp()];
      for (const member of members) await addMember(owner, member, 'VIEWER');
      const PAGE = `query($after: String) { teamMembers(first: 2, after: $after) {
        edges { cursor node { user { id } } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
      const first = expectData(await gql(PAGE, {}, bearer(owner.token))).teamMembers;
      expect(nodesOf(first).map((node) => node.user.id)).toEqual([owner.userId, members[0].userId]);
      expect(first.pageInfo).toEqual({
        hasNextPage: true,
        hasPreviousPage: false,
        startCursor: first.edges[0].cursor,
        endCursor: first.edges[1].cursor,
      });
      const second = expectData(await gql(PAGE, { after: first.pageInfo.endCursor }, bearer(owner.token))).teamMembers;
      expect(nodesOf(second).map((node) => node.user.id)).toEqual([members[1].userId]);
      expect(second.pageInfo).toEqual({
        hasNextPage: false,
        hasPreviousPage: true,
        startCursor: second.edges[0].cursor,
        endCursor: second.edges[0].cursor,
      });
      expectGraphQLError(await gql(PAGE, { after: 'not-a-cursor' }, bearer(owner.token)), 'BAD_USER_INPUT');
    });
  });
});
