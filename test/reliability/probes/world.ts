import crypto from 'node:crypto';
import { Mode } from '../../../src/domain/shared/modes';
import { TestMerchant, TestServer } from '../../support/harness';
import { CARDS, cardForm, page, pathOf } from '../../support/checkout';
import { card } from '../../support/payments';
import { bankDetails } from '../../support/payouts';
import { PIN, scheduleBody } from '../../support/schedules';
import { bankDestination } from '../../support/treasury';
import { issueV1Key, setVerified } from '../../support/v1';
import { KINDS, Kind } from './kinds';

/**
 * A tenant of the probes: one business with its test and live credentials (API keys, the OWNER's
 * dashboard token in each mode, `/v1` keys) and objects of every kind in test mode, each kind also
 * present in live mode (see `copyToLive`). Its ids are read back from the database by kind.
 */
export interface Tenant {
  name: string;
  merchant: TestMerchant;
  /** A word in the tenant's names, emails and descriptions, so its data is recognisable in another tenant's answers. */
  marker: string;
  callers: Record<Caller, Record<string, string>>;
  ids: Record<Kind, { test: string[]; live: string[] }>;
}

export type Caller =
  | 'testKey'
  | 'liveKey'
  | 'apiToken'
  | 'dashboard'
  | 'dashboardLive'
  | 'v1Test'
  | 'v1Live'
  /** The OWNER's dashboard token naming another business in X-Service-Business-Id (set by `nameOtherBusiness`). */
  | 'dashboardNamingOther';
export const modeOfCaller = (caller: Caller): 'test' | 'live' => (/live/i.test(caller) ? 'live' : 'test');

type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<any>;

