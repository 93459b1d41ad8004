import crypto from 'node:crypto';
import { SignUpService } from '../src/domain/identity/sign-up.service';
import { ApiResponse, TestServer, codeIn, startTestServer } from './support/harness';

/**
 * Finding 17 (security probe, issue 10), "sign-up reveals whether an email is registered": signUp
 * answers the same for every address and mails it (a code when it is new, a notice when it has an
 * account); only confirmSignUp with the mailed code creates the account (docs/security.md, Sign-in
 * and sign-up).
 */

type GraphQLResponse = ApiResponse<{ data?: any; errors?: any[] }>;

const SIGN_UP =
  'mutation($input: SignUpInput!) { signUp(input: $input) { pendingSignUp { signUpToken expiresIn } userErrors { field message code } } }';
const CONFIRM = `mutation($signUpToken: String!, $code: String!) {
  confirmSignUp(input: { signUpToken: $signUpToken, code: $code }) { account { token user { id email } business { id } } userErrors { field message code } }
}`;
/** Every refused confirmation, whatever the reason: one userError on the code. */
const REFUSED = {
  confirmSignUp: {
    account: null,
    userErrors: [
      {
        field: ['input', 'code'],
        message: 'is wrong or has expired; check the email, or sign up again for a new code',
        code: 'VALIDATION_ERROR',
      },
    ],
  },
};
const refusedAlike = (response: ApiResponse<{ data?: any; errors?: any[] }>) =>
  response.body.errors === undefined && JSON.stringify(response.body.data) === JSON.stringify(REFUSED);

