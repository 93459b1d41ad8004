import { CARDS, card, charge, enableCharging, eventsOf } from './support/charges';
import { TestMerchant, TestServer, startTestServer } from './support/harness';

/** Fraud rules and the block list: managed over REST and GraphQL, applied by screening before the acquirer. */
describe('fraud rules and block list', () => {
  let server: TestServer;
  let counter = 0;
  const newEmail = (domain = 'example.com') => `payer-${Date.now()}-${counter++}@${domain}`;
  const call = (who: TestMerchant, method: string, path: string, body?: unknown) =>
    server.request(method, path, { headers: { 'x-api-key': who.apiKey }, ...(body === undefined ? {} : { body }) });
  const merchantWithCharging = async () => {
    const merchant = await server.signUp();
    await enableCharging(server, merchant);
    return merchant;
  };
  const addRule = async (who: TestMerchant, body: Record<string, unknown>) => {
    const response = await call(who, 'POST', '/api/v1/business/fraud/rules', body);
    expect(response.status).toBe(201);
    return response.body.data;
  };
  const block = async (who: TestMerchant, body: Record<string, unknown>) => {
    const response = await call(who, 'POST', '/api/v1/business/fraud/blocklist', body);
    expect(response.status).toBe(201);
    return response.body.data;
  };
  const pay = (who: TestMerchant, extra: Record<string, unknown> = {}, ip: string | null = '198.51.100.7') =>
    charge(server, who.apiKey, { amount: 10, currency: 'usd', card: card(), email: newEmail(), ...extra }, ip);

  /** A blocked charge: FAILED with reason blocked, the rule named in failureMessage, events payment.created and payment.failed, no capture. */
  const expectBlocked = async (
    who: TestMerchant,
    payment: Awaited<ReturnType<typeof pay>>,
    byId: string,
    detail: string,
  ) => {
    expect(payment).toMatchObject({ status: 'FAILED', failureReason: 'blocked', capturedAt: null });
    expect(payment.failureMessage).toContain(byId);
    expect(payment.failureMessage).toContain(detail);
    const events = (await eventsOf(server, who.businessId)).filter((event) => event.data.paymentId === payment.id);
    expect(events.map((event) => event.type).sort()).toEqual(['payment.created', 'payment.failed']);
    expect(events.find((event) => event.type === 'payment.failed')!.data).toEqual({
      paymentId: payment.id,
      reason: 'blocked',
    });
    const postings = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS n FROM journal_transactions WHERE reference_id = $1`,
      [payment.id],
    );
    expect(postings[0].n).toBe(0);
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server.close());

  test('card_country blocks cards issued in the listed countries', async () => {
    const merchant = await merchantWithCharging();
    const rule = await addRule(merchant, { type: 'card_country', countries: ['gb', 'NG', 'GB'] });
    expect(rule).toEqual({
      id: expect.any(String),
      object: 'fraud_rule',
      type: 'card_country',
      enabled: true,
      countries: ['GB', 'NG'],
      description: null,
      livemode: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    await expectBlocked(merchant, await pay(merchant, { card: card(CARDS.gb) }), rule.id, 'card country GB');
    await expectBlocked(merchant, await pay(merchant, { card: card(CARDS.ng) }), rule.id, 'card country NG');
    expect((await pay(merchant)).status).toBe('COMPLETED');
  });

  test('card_bin blocks cards whose BIN starts with a listed prefix', async () => {
    const merchant = await merchantWithCharging();
    const rule = await addRule(merchant, { type: 'card_bin', bins: ['5555'] });
    await expectBlocked(merchant, await pay(merchant, { card: card(CARDS.mastercard) }), rule.id, 'card BIN 555555');
    expect((await pay(merchant)).status).toBe('COMPLETED');
  });

  test('card_bin also screens a card token and a saved card', async () => {
    const merchant = await merchantWithCharging();
    const rule = await addRule(merchant, { type: 'card_bin', bins: ['555555'] });
    const keys = await server.graphql(
      '{ apiCredentials { publishableKey } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const token = (
      await server.request('POST', '/api/v1/tokens', {
        body: { card: card(CARDS.mastercard) },
        headers: { 'x-publishable-key': keys.body.data.apiCredentials[0].publishableKey },
      })
    ).body.data.id;
    await expectBlocked(merchant, await pay(merchant, { card: undefined, token }), rule.id, 'card BIN 555555');
    const customer = (await call(merchant, 'POST', '/api/v1/business/customers', { email: newEmail() })).body.data;
    const method = (
      await call(merchant, 'POST', `/api/v1/business/customers/${customer.customerId}/payment-methods`, {
        card: card(CARDS.mastercard),
      })
    ).body.data;
    await expectBlocked(
      merchant,
      await pay(merchant, { card: undefined, email: undefined, paymentMethodId: method.id }),
      rule.id,
      'card BIN 555555',
    );
  });

  test('email_domain blocks the listed domains and their subdomains', async () => {
    const merchant = await merchantWithCharging();
    const rule = await addRule(merchant, { type: 'email_domain', domains: ['@Fraud.Example'] });
    expect(rule.domains).toEqual(['fraud.example']);
    await expectBlocked(
      merchant,
      await pay(merchant, { email: newEmail('fraud.example') }),
      rule.id,
      'email domain fraud.example',
    );
    await expectBlocked(
      merchant,
      await pay(merchant, { email: newEmail('mail.fraud.example') }),
      rule.id,
      'email domain mail.fraud.example',
    );
    expect((await pay(merchant, { email: newEmail('notfraud.example') })).status).toBe('COMPLETED');
  });

  test('amount_above blocks charges above the amount in its currency only', async () => {
    const merchant = await merchantWithCharging();
    const rule = await addRule(merchant, { type: 'amount_above', amount: '500.00', currency: 'usd' });
    expect(rule).toMatchObject({ amount: '500.00', amountMinor: '50000', currency: 'usd' });
    await expectBlocked(
      merchant,
      await pay(merchant, { amount: '500.01' }),
      rule.id,
      'amount 500.01 USD is above 500.00 USD',
    );
    expect((await pay(merchant, { amount: '500.00' })).status).toBe('COMPLETED');
    expect((await pay(merchant, { amount: '900.00', currency: 'eur' })).status).toBe('COMPLETED');
  });

  test('velocity_card blocks a card after more than N attempts in an hour at this business; other businesses do not count', async () => {
    const merchant = await merchantWithCharging();
    const elsewhere = await merchantWithCharging();
    const rule = await addRule(merchant, { type: 'velocity_card', maxAttemptsPerHour: 2 });
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await pay(elsewhere, { card: card(CARDS.gb) })).status).toBe('COMPLETED');
    expect((await pay(merchant, { card: card(CARDS.gb) })).status).toBe('COMPLETED');
    expect((await pay(merchant, { card: card(CARDS.gb) })).status).toBe('COMPLETED');
    await expectBlocked(
      merchant,
      await pay(merchant, { card: card(CARDS.gb) }),
      rule.id,
      'card made 3 attempts in the last hour (limit 2)',
    );
    expect((await pay(merchant, { card: card(CARDS.ng) })).status).toBe('COMPLETED');
    await server.runtime.dataSource.query(
      `UPDATE payments SET created_at = now() - interval '61 minutes' WHERE business_id = $1`,
      [merchant.businessId],
    );
    expect((await pay(merchant, { card: card(CARDS.gb) })).status).toBe('COMPLETED');
  });

  test('block list: an email blocks charges from that payer', async () => {
    const merchant = await merchantWithCharging();
    const email = newEmail();
    const entry = await block(merchant, { type: 'email', value: email.toUpperCase(), description: 'chargebacks' });
    expect(entry).toEqual({
      id: expect.any(String),
      object: 'blocklist_entry',
      type: 'email',
      value: email,
      description: 'chargebacks',
      livemode: false,
      createdAt: expect.any(String),
    });
    await expectBlocked(merchant, await pay(merchant, { email }), entry.id, `email ${email}`);
    expect((await pay(merchant)).status).toBe('COMPLETED');
  });

  test('block list: a card fingerprint (from a payment record) blocks that card', async () => {
    const merchant = await merchantWithCharging();
    const first = await pay(merchant, { card: card(CARDS.mastercard) });
    const entry = await block(merchant, { type: 'card_fingerprint', value: first.cardFingerprint });
    await expectBlocked(
      merchant,
      await pay(merchant, { card: card(CARDS.mastercard) }),
      entry.id,
      `card fingerprint ${first.cardFingerprint}`,
    );
    expect((await pay(merchant)).status).toBe('COMPLETED');
  });

  test('block list: an IP address blocks charges from it (IPv4-mapped IPv6 included)', async () => {
    const merchant = await merchantWithCharging();
    const entry = await block(merchant, { type: 'ip', value: '203.0.113.9' });
    await expectBlocked(merchant, await pay(merchant, {}, '203.0.113.9'), entry.id, 'ip 203.0.113.9');
    await expectBlocked(merchant, await pay(merchant, {}, '::ffff:203.0.113.9'), entry.id, 'ip 203.0.113.9');
    expect((await pay(merchant, {}, '203.0.113.10')).status).toBe('COMPLETED');
    expect((await pay(merchant, {}, null)).status).toBe('COMPLETED');
  });

  test("another business's rules and block list do not apply", async () => {
    const merchant = await merchantWithCharging();
    const other = await merchantWithCharging();
    const email = newEmail();
    await addRule(other, { type: 'card_country', countries: ['GB'] });
    await block(other, { type: 'email', value: email });
    expect((await pay(merchant, { card: card(CARDS.gb), email })).status).toBe('COMPLETED');
  });

  test('rules of the other mode do not apply', async () => {
    const merchant = await merchantWithCharging();
    const issued = await server.graphql(
      'mutation { createLiveCredentials { credentials { apiKey } } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const live = { ...merchant, apiKey: issued.body.data.createLiveCredentials.credentials.apiKey };
    await addRule(live, { type: 'card_country', countries: ['GB'] });
    expect((await call(merchant, 'GET', '/api/v1/business/fraud/rules')).body.data).toEqual({ items: [], total: 0 });
    expect((await pay(merchant, { card: card(CARDS.gb) })).status).toBe('COMPLETED');
  });

  test('a disabled rule does not block; enabling it again does', async () => {
    const merchant = await merchantWithCharging();
    const rule = await addRule(merchant, { type: 'card_country', countries: ['GB'], enabled: false });
    expect((await pay(merchant, { card: card(CARDS.gb) })).status).toBe('COMPLETED');
    const enabled = await call(merchant, 'PATCH', `/api/v1/business/fraud/rules/${rule.id}`, { enabled: true });
    expect(enabled.body.data.enabled).toBe(true);
    await expectBlocked(merchant, await pay(merchant, { card: card(CARDS.gb) }), rule.id, 'card country GB');
  });

  test('rules: list in screening order, read, update parameters, delete; other tenants get 404', async () => {
    const merchant = await merchantWithCharging();
    const other = await merchantWithCharging();
    const first = await addRule(merchant, {
      type: 'velocity_card',
      maxAttemptsPerHour: 5,
      description: 'card testing',
    });
    const second = await addRule(merchant, { type: 'amount_above', amount: 100, currency: 'EUR' });
    const listed = await call(merchant, 'GET', '/api/v1/business/fraud/rules');
    expect(listed.body.data.total).toBe(2);
    expect(listed.body.data.items.map((rule: { id: string }) => rule.id)).toEqual([first.id, second.id]);
    expect((await call(merchant, 'GET', `/api/v1/business/fraud/rules/${first.id}`)).body.data).toMatchObject({
      maxAttemptsPerHour: 5,
      description: 'card testing',
    });
    const changed = await call(merchant, 'PATCH', `/api/v1/business/fraud/rules/${second.id}`, { amount: '250.5' });
    expect(changed.body.data).toMatchObject({ amount: '250.50', currency: 'eur' });
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { enabled: false }],
      ['DELETE', undefined],
    ] as const) {
      expect((await call(other, method, `/api/v1/business/fraud/rules/${first.id}`, body)).status).toBe(404);
    }
    const deleted = await call(merchant, 'DELETE', `/api/v1/business/fraud/rules/${first.id}`);
    expect(deleted.body.data).toEqual({ id: first.id, object: 'fraud_rule', deleted: true });
    expect((await call(merchant, 'GET', `/api/v1/business/fraud/rules/${first.id}`)).status).toBe(404);
    expect((await call(merchant, 'GET', '/api/v1/business/fraud/rules/nope')).status).toBe(404);
  });

  test('bad rule input is 400 VALIDATION_ERROR per field and nothing is written', async () => {
    const merchant = await merchantWithCharging();
    const cases: Array<[unknown, string]> = [
      [{}, 'type'],
      [{ type: 'card_colour' }, 'type'],
      [{ type: 'card_country' }, 'countries'],
      [{ type: 'card_country', countries: [] }, 'countries'],
      [{ type: 'card_country', countries: ['GBR'] }, 'countries.0'],
      [{ type: 'card_bin', bins: ['4242424'] }, 'bins.0'],
      [{ type: 'card_bin', bins: ['42a'] }, 'bins.0'],
      [{ type: 'email_domain', domains: ['not a domain'] }, 'domains.0'],
      [{ type: 'amount_above', amount: '10' }, 'currency'],
      [{ type: 'amount_above', amount: '1.001', currency: 'usd' }, 'amount'],
      [{ type: 'amount_above', amount: '10', currency: 'xyz' }, 'currency'],
      [{ type: 'velocity_card', maxAttemptsPerHour: 0 }, 'maxAttemptsPerHour'],
      [{ type: 'velocity_card', maxAttemptsPerHour: 2.5 }, 'maxAttemptsPerHour'],
      [{ type: 'velocity_card', maxAttemptsPerHour: 2, countries: ['GB'] }, '_'],
      [{ type: 'card_country', countries: ['GB'], enabled: 'yes' }, 'enabled'],
    ];
    for (const [body, field] of cases) {
      const response = await call(merchant, 'POST', '/api/v1/business/fraud/rules', body);
      expect([response.status, response.body.error.errors]).toEqual([
        400,
        expect.objectContaining({ [field]: expect.any(Array) }),
      ]);
    }
    const rule = await addRule(merchant, { type: 'card_country', countries: ['GB'] });
    for (const body of [{ type: 'card_bin' }, { bins: ['4242'] }, { countries: [] }, { enabled: null }]) {
      const response = await call(merchant, 'PATCH', `/api/v1/business/fraud/rules/${rule.id}`, body);
      expect(response.status).toBe(400);
    }
    const stored = await server.runtime.dataSource.query(
      `SELECT type, values FROM fraud_rules WHERE business_id = $1`,
      [merchant.businessId],
    );
    expect(stored).toEqual([{ type: 'card_country', values: ['GB'] }]);
  });

  test("an update takes only the parameters of the rule's own type, and never a new type", async () => {
    const merchant = await merchantWithCharging();
    const rule = await addRule(merchant, { type: 'amount_above', amount: '10.00', currency: 'usd' });
    const path = `/api/v1/business/fraud/rules/${rule.id}`;
    const foreign = await call(merchant, 'PATCH', path, { countries: ['GB'] });
    expect([foreign.status, foreign.body.error.errors]).toEqual([400, { _: ['must be a JSON object'] }]);
    const retyped = await call(merchant, 'PATCH', path, { type: 'card_bin' });
    expect([retyped.status, retyped.body.error.errors]).toEqual([
      400,
      { type: ['cannot be changed; delete the rule and create another'] },
    ]);
    const sameType = await call(merchant, 'PATCH', path, { type: 'amount_above', amount: 2000 });
    expect(sameType.body.data).toMatchObject({ amount: '2000.00', amountMinor: '200000', currency: 'usd' });
    const tooPrecise = await call(merchant, 'PATCH', path, { amount: '1.001' });
    expect([tooPrecise.status, Object.keys(tooPrecise.body.error.errors)]).toEqual([400, ['amount']]);
    const otherCurrency = await call(merchant, 'PATCH', path, { currency: 'JPY', amount: '500' });
    expect(otherCurrency.body.data).toMatchObject({ amount: '500', amountMinor: '500', currency: 'jpy' });
  });

  test('block list: list with page, limit and type; delete; duplicates are 409; bad values are 400', async () => {
    const merchant = await merchantWithCharging();
    const email = await block(merchant, { type: 'email', value: newEmail() });
    const ip = await block(merchant, { type: 'ip', value: '2001:DB8::1' });
    expect(ip.value).toBe('2001:db8::1');
    const page = await call(merchant, 'GET', '/api/v1/business/fraud/blocklist?limit=1');
    expect(page.body.data).toMatchObject({ total: 2, page: 1, limit: 1, items: [{ id: ip.id }] });
    const byType = await call(merchant, 'GET', '/api/v1/business/fraud/blocklist?type=email');
    expect(byType.body.data.items.map((entry: { id: string }) => entry.id)).toEqual([email.id]);
    const anyCase = await call(merchant, 'GET', '/api/v1/business/fraud/blocklist?type=EMAIL');
    expect(anyCase.body.data.items.map((entry: { id: string }) => entry.id)).toEqual([email.id]);
    const duplicate = await call(merchant, 'POST', '/api/v1/business/fraud/blocklist', {
      type: 'ip',
      value: '2001:db8:0::1',
    });
    expect(duplicate.status).toBe(409);
    for (const [body, field] of [
      [{ type: 'email', value: 'not-an-email' }, 'value'],
      [{ type: 'ip', value: '300.1.1.1' }, 'value'],
      [{ type: 'card_fingerprint', value: 'x' }, 'value'],
      [{ type: 'phone', value: '1' }, 'type'],
      [{ type: 'email' }, 'value'],
    ] as const) {
      const response = await call(merchant, 'POST', '/api/v1/business/fraud/blocklist', body);
      expect([response.status, response.body.error.errors]).toEqual([
        400,
        expect.objectContaining({ [field]: expect.any(Array) }),
      ]);
    }
    expect((await call(merchant, 'GET', '/api/v1/business/fraud/blocklist?type=phone')).status).toBe(400);
    const other = await merchantWithCharging();
    expect((await call(other, 'DELETE', `/api/v1/business/fraud/blocklist/${email.id}`)).status).toBe(404);
    const removed = await call(merchant, 'DELETE', `/api/v1/business/fraud/blocklist/${email.id}`);
    expect(removed.body.data).toEqual({ id: email.id, object: 'blocklist_entry', deleted: true });
    expect((await call(merchant, 'GET', '/api/v1/business/fraud/blocklist')).body.data.total).toBe(1);
  });

  test('GraphQL: rules and block list mirror REST', async () => {
    const merchant = await merchantWithCharging();
    const auth = { authorization: `Bearer ${merchant.token}` };
    const ERRORS = 'userErrors { field message code }';
    const created = await server.graphql(
      `mutation($input: CreateFraudRuleInput!) { createFraudRule(input: $input) { fraudRule { id type enabled amount { amount currency } countries } ${ERRORS} } }`,
      { input: { type: 'amount_above', amount: '50.00', currency: 'usd' } },
      auth,
    );
    expect(created.body.data.createFraudRule.userErrors).toEqual([]);
    expect(created.body.data.createFraudRule.fraudRule).toMatchObject({
      type: 'amount_above',
      enabled: true,
      amount: { amount: '50.00', currency: 'USD' },
      countries: null,
    });
    const id = created.body.data.createFraudRule.fraudRule.id;
    const disabled = await server.graphql(
      `mutation($id: ID!) { updateFraudRule(input: { id: $id, enabled: false }) { fraudRule { enabled } ${ERRORS} } }`,
      { id },
      auth,
    );
    expect(disabled.body.data.updateFraudRule).toEqual({ fraudRule: { enabled: false }, userErrors: [] });
    expect(
      (await server.graphql('{ fraudRules { edges { node { id } } } }', {}, auth)).body.data.fraudRules.edges,
    ).toEqual([{ node: { id } }]);
    const rulesBefore = await call(merchant, 'GET', '/api/v1/business/fraud/rules');
    const bad = await server.graphql(
      `mutation { createFraudRule(input: { type: "card_country", countries: ["G"] }) { fraudRule { id } ${ERRORS} } }`,
      {},
      auth,
    );
    expect(bad.body.errors).toBeUndefined();
    expect(bad.body.data.createFraudRule).toEqual({
      fraudRule: null,
      userErrors: [{ field: ['input', 'countries', '0'], message: expect.any(String), code: 'VALIDATION_ERROR' }],
    });
    expect((await call(merchant, 'GET', '/api/v1/business/fraud/rules')).body).toEqual(rulesBefore.body);
    const entry = await server.graphql(
      `mutation { addBlocklistEntry(input: { type: "ip", value: "192.0.2.1" }) { blocklistEntry { id type value } ${ERRORS} } }`,
      {},
      auth,
    );
    expect(entry.body.data.addBlocklistEntry.blocklistEntry).toMatchObject({ type: 'ip', value: '192.0.2.1' });
    const entryId = entry.body.data.addBlocklistEntry.blocklistEntry.id;
    const again = await server.graphql(
      `mutation { addBlocklistEntry(input: { type: "ip", value: "192.0.2.1" }) { blocklistEntry { id } ${ERRORS} } }`,
      {},
      auth,
    );
    expect(again.body.data.addBlocklistEntry).toEqual({
      blocklistEntry: null,
      userErrors: [{ field: ['input', 'value'], message: 'is already blocked', code: 'CONFLICT' }],
    });
    const blocked = await pay(merchant, {}, '192.0.2.1');
    expect(blocked.failureReason).toBe('blocked');
    const list = await server.graphql(
      '{ blocklistEntries(first: 10, type: "ip") { edges { node { id value } } pageInfo { hasNextPage } } }',
      {},
      auth,
    );
    expect(list.body.data.blocklistEntries.edges).toEqual([{ node: { id: entryId, value: '192.0.2.1' } }]);
    const upperCase = await server.graphql(
      '{ blocklistEntries(first: 10, type: "IP") { edges { node { id } } } }',
      {},
      auth,
    );
    expect(upperCase.body.data.blocklistEntries.edges).toEqual([{ node: { id: entryId } }]);
    const removed = await server.graphql(
      `mutation($id: ID!) { removeBlocklistEntry(input: { id: $id }) { blocklistEntry { id } ${ERRORS} } }`,
      { id: entryId },
      auth,
    );
    expect(removed.body.errors).toBeUndefined();
    expect(removed.body.data.removeBlocklistEntry).toEqual({ blocklistEntry: { id: entryId }, userErrors: [] });
    const deleted = await server.graphql(
      `mutation($id: ID!) { deleteFraudRule(input: { id: $id }) { fraudRule { id } ${ERRORS} } }`,
      { id },
      auth,
    );
    expect(deleted.body.data.deleteFraudRule.fraudRule.id).toBe(id);
    expect(
      (await server.graphql('query($id: ID!) { fraudRule(id: $id) { id } }', { id }, auth)).body.errors?.[0].extensions
        .code,
    ).toBe('NOT_FOUND');
    const deletedAgain = await server.graphql(
      `mutation($id: ID!) { deleteFraudRule(input: { id: $id }) { fraudRule { id } ${ERRORS} } }`,
      { id },
      auth,
    );
    expect(deletedAgain.body.data.deleteFraudRule).toEqual({
      fraudRule: null,
      userErrors: [{ field: null, message: 'Fraud rule not found', code: 'NOT_FOUND' }],
    });
  });

  test('GraphQL: fraudRules pages in screening order with a complete pageInfo', async () => {
    const merchant = await merchantWithCharging();
    const auth = { authorization: `Bearer ${merchant.token}` };
    const ids: string[] = [];
    for (const country of ['GB', 'FR', 'DE']) {
      const created = await server.graphql(
        'mutation($input: CreateFraudRuleInput!) { createFraudRule(input: $input) { fraudRule { id } } }',
        { input: { type: 'card_country', countries: [country] } },
        auth,
      );
      ids.push(created.body.data.createFraudRule.fraudRule.id);
    }
    const PAGE =
      'query($after: String) { fraudRules(first: 2, after: $after) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }';
    const first = (await server.graphql(PAGE, {}, auth)).body.data.fraudRules;
    expect(first.edges.map((edge: any) => edge.node.id)).toEqual([ids[0], ids[1]]);
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[1].cursor,
    });
    const second = (await server.graphql(PAGE, { after: first.pageInfo.endCursor }, auth)).body.data.fraudRules;
    expect(second.edges.map((edge: any) => edge.node.id)).toEqual([ids[2]]);
    expect(second.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: true,
      startCursor: second.edges[0].cursor,
      endCursor: second.edges[0].cursor,
    });
  });

  test('GraphQL: node(id:) answers a rule and a block list entry to their business in their mode, and null otherwise', async () => {
    const merchant = await merchantWithCharging();
    const other = await merchantWithCharging();
    const auth = { authorization: `Bearer ${merchant.token}` };
    const rule = (
      await server.graphql(
        'mutation { createFraudRule(input: { type: "card_bin", bins: ["411111"] }) { fraudRule { id } } }',
        {},
        auth,
      )
    ).body.data.createFraudRule.fraudRule.id;
    const entry = (
      await server.graphql(
        'mutation { addBlocklistEntry(input: { type: "email", value: "node@example.com" }) { blocklistEntry { id } } }',
        {},
        auth,
      )
    ).body.data.addBlocklistEntry.blocklistEntry.id;
    const NODE = 'query($id: ID!) { node(id: $id) { __typename id } }';
    for (const [type, id] of [
      ['FraudRule', rule],
      ['BlocklistEntry', entry],
    ]) {
      expect((await server.graphql(NODE, { id }, auth)).body.data.node).toEqual({ __typename: type, id });
      expect(
        (await server.graphql(NODE, { id }, { authorization: `Bearer ${other.token}` })).body.data.node,
      ).toBeNull();
      expect((await server.graphql(NODE, { id }, { ...auth, 'x-service-mode': 'live' })).body.data.node).toBeNull();
    }
  });

  test('a VIEWER may read rules but not change them', async () => {
    const merchant = await merchantWithCharging();
    const viewer = await server.signUp();
    await server.addTeamMember(merchant, viewer, 'VIEWER');
    const headers = { authorization: `Bearer ${viewer.token}`, 'x-service-business-id': merchant.businessId };
    expect((await server.request('GET', '/api/v1/business/fraud/rules', { headers })).status).toBe(200);
    expect(
      (
        await server.request('POST', '/api/v1/business/fraud/rules', {
          headers,
          body: { type: 'card_country', countries: ['GB'] },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await server.request('POST', '/api/v1/business/fraud/blocklist', {
          headers,
          body: { type: 'ip', value: '192.0.2.1' },
        })
      ).status,
    ).toBe(403);
  });
});
