import { TestMerchant, TestServer } from './harness';

export const PAYOUTS = '/api/v1/business/payouts';

/** A Nigerian bank account whose last 4 digits pick the sandbox rail's behaviour (docs/sandbox.md). */
export const bankDetails = (ending = '6789', overrides: Record<string, unknown> = {}) => ({
  rail: 'LOCAL_BANK',
  country: 'NG',
  currency: 'NGN',
  bankCode: '058',
  bankName: 'GTBank',
  accountNumber: `012345${ending}`,
  accountName: 'Ada Obi',
  ...overrides,
});

export const apiKey = (merchant: TestMerchant) => ({ 'x-api-key': merchant.apiKey });
export const dashboard = (merchant: TestMerchant) => ({
  authorization: `Bearer ${merchant.token}`,
  'x-service-business-id': merchant.businessId,
});

export async function fundWallet(server: TestServer, merchant: TestMerchant, amount: string, currency = 'USD') {
  const response = await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
    headers: apiKey(merchant),
    body: { amount, currency },
  });
  if (response.status !== 201) throw new Error(`funding failed: ${JSON.stringify(response.body)}`);
}

export async function createRecipient(
  server: TestServer,
  merchant: TestMerchant,
  details: Record<string, unknown> = bankDetails(),
  label = 'Supplier',
) {
  const response = await server.request('POST', `${PAYOUTS}/recipients`, {
    headers: apiKey(merchant),
    body: { label, details },
  });
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`recipient failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string };
}

export const createPayout = (server: TestServer, merchant: TestMerchant, body: Record<string, unknown>) =>
  server.request('POST', PAYOUTS, { headers: apiKey(merchant), body: { currency: 'USD', ...body } });
