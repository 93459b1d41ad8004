import { loadConfig } from '../src/config';
import { TestServer, startTestServer } from './support/harness';

/** Finding 17, "Sign-in has no per-account lockout": failures within a window lock the account for a while. */

const SIGN_IN =
  'mutation($input: SignInInput!) { signIn(input: $input) { session { token user { id } } userErrors { field message code } } }';

describe('per-account sign-in lockout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      signInMaxFailures: 3,
      signInFailureWindowSeconds: 900,
      signInLockoutSeconds: 900,
    });
  });
  afterAll(async () => server.close());

  const signIn = async (email: string, password: string) => {
    const response = await server.graphql(SIGN_IN, { input: { email, password } });
    if (response.body.data?.signIn.session) return 'OK';
    const [refusal, ...more] = response.body.data?.signIn.userErrors ?? [];
    return more.length === 0 && refusal
      ? `${refusal.code} on ${JSON.stringify(refusal.field)}: ${refusal.message}`
      : JSON.stringify(response.body);
  };
  // Every refusal is this one userError: it names no field, so it does not say whether the email has an account.
  const GENERIC = 'UNAUTHORIZED on null: Invalid email or password';

  test('the defaults: 5 failures within 15 minutes lock the account for 15 minutes', () => {
    expect(loadConfig({})).toMatchObject({
      signInMaxFailures: 5,
      signInFailureWindowSeconds: 900,
      signInLockoutSeconds: 900,
    });
  });

  test('after the limit of failures the right password gets the same generic error until the lockout passes', async () => {
    const user = await server.signUp();
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await signIn(user.email, 'wrong password!'));
    expect(answers).toEqual([GENERIC, GENERIC, GENERIC]);
    expect(await signIn(user.email, user.password)).toBe(GENERIC);
    expect(await signIn(user.email.toUpperCase(), user.password)).toBe(GENERIC);

    // As if the lockout had passed.
    await server.runtime.dataSource.query(
      `UPDATE users SET sign_in_locked_until = now() - interval '1 second' WHERE id = $1`,
      [user.userId],
    );
    expect(await signIn(user.email, user.password)).toBe('OK');
  });

  test('a locked account, a wrong password and an unknown email answer exactly alike', async () => {
    const user = await server.signUp();
    for (let i = 0; i < 3; i += 1) await signIn(user.email, 'wrong password!');
    const locked = await server.graphql(SIGN_IN, { input: { email: user.email, password: user.password } });
    const unknown = await server.graphql(SIGN_IN, {
      input: { email: 'nobody-at-all@example.com', password: user.password },
    });
    const other = await server.signUp();
    const wrong = await server.graphql(SIGN_IN, { input: { email: other.email, password: 'wrong password!' } });
    expect(locked.status).toBe(unknown.status);
    expect(locked.body).toEqual(unknown.body);
    expect(wrong.body).toEqual(unknown.body);
  });

  test('a successful sign-in resets the count; failures in an old window count from one again', async () => {
    const user = await server.signUp();
    await signIn(user.email, 'wrong password!');
    await signIn(user.email, 'wrong password!');
    expect(await signIn(user.email, user.password)).toBe('OK');
    await signIn(user.email, 'wrong password!');
    await signIn(user.email, 'wrong password!');
    expect(await signIn(user.email, user.password)).toBe('OK');

    await signIn(user.email, 'wrong password!');
    await signIn(user.email, 'wrong password!');
    await server.runtime.dataSource.query(
      `UPDATE users SET failed_sign_ins_since = now() - interval '1 hour' WHERE id = $1`,
      [user.userId],
    );
    await signIn(user.email, 'wrong password!');
    expect(await signIn(user.email, user.password)).toBe('OK');
  });

  test('concurrent failures are all counted', async () => {
    const user = await server.signUp();
    await Promise.all(Array.from({ length: 3 }, () => signIn(user.email, 'wrong password!')));
    expect(await signIn(user.email, user.password)).toBe(GENERIC);
  });
});