/** A REST call that must succeed: answers `data`, or throws with what came back. */
function caller(server: TestServer, headers: Record<string, string>): Call {
  return async (method, path, body, extra = {}) => {
    const response = await server.request(method, path, {
      headers: { ...headers, ...extra },
      ...(body === undefined ? {} : { body }),
    });
    if (response.status >= 300)
      throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body).slice(0, 400)}`);
    return response.body?.data ?? response.body;
  };
}

async function graphql(
  server: TestServer,
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown> = {},
) {
  const response = await server.graphql(query, variables, headers);
  if (!response.body.data || response.body.errors)
    throw new Error(`${query.slice(0, 60)}: ${JSON.stringify(response.body).slice(0, 400)}`);
  return response.body.data;
}

/**
 * Makes a tenant: a signed-up business with the treasury product, server-to-server charging,
 * live credentials and `/v1` keys, a second member and a pending invitation, and in test mode
 * objects of every kind the API has. `copies` repeats the objects (the `full` scale).
 */
export async function buildTenant(server: TestServer, name: string, copies = 1): Promise<Tenant> {
  const marker = `${name}${crypto.randomBytes(4).toString('hex')}`;
  const merchant = await server.signUp({
    businessName: `Business ${marker}`,
    email: `owner-${marker.toLowerCase()}@example.com`,
    name: `Owner ${marker}`,
  });
  await server.setTreasury(merchant.businessId, true);
  await setVerified(server, merchant.businessId, true);
  const dashboard = { authorization: `Bearer ${merchant.token}`, 'x-service-business-id': merchant.businessId };
  await graphql(
    server,
    dashboard,
    'mutation { setServerToServerCharging(input: { enabled: true }) { serverToServerCharging userErrors { field message code } } }',
  );
  const liveKey = await server.liveKeyOf(merchant);
  const token = await caller(server, {})('POST', '/api/v1/business/auth/token', {
    apiKey: merchant.apiKey,
    apiSecret: merchant.apiSecret,
  });
  const callers: Tenant['callers'] = {
    testKey: { 'x-api-key': merchant.apiKey },
    liveKey: { 'x-api-key': liveKey },
    apiToken: { authorization: `Bearer ${token.accessToken}` },
    dashboardNamingOther: dashboard,
    dashboard,
    dashboardLive: { ...dashboard, 'x-service-mode': 'live' },
    v1Test: { authorization: `Bearer ${await issueV1Key(server, merchant.businessId, Mode.TEST)}` },
    v1Live: { authorization: `Bearer ${await issueV1Key(server, merchant.businessId, Mode.LIVE)}` },
  };
  const api = caller(server, callers.testKey);
  const asOwner = caller(server, dashboard);

  // Team: a VIEWER who accepted, and an invitation still pending.
  const member = await server.signUp({
    email: `member-${marker.toLowerCase()}@example.com`,
    businessName: `Member ${marker}`,
  });
  await server.addTeamMember(merchant, member, 'VIEWER');
  await graphql(
    server,
    dashboard,
    'mutation($input: InviteTeamMemberInput!) { inviteTeamMember(input: $input) { teamInvitation { id } } }',
    { input: { email: `invited-${marker.toLowerCase()}@example.com`, role: 'DEVELOPER' } },
  );

  // Webhooks first, so the events below make deliveries to each target.
  await api('PUT', '/api/v1/business/config', { webhookUrl: `http://127.0.0.1:9/${marker}` });
  await api('POST', '/api/v1/webhook-endpoints', {
    url: `http://127.0.0.1:9/${marker}/endpoint`,
    events: ['*'],
    description: `Endpoint ${marker}`,
  });
  await api('POST', '/api/v1/treasury/webhook-endpoints', {
    url: `http://127.0.0.1:9/${marker}/treasury`,
    events: ['*'],
    description: `Treasury ${marker}`,
  });
  await asOwner('PUT', '/api/v1/business/payouts/pin', { pin: PIN });
  await api('POST', '/api/v1/business/sandbox/wallets/fund', { currency: 'USD', amount: '100000.00' });

  for (let copy = 0; copy < copies; copy += 1) {
    const email = `payer-${copy}-${marker.toLowerCase()}@example.com`;
    // Payments: captured, settled, refunded, disputed, and one waiting for 3-D Secure.
    // Different amounts: the same parameters within a minute are one charge (de-duplication).
    let amount = 50 + copy * 10;
    const charge = (number: string = CARDS.success) =>
      api('POST', '/api/v1/business/payment/charge', {
        amount: (amount += 1),
        currency: 'usd',
        email,
        card: card(number),
        description: `Charge ${marker}`,
        metadata: { order: marker },
      });
    const paid = await charge();
    await api('POST', `/api/v1/business/payments/${paid.id}/refunds`, { amount: '1.00', reason: `Refund ${marker}` });
    const settled = await charge();
    await api('POST', `/api/v1/business/sandbox/payments/${settled.id}/settle`);
    const disputed = await charge();
    await api('POST', `/api/v1/business/sandbox/payments/${disputed.id}/dispute`, { reason: 'fraudulent' });
    await charge(CARDS.threeDSSuccess);

    // Customers with saved cards.
    const customer = await api('POST', '/api/v1/business/customers', {
      email: `customer-${copy}-${marker.toLowerCase()}@example.com`,
      firstName: marker,
      lastName: 'Customer',
    });
    const customerId = customer.customerId ?? customer.id;
    await api('POST', `/api/v1/business/customers/${customerId}/payment-methods`, { card: card() });
    const saved = await api('POST', `/api/v1/business/customers/${customerId}/payment-methods`, {
      card: card('5555555555554444'),
    });
    // A customer is retrievable once they have paid the business.
    await api('POST', '/api/v1/business/payment/charge', {
      amount: 70 + copy,
      currency: 'usd',
      paymentMethodId: saved.id,
    });

    await api('POST', '/api/v1/business/fraud/rules', {
      type: 'card_country',
      countries: ['KP'],
      description: `Rule ${marker}`,
    });
    await api('POST', '/api/v1/business/fraud/blocklist', {
      type: 'email',
      value: `blocked-${copy}-${marker.toLowerCase()}@example.com`,
      description: `Block ${marker}`,
    });
    await api('POST', '/api/v1/business/checkout/session', {
      amount: 25,
      currency: 'usd',
      customerEmail: email,
      successUrl: 'https://shop.example.com/thanks',
      description: `Session ${marker}`,
    });
    await api('POST', '/api/v1/business/payment-links', {
      name: `Link ${marker}`,
      amount: 5,
      currency: 'usd',
      description: `Link ${marker}`,
    });
    const invoice = await api('POST', '/api/v1/business/invoices', {
      customerEmail: email,
      currency: 'usd',
      amount: 40,
      description: `Invoice ${marker}`,
    });
    await api('POST', `/api/v1/business/invoices/${invoice.id}/finalize`);
    await api('POST', '/api/v1/business/invoices', {
      customerEmail: email,
      currency: 'usd',
      amount: 41,
      description: `Draft ${marker}`,
    });
    await recurringGift(server, api, marker, copy);

    // Payouts: recipients, a quote, a payout held in review, one held before dispatch, a batch, a schedule.
    const recipient = await api('POST', '/api/v1/business/payouts/recipients', {
      label: `Supplier ${marker}`,
      details: bankDetails(`${copy}789`.slice(-4)),
    });
    const held = await api('POST', '/api/v1/business/payouts/recipients', {
      label: `Held ${marker}`,
      details: bankDetails('3333', { accountNumber: `01${copy}3453333` }),
    });
    const review = await api('POST', '/api/v1/business/payouts/recipients', {
      label: `Review ${marker}`,
      details: bankDetails('2222', { accountNumber: `01${copy}3452222` }),
    });
    await api('POST', '/api/v1/business/payouts/quote', {
      amount: '10.00',
      currency: 'USD',
      destinationCurrency: 'NGN',
      country: 'NG',
      rail: 'LOCAL_BANK',
    });
    await api('POST', '/api/v1/business/payouts', {
      recipientId: held.id,
      amount: '10.00',
      currency: 'USD',
      reference: `Payout ${marker}`,
    });
    await api('POST', '/api/v1/business/payouts', {
      recipientId: review.id,
      amount: '11.00',
      currency: 'USD',
      reference: `Review ${marker}`,
    });
    await api('POST', '/api/v1/business/payouts/batches', {
      name: `Batch ${marker}`,
      items: [{ recipientId: held.id, amount: '5.00', currency: 'USD' }],
    });
    await api('POST', '/api/v1/business/payouts/schedules', scheduleBody(recipient.id, { name: `Schedule ${marker}` }));

    await api('POST', '/api/v1/business/collections', {
      amount: 5_000,
      currency: 'ghs',
      country: 'GH',
      rail: 'momo',
      customer: { phone: '+233241234567', networkId: 'mtn-gh', name: marker },
      metadata: { order: marker },
    });

    // Treasury: an end-user with approved KYC, a funded wallet, a pending payout; one end-user with KYC pending.
    const user = await api('POST', '/api/v1/treasury/users', {
      externalId: `ext-${copy}-${marker}`,
      email: `end-user-${copy}-${marker.toLowerCase()}@example.com`,
      name: `End user ${marker}`,
    });
    await api('POST', `/api/v1/treasury/users/${user.id}/kyc`, {});
    await api('POST', `/api/v1/treasury/users/${user.id}/kyc/sandbox-approve`);
    const wallet = await api('POST', `/api/v1/treasury/users/${user.id}/wallets`, { currency: 'usd' });
    await api('POST', `/api/v1/treasury/sandbox/users/${user.id}/wallets/${wallet.id}/deposit`, { amount: '100.00' });
    await api('POST', '/api/v1/treasury/payouts', {
      partnerEndUserId: user.id,
      partnerWalletId: wallet.id,
      amount: '10.00',
      destinationType: 'bank_account',
      destination: bankDestination({ accountName: marker }),
      metadata: { test_outcome: 'pending' },
    });
    const pending = await api('POST', '/api/v1/treasury/users', {
      externalId: `ext-pending-${copy}-${marker}`,
      email: `pending-${copy}-${marker.toLowerCase()}@example.com`,
      name: `Pending ${marker}`,
    });
    await api('POST', `/api/v1/treasury/users/${pending.id}/kyc`, {});

    // The alternate surface: a payment and a transfer.
    const v1 = caller(server, callers.v1Test);
    await v1('POST', '/v1/payments', {
      amount: 1050,
      currency: 'usd',
      description: `V1 ${marker}`,
      metadata: { order: marker },
    });
    await v1('POST', '/v1/transfers', {
      source_amount: 1000,
      source_currency: 'USD',
      destination_currency: 'NGN',
      recipient: {
        name: `V1 ${marker}`,
        sort_code: '058',
        account_number: `012345${copy}789`.slice(0, 10),
        country: 'NG',
      },
    });
  }
  await copyToLive(server, merchant.businessId);
  return { name, merchant, marker, callers, ids: await idsOf(server, merchant.businessId) };
}

