import { CollectionTopic } from '../src/domain/collections/collections.topics';
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
const USER_ERRORS = 'userErrors { field message code }';
const CREATE = `mutation($input: CreateCollectionInput!) { createCollection(input: $input) { collection { ${COLLECTION_FIELDS} } ${USER_ERRORS} } }`;
const PAY = `mutation($id: ID!, $amount: String!) { paySandboxCollection(input: { id: $id, amount: $amount }) { collection { ${COLLECTION_FIELDS} } ${USER_ERRORS} } }`;
const READ = `query($id: ID!) { collection(id: $id) { ${COLLECTION_FIELDS} } }`;
const LIST = `query($first: Int, $after: String, $status: CollectionStatus) { collections(first: $first, after: $after, status: $status) {
  edges { cursor node { id status amount { amountMinor } } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`;
const UPDATED = `subscription { collectionUpdated { collection { id status livemode } previousStatus changedFields } }`;
const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on Collection { status amount { amountMinor } } } }`;

const ngBank = (overrides: Record<string, unknown> = {}) => ({
  amount: '5000000',
  currency: 'ngn',
  country: 'NG',
  rail: 'BANK',
  metadata: { orderId: 'G-1' },
  ...overrides,
});
const ghMomo = (overrides: Record<string, unknown> = {}) => ({
  amount: '5000',
  currency: 'GHS',
  country: 'GH',
  rail: 'MOMO',
  customer: { phone: '+233241234567', networkId: 'vodafone-gh' },
  ...overrides,
});

describe('Collections over GraphQL', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  const asDashboard = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
  const asApiKey = (merchant: TestMerchant) => ({ 'x-api-key': merchant.apiKey });

  async function ok<T = any>(
    query: string,
    variables: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<T> {
    const response = await server.graphql<T>(query, variables, headers);
    expect(response.body.errors).toBeUndefined();
    return response.body.data as T;
  }

  async function refused(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const response = await server.graphql(query, variables, headers);
    expect(response.body.errors).toHaveLength(1);
    return response.body.errors![0];
  }

  /** Runs a mutation and answers the collection of its payload, failing the test on any error or userError. */
  async function made(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const [payload]: any[] = Object.values(await ok(query, variables, headers));
    expect(payload.userErrors).toEqual([]);
    return payload.collection;
  }

  /** The userErrors of a mutation the caller can fix: no GraphQL error, and no collection. */
  async function userErrorsOf(
    query: string,
    variables: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<any[]> {
    const [payload]: any[] = Object.values(await ok(query, variables, headers));
    expect(payload.collection).toBeNull();
    expect(payload.userErrors.length).toBeGreaterThan(0);
    return payload.userErrors;
  }

  /** The input fields the userErrors name, as REST's error keys (customer.phone). */
  const fieldsOf = (userErrors: any[]) =>
    userErrors
      .map((error) => {
        expect(error.field[0]).toBe('input');
        return error.field.slice(1).join('.');
      })
      .sort();

  const create = async (merchant: TestMerchant, input: Record<string, unknown>) =>
    made(CREATE, { input }, asApiKey(merchant));
  const countOf = async (businessId: string) =>
    Number(
      (
        await server.runtime.dataSource.query(`SELECT count(*) AS n FROM collections WHERE business_id = $1`, [
          businessId,
        ])
      )[0].n,
    );

  test('collectionChannels lists the sandbox channels with their networks and limits as Money', async () => {
    const merchant = await server.signUp();
    const data = await ok(
      `query($country: String) { collectionChannels(country: $country) { id country currency rail provider networkIds minAmount { amount amountMinor currency } maxAmount { amountMinor } } }`,
      { country: 'KE' },
      asDashboard(merchant),
    );
    expect(data.collectionChannels).toEqual([
      {
        id: 'sbx_ch_ke_momo',
        country: 'KE',
        currency: 'KES',
        rail: 'MOMO',
        provider: 'sandbox-momo',
        networkIds: ['safaricom-ke', 'airtel-ke'],
        minAmount: { amount: '10.00', amountMinor: '1000', currency: 'KES' },
        maxAmount: { amountMinor: '15000000' },
      },
    ]);
    const all = await ok('{ collectionChannels { id rail } }', {}, asApiKey(merchant));
    expect(all.collectionChannels.map((channel: any) => channel.id)).toEqual([
      'sbx_ch_ng_bank',
      'sbx_ch_gh_momo',
      'sbx_ch_ke_momo',
      'sbx_ch_za_eft',
    ]);
  });

  test('createCollection answers the collection as REST reads it: Money amount, channel, instructions by kind', async () => {
    const merchant = await server.signUp();
    const collection = await create(merchant, ngBank({ businessPaymentId: 'gql-1' }));
    expect(collection).toMatchObject({
      status: 'PENDING',
      amount: { amount: '50000.00', amountMinor: '5000000', currency: 'NGN' },
      country: 'NG',
      channel: { rail: 'BANK', provider: 'sandbox-bank', channelId: 'sbx_ch_ng_bank', networkId: null },
      instructions: {
        __typename: 'BankTransferInstructions',
        kind: 'bank_transfer',
        bankName: 'Sandbox Bank',
        reference: null,
      },
      metadata: { orderId: 'G-1' },
      businessPaymentId: 'gql-1',
      source: 'API',
      amountReceived: null,
      failureReason: null,
      settlement: null,
      livemode: false,
    });
    const rest = (
      await server.request('GET', `/api/v1/business/collections/${collection.id}`, { headers: asApiKey(merchant) })
    ).body.data;
    expect(rest).toMatchObject({
      id: collection.id,
      status: 'pending',
      amount: 5_000_000,
      currency: 'ngn',
      expiresAt: collection.expiresAt,
      businessPaymentId: 'gql-1',
      instructions: { kind: 'bank_transfer', accountNumber: collection.instructions.accountNumber },
    });
    const momo = await create(merchant, ghMomo());
    expect(momo).toMatchObject({
      channel: { rail: 'MOMO', channelId: 'sbx_ch_gh_momo', networkId: 'vodafone-gh' },
      instructions: {
        __typename: 'MomoPromptInstructions',
        kind: 'momo_prompt',
        phone: '+233241234567',
        prompt: expect.stringContaining('Vodafone Cash'),
      },
    });
    const eft = await create(merchant, { amount: '25000', currency: 'zar', country: 'ZA', rail: 'EFT' });
    expect(eft.instructions).toEqual({
      __typename: 'HostedPageInstructions',
      kind: 'hosted_page',
      url: expect.stringMatching(/\/collect\/col_test_/),
      provider: 'sandbox-eft',
    });
    expect((await ok(READ, { id: eft.id }, asDashboard(merchant))).collection).toEqual(eft);
  });

  test('bad input is VALIDATION_ERROR userErrors on the same fields as REST (under input), and nothing is written', async () => {
    const merchant = await server.createMerchant();
    const fractional = await userErrorsOf(CREATE, { input: ngBank({ amount: '50.5' }) }, asApiKey(merchant));
    expect(fractional).toEqual([
      {
        field: ['input', 'amount'],
        message: expect.stringContaining('positive integer in minor units'),
        code: 'VALIDATION_ERROR',
      },
    ]);
    const rest = await server.request('POST', '/api/v1/business/collections', {
      headers: asApiKey(merchant),
      body: { ...ngBank(), rail: 'bank', amount: 50.5 },
    });
    expect(rest.body.error.errors).toEqual({ amount: [fractional[0].message] });
    const swapped = await userErrorsOf(
      CREATE,
      { input: ghMomo({ channelId: 'mtn-gh', customer: { phone: '+233241234567', networkId: 'sbx_ch_gh_momo' } }) },
      asApiKey(merchant),
    );
    expect(fieldsOf(swapped)).toEqual(['channelId', 'customer.networkId']);
    const outsideLimits = await userErrorsOf(CREATE, { input: ngBank({ amount: '100' }) }, asApiKey(merchant));
    expect(fieldsOf(outsideLimits)).toEqual(['amount']);
    const noPhone = await userErrorsOf(
      CREATE,
      { input: ghMomo({ customer: { networkId: 'mtn-gh' } }) },
      asApiKey(merchant),
    );
    expect(noPhone).toEqual([
      { field: ['input', 'customer', 'phone'], message: expect.any(String), code: 'VALIDATION_ERROR' },
    ]);
    const wrongCountry = await userErrorsOf(CREATE, { input: ngBank({ country: 'GH' }) }, asApiKey(merchant));
    expect(fieldsOf(wrongCountry)).toEqual(['currency']);
    expect(await countOf(merchant.businessId)).toBe(0);
  });

  test('a businessPaymentId already used is a CONFLICT userError on that field, and no second collection is written', async () => {
    const merchant = await server.signUp();
    await create(merchant, ngBank({ businessPaymentId: 'dup-1' }));
    const again = await userErrorsOf(CREATE, { input: ngBank({ businessPaymentId: 'dup-1' }) }, asApiKey(merchant));
    expect(again).toEqual([
      {
        field: ['input', 'businessPaymentId'],
        message: 'is already used by another collection of this business',
        code: 'CONFLICT',
      },
    ]);
    expect(await countOf(merchant.businessId)).toBe(1);
  });

  test('node(id:) answers a collection to its business in its mode; null for another business and for the other mode', async () => {
    const owner = await server.signUp();
    const stranger = await server.signUp();
    const collection = await create(owner, ngBank());
    expect((await ok(NODE, { id: collection.id }, asDashboard(owner))).node).toEqual({
      __typename: 'Collection',
      id: collection.id,
      status: 'PENDING',
      amount: { amountMinor: '5000000' },
    });
    expect((await ok(NODE, { id: collection.id }, asApiKey(stranger))).node).toBeNull();
    expect((await ok(NODE, { id: collection.id }, { 'x-api-key': await server.liveKeyOf(owner) })).node).toBeNull();
  });

  test("collections is a cursor connection, newest first, with a status filter, of the caller's business only", async () => {
    const merchant = await server.signUp();
    const other = await server.signUp();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) ids.push((await create(merchant, ngBank())).id);
    await create(other, ngBank());
    const first = (await ok(LIST, { first: 2 }, asDashboard(merchant))).collections;
    expect(first.edges.map((edge: any) => edge.node.id)).toEqual([ids[2], ids[1]]);
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[1].cursor,
    });
    const rest = (await ok(LIST, { first: 2, after: first.pageInfo.endCursor }, asDashboard(merchant))).collections;
    expect(rest.edges.map((edge: any) => edge.node.id)).toEqual([ids[0]]);
    expect(rest.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: rest.edges[0].cursor,
      endCursor: rest.edges[0].cursor,
    });
    await made(PAY, { id: ids[1], amount: '5000000' }, asApiKey(merchant));
    const completed = (await ok(LIST, { status: 'COMPLETED' }, asApiKey(merchant))).collections;
    expect(completed.edges.map((edge: any) => edge.node.id)).toEqual([ids[1]]);
    // A cursor is bound to its filters.
    const crossed = await refused(
      LIST,
      { first: 2, after: first.pageInfo.endCursor, status: 'PENDING' },
      asDashboard(merchant),
    );
    expect(crossed.extensions.domainCode).toBe('VALIDATION_ERROR');
  });

  test('paySandboxCollection: the same amount completes it with its USDC settlement; another amount fails it with amount_mismatch', async () => {
    const merchant = await server.signUp();
    const paid = await create(merchant, ghMomo());
    const completed = await made(PAY, { id: paid.id, amount: '5000' }, asApiKey(merchant));
    expect(completed).toMatchObject({
      status: 'COMPLETED',
      amountReceived: { amountMinor: '5000', currency: 'GHS' },
      settlement: {
        rate: '0.06546052',
        grossAmount: { amount: '3.273026', amountMinor: '3273026', currency: 'USDC' },
        fee: { amountMinor: '49096' },
        netAmount: { amount: '3.223930', amountMinor: '3223930', currency: 'USDC' },
      },
    });
    const wallets = await ok('{ wallets { currency balance { amountMinor } } }', {}, asApiKey(merchant));
    expect(wallets.wallets.find((wallet: any) => wallet.currency === 'USDC').balance.amountMinor).toBe('3223930');
    const mismatched = await create(merchant, ghMomo());
    const failed = await made(PAY, { id: mismatched.id, amount: '4999' }, asApiKey(merchant));
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'amount_mismatch', settlement: null });
    const bad = await userErrorsOf(PAY, { id: paid.id, amount: '1.5' }, asApiKey(merchant));
    expect(bad).toEqual([{ field: ['input', 'amount'], message: expect.any(String), code: 'VALIDATION_ERROR' }]);
  });

  test("another business's collection is NOT_FOUND, and live mode refuses collections clearly", async () => {
    const owner = await server.signUp();
    const stranger = await server.signUp();
    const collection = await create(owner, ngBank());
    expect((await refused(READ, { id: collection.id }, asApiKey(stranger))).extensions.code).toBe('NOT_FOUND');
    expect(await userErrorsOf(PAY, { id: collection.id, amount: '5000000' }, asApiKey(stranger))).toEqual([
      { field: null, message: 'Collection not found', code: 'NOT_FOUND' },
    ]);
    expect((await ok(READ, { id: collection.id }, asApiKey(owner))).collection.status).toBe('PENDING');
    const live = { 'x-api-key': await server.liveKeyOf(owner) };
    const refusal = await userErrorsOf(CREATE, { input: ngBank() }, live);
    expect(refusal).toEqual([
      {
        field: null,
        message: expect.stringContaining('No collection rail is configured for live mode'),
        code: 'UNPROCESSABLE',
      },
    ]);
    expect((await refused(READ, { id: collection.id }, live)).extensions.code).toBe('NOT_FOUND');
  });

  describe('collectionUpdated', () => {
    test('a subscriber receives its own collection created, then processing and completed once each with the status left and the fields set; nothing of another business or of the other mode', async () => {
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
      await waitFor(
        async () => mine.received.length,
        (count) => count >= 1,
      );
      await made(PAY, { id: created.id, amount: '5000000' }, asApiKey(owner));
      const received = (await mine.done).map((message: any) => message.collectionUpdated);
      expect(
        received.every((update: any) => update.collection.id === created.id && update.collection.livemode === false),
      ).toBe(true);
      // What changed is the change's own; the collection is re-read when it arrives (the processing one may already read completed).
      expect(received.map((update: any) => [update.previousStatus, update.changedFields])).toEqual([
        [null, ['status']],
        ['PENDING', ['status', 'amountReceived']],
        ['PROCESSING', ['status', 'amountReceived', 'settlement']],
      ]);
      const statuses = received.map((update: any) => update.collection.status);
      expect([statuses[0], statuses[2]]).toEqual(['PENDING', 'COMPLETED']);
      expect(['PROCESSING', 'COMPLETED']).toContain(statuses[1]);
      expect(await theirs.done).toEqual([
        {
          collectionUpdated: {
            collection: { id: ofOther.id, status: 'PENDING', livemode: false },
            previousStatus: null,
            changedFields: ['status'],
          },
        },
      ]);
      // Live mode has no collection rail: the live subscriber's silence is ended by a change published last.
      expect(
        await heardBefore(server, live, (pubSub, collectionId) =>
          pubSub.publish(CollectionTopic.COLLECTION, {
            businessId: owner.businessId,
            livemode: true,
            collectionId,
            previousStatus: null,
            changed: ['status'],
          }),
        ),
      ).toEqual([]);
    });

    test('collectionUpdated(id) delivers that collection only', async () => {
      const owner = await server.signUp();
      const watched = await create(owner, ghMomo());
      const one = collect(
        server.subscribe({ apiKey: owner.apiKey }),
        `subscription { collectionUpdated(id: "${watched.id}") { collection { id status } previousStatus changedFields } }`,
        1,
      );
      await one.ready;
      await create(owner, ghMomo());
      await made(PAY, { id: watched.id, amount: '4000' }, asApiKey(owner));
      const [message] = await one.done;
      expect(message.collectionUpdated.collection.id).toBe(watched.id);
      expect(message.collectionUpdated).toMatchObject({ previousStatus: 'PENDING' });
    });
  });
});
