import { FakeBridge } from './fake-bridge';
import { TestMerchant, TestServer, startDeliveringServer } from './harness';
import { USERS, treasuryPartner } from './treasury';
import { waitUntil } from './wait';

export const BRIDGE_WEBHOOKS_PATH = '/providers/bridge/webhooks';

/**
 * A describe block's live treasury through Bridge: the local fake of Bridge's API, a delivering
 * Tessera server pointed at it (its webhooks delivered to the server) and a treasury partner with a
 * live key, started before the block's tests and closed after them; with the requests the tests
 * make as that partner and end-users Bridge approves.
 */
export function liveBridgeSuite() {
  const suite = {} as { fake: FakeBridge; server: TestServer; partner: TestMerchant; live: Record<string, string> };
  beforeAll(async () => {
    suite.fake = await new FakeBridge().start();
    suite.server = await startDeliveringServer({ bridge: suite.fake.settings });
    suite.fake.deliverTo(`${suite.server.baseUrl}${BRIDGE_WEBHOOKS_PATH}`);
    suite.partner = await treasuryPartner(suite.server);
    suite.live = { 'x-api-key': await suite.server.liveKeyOf(suite.partner) };
  });
  afterAll(async () => {
    await suite.fake?.close();
    await suite.server?.close();
  });
  const query = <T = any>(sql: string, params: unknown[] = []) =>
    suite.server.runtime.dataSource.query<T[]>(sql, params);
  const post = (path: string, body: unknown) => suite.server.request('POST', path, { headers: suite.live, body });
  const get = (path: string) => suite.server.request('GET', path, { headers: suite.live });
  let externalId = 0;
  /** A live end-user whose KYC Bridge approved: its id and Bridge customer. */
  const approvedEndUser = async () => {
    externalId += 1;
    const created = await post(USERS, {
      externalId: `bridge-suite-${externalId}`,
      email: `suite${externalId}@example.com`,
      name: 'Ada Lovelace',
    });
    if (created.status !== 201) throw new Error(`end-user failed: ${JSON.stringify(created.body)}`);
    const userId = created.body.data.id as string;
    const started = await post(`${USERS}/${userId}/kyc`, {});
    if (started.status !== 201) throw new Error(`KYC failed: ${JSON.stringify(started.body)}`);
    const customerId = suite.fake.list('kyc_link').at(-1)!.customer_id as string;
    suite.fake.decideKyc(customerId, 'approved');
    await waitUntil(async () => (await get(`${USERS}/${userId}`)).body.data.status === 'active', 'KYC approved');
    return { userId, customerId };
  };
  /** The Bridge ids a wallet keeps (customer, Bridge wallet, virtual account or liquidation address). */
  const providerRefsOf = async (walletId: string) =>
    (await query(`SELECT deposit_account -> 'providerRefs' AS refs FROM treasury_wallets WHERE id = $1`, [walletId]))[0]
      .refs as Record<string, string>;
  return { suite, query, post, get, approvedEndUser, providerRefsOf };
}
