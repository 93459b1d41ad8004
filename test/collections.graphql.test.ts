import { Topic } from '../src/domain/events/pubsub';
import { TestMerchant, TestServer, collect, heardBefore, startTestServer, waitFor } from './support/harness';

/**
 * The GraphQL face of collections (design section 9): the same commands and rules as REST (one
 * wire shape, src/wire/collections.ts), a cursor connection, and collectionUpdated over graphql-ws
 * only for the subscriber's own business and mode.
 */

const COLLECTION_FIELDS = `id status amount { amount amountMinor currency } country expiresAt
  channel { rail provider channelId networkId }
  instructions { __typename
    ... on BankTransferInstructions { kind bankName accountNumber accountName reference }
    ... on MomoPromptInstructions { kind phone prompt }
    ... on HostedPageInstructions { kind url provider } }
  metadata businessPaymentId source amountReceived { amountMinor currency } failureReason
  settlement { rate grossAmount { amount amountMinor currency } fee { amountMinor } netAmount { amount amountMinor currency } }
  livemode createdAt updatedAt`;
const CREATE = `mutation($input: CreateCollectionInput!) { createCollection(input: $input) { ${COLLECTION_FIELDS} } }`;
const PAY = `mutation($id: ID!, $amount: String!) { paySandboxCollection(id: $id, amount: $amount) { ${COLLECTION_FIELDS} } }`;
const READ = `query($id: ID!) { collection(id: $id) { ${COLLECTION_FIELDS} } }`;
const LIST = `query($first: Int, $after: String, $status: CollectionStatus) { collections(first: $first, after: $after, status: $status) {
  edges { cursor node { id status amount { amountMinor } } } pageInfo { hasNextPage endCursor } } }`;
const UPDATED = `subscription { collectionUpdated { id status livemode } }`;

const ngBank = (overrides: Record<string, unknown> = {}) => ({ amount: '5000000', currency: 'ngn', country: 'NG', rail: 'BANK', metadata: { orderId: 'G-1' }, ...overrides });
const ghMomo = (overrides: Record<string, unknown> = {}) => ({
  amount: '5000', currency: 'GHS', country: 'GH', rail: 'MOMO', customer: { phone: '+233241234567', networkId: 'vodafone-gh' }, ...overrides,
});

