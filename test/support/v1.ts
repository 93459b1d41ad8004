import { Mode } from '../../src/domain/shared/modes';
import { RequestContext } from '../../src/domain/shared/context';
import { ApiResponse, TestMerchant, TestServer } from './harness';

/** Helpers of the `/v1` tests: a verified merchant with its `/v1` keys, and requests made with a key. */

export interface V1Merchant extends TestMerchant {
  testKey: string;
}

const operator = (server: TestServer, businessId: string, mode = Mode.TEST) =>
  RequestContext.system(server.runtime.dataSource, 'test-operator', businessId, mode);

/** Verifies (or un-verifies) a business, as `tessera business update --verified on|off` does. */
export async function setVerified(server: TestServer, businessId: string, verified: boolean): Promise<void> {
  await server.runtime.core.identity.businesses.updateAsOperator(operator(server, businessId), { verified });
}

/** Issues a `/v1` key as `tessera v1-key create <businessId> [--live]` does. */
export async function issueV1Key(server: TestServer, businessId: string, mode = Mode.TEST): Promise<string> {
  return (await server.runtime.core.v1Keys.issue(operator(server, businessId, mode), { mode })).apiKey;
}

/** A verified merchant with its `/v1` test key. */
export async function v1Merchant(server: TestServer): Promise<V1Merchant> {
  const merchant = await server.createMerchant();
  await setVerified(server, merchant.businessId, true);
  return { ...merchant, testKey: await issueV1Key(server, merchant.businessId) };
}

/** A `/v1` request with `Authorization: Bearer <key>`. */
export const v1 =
  (server: TestServer, key: string | null) =>
  <T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> =>
    server.request<T>(method, path, {
      body,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    });

export const paymentBody = (overrides: Record<string, unknown> = {}) => ({
  amount: 1050,
  currency: 'usd',
  ...overrides,
});

/** Rows of a table of the `/v1` area, to show that a refused request wrote nothing. */
export async function countRows(server: TestServer, table: 'v1_payments' | 'checkout_sessions'): Promise<number> {
  const [row] = await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`);
  return row.n;
}

/** Sets the business's `/v1` webhook URL of the test mode (GraphQL setV1WebhookUrl, as an OWNER): where its `/v1` events go. */
export async function setV1WebhookUrl(server: TestServer, merchant: TestMerchant, url: string | null): Promise<void> {
  const answer = await server.graphql(
    'mutation($url: String) { setV1WebhookUrl(input: { webhookUrl: $url }) { v1WebhookSettings { webhookUrl } userErrors { field message code } } }',
    { url },
    { authorization: `Bearer ${merchant.token}`, 'x-service-business-id': merchant.businessId },
  );
  if (answer.body.errors || answer.body.data?.setV1WebhookUrl.v1WebhookSettings?.webhookUrl !== url)
    throw new Error(`setV1WebhookUrl failed: ${JSON.stringify(answer.body)}`);
}
