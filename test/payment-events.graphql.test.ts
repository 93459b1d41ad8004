import { TestServer, countStatements, startTestServer } from './support/harness';
import { chargingMerchant } from './support/payments';
import { CARDS, FUTURE_YEAR } from './support/checkout';

const CHARGE = `mutation($input: ChargeCardInput!) { chargeCard(input: $input) { payment { id status } userErrors { code message } } }`;
const EVENTS = `query($id: ID!) { payment(id: $id) { id events { id type data createdAt deliveries { id status } } } }`;
const PAGE = `{ payments(first: 10) { edges { node { id events { type } } } } }`;
const PAGE_WITHOUT_EVENTS = `{ payments(first: 10) { edges { node { id } } } }`;

/**
 * Payment.events: a payment's own events (data.paymentId), oldest first, with their deliveries; in
 * the caller's business and mode only; a page of payments reads them in one statement (DataLoader).
 */
describe('GraphQL Payment.events', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  const charge = async (apiKey: string, email: string) => {
    const response = await server.graphql(
      CHARGE,
      {
        input: {
          amount: '12.00',
          currency: 'usd',
          email,
          card: { number: CARDS.success, expiryMonth: 12, expiryYear: Number(FUTURE_YEAR), cvv: '123' },
        },
      },
      { 'x-api-key': apiKey },
    );
    const payment = response.body.data?.chargeCard.payment;
    if (!payment) throw new Error(JSON.stringify(response.body));
    return payment.id as string;
  };

  test("a payment's events are its own, oldest first, each with its deliveries; another payment's and another business's are not among them", async () => {
    const merchant = await chargingMerchant(server);
    const other = await chargingMerchant(server);
    const first = await charge(merchant.apiKey, 'a@example.com');
    const second = await charge(merchant.apiKey, 'b@example.com');
    await charge(other.apiKey, 'c@example.com');

    const response = await server.graphql(EVENTS, { id: first }, { 'x-api-key': merchant.apiKey });
    const events = response.body.data!.payment.events as Array<{
      type: string;
      data: { paymentId: string };
      createdAt: string;
      deliveries: unknown[];
    }>;
    expect(events.map((event) => event.type)).toEqual(['payment.created', 'payment.completed']);
    expect(events.every((event) => event.data.paymentId === first)).toBe(true);
    expect(events.map((event) => event.createdAt)).toEqual([...events.map((event) => event.createdAt)].sort());
    expect(events.every((event) => Array.isArray(event.deliveries))).toBe(true);

    const [{ count }] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS count FROM events WHERE data->>'paymentId' = $1`,
      [second],
    );
    expect(count).toBe(2);
    // The other business cannot read the payment at all, let alone its events.
    const foreign = await server.graphql(EVENTS, { id: first }, { 'x-api-key': other.apiKey });
    expect(foreign.body.data?.payment ?? null).toBeNull();
  });

  test('a page of payments with their events costs one statement more than without, for 1 payment as for 4 (DataLoader)', async () => {
    const merchant = await chargingMerchant(server);
    const headers = { 'x-api-key': merchant.apiKey };
    const cost = (query: string) => countStatements(server, () => server.graphql(query, {}, headers));
    await charge(merchant.apiKey, 'page0@example.com');
    const oneExtra = (await cost(PAGE)) - (await cost(PAGE_WITHOUT_EVENTS));
    for (let index = 1; index < 4; index++) await charge(merchant.apiKey, `page${index}@example.com`);
    const fourExtra = (await cost(PAGE)) - (await cost(PAGE_WITHOUT_EVENTS));
    expect([oneExtra, fourExtra]).toEqual([1, 1]);

    const response = await server.graphql(PAGE, {}, headers);
    const nodes: Array<{ events: Array<{ type: string }> }> = response.body.data!.payments.edges.map(
      (edge: { node: { events: Array<{ type: string }> } }) => edge.node,
    );
    expect(nodes).toHaveLength(4);
    for (const node of nodes)
      expect(node.events.map((event) => event.type)).toEqual(['payment.created', 'payment.completed']);
  });
});