const uniqueEmail = (label: string) => `${label}-${crypto.randomBytes(4).toString('hex')}@example.com`;
/** How many rounds of the timing comparison a busy machine gets (the test's comment says why). */
const TIMING_ROUNDS = 3;
/** The timing test's backstop, sized by its sign-ups (each hashes a password: seconds on a busy machine). */
const TIMING_TEST_MS = (4 + TIMING_ROUNDS * 18) * 5_000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe('sign-up tells no one but the owner of an address whether it is registered', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  const signUp = (email: string, extra: Record<string, string> = {}) =>
    server.graphql(SIGN_UP, {
      input: { email, password: 'another long password', name: 'Eve', businessName: 'Eve Co', ...extra },
    }) as Promise<GraphQLResponse>;
  const confirm = (signUpToken: string, code: string) =>
    server.graphql(CONFIRM, { signUpToken, code }) as Promise<GraphQLResponse>;
  const tokenOf = (response: GraphQLResponse): string => response.body.data!.signUp.pendingSignUp.signUpToken;

  async function counts(email: string) {
    const [row] = await server.runtime.dataSource.query(
      `SELECT (SELECT count(*)::int FROM users WHERE email = lower($1)) AS users,
              (SELECT count(*)::int FROM users) AS all_users,
              (SELECT count(*)::int FROM businesses) AS businesses,
              (SELECT count(*)::int FROM memberships) AS memberships,
              (SELECT count(*)::int FROM api_credentials) AS credentials`,
      [email],
    );
    return row as { users: number; all_users: number; businesses: number; memberships: number; credentials: number };
  }

  /** The answer of a refused confirmation, the same for every reason. */
  const refusal = (response: GraphQLResponse) => ({ status: response.status, body: response.body });

  test(
    'sign-up answers a registered email exactly as a new one (shape, status, timing class) and creates nothing',
    async () => {
      const owner = await server.signUp();
      const before = await counts(owner.email);

      const registered = [await signUp(owner.email), await signUp(owner.email.toUpperCase())];
      const fresh = await signUp(uniqueEmail('fresh'));
      for (const response of [...registered, fresh]) {
        expect(response.status).toBe(200);
        expect(response.body.errors).toBeUndefined();
        expect(response.body.data).toEqual({
          signUp: {
            pendingSignUp: { signUpToken: expect.stringMatching(/^su_[A-Za-z0-9_-]{43}$/), expiresIn: 900 },
            userErrors: [],
          },
        });
        expect([...response.headers.keys()].sort()).toEqual([...fresh.headers.keys()].sort());
      }
      // No user, business, membership or credential: neither for the registered address nor (until confirmed) for the new one.
      expect(await counts(owner.email)).toEqual(before);

      // Timing class: both do the same password hashing, database writes and one mail, so neither is
      // markedly faster (skipping the hashing for a registered address makes it several times faster).
      // Wall time on a shared machine is noisy (issue 25: a load average of 12 once gave a ratio of 2.02),
      // so a round is nine interleaved pairs compared by their medians, and the check passes when one of
      // up to three rounds is within a factor of 2. A real difference (a skipped hash) shows in every
      // round; load spikes push a round over 2 by chance, not three rounds in a row. Counting the
      // work instead (hash calls) would only prove what the code calls, not what the caller can measure.
      const timed = async (email: string) => {
        const started = performance.now();
        const response = await signUp(email);
        expect(response.body.errors).toBeUndefined();
        return performance.now() - started;
      };
      const ratios: number[] = [];
      for (let round = 0; round < TIMING_ROUNDS && !ratios.some((ratio) => ratio < 2); round += 1) {
        const registeredTimes: number[] = [];
        const newTimes: number[] = [];
        for (let i = 0; i < 9; i += 1) {
          registeredTimes.push(await timed(owner.email));
          newTimes.push(await timed(uniqueEmail('timing')));
        }
        const [registeredMedian, newMedian] = [median(registeredTimes), median(newTimes)];
        ratios.push(Math.max(registeredMedian, newMedian) / Math.min(registeredMedian, newMedian));
      }
      expect({ ratios, within: ratios.some((ratio) => ratio < 2) }).toEqual({ ratios, within: true });
      expect(await counts(owner.email)).toEqual(before);
    },
    TIMING_TEST_MS,
  );

  test('the registered address receives a notice, never a code', async () => {
    const owner = await server.signUp();
    const mailedBefore = (await server.mailTo(owner.email)).length;
    const response = await signUp(owner.email.toUpperCase());
    const mail = await server.mailTo(owner.email);
    expect(mail).toHaveLength(mailedBefore + 1);
    expect(mail[0].subject).toBe('Your Tessera sign-up');
    expect(mail[0].text).toMatch(/you already have an account/);
    expect(mail[0].text).toMatch(/Sign in with this address, or reset your password/);
    expect(codeIn(mail[0])).toBeNull();
    expect(mail[0].text).not.toMatch(/\d{6}/);

    // Nothing can confirm it: the stored sign-up has no code at all.
    const [row] = await server.runtime.dataSource.query(
      'SELECT code_hash FROM pending_sign_ups WHERE token_hash = $1',
      [crypto.createHash('sha256').update(tokenOf(response)).digest('hex')],
    );
    expect(row).toEqual({ code_hash: null });
    const refused = await confirm(tokenOf(response), '000000');
    expect(refused.body).toEqual({ data: REFUSED });
  });

  test('a wrong code, an expired sign-up and a sixth attempt all fail alike and create no account', async () => {
    const owner = await server.signUp();
    const before = await counts('');
    const answers: Array<[string, GraphQLResponse]> = [];

    // A wrong code.
    const wrongEmail = uniqueEmail('wrong');
    const wrong = await signUp(wrongEmail);
    const wrongCode = codeIn((await server.mailTo(wrongEmail))[0])!;
    answers.push(['wrong code', await confirm(tokenOf(wrong), wrongCode === '000000' ? '000001' : '000000')]);

    // An expired sign-up, with the right code.
    const expiredEmail = uniqueEmail('expired');
    const expired = await signUp(expiredEmail);
    await server.runtime.dataSource.query(
      `UPDATE pending_sign_ups SET expires_at = now() - interval '1 second' WHERE email = $1`,
      [expiredEmail],
    );
    answers.push(['expired', await confirm(tokenOf(expired), codeIn((await server.mailTo(expiredEmail))[0])!)]);

    // Five wrong codes, then the right one: the sixth attempt.
    const guessedEmail = uniqueEmail('guessed');
    const guessed = await signUp(guessedEmail);
    const rightCode = codeIn((await server.mailTo(guessedEmail))[0])!;
    const wrongCodes = ['111111', '222222', '333333', '444444', '555555', '666666']
      .filter((code) => code !== rightCode)
      .slice(0, 5);
    for (const code of wrongCodes) answers.push([`wrong code ${code}`, await confirm(tokenOf(guessed), code)]);
    answers.push(['sixth attempt', await confirm(tokenOf(guessed), rightCode)]);

    // And the other refusals: an unknown token, the token of a registered address, a malformed code.
    answers.push(['unknown token', await confirm(`su_${crypto.randomBytes(32).toString('base64url')}`, rightCode)]);
    answers.push(['registered address', await confirm(tokenOf(await signUp(owner.email)), rightCode)]);
    answers.push(['malformed code', await confirm(tokenOf(await signUp(uniqueEmail('malformed'))), 'abc')]);

    const expected = refusal(answers[0][1]);
    expect(expected).toEqual({ status: 200, body: { data: REFUSED } });
    for (const [reason, response] of answers) expect({ reason, ...refusal(response) }).toEqual({ reason, ...expected });
    for (const email of [wrongEmail, expiredEmail, guessedEmail]) expect((await counts(email)).users).toBe(0);
    expect(await counts('')).toEqual(before);
  });

  test('wrong codes sent at once all count: after five concurrent guesses the right code fails', async () => {
    const email = uniqueEmail('concurrent-guesses');
    const started = await signUp(email);
    const rightCode = codeIn((await server.mailTo(email))[0])!;
    const guesses = ['101010', '202020', '303030', '404040', '505050', '606060']
      .filter((code) => code !== rightCode)
      .slice(0, 5);
    const answers = await Promise.all(guesses.map((code) => confirm(tokenOf(started), code)));
    expect(answers.every(refusedAlike)).toBe(true);
    const last = await confirm(tokenOf(started), rightCode);
    expect(last.body).toEqual({ data: REFUSED });
    expect((await counts(email)).users).toBe(0);
  });

  test('two confirmations for the same email create one account', async () => {
    for (let round = 0; round < 3; round += 1) {
      // Several sign-ups of one new address each get a working code; confirming all at once makes one account.
      const email = uniqueEmail('race');
      const started: string[] = [];
      for (let i = 0; i < 3; i += 1)
        started.push(tokenOf(await signUp(email, { password: `correct horse battery ${i}` })));
      const codes = (await server.mailTo(email)).map(codeIn).reverse();
      expect(codes).toHaveLength(3);
      // Each sign-up confirmed twice at once, too.
      const responses = await Promise.all(
        started.flatMap((token, i) => [confirm(token, codes[i]!), confirm(token, codes[i]!)]),
      );
      const outcomes = responses
        .map((response) =>
          response.body.data?.confirmSignUp.account
            ? 'OK'
            : refusedAlike(response)
              ? 'REFUSED'
              : JSON.stringify(response.body),
        )
        .sort();
      expect(outcomes).toEqual(['OK', 'REFUSED', 'REFUSED', 'REFUSED', 'REFUSED', 'REFUSED']);
      expect((await counts(email)).users).toBe(1);
      const [row] = await server.runtime.dataSource.query(
        'SELECT count(*)::int AS count FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1',
        [email],
      );
      expect(row.count).toBe(1);
    }
  });

  test('a confirmed sign-up cannot be used again', async () => {
    const email = uniqueEmail('once');
    const started = await signUp(email);
    const code = codeIn((await server.mailTo(email))[0])!;
    expect((await confirm(tokenOf(started), code)).body.data?.confirmSignUp.account.user.email).toBe(email);
    const again = await confirm(tokenOf(started), code);
    expect(again.body).toEqual({ data: REFUSED });
    expect((await counts(email)).users).toBe(1);
  });

  test('a sign-up whose mail cannot be sent answers SERVICE_UNAVAILABLE and keeps nothing, for a new and a registered address alike', async () => {
    const owner = await server.signUp();
    const broken = new SignUpService(server.runtime.core.identity.businesses, {
      name: 'broken',
      send: async () => {
        throw new Error('mail server down');
      },
      close: async () => undefined,
    });
    const ctx = server.runtime.core.anonymousContext();
    const [pendingBefore] = await server.runtime.dataSource.query(
      'SELECT count(*)::int AS count FROM pending_sign_ups',
    );
    for (const email of [uniqueEmail('unsent'), owner.email]) {
      await expect(
        broken.start(ctx, { email, password: 'correct horse battery', name: 'N', businessName: 'N Co' }),
      ).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The email could not be sent; try again in a moment',
      });
    }
    const [pendingAfter] = await server.runtime.dataSource.query('SELECT count(*)::int AS count FROM pending_sign_ups');
    expect(pendingAfter.count).toBe(pendingBefore.count);
  });

  test('the code and the token are never stored: only their keyed hash and SHA-256', async () => {
    const email = uniqueEmail('hashed');
    const started = await signUp(email);
    const code = codeIn((await server.mailTo(email))[0])!;
    const [row] = await server.runtime.dataSource.query('SELECT * FROM pending_sign_ups WHERE email = $1', [email]);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(code);
    expect(stored).not.toContain(tokenOf(started));
    expect(stored).not.toContain('another long password');
    expect(row).toMatchObject({ attempts: 0, confirmed_at: null, password_hash: expect.stringMatching(/^scrypt\$/) });
  });
});
