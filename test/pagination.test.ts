import { ApiResponse, TestMerchant, TestServer, startTestServer } from './support/harness';
import { card, charge, chargingMerchant } from './support/payments';

/**
 * GraphQL connections page on (createdAt, id) with PostgreSQL's microsecond `created_at`; rows
 * created within the same millisecond as a page's last row must be on the next page, not skipped.
 */
describe('keyset pagination of GraphQL connections', () => {
  let server: TestServer;
  let merchant: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer({ paymentSettlementDelaySeconds: 3600 });
    merchant = await chargingMerchant(server);
  });
  afterAll(async () => server.close());

  /** Puts the rows one microsecond apart inside one millisecond, oldest first in the given order. */
  async function sameMillisecond(table: string, ids: string[]) {
    for (const [index, id] of ids.entries()) {
      await server.runtime.dataSource.query(
        `UPDATE ${table} SET created_at = '2026-03-01T10:00:00.123Z'::timestamptz + make_interval(secs => $2::float8 / 1000000) WHERE id = $1`,
        [id, index + 1],
      );
    }
  }

  /** Every node of a connection, one per page, following endCursor. */
  async function pageThrough(field: string, args = ''): Promise<string[]> {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 20; page += 1) {
      const response: ApiResponse = await server.graphql(
        `query($after: String) { ${field}(first: 1, after: $after${args}) { edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`,
        { after },
        { 'x-api-key': merchant.apiKey },
      );
      expect(response.body.errors).toBeUndefined();
      const connection: {
        edges: Array<{ node: { id: string } }>;
        pageInfo: { hasNextPage: boolean; endCursor: string };
      } = response.body.data[field];
      seen.push(...connection.edges.map((edge) => edge.node.id));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    return seen;
  }

  test('rows created within the same millisecond are all paged through, newest first, none skipped or repeated', async () => {
    const payments: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await charge(server, merchant, {
        amount: 10 + i,
        currency: 'usd',
        card: card(),
        email: `same-ms-${i}@example.com`,
      });
      expect(response.status).toBe(201);
      payments.push(response.body.data.id);
    }
    await sameMillisecond('payments', payments);
    expect(await pageThrough('payments')).toEqual([...payments].reverse());

    const customers: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const created = await server.request('POST', '/api/v1/business/customers', {
        headers: { 'x-api-key': merchant.apiKey },
        body: { email: `customer-${i}@example.com`, firstName: `Customer ${i}` },
      });
      expect(created.status).toBe(201);
      customers.push(created.body.data.customerId);
    }
    await sameMillisecond('customers', customers);
    expect(await pageThrough('customers')).toEqual([...customers].reverse());

    const events: Array<{ id: string }> = await server.runtime.dataSource.query(
      `SELECT id FROM events WHERE business_id = $1 ORDER BY created_at, id`,
      [merchant.businessId],
    );
    await sameMillisecond(
      'events',
      events.map((event) => event.id),
    );
    expect(await pageThrough('events')).toEqual(events.map((event) => event.id).reverse());
  });

  test('a cursor from before this fix (millisecond time) is still accepted', async () => {
    const first = await server.graphql(
      '{ payments(first: 1) { pageInfo { endCursor } } }',
      {},
      { 'x-api-key': merchant.apiKey },
    );
    const decoded = JSON.parse(Buffer.from(first.body.data.payments.pageInfo.endCursor, 'base64url').toString('utf8'));
    expect(decoded.p[0]).toMatch(/\.\d{6}Z$/);
    const legacy = Buffer.from(
      JSON.stringify({ ...decoded, p: [decoded.p[0].replace(/(\.\d{3})\d{3}Z$/, '$1Z'), decoded.p[1]] }),
    ).toString('base64url');
    const next = await server.graphql(
      'query($after: String) { payments(first: 1, after: $after) { edges { node { id } } } }',
      { after: legacy },
      { 'x-api-key': merchant.apiKey },
    );
    expect(next.body.errors).toBeUndefined();
  });
});
