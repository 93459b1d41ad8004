import { LedgerService } from '../../src/domain/ledger/ledger.service';
import { TestMerchant, TestServer } from './harness';

/** The sandbox card numbers of the interface document. */
export const CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  threeDsSuccess: '4000 0025 0000 3155',
  threeDsFailure: '4000 0082 6000 3178',
  insufficientFunds: '4000 0000 0000 9995',
  threeDs2: '4000 0000 0000 3220',
} as const;

export const futureYear = new Date().getUTCFullYear() + 2;

export const card = (number: string = CARDS.success, overrides: Record<string, unknown> = {}) => ({
  number,
  expiryMonth: 12,
  expiryYear: futureYear,
  cvv: '123',
  ...overrides,
});

/** A signed-up merchant whose OWNER turned server-to-server charging on for test mode (GraphQL). */
export async function chargingMerchant(server: TestServer): Promise<TestMerchant> {
  const merchant = await server.signUp();
  const enabled = await server.graphql(
    'mutation { setServerToServerCharging(input: { enabled: true }) { serverToServerCharging userErrors { field message code } } }',
    {},
    { authorization: `Bearer ${merchant.token}` },
  );
  if (enabled.body.data?.setServerToServerCharging?.serverToServerCharging !== true)
    throw new Error(`could not enable charging: ${JSON.stringify(enabled.body)}`);
  return merchant;
}

/** A charging merchant with live credentials, and server-to-server charging on in live mode too (the operator's switch there). */
export async function liveChargingMerchant(server: TestServer): Promise<TestMerchant & { liveKey: string }> {
  const merchant = await chargingMerchant(server);
  const liveKey = await server.liveKeyOf(merchant);
  await server.runtime.dataSource.query(
    `UPDATE business_settings SET server_to_server_charging = true WHERE business_id = $1 AND livemode`,
    [merchant.businessId],
  );
  return { ...merchant, liveKey };
}

/** A live server-to-server charge of 4242 in USD with `liveKey`, which must complete: the payment's id. */
export async function completedLiveCharge(server: TestServer, liveKey: string, amount: number): Promise<string> {
  const response = await server.request('POST', '/api/v1/business/payment/charge', {
    headers: { 'x-api-key': liveKey },
    body: { amount, currency: 'usd', card: card(CARDS.success), email: 'payer@example.com' },
  });
  expect(response.body.data).toMatchObject({ status: 'COMPLETED', livemode: true });
  return response.body.data.id as string;
}

export const charge = (server: TestServer, merchant: TestMerchant, body: Record<string, unknown>) =>
  server.request('POST', '/api/v1/business/payment/charge', { headers: { 'x-api-key': merchant.apiKey }, body });

export async function expectLedgerBalanced(server: TestServer) {
  const check = await LedgerService.check(server.runtime.dataSource);
  if (!check.balanced) throw new Error(`ledger not balanced: ${JSON.stringify(check)}`);
}

/** The merchant's USD wallet balance in minor units (0 when it has none yet). */
export async function walletBalance(server: TestServer, businessId: string, currency = 'USD'): Promise<bigint> {
  const rows = await server.runtime.dataSource.query(
    `SELECT balance::text FROM ledger_accounts WHERE kind = 'merchant_wallet' AND business_id = $1 AND livemode = false AND currency = $2`,
    [businessId, currency],
  );
  return rows.length ? BigInt(rows[0].balance) : 0n;
}

export async function eventsOf(
  server: TestServer,
  businessId: string,
  type?: string,
): Promise<Array<{ type: string; data: any }>> {
  return server.runtime.dataSource.query(
    `SELECT type, data FROM events WHERE business_id = $1 ${type ? 'AND type = $2' : ''} ORDER BY created_at, id`,
    type ? [businessId, type] : [businessId],
  );
}

export { waitFor } from './harness';
