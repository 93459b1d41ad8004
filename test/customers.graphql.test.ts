import { createLoaders } from '../src/graphql/shared/loaders';
import { CARDS, card, charge, enableCharging } from './support/charges';
import { TestMerchant, TestServer, startTestServer } from './support/harness';

/** Customers on the GraphQL face: the same rules as REST, relations through DataLoaders. */
describe('customers (GraphQL)', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let counter = 0;
  const newEmail = () => `gql-${Date.now()}-${counter++}@example.com`;
  const auth = (who: TestMerchant) => ({ authorization: `Bearer ${who.token}` });
  const gql = (query: string, variables: Record<string, unknown> = {}, who = merchant) =>
    server.graphql(query, variables, auth(who));
  const CUSTOMER_FIELDS =
    'id email userId firstName lastName phoneNumber paymentMethods { id brand last4 expiryMonth expiryYear country } defaultPaymentMethod { id } recentPayments { paymentId amount { amount currency } status }';
  const create = async (input: Record<string, unknown>, who = merchant) => {
    const response = await gql(
      `mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customer { ${CUSTOMER_FIELDS} } userErrors { field message code } } }`,
      { input },
      who,
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.createCustomer.userErrors).toEqual([]);
    return response.body.data.createCustomer.customer;
  };
  const attach = async (customerId: string, input: Record<string, unknown>) => {
    const response = await gql(
      'mutation($input: AttachPaymentMethodInput!) { attachPaymentMethod(input: $input) { paymentMethod { id last4 } userErrors { field message code } } }',
      { input: { customerId, ...input } },
    );
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.attachPaymentMethod.userErrors).toEqual([]);
    return response.body.data.attachPaymentMethod.paymentMethod;
  };

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
    await enableCharging(server, merchant);
  });
  afterAll(async () => server.close());

  test('createCustomer, attachPaymentMethod and customer(id) with cards and recent payments', async () => {
    const email = newEmail();
    const created = await create({ email, firstName: 'Ada', phoneNumber: '+1 415 555 0100' });
    expect(created).toMatchObject({
      email,
      firstName: 'Ada',
      lastName: null,
      paymentMethods: [],
      defaultPaymentMethod: null,
      recentPayments: [],
    });
    const method = await attach(created.id, { card: card(CARDS.gb) });
    const payment = await charge(server, merchant.apiKey, {
      amount: '7.25',
      currency: 'usd',
      paymentMethodId: method.id,
    });
    const read = await gql(`query($id: ID!) { customer(id: $id) { ${CUSTOMER_FIELDS} } }`, { id: created.id });
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.customer).toMatchObject({
      id: created.id,
      paymentMethods: [
        { id: method.id, brand: 'visa', last4: '0000', expiryMonth: 12, expiryYear: card().expiryYear, country: 'GB' },
      ],
      defaultPaymentMethod: { id: method.id },
      recentPayments: [{ paymentId: payment.id, amount: { amount: '7.25', currency: 'USD' }, status: 'COMPLETED' }],
    });
  });

  test('customer(id) is NOT_FOUND without a payment, for unknown ids and for another business', async () => {
    const lonely = await create({ email: newEmail() });
    const other = await server.signUp();
    await enableCharging(server, other);
    const email = newEmail();
    const theirs = await create({ email }, other);
    await charge(server, other.apiKey, { amount: 5, currency: 'usd', card: card(), email });
    for (const id of [lonely.id, theirs.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const response = await gql('query($id: ID!) { customer(id: $id) { id } }', { id });
      expect(response.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    }
    expect(
      (await gql('query($id: ID!) { customer(id: $id) { id } }', { id: theirs.id }, other)).body.data.customer.id,
    ).toBe(theirs.id);
  });

  test('customer(id) is the documented retrieve: NOT_FOUND when every payment failed, while customers lists the profile', async () => {
    const email = newEmail();
    const declinedOnly = await create({ email });
    const declined = await charge(server, merchant.apiKey, {
      amount: 5,
      currency: 'usd',
      card: card('4000000000000002'),
      email,
    });
    expect(declined.status).toBe('FAILED');
    const response = await gql('query($id: ID!) { customer(id: $id) { id } }', { id: declinedOnly.id });
    expect(response.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const listed = await gql('query($email: String) { customers(first: 5, email: $email) { edges { node { id } } } }', {
      email,
    });
    expect(listed.body.data.customers.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([
      declinedOnly.id,
    ]);
    await charge(server, merchant.apiKey, { amount: 5, currency: 'usd', card: card(), email });
    expect(
      (await gql('query($id: ID!) { customer(id: $id) { id } }', { id: declinedOnly.id })).body.data.customer.id,
    ).toBe(declinedOnly.id);
  });

  test('customers(first, after, email) pages newest first and loads relations with one query per relation', async () => {
    const owner = await server.signUp();
    const emails = [newEmail(), newEmail(), newEmail(), newEmail()];
    const ids: string[] = [];
    for (const email of emails) {
      const created = await create({ email }, owner);
      ids.push(created.id);
    }
    const { customers } = server.runtime.core;
    const methodsSpy = jest.spyOn(customers, 'paymentMethodsOf');
    const paymentsSpy = jest.spyOn(customers, 'recentPaymentsOf');
    try {
      const LIST = `query($first: Int, $after: String, $email: String) { customers(first: $first, after: $after, email: $email) {
        edges { cursor node { id paymentMethods { id } defaultPaymentMethod { id } recentPayments { paymentId } } } pageInfo { hasNextPage endCursor } } }`;
      const first = await gql(LIST, { first: 3 }, owner);
      expect(first.body.errors).toBeUndefined();
      expect(first.body.data.customers.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([
        ids[3],
        ids[2],
        ids[1],
      ]);
      expect(first.body.data.customers.pageInfo.hasNextPage).toBe(true);
      expect(methodsSpy).toHaveBeenCalledTimes(1);
      expect(paymentsSpy).toHaveBeenCalledTimes(1);
      const second = await gql(LIST, { first: 3, after: first.body.data.customers.pageInfo.endCursor }, owner);
      expect(second.body.data.customers.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([ids[0]]);
      expect(second.body.data.customers.pageInfo.hasNextPage).toBe(false);
      const filtered = await gql(LIST, { email: emails[2] }, owner);
      expect(filtered.body.data.customers.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([
        ids[2],
      ]);
      const wrongCursor = await gql(
        LIST,
        { email: emails[1], after: first.body.data.customers.pageInfo.endCursor },
        owner,
      );
      expect(wrongCursor.body.errors?.[0].extensions.code).toBe('BAD_USER_INPUT');
    } finally {
      methodsSpy.mockRestore();
      paymentsSpy.mockRestore();
    }
  });

  test("the customerById loader is exported for Payment.customer and only sees the caller's business and mode", async () => {
    const mine = await create({ email: newEmail() });
    const other = await server.signUp();
    const theirs = await create({ email: newEmail() }, other);
    const ctx = await server.runtime.core.identity.auth.authenticate(server.runtime.core.anonymousContext(), {
      apiKey: merchant.apiKey,
    });
    const loaders = createLoaders(server.runtime.core, ctx);
    const [found, foreign, bogus] = await loaders.customerById.loadMany([mine.id, theirs.id, 'nope']);
    expect(found).toMatchObject({ id: mine.id });
    expect(foreign).toBeNull();
    expect(bogus).toBeNull();
  });

  test('updateCustomer, setDefaultPaymentMethod and detachPaymentMethod', async () => {
    const created = await create({ email: newEmail(), firstName: 'Grace' });
    const first = await attach(created.id, { card: card(CARDS.visa) });
    const second = await attach(created.id, { card: card(CARDS.mastercard) });
    const updated = await gql(
      'mutation($input: UpdateCustomerInput!) { updateCustomer(input: $input) { customer { firstName lastName } userErrors { code } } }',
      { input: { id: created.id, firstName: null, lastName: 'Hopper' } },
    );
    expect(updated.body.data.updateCustomer).toEqual({
      customer: { firstName: null, lastName: 'Hopper' },
      userErrors: [],
    });
    const chosen = await gql(
      'mutation($c: ID!, $m: ID!) { setDefaultPaymentMethod(input: { customerId: $c, paymentMethodId: $m }) { customer { defaultPaymentMethod { id } } userErrors { code } } }',
      { c: created.id, m: second.id },
    );
    expect(chosen.body.data.setDefaultPaymentMethod).toEqual({
      customer: { defaultPaymentMethod: { id: second.id } },
      userErrors: [],
    });
    const detach =
      'mutation($c: ID!, $m: ID!) { detachPaymentMethod(input: { customerId: $c, paymentMethodId: $m }) { paymentMethod { id } userErrors { field message code } } }';
    const detached = await gql(detach, { c: created.id, m: second.id });
    expect(detached.body.data.detachPaymentMethod).toEqual({ paymentMethod: { id: second.id }, userErrors: [] });
    const again = await gql(detach, { c: created.id, m: second.id });
    expect(again.body.data.detachPaymentMethod).toEqual({
      paymentMethod: null,
      userErrors: [{ field: null, message: 'Payment method not found', code: 'NOT_FOUND' }],
    });
    const after = await gql(
      'query { customers(first: 100) { edges { node { id defaultPaymentMethod { id } paymentMethods { id } } } } }',
    );
    const node = after.body.data.customers.edges.find(
      (edge: { node: { id: string } }) => edge.node.id === created.id,
    ).node;
    expect(node).toEqual({
      id: created.id,
      defaultPaymentMethod: { id: first.id },
      paymentMethods: [{ id: first.id }],
    });
  });

  test('bad input is VALIDATION_ERROR userErrors on each field; a duplicate email is a CONFLICT userError; nothing is written', async () => {
    const CREATE =
      'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { customer { id } userErrors { field message code } } }';
    const customers = async () =>
      Number(
        (
          await server.runtime.dataSource.query(`SELECT count(*) AS n FROM customers WHERE business_id = $1`, [
            merchant.businessId,
          ])
        )[0].n,
      );
    const before = await customers();
    const bad = await gql(CREATE, { input: { email: 'nope', phoneNumber: 'x' } });
    expect(bad.body.errors).toBeUndefined();
    expect(bad.body.data.createCustomer.customer).toBeNull();
    expect(
      bad.body.data.createCustomer.userErrors.map((userError: { field: string[] }) => userError.field.join('.')).sort(),
    ).toEqual(['input.email', 'input.phoneNumber']);
    expect(
      bad.body.data.createCustomer.userErrors.every(
        (userError: { code: string; message: string }) => userError.code === 'VALIDATION_ERROR' && userError.message,
      ),
    ).toBe(true);
    expect(await customers()).toBe(before);
    const email = newEmail();
    await create({ email });
    const duplicate = await gql(CREATE, { input: { email } });
    expect(duplicate.body.data.createCustomer).toEqual({
      customer: null,
      userErrors: [{ field: ['input', 'email'], message: 'already has a customer profile', code: 'CONFLICT' }],
    });
    expect(await customers()).toBe(before + 1);
    const created = await create({ email: newEmail() });
    const neither = await gql(
      'mutation($id: ID!) { attachPaymentMethod(input: { customerId: $id }) { paymentMethod { id } userErrors { field message code } } }',
      { id: created.id },
    );
    expect(neither.body.data.attachPaymentMethod.paymentMethod).toBeNull();
    expect(neither.body.data.attachPaymentMethod.userErrors).toEqual(
      expect.arrayContaining([{ field: ['input', 'card'], message: expect.any(String), code: 'VALIDATION_ERROR' }]),
    );
    expect(
      Number(
        (
          await server.runtime.dataSource.query(`SELECT count(*) AS n FROM payment_methods WHERE customer_id = $1`, [
            created.id,
          ])
        )[0].n,
      ),
    ).toBe(0);
  });
});
