import crypto from 'node:crypto';
import { TestMerchant, TestServer } from './harness';

export const TREASURY = '/api/v1/treasury';
export const USERS = `${TREASURY}/users`;
export const TREASURY_PAYOUTS = `${TREASURY}/payouts`;

export const apiKey = (partner: TestMerchant) => ({ 'x-api-key': partner.apiKey });

/** A business with the treasury product enabled (a treasury partner). */
export async function treasuryPartner(server: TestServer): Promise<TestMerchant> {
  const partner = await server.signUp();
  await server.setTreasury(partner.businessId, true);
  return partner;
}

export async function createEndUser(
  server: TestServer,
  partner: TestMerchant,
  overrides: Record<string, unknown> = {},
) {
  const body = {
    externalId: `ext-${crypto.randomBytes(4).toString('hex')}`,
    email: 'amara@example.com',
    name: 'Amara Obi',
    ...overrides,
  };
  const response = await server.request('POST', USERS, { headers: apiKey(partner), body });
  if (response.status !== 201) throw new Error(`end-user failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; externalId: string; status: string };
}

/** An end-user whose KYC the sandbox approved (status active). */
export async function activeEndUser(
  server: TestServer,
  partner: TestMerchant,
  overrides: Record<string, unknown> = {},
) {
  const user = await createEndUser(server, partner, overrides);
  const started = await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} });
  if (started.status !== 201) throw new Error(`kyc failed: ${JSON.stringify(started.body)}`);
  const approved = await server.request('POST', `${USERS}/${user.id}/kyc/sandbox-approve`, {
    headers: apiKey(partner),
  });
  if (approved.status !== 200) throw new Error(`approve failed: ${JSON.stringify(approved.body)}`);
  return user;
}

export async function createWallet(server: TestServer, partner: TestMerchant, endUserId: string, currency = 'usd') {
  const response = await server.request('POST', `${USERS}/${endUserId}/wallets`, {
    headers: apiKey(partner),
    body: { currency },
  });
  if (response.status !== 201) throw new Error(`wallet failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; balance: string; currency: string };
}

export async function deposit(
  server: TestServer,
  partner: TestMerchant,
  endUserId: string,
  walletId: string,
  amount: string,
) {
  const response = await server.request('POST', `${TREASURY}/sandbox/users/${endUserId}/wallets/${walletId}/deposit`, {
    headers: apiKey(partner),
    body: { amount },
  });
  if (response.status !== 201) throw new Error(`deposit failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

/** A partner with an active end-user holding a funded wallet. */
export async function fundedWallet(server: TestServer, amount = '100.00', currency = 'usd') {
  const partner = await treasuryPartner(server);
  const user = await activeEndUser(server, partner);
  const wallet = await createWallet(server, partner, user.id, currency);
  if (amount !== '0') await deposit(server, partner, user.id, wallet.id, amount);
  return { partner, user, wallet };
}

export const bankDestination = (overrides: Record<string, unknown> = {}) => ({
  accountNumber: '000123456789',
  routingNumber: '021000021',
  accountName: 'Amara Obi',
  country: 'US',
  ...overrides,
});

export const payoutBody = (userId: string, walletId: string, overrides: Record<string, unknown> = {}) => ({
  partnerEndUserId: userId,
  partnerWalletId: walletId,
  amount: '10.00',
  destinationType: 'bank_account',
  destination: bankDestination(),
  ...overrides,
});

/** Rows of a treasury table of one partner (nothing-written checks). */
export const countOf = async (server: TestServer, table: string, businessId: string) =>
  Number(
    (
      await server.runtime.dataSource.query(`SELECT count(*) AS n FROM ${table} WHERE business_id = $1`, [businessId])
    )[0].n,
  );

/** The cached balance of an end-user wallet's ledger account, minor units. */
export async function ledgerBalanceOf(server: TestServer, walletId: string): Promise<bigint> {
  const [row] = await server.runtime.dataSource.query(
    `SELECT a.balance::text AS balance FROM treasury_wallets w JOIN ledger_accounts a ON a.id = w.ledger_account_id WHERE w.id = $1`,
    [walletId],
  );
  return BigInt(row.balance);
}