/** The tenant's OWNER names `other`'s business in X-Service-Business-Id: a business it is no member of. */
export function nameOtherBusiness(tenant: Tenant, other: Tenant) {
  tenant.callers.dashboardNamingOther = {
    authorization: `Bearer ${tenant.merchant.token}`,
    'x-service-business-id': other.merchant.businessId,
  };
}

/** A payer opts in on the page of a link that allows recurring gifts (as test/recurring-gifts.test.ts does). */
async function recurringGift(server: TestServer, api: Call, marker: string, copy: number) {
  const link = await api('POST', '/api/v1/business/payment-links', {
    name: `Gift ${marker}`,
    amount: '10',
    currency: 'usd',
    allowRecurring: true,
    recurringInterval: 'monthly',
  });
  const visit = await page(server, 'GET', pathOf(link.url));
  let paid = await page(
    server,
    'POST',
    pathOf(visit.location!),
    cardForm('4242424242424242', { email: `donor-${copy}-${marker.toLowerCase()}@example.com`, recurring: 'on' }),
  );
  if (paid.location?.includes('/checkout/3ds/')) paid = await page(server, 'POST', pathOf(paid.location));
  if (paid.status !== 303) throw new Error(`the recurring gift's payment answered ${paid.status}`);
}

/**
 * Live mode has no sandbox provider, so most kinds cannot be made in live mode through the API.
 * Each test-mode row of every kind gets a live twin, copied in SQL with a fresh id of the same
 * shape (`_test_` in an id becomes `_live_`), references to copied rows pointing at their twins,
 * unique text suffixed and balances zero, so that every kind has live ids for the test/live
 * probes. Kinds without `livemode` (members, invitations) are not copied.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

async function copyToLive(server: TestServer, businessId: string) {
  const db = server.runtime.dataSource;
  const twins = new Map<string, string>();
  const twin = (id: string) => {
    if (!twins.has(id)) {
      const fresh = /^[0-9a-f-]{36}$/i.test(id)
        ? crypto.randomUUID()
        : id.replace('_test_', '_live_').slice(0, -8) + crypto.randomBytes(8).toString('hex').slice(0, 8);
      twins.set(id, fresh);
    }
    return twins.get(id)!;
  };
  // Every row's twin id first, so that each twin's references (a payment's customer and card, a
  // delivery's event) point at twins, whatever the order of the kinds.
  const kinds = Object.values(KINDS).filter((kind) => !kind.modeless);
  const rowsOf = new Map<(typeof kinds)[number], Array<Record<string, unknown>>>();
  for (const kind of kinds) {
    const rows: Array<{ row: Record<string, unknown> }> = await db.query(
      `SELECT to_jsonb(t) AS row FROM "${kind.table}" t WHERE business_id = $1 AND NOT livemode ${kind.where ? `AND ${kind.where}` : ''}`,
      [businessId],
    );
    rowsOf.set(
      kind,
      rows.map(({ row }) => row),
    );
    for (const { row } of rows) twin(String(row.id));
  }
  // Parents first (KINDS is in that order): a `/v1` payment is a checkout session, a `/v1` transfer a payout (same id).
  for (const kind of kinds) {
    const { table } = kind;
    const uniqueText: Array<{ column: string }> = await db.query(
      `SELECT DISTINCT a.attname AS column FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
       WHERE i.indrelid = $1::regclass AND i.indisunique AND NOT i.indisprimary AND a.atttypid IN ('text'::regtype, 'varchar'::regtype)
         AND NOT EXISTS (SELECT 1 FROM pg_attribute l WHERE l.attrelid = i.indrelid AND l.attnum = ANY(i.indkey) AND l.attname = 'livemode')`,
      [table],
    );
    for (const row of rowsOf.get(kind)!) {
      // Every id of a copied row, in any column or inside JSON (an event's data), becomes its twin's.
      const copy: Record<string, unknown> = {
        ...JSON.parse(JSON.stringify(row).replace(UUID, (id) => twins.get(id) ?? id)),
        id: twin(String(row.id)),
        livemode: true,
      };
      for (const { column } of uniqueText) if (typeof copy[column] === 'string') copy[column] = `${copy[column]}-live`;
      if (table === 'ledger_accounts') copy.balance = '0';
      await db.query(
        `INSERT INTO "${table}" SELECT * FROM jsonb_populate_record(NULL::"${table}", $1::jsonb) ON CONFLICT DO NOTHING`,
        [JSON.stringify(copy)],
      );
    }
  }
  // Live invoices are numbered on from the copied ones, as if they had been made through the API.
  await db.query(
    `INSERT INTO invoice_counters (business_id, livemode, last_number) SELECT business_id, true, last_number FROM invoice_counters
    WHERE business_id = $1 AND NOT livemode ON CONFLICT (business_id, livemode) DO UPDATE SET last_number = EXCLUDED.last_number`,
    [businessId],
  );
}

/** A tenant's ids of every kind and mode, oldest first. */
export async function idsOf(server: TestServer, businessId: string): Promise<Tenant['ids']> {
  const ids = {} as Tenant['ids'];
  for (const [kind, { table, where, modeless }] of Object.entries(KINDS) as Array<[Kind, (typeof KINDS)[Kind]]>) {
    const read = (livemode: boolean) =>
      server.runtime.dataSource
        .query(
          `SELECT id::text AS id FROM "${table}" WHERE business_id = $1 ${modeless ? '' : `AND livemode = ${livemode}`} ${where ? `AND ${where}` : ''} ORDER BY created_at, id`,
          [businessId],
        )
        .then((rows: Array<{ id: string }>) => rows.map((row) => row.id));
    ids[kind] = { test: await read(false), live: modeless ? [] : await read(true) };
  }
  return ids;
}
