import crypto from 'node:crypto';
import { Pool } from 'pg';
import { Fleet, ProcessName } from './fleet';

/** A business of the suite: its OWNER's dashboard token and its test API key. */
export interface Merchant {
  businessId: string;
  apiKey: string;
  token: string;
}

export const keyed = (merchant: Merchant, idempotencyKey?: string): Record<string, string> => ({
  'x-api-key': merchant.apiKey,
  ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
});

/**
 * A business signed up as the dashboard does it, over `via` (GraphQL `signUp`, the code from the
 * sandbox mailbox, `confirmSignUp`); with `charging`, its OWNER turns server-to-server charging on;
 * with `treasury`, the operator enables the treasury product (the column `tessera business update
 * --treasury on` sets, set before the business's first API request).
 */
export async function signUpMerchant(
  fleet: Fleet,
  db: Pool,
  via: ProcessName,
  options: { charging?: boolean; treasury?: boolean } = {},
): Promise<Merchant> {
  const suffix = crypto.randomBytes(5).toString('hex');
  const email = `reliability-${suffix}@example.com`;
  const graphql = (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fleet.answer(via, 'POST', '/graphql', { body: { query, variables }, headers }, [200]);
  const started = await graphql(
    'mutation($input: SignUpInput!) { signUp(input: $input) { pendingSignUp { signUpToken } } }',
    {
      input: {
        email,
        password: 'correct horse battery',
        name: 'Reliability Owner',
        businessName: `Reliability ${suffix}`,
      },
    },
  );
  if (!started.body.data?.signUp.pendingSignUp) throw new Error(`signUp: ${JSON.stringify(started.body)}`);
  const [mail] = (
    await db.query(`SELECT text FROM sandbox_mail WHERE recipient = $1 ORDER BY created_at DESC LIMIT 1`, [email])
  ).rows;
  const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
  if (!code) throw new Error(`no sign-up code was mailed to ${email}`);
  const confirmed = await graphql(
    `
      mutation ($signUpToken: String!, $code: String!) {
        confirmSignUp(input: { signUpToken: $signUpToken, code: $code }) {
          account {
            token
            business {
              id
            }
            testCredentials {
              apiKey
            }
          }
          userErrors {
            message
          }
        }
      }
    `,
    { signUpToken: started.body.data.signUp.pendingSignUp.signUpToken, code },
  );
  const result = confirmed.body.data?.confirmSignUp.account;
  if (!result) throw new Error(`confirmSignUp: ${JSON.stringify(confirmed.body)}`);
  const merchant: Merchant = {
    businessId: result.business.id,
    apiKey: result.testCredentials.apiKey,
    token: result.token,
  };
  if (options.charging) {
    const enabled = await graphql(
      'mutation { setServerToServerCharging(input: { enabled: true }) { serverToServerCharging userErrors { field message code } } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    if (enabled.body.data?.setServerToServerCharging?.serverToServerCharging !== true)
      throw new Error(`setServerToServerCharging: ${JSON.stringify(enabled.body)}`);
  }
  if (options.treasury)
    await db.query(`UPDATE businesses SET treasury_enabled = true WHERE id = $1`, [merchant.businessId]);
  return merchant;
}

/** A payout recipient whose account number ends with `ending` (the sandbox rail's behaviour: docs/sandbox.md). */
export async function recipientOf(fleet: Fleet, via: ProcessName, merchant: Merchant, ending: string): Promise<string> {
  const details = {
    rail: 'LOCAL_BANK',
    country: 'NG',
    currency: 'NGN',
    bankCode: '058',
    bankName: 'GTBank',
    accountNumber: `012345${ending}`,
    accountName: 'Ada Obi',
  };
  const created = await fleet.answer(via, 'POST', '/api/v1/business/payouts/recipients', {
    headers: keyed(merchant),
    body: { label: `ending ${ending}`, details },
  });
  return created.body.data.id;
}

/** A treasury end-user whose KYC the sandbox approved, with a USD wallet. */
export async function endUserWallet(
  fleet: Fleet,
  via: ProcessName,
  partner: Merchant,
): Promise<{ userId: string; walletId: string }> {
  const headers = keyed(partner);
  const user = await fleet.answer(via, 'POST', '/api/v1/treasury/users', {
    headers,
    body: { externalId: `ext-${crypto.randomBytes(4).toString('hex')}`, email: 'amara@example.com', name: 'Amara Obi' },
  });
  const userId: string = user.body.data.id;
  await fleet.answer(via, 'POST', `/api/v1/treasury/users/${userId}/kyc`, { headers, body: {} });
  await fleet.answer(via, 'POST', `/api/v1/treasury/users/${userId}/kyc/sandbox-approve`, { headers });
  const wallet = await fleet.answer(via, 'POST', `/api/v1/treasury/users/${userId}/wallets`, {
    headers,
    body: { currency: 'usd' },
  });
  return { userId, walletId: wallet.body.data.id };
}