describe('Collections over GraphQL', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  const asDashboard = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
  const asApiKey = (merchant: TestMerchant) => ({ 'x-api-key': merchant.apiKey });

  async function ok<T = any>(query: string, variables: Record<string, unknown>, headers: Record<string, string>): Promise<T> {
    const response = await server.graphql<T>(query, variables, headers);
    expect(response.body.errors).toBeUndefined();
    return response.body.data as T;
  }

  async function refused(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const response = await server.graphql(query, variables, headers);
    expect(response.body.errors).toHaveLength(1);
    return response.body.errors![0];
  }

  const create = async (merchant: TestMerchant, input: Record<string, unknown>) => (await ok(CREATE, { input }, asApiKey(merchant))).createCollection;
  const countOf = async (businessId: string) =>
    Number((await server.runtime.dataSource.query(`SELECT count(*) AS n FROM collections WHERE business_id = $1`, [businessId]))[0].n);

  test('collectionChannels lists the sandbox channels with their networks and limits as Money', async () => {
    const merchant = await server.signUp();
    const data = await ok(`query($country: String) { collectionChannels(country: $country) { id country currency rail provider networkIds minAmount { amount amountMinor currency } maxAmount { amountMinor } } }`,
      { country: 'KE' }, asDashboard(merchant));
    expect(data.collectionChannels).toEqual([{
      id: 'sbx_ch_ke_momo', country: 'KE', currency: 'KES', rail: 'MOMO', provider: 'sandbox-momo', networkIds: ['safaricom-ke', 'airtel-ke'],
      minAmount: { amount: '10.00', amountMinor: '1000', currency: 'KES' }, maxAmount: { amountMinor: '15000000' },
    }]);
    const all = await ok('{ collectionChannels { id rail } }', {}, asApiKey(merchant));
    expect(all.collectionChannels.map((channel: any) => channel.id)).toEqual(['sbx_ch_ng_bank', 'sbx_ch_gh_momo', 'sbx_ch_ke_momo', 'sbx_ch_za_eft']);
  });

  test('createCollection answers the collection as REST reads it: Money amount, channel, instructions by kind', async () => {
    const merchant = await server.signUp();
    const collection = await create(merchant, ngBank({ businessPaymentId: 'gql-1' }));
    expect(collection).toMatchObject({
      status: 'PENDING', amount: { amount: '50000.00', amountMinor: '5000000', currency: 'NGN' }, country: 'NG',
      channel: { rail: 'BANK', provider: 'sandbox-bank', channelId: 'sbx_ch_ng_bank', networkId: null },
      instructions: { __typename: 'BankTransferInstructions', kind: 'bank_transfer', bankName: 'Sandbox Bank', reference: null },
      metadata: { orderId: 'G-1' }, businessPaymentId: 'gql-1', source: 'API', amountReceived: null, failureReason: null, settlement: null, livemode: false,
    });
    const rest = (await server.request('GET', `/api/v1/business/collections/${collection.id}`, { headers: asApiKey(merchant) })).body.data;
    expect(rest).toMatchObject({
      id: collection.id, status: 'pending', amount: 5_000_000, currency: 'ngn', expiresAt: collection.expiresAt, businessPaymentId: 'gql-1',
      instructions: { kind: 'bank_transfer', accountNumber: collection.instructions.accountNumber },
    });
    const momo = await create(merchant, ghMomo());
    expect(momo).toMatchObject({
      channel: { rail: 'MOMO', channelId: 'sbx_ch_gh_momo', networkId: 'vodafone-gh' },
      instructions: { __typename: 'MomoPromptInstructions', kind: 'momo_prompt', phone: '+233241234567', prompt: expect.stringContaining('Vodafone Cash') },
    });
    const eft = await create(merchant, { amount: '25000', currency: 'zar', country: 'ZA', rail: 'EFT' });
    expect(eft.instructions).toEqual({ __typename: 'HostedPageInstructions', kind: 'hosted_page', url: expect.stringMatching(/\/collect\/col_test_/), provider: 'sandbox-eft' });
    expect((await ok(READ, { id: eft.id }, asDashboard(merchant))).collection).toEqual(eft);
  });

  test('bad input is VALIDATION_ERROR with the same per-field errors as REST, and nothing is written', async () => {
    const merchant = await server.createMerchant();
    const fractional = await refused(CREATE, { input: ngBank({ amount: '50.5' }) }, asApiKey(merchant));
    expect(fractional.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'VALIDATION_ERROR', errors: { amount: [expect.stringContaining('positive integer in minor units')] } });
    const swapped = await refused(CREATE, { input: ghMomo({ channelId: 'mtn-gh', customer: { phone: '+233241234567', networkId: 'sbx_ch_gh_momo' } }) }, asApiKey(merchant));
    expect(Object.keys(swapped.extensions.errors).sort()).toEqual(['channelId', 'customer.networkId']);
    const outsideLimits = await refused(CREATE, { input: ngBank({ amount: '100' }) }, asApiKey(merchant));
    expect(Object.keys(outsideLimits.extensions.errors)).toEqual(['amount']);
    const noPhone = await refused(CREATE, { input: ghMomo({ customer: { networkId: 'mtn-gh' } }) }, asApiKey(merchant));
    expect(Object.keys(noPhone.extensions.errors)).toEqual(['customer.phone']);
    const wrongCountry = await refused(CREATE, { input: ngBank({ country: 'GH' }) }, asApiKey(merchant));
    expect(Object.keys(wrongCountry.extensions.errors)).toEqual(['currency']);
    expect(await countOf(merchant.businessId)).toBe(0);
  });

  test('collections is a cursor connection, newest first, with a status filter, of the caller\'s business only', async () => {
    const merchant = await server.signUp();
    const other = await server.signUp();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await create(merchant, ngBank())).id);
    await create(other, ngBank());
    const first = (await ok(LIST, { first: 2 }, asDashboard(merchant))).collections;
    expect(first.edges.map((edge: any) => edge.node.id)).toEqual([ids[2], ids[1]]);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = (await ok(LIST, { first: 2, after: first.pageInfo.endCursor }, asDashboard(merchant))).collections;
    expect(rest.edges.map((edge: any) => edge.node.id)).toEqual([ids[0]]);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    await ok(PAY, { id: ids[1], amount: '5000000' }, asApiKey(merchant));
    const completed = (await ok(LIST, { status: 'COMPLETED' }, asApiKey(merchant))).collections;
    expect(completed.edges.map((edge: any) => edge.node.id)).toEqual([ids[1]]);
    // A cursor is bound to its filters.
    const crossed = await refused(LIST, { first: 2, after: first.pageInfo.endCursor, status: 'PENDING' }, asDashboard(merchant));
    expect(crossed.extensions.domainCode).toBe('VALIDATION_ERROR');
  });

  test('paySandboxCollection: the same amount completes it with its USDC settlement; another amount fails it with amount_mismatch', async () => {
    const merchant = await server.signUp();
    const paid = await create(merchant, ghMomo());
    const completed = (await ok(PAY, { id: paid.id, amount: '5000' }, asApiKey(merchant))).paySandboxCollection;
    expect(completed).toMatchObject({
      status: 'COMPLETED', amountReceived: { amountMinor: '5000', currency: 'GHS' },
      settlement: {
        rate: '0.06546052', grossAmount: { amount: '3.273026', amountMinor: '3273026', currency: 'USDC' }, fee: { amountMinor: '49096' },
        netAmount: { amount: '3.223930', amountMinor: '3223930', currency: 'USDC' },
      },
    });
    const wallets = await ok('{ wallets { currency balance { amountMinor } } }', {}, asApiKey(merchant));
    expect(wallets.wallets.find((wallet: any) => wallet.currency === 'USDC').balance.amountMinor).toBe('3223930');
    const mismatched = await create(merchant, ghMomo());
    const failed = (await ok(PAY, { id: mismatched.id, amount: '4999' }, asApiKey(merchant))).paySandboxCollection;
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'amount_mismatch', settlement: null });
    const bad = await refused(PAY, { id: paid.id, amount: '1.5' }, asApiKey(merchant));
    expect(bad.extensions).toMatchObject({ code: 'BAD_USER_INPUT', domainCode: 'VALIDATION_ERROR', errors: { amount: expect.any(Array) } });
  });

  test("another business's collection is NOT_FOUND, and live mode refuses collections clearly", async () => {
    const owner = await server.signUp();
    const stranger = await server.signUp();
    const collection = await create(owner, ngBank());
    expect((await refused(READ, { id: collection.id }, asApiKey(stranger))).extensions.code).toBe('NOT_FOUND');
    expect((await refused(PAY, { id: collection.id, amount: '5000000' }, asApiKey(stranger))).extensions.code).toBe('NOT_FOUND');
    const live = { 'x-api-key': await server.liveKeyOf(owner) };
    const refusal = await refused(CREATE, { input: ngBank() }, live);
    expect(refusal.extensions.code).toBe('UNPROCESSABLE');
    expect(refusal.message).toContain('No collection rail is configured for live mode');
    expect((await refused(READ, { id: collection.id }, live)).extensions.code).toBe('NOT_FOUND');
  });

  describe('collectionUpdated', () => {
    test('a subscriber receives pending, processing, completed of its own collection, nothing of another business or of the other mode', async () => {
      const owner = await server.signUp();
      const other = await server.signUp();
      const liveKey = await server.liveKeyOf(owner);
      const mine = collect(server.subscribe(asDashboard(owner)), UPDATED, 3);
      const theirs = collect(server.subscribe({ apiKey: other.apiKey }), UPDATED, 1);
      const live = collect(server.subscribe({ apiKey: liveKey }), UPDATED, 1);
      await Promise.all([mine.ready, theirs.ready, live.ready]);

      // The other business's collection first: had it leaked, it would be among the owner's messages.
      const ofOther = await create(other, ngBank());
      const created = await create(owner, ngBank());
      await waitFor(async () => mine.received.length, (count) => count >= 1);
      await ok(PAY, { id: created.id, amount: '5000000' }, asApiKey(owner));
      const received = await mine.done;
      expect(received.every((message: any) => message.collectionUpdated.id === created.id && message.collectionUpdated.livemode === false)).toBe(true);
      // Each message is the collection re-read when it arrives: the processing one may already read completed.
      const statuses = received.map((message: any) => message.collectionUpdated.status);
      expect(statuses).toHaveLength(3);
      expect([statuses[0], statuses[2]]).toEqual(['PENDING', 'COMPLETED']);
      expect(['PROCESSING', 'COMPLETED']).toContain(statuses[1]);
      expect(await theirs.done).toEqual([{ collectionUpdated: { id: ofOther.id, status: 'PENDING', livemode: false } }]);
      // Live mode has no collection rail: the live subscriber's silence is ended by a change published last.
      expect(await heardBefore(server, live, (pubSub, collectionId) =>
        pubSub.publish(Topic.COLLECTION, { businessId: owner.businessId, livemode: true, collectionId }))).toEqual([]);
    });

    test('collectionUpdated(id) delivers that collection only', async () => {
      const owner = await server.signUp();
      const watched = await create(owner, ghMomo());
      const one = collect(server.subscribe({ apiKey: owner.apiKey }), `subscription { collectionUpdated(id: "${watched.id}") { id status } }`, 1);
      await one.ready;
      await create(owner, ghMomo());
      await ok(PAY, { id: watched.id, amount: '4000' }, asApiKey(owner));
      const [message] = await one.done;
      expect(message.collectionUpdated.id).toBe(watched.id);
    });
  });
});
