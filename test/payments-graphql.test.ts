import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { card, chargingMerchant } from './support/payments';

/**
 * The GraphQL face charges through the same command and the same rules as REST: the client address
 * is the request's (ctx.clientIp), so fraud screening judges a GraphQL charge as it judges a REST one.
 */
describe('GraphQL chargeCard', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ paymentSettlementDelaySeconds: 3600, sandbox3dsAutoCompleteMs: 3_600_000 });
  });
  afterAll(async () => server.close());

  const CHARGE = `mutation($input: ChargeCardInput!) {
    chargeCard(input: $input) { payment { id status failureReason failureMessage } userErrors { field message code } }
  }`;
  const chargeCard = (merchant: TestMerchant, input: Record<string, unknown>) =>
    server.graphql(CHARGE, { input }, { 'x-api-key': merchant.apiKey });
  /** The test client connects over loopback: 127.0.0.1 (written ::ffff:127.0.0.1 on a dual-stack socket). */
  const blockLoopback = async (merchant: TestMerchant): Promise<string> => {
    // Written as POST /business/fraud/blocklist stores it (test/fraud.test.ts covers that route).
    const [row] = await server.runtime.dataSource.query(
      `INSERT INTO fraud_blocklist (business_id, livemode, type, value, description) VALUES ($1, false, 'ip', '127.0.0.1', 'the test client') RETURNING id`,
      [merchant.businessId],
    );
    return row.id;
  };

  test('an ip block-list entry blocks a GraphQL chargeCard from that address, as it blocks the REST charge', async () => {
    const merchant = await chargingMerchant(server);
    const entryId = await blockLoopback(merchant);

    const graphql = await chargeCard(merchant, {
      amount: '10.00',
      currency: 'usd',
      card: card(),
      email: 'payer@example.com',
    });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.chargeCard).toMatchObject({
      payment: { status: 'FAILED', failureReason: 'blocked' },
      userErrors: [],
    });
    expect(graphql.body.data.chargeCard.payment.failureMessage).toContain(entryId);

    const rest = await server.request('POST', '/api/v1/business/payment/charge', {
      headers: { 'x-api-key': merchant.apiKey },
      body: { amount: 10, currency: 'usd', card: card(), email: 'other@example.com' },
    });
    expect(rest.status).toBe(201);
    expect(rest.body.data).toMatchObject({ status: 'FAILED', failureReason: 'blocked' });

    const rows = await server.runtime.dataSource.query(`SELECT ip_address FROM payments WHERE business_id = $1`, [
      merchant.businessId,
    ]);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.ip_address).toMatch(/127\.0\.0\.1$/);
  });

  test('without a block-list entry the same GraphQL charge captures and records the client address', async () => {
    const merchant = await chargingMerchant(server);
    const response = await chargeCard(merchant, {
      amount: '10.00',
      currency: 'usd',
      card: card(),
      email: 'payer@example.com',
    });
    expect(response.body.data.chargeCard).toMatchObject({
      payment: { status: 'COMPLETED', failureReason: null },
      userErrors: [],
    });
    const [row] = await server.runtime.dataSource.query(`SELECT ip_address FROM payments WHERE id = $1`, [
      response.body.data.chargeCard.payment.id,
    ]);
    expect(row.ip_address).toMatch(/127\.0\.0\.1$/);
  });

  test('a bad GraphQL charge answers the same field messages as REST, as userErrors on the input fields, and writes nothing', async () => {
    const merchant = await chargingMerchant(server);
    const response = await chargeCard(merchant, {
      amount: '1.001',
      currency: 'usd',
      token: 'tok_x',
      card: card(),
      email: 'payer@example.com',
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.chargeCard.payment).toBeNull();
    expect(response.body.data.chargeCard.userErrors).toEqual(
      expect.arrayContaining([
        {
          field: ['input', 'token'],
          message: 'send exactly one of card, token or paymentMethodId',
          code: 'VALIDATION_ERROR',
        },
      ]),
    );
    expect(
      response.body.data.chargeCard.userErrors.every(
        (userError: { code: string }) => userError.code === 'VALIDATION_ERROR',
      ),
    ).toBe(true);
    const rows = await server.runtime.dataSource.query(`SELECT id FROM payments WHERE business_id = $1`, [
      merchant.businessId,
    ]);
    expect(rows).toHaveLength(0);
  });
});
