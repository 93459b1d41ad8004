import { TestMerchant, TestServer, startTestServer } from './support/harness';
import { cardForm, page, pathOf } from './support/checkout';
import { CARDS, card, chargingMerchant } from './support/payments';

/**
 * node(id:) and nodes(ids:) for the types of payments, checkout, payment links, invoices,
 * recurring gifts and customers: each answers its owner in its mode, and null to another business
 * and to the other mode, as the object's own query answers NOT_FOUND.
 */
describe('payment area objects as Nodes (GraphQL)', () => {
  let server: TestServer;
  let owner: TestMerchant;
  let stranger: TestMerchant;
  let ownerLiveKey: string;
  const ids: Record<string, string> = {};

  const as = (apiKey: string) => ({ 'x-api-key': apiKey });
  const gql = async (apiKey: string, query: string, variables: Record<string, unknown> = {}) => {
    const response = await server.graphql(query, variables, as(apiKey));
    expect(response.body.errors).toBeUndefined();
    return response.body.data;
  };
  /** A mutation's payload object, after checking it had no userErrors. */
  const made = async (
    apiKey: string,
    mutation: string,
    field: string,
    object: string,
    variables: Record<string, unknown> = {},
  ) => {
    const data = await gql(apiKey, mutation, variables);
    expect(data[field].userErrors).toEqual([]);
    return data[field][object];
  };

  beforeAll(async () => {
    server = await startTestServer({
      paymentSettlementDelaySeconds: 3600,
      sandbox3dsAutoCompleteMs: 3_600_000,
      publicBaseUrl: 'https://pay.tessera.test',
    });
    owner = await chargingMerchant(server);
    stranger = await chargingMerchant(server);
    ownerLiveKey = await server.liveKeyOf(owner);
    const key = owner.apiKey;
    const USER_ERRORS = 'userErrors { field message code }';

    ids.Customer = (
      await made(
        key,
        `mutation { createCustomer(input: { email: "node@example.com" }) { customer { id } ${USER_ERRORS} } }`,
        'createCustomer',
        'customer',
      )
    ).id;
    ids.PaymentMethod = (
      await made(
        key,
        `mutation($input: AttachPaymentMethodInput!) { attachPaymentMethod(input: $input) { paymentMethod { id } ${USER_ERRORS} } }`,
        'attachPaymentMethod',
        'paymentMethod',
        { input: { customerId: ids.Customer, card: card(CARDS.success) } },
      )
    ).id;
    ids.Payment = (
      await made(
        key,
        `mutation($input: ChargeCardInput!) { chargeCard(input: $input) { payment { id } ${USER_ERRORS} } }`,
        'chargeCard',
        'payment',
        { input: { amount: '30.00', currency: 'usd', paymentMethodId: ids.PaymentMethod } },
      )
    ).id;
    ids.Refund = (
      await made(
        key,
        `mutation($id: ID!) { refundPayment(input: { paymentId: $id, amount: "5.00" }) { refund { id } ${USER_ERRORS} } }`,
        'refundPayment',
        'refund',
        { id: ids.Payment },
      )
    ).id;
    await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
      headers: as(key),
      body: { currency: 'usd', amount: '100.00' },
    });
    ids.Dispute = (
      await made(
        key,
        `mutation($id: ID!) { sandboxOpenDispute(input: { paymentId: $id }) { dispute { id } ${USER_ERRORS} } }`,
        'sandboxOpenDispute',
        'dispute',
        { id: ids.Payment },
      )
    ).id;
    ids.CheckoutSession = (
      await made(
        key,
        `mutation { createCheckoutSession(input: { amount: "4", currency: "usd", successUrl: "https://a.example" }) { checkoutSession { id } ${USER_ERRORS} } }`,
        'createCheckoutSession',
        'checkoutSession',
      )
    ).id;
    const link = await made(
      key,
      `mutation { createPaymentLink(input: { name: "Gift", amount: "3", currency: "usd", allowRecurring: true }) { paymentLink { id url } ${USER_ERRORS} } }`,
      'createPaymentLink',
      'paymentLink',
    );
    ids.PaymentLink = link.id;
    ids.Invoice = (
      await made(
        key,
        `mutation { createInvoice(input: { customerEmail: "c@example.com", currency: "usd", amount: "5" }) { invoice { id } ${USER_ERRORS} } }`,
        'createInvoice',
        'invoice',
      )
    ).id;
    const visit = await page(server, 'GET', pathOf(link.url));
    await page(
      server,
      'POST',
      pathOf(visit.location!),
      cardForm(CARDS.success, { email: 'donor@example.com', recurring: 'on' }),
    );
    ids.RecurringGift = (
      await gql(key, '{ recurringGifts { edges { node { id } } } }')
    ).recurringGifts.edges[0].node.id;
  });
  afterAll(async () => server.close());

  const NODE = 'query($id: ID!) { node(id: $id) { __typename id } }';
  const TYPES = [
    'Payment',
    'Refund',
    'Dispute',
    'CheckoutSession',
    'PaymentLink',
    'Invoice',
    'RecurringGift',
    'Customer',
    'PaymentMethod',
  ];

  test.each(TYPES)(
    'node(id:) answers a %s to its owner, and null to another business and to the other mode',
    async (type) => {
      expect((await gql(owner.apiKey, NODE, { id: ids[type] })).node).toEqual({ __typename: type, id: ids[type] });
      expect((await gql(stranger.apiKey, NODE, { id: ids[type] })).node).toBeNull();
      expect((await gql(ownerLiveKey, NODE, { id: ids[type] })).node).toBeNull();
    },
  );

  test('nodes(ids:) answers every type in order, with the fields of its own query', async () => {
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Payment { status amountRefunded { amount } }
      ... on Refund { amount { amount } } ... on Customer { email } ... on PaymentMethod { last4 } } }`;
    const { nodes } = await gql(owner.apiKey, query, { ids: TYPES.map((type) => ids[type]) });
    expect(nodes).toHaveLength(TYPES.length);
    expect(nodes.map((node: { id: string }) => node.id)).toEqual(TYPES.map((type) => ids[type]));
    expect(nodes[0]).toEqual({ id: ids.Payment, status: 'SETTLED', amountRefunded: { amount: '5.00' } });
    expect(nodes[1]).toEqual({ id: ids.Refund, amount: { amount: '5.00' } });
    expect(nodes[7]).toEqual({ id: ids.Customer, email: 'node@example.com' });
    expect(nodes[8]).toEqual({ id: ids.PaymentMethod, last4: '4242' });
    expect(
      (
        await gql(stranger.apiKey, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
          ids: TYPES.map((type) => ids[type]),
        })
      ).nodes,
    ).toEqual(TYPES.map(() => null));
  });
});
