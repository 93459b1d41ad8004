import { encodeCursor } from '../src/domain/shared/pagination';
import { TestMerchant, TestServer, startTestServer } from './support/harness';

/** Merchant wallets, their ledger entries and sandbox funding (design sections 3 and 7), on both faces. */

const WALLETS = '/api/v1/business/wallets';
const FUND = '/api/v1/business/sandbox/wallets/fund';

describe('Wallets', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  const auth = (merchant: TestMerchant) => ({ 'x-api-key': merchant.apiKey });
  const fund = (merchant: TestMerchant, body: unknown) =>
    server.request('POST', FUND, { body, headers: auth(merchant) });
  const get = (merchant: TestMerchant, path: string) => server.request('GET', path, { headers: auth(merchant) });

  async function usdWallet(merchant: TestMerchant) {
    const response = await get(merchant, WALLETS);
    return response.body.data.items.find((wallet: { currency: string }) => wallet.currency === 'usd');
  }

  /** Balance and entry count of every wallet of the business, as the database holds them. */
  async function snapshot(merchant: TestMerchant) {
    return server.runtime.dataSource.query(
      `SELECT a.currency, a.balance::text, (SELECT count(*)::int FROM journal_entries e WHERE e.account_id = a.id) AS entries
       FROM ledger_accounts a WHERE a.business_id = $1 ORDER BY a.currency, a.livemode`,
      [merchant.businessId],
    );
  }

  describe('REST', () => {
    test('sign-up provisions a USD test wallet with a zero balance, listed by GET /wallets', async () => {
      const merchant = await server.signUp();
      const response = await get(merchant, WALLETS);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        success: true,
        data: {
          items: [
            {
              id: expect.any(String),
              object: 'wallet',
              currency: 'usd',
              balance: '0.00',
              balanceMinor: '0',
              livemode: false,
              createdAt: expect.any(String),
              updatedAt: expect.any(String),
            },
          ],
          total: 1,
        },
      });
    });

    test('GET /wallets/:id returns the wallet; another business gets 404, as does an id that is not a UUID', async () => {
      const [owner, other] = [await server.signUp(), await server.signUp()];
      const wallet = await usdWallet(owner);
      const response = await get(owner, `${WALLETS}/${wallet.id}`);
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(wallet);

      for (const path of [`${WALLETS}/${wallet.id}`, `${WALLETS}/${wallet.id}/entries`]) {
        const foreign = await get(other, path);
        expect(foreign.status).toBe(404);
        expect(foreign.body.error.code).toBe('NOT_FOUND');
      }
      expect((await get(owner, `${WALLETS}/not-a-uuid`)).status).toBe(404);
    });

    test('wallets need a credential: 401 without one', async () => {
      const response = await server.request('GET', WALLETS);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', statusCode: 401 } });
    });

    test('sandbox funding credits the wallet: 201 with balance "100.50" and balanceMinor "10050"', async () => {
      const merchant = await server.signUp();
      const response = await fund(merchant, { currency: 'USD', amount: '100.50' });
      expect(response.status).toBe(201);
      expect(response.body.success).toBe(true);
      expect(response.body.data.wallet).toMatchObject({
        currency: 'usd',
        balance: '100.50',
        balanceMinor: '10050',
        livemode: false,
      });
      expect(response.body.data.transactionId).toEqual(expect.any(String));
      expect(await usdWallet(merchant)).toEqual(response.body.data.wallet);

      const again = await fund(merchant, { currency: 'usd', amount: 0.5 });
      expect(again.status).toBe(201);
      expect(again.body.data.wallet).toMatchObject({ balance: '101.00', balanceMinor: '10100' });
    });

    test.each([
      ['a negative amount', { currency: 'USD', amount: '-1' }, 'amount'],
      ['more decimals than USD has', { currency: 'USD', amount: '1.234' }, 'amount'],
      ['a non-numeric amount', { currency: 'USD', amount: 'abc' }, 'amount'],
      ['an empty amount', { currency: 'USD', amount: '' }, 'amount'],
      ['a zero amount', { currency: 'USD', amount: 0 }, 'amount'],
      ['a zero amount as a string', { currency: 'USD', amount: '0.00' }, 'amount'],
      ['a missing amount', { currency: 'USD' }, 'amount'],
      ['an amount of the wrong type', { currency: 'USD', amount: true }, 'amount'],
      ['an amount above the sandbox limit', { currency: 'USD', amount: '1000000000.01' }, 'amount'],
      ['an amount beyond what the ledger can hold', { currency: 'USD', amount: '999999999999999999' }, 'amount'],
      ['a missing currency', { amount: '1.00' }, 'currency'],
      ['an unknown currency', { currency: 'XYZ', amount: '1.00' }, 'currency'],
    ])('sandbox funding with %s answers 400 with per-field errors and writes nothing', async (_case, body, field) => {
      const merchant = await server.signUp();
      await fund(merchant, { currency: 'USD', amount: '1.00' });
      const before = await snapshot(merchant);
      const response = await fund(merchant, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        success: false,
        error: {
          code: expect.any(String),
          message: expect.any(String),
          statusCode: 400,
          errors: { [field]: expect.any(Array) },
        },
      });
      expect(['VALIDATION_ERROR', 'UNSUPPORTED_CURRENCY']).toContain(response.body.error.code);
      expect(await snapshot(merchant)).toEqual(before);
    });

    test('sandbox funding reports every missing field at once', async () => {
      const merchant = await server.signUp();
      const response = await fund(merchant, {});
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(response.body.error.errors).sort()).toEqual(['amount', 'currency']);
    });

    test('sandbox funding names the type a field must have, and a malformed amount beside a bad currency', async () => {
      const merchant = await server.signUp();
      const wrongTypes = await fund(merchant, { currency: 5, amount: true });
      expect(wrongTypes.body.error.errors).toEqual({
        currency: ['must be a string'],
        amount: ['must be a number or a string'],
      });
      const both = await fund(merchant, { currency: 'u', amount: 'ten' });
      expect(both.body.error.errors).toEqual({
        currency: ['must be a currency code'],
        amount: ['must be a positive decimal amount such as "100.50"'],
      });
    });

    test('sandbox funding accepts up to 1,000,000,000 units of the currency per request', async () => {
      const merchant = await server.signUp();
      const response = await fund(merchant, { currency: 'USD', amount: '1000000000.00' });
      expect(response.status).toBe(201);
      expect(response.body.data.wallet.balanceMinor).toBe('100000000000');
    });

    test('UGX (no decimals) and USDC (6 decimals) are funded exactly', async () => {
      const merchant = await server.signUp();
      const ugx = await fund(merchant, { currency: 'ugx', amount: '5000' });
      expect(ugx.status).toBe(201);
      expect(ugx.body.data.wallet).toMatchObject({ currency: 'ugx', balance: '5000', balanceMinor: '5000' });
      expect((await fund(merchant, { currency: 'UGX', amount: '10.5' })).status).toBe(400);

      const usdc = await fund(merchant, { currency: 'USDC', amount: '1.123456' });
      expect(usdc.status).toBe(201);
      expect(usdc.body.data.wallet).toMatchObject({ currency: 'usdc', balance: '1.123456', balanceMinor: '1123456' });
      const more = await fund(merchant, { currency: 'USDC', amount: '0.000001' });
      expect(more.body.data.wallet).toMatchObject({ balance: '1.123457', balanceMinor: '1123457' });
      expect((await fund(merchant, { currency: 'USDC', amount: '0.0000001' })).status).toBe(400);

      const list = await get(merchant, WALLETS);
      expect(
        list.body.data.items.map((wallet: { currency: string; balance: string }) => [wallet.currency, wallet.balance]),
      ).toEqual([
        ['ugx', '5000'],
        ['usd', '0.00'],
        ['usdc', '1.123457'],
      ]);
    });

    test('entries are listed newest first with cursor pagination, each exactly once', async () => {
      const merchant = await server.signUp();
      for (const amount of ['1.00', '2.00', '3.00', '4.00', '5.00']) {
        expect((await fund(merchant, { currency: 'USD', amount })).status).toBe(201);
      }
      const wallet = await usdWallet(merchant);
      const seen: Array<{ id: string; amount: string; balanceAfter: string; kind: string }> = [];
      const pages: number[] = [];
      let after: string | null = null;
      do {
        const response = await get(
          merchant,
          `${WALLETS}/${wallet.id}/entries?limit=2${after ? `&after=${after}` : ''}`,
        );
        expect(response.status).toBe(200);
        const { items, hasMore, nextCursor } = response.body.data;
        pages.push(items.length);
        seen.push(...items);
        expect(hasMore).toBe(nextCursor !== null);
        after = nextCursor;
      } while (after);

      expect(pages).toEqual([2, 2, 1]);
      expect(new Set(seen.map((entry) => entry.id)).size).toBe(5);
      expect(seen.map((entry) => entry.amount)).toEqual(['5.00', '4.00', '3.00', '2.00', '1.00']);
      expect(seen.map((entry) => entry.balanceAfter)).toEqual(['15.00', '10.00', '6.00', '3.00', '1.00']);
      expect(seen[0]).toMatchObject({
        object: 'wallet_entry',
        kind: 'sandbox_funding',
        currency: 'usd',
        amountMinor: '500',
      });

      const all = await get(merchant, `${WALLETS}/${wallet.id}/entries?limit=100`);
      expect(all.body.data).toMatchObject({ hasMore: false, nextCursor: null });
      expect(all.body.data.items).toEqual(seen);
    });

    test('a cursor is refused on another wallet, and a malformed cursor is refused', async () => {
      const merchant = await server.signUp();
      await fund(merchant, { currency: 'USD', amount: '1.00' });
      await fund(merchant, { currency: 'USD', amount: '1.00' });
      const eur = (await fund(merchant, { currency: 'EUR', amount: '1.00' })).body.data.wallet;
      const usd = await usdWallet(merchant);
      const first = await get(merchant, `${WALLETS}/${usd.id}/entries?limit=1`);
      const cursor = first.body.data.nextCursor;
      expect(cursor).toEqual(expect.any(String));

      const forged = encodeCursor(['not-a-sequence'], { walletId: usd.id });
      for (const [walletId, after] of [
        [eur.id, cursor],
        [usd.id, 'garbage'],
        [usd.id, forged],
      ]) {
        const response = await get(merchant, `${WALLETS}/${walletId}/entries?after=${after}`);
        expect(response.status).toBe(400);
        expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', errors: { after: expect.any(Array) } });
      }
    });

    test.each(['101', '0', '-1', 'abc', '2.5'])('entries?limit=%s answers 400 VALIDATION_ERROR', async (limit) => {
      const merchant = await server.signUp();
      const wallet = await usdWallet(merchant);
      const response = await get(merchant, `${WALLETS}/${wallet.id}/entries?limit=${limit}`);
      expect(response.status).toBe(400);
      // docs/rest-api.md: the field reported is `limit`, whether it is not an integer or out of range.
      expect(response.body).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR', statusCode: 400, errors: { limit: expect.any(Array) } },
      });
      expect(Object.keys(response.body.error.errors)).toEqual(['limit']);
    });

    test('live credentials come with their own live USD wallet, see only live wallets, and sandbox funding is refused in live mode', async () => {
      const merchant = await server.signUp();
      const testWallet = await usdWallet(merchant);
      const issued = await server.graphql(
        `mutation { createLiveCredentials { credentials { apiKey } } }`,
        {},
        { authorization: `Bearer ${merchant.token}` },
      );
      const liveKey = issued.body.data.createLiveCredentials.credentials.apiKey;
      const live = { 'x-api-key': liveKey };

      const refused = await server.request('POST', FUND, { body: { currency: 'USD', amount: '1.00' }, headers: live });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('SANDBOX_ONLY');

      const list = await server.request('GET', WALLETS, { headers: live });
      expect(list.status).toBe(200);
      expect(list.body.data.items).toEqual([
        expect.objectContaining({ currency: 'usd', livemode: true, balance: '0.00' }),
      ]);
      expect(list.body.data.items[0].id).not.toBe(testWallet.id);
      expect((await server.request('GET', `${WALLETS}/${testWallet.id}`, { headers: live })).status).toBe(404);
    });
  });

  describe('GraphQL', () => {
    const WALLET_FIELDS = 'id currency mode balance { amount amountMinor currency }';
    const asOwner = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });

    test('wallets lists the wallets of the active business with money as {amount, amountMinor, currency}', async () => {
      const merchant = await server.signUp();
      const response = await server.graphql(`{ wallets { ${WALLET_FIELDS} } }`, {}, asOwner(merchant));
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data!.wallets).toEqual([
        {
          id: expect.any(String),
          currency: 'USD',
          mode: 'TEST',
          balance: { amount: '0.00', amountMinor: '0', currency: 'USD' },
        },
      ]);
    });

    test('sandboxFundWallet credits the wallet and answers the new balance', async () => {
      const merchant = await server.signUp();
      const response = await server.graphql(
        `mutation($input: SandboxFundWalletInput!) { sandboxFundWallet(input: $input) { wallet { ${WALLET_FIELDS} } userErrors { field code } } }`,
        { input: { currency: 'USDC', amount: '2.500001' } },
        auth(merchant),
      );
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data!.sandboxFundWallet).toMatchObject({
        wallet: {
          currency: 'USDC',
          mode: 'TEST',
          balance: { amount: '2.500001', amountMinor: '2500001', currency: 'USDC' },
        },
        userErrors: [],
      });
    });

    test('sandboxFundWallet with a bad amount is a VALIDATION_ERROR userError on input.amount and writes nothing', async () => {
      const merchant = await server.signUp();
      const before = await snapshot(merchant);
      const response = await server.graphql(
        `mutation { sandboxFundWallet(input: { currency: "USD", amount: "1.234" }) { wallet { id } userErrors { field message code } } }`,
        {},
        auth(merchant),
      );
      expect(response.body).toEqual({
        data: {
          sandboxFundWallet: {
            wallet: null,
            userErrors: [{ field: ['input', 'amount'], message: expect.any(String), code: 'VALIDATION_ERROR' }],
          },
        },
      });
      expect(await snapshot(merchant)).toEqual(before);
    });

    test('sandboxFundWallet is refused in live mode with SANDBOX_ONLY', async () => {
      const merchant = await server.signUp();
      const response = await server.graphql(
        `mutation { sandboxFundWallet(input: { currency: "USD", amount: "1.00" }) { wallet { id } } }`,
        {},
        { ...asOwner(merchant), 'x-service-mode': 'live' },
      );
      expect(response.body.errors![0].extensions.code).toBe('SANDBOX_ONLY');
      expect(await snapshot(merchant)).toEqual([{ currency: 'USD', balance: '0', entries: 0 }]);
    });

    test('wallet(id) pages its entries with first/after and pageInfo, newest first', async () => {
      const merchant = await server.signUp();
      for (const amount of ['1.00', '2.00', '3.00']) await fund(merchant, { currency: 'USD', amount });
      const walletId = (await usdWallet(merchant)).id;
      const query = `query($id: ID!, $after: String) { wallet(id: $id) { ${WALLET_FIELDS}
        entries(first: 2, after: $after) {
          edges { cursor node { id kind amount { amount amountMinor currency } balanceAfter { amount } } }
          pageInfo { hasNextPage endCursor } } } }`;

      const first = await server.graphql(query, { id: walletId }, asOwner(merchant));
      expect(first.body.errors).toBeUndefined();
      const page1 = first.body.data.wallet;
      expect(page1.balance).toEqual({ amount: '6.00', amountMinor: '600', currency: 'USD' });
      expect(page1.entries.edges.map((edge: any) => edge.node.amount.amount)).toEqual(['3.00', '2.00']);
      expect(page1.entries.edges[0].node).toMatchObject({
        kind: 'sandbox_funding',
        amount: { amountMinor: '300', currency: 'USD' },
        balanceAfter: { amount: '6.00' },
      });
      expect(page1.entries.pageInfo).toEqual({ hasNextPage: true, endCursor: page1.entries.edges[1].cursor });

      const second = await server.graphql(
        query,
        { id: walletId, after: page1.entries.pageInfo.endCursor },
        asOwner(merchant),
      );
      const page2 = second.body.data.wallet.entries;
      expect(page2.edges.map((edge: any) => edge.node.amount.amount)).toEqual(['1.00']);
      expect(page2.pageInfo).toEqual({ hasNextPage: false, endCursor: page2.edges[0].cursor });
    });

    test('wallet(id) of another business is NOT_FOUND', async () => {
      const [owner, other] = [await server.signUp(), await server.signUp()];
      const walletId = (await usdWallet(owner)).id;
      const response = await server.graphql(
        `query($id: ID!) { wallet(id: $id) { id } }`,
        { id: walletId },
        asOwner(other),
      );
      expect(response.body.errors![0].extensions.code).toBe('NOT_FOUND');
    });

    test('entries(first: 101) is refused', async () => {
      const merchant = await server.signUp();
      const walletId = (await usdWallet(merchant)).id;
      const response = await server.graphql(
        `query($id: ID!) { wallet(id: $id) { entries(first: 101) { pageInfo { hasNextPage } } } }`,
        { id: walletId },
        asOwner(merchant),
      );
      expect(response.body.errors).toBeDefined();
      expect(response.body.data?.wallet ?? null).toBeNull();
    });
  });
});
