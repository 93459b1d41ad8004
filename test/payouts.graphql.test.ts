import crypto from 'node:crypto';
import { PayoutTopic } from '../src/domain/payouts/payouts.topics';
import {
  PATIENCE_MS,
  TestMerchant,
  TestServer,
  collect,
  countStatements,
  heardBefore,
  startDeliveringServer,
  waitFor,
  within,
} from './support/harness';

/**
 * The GraphQL face of payouts (design section 8): the same commands and rules as REST, lists
 * through loaders (a constant number of SQL statements per page), payoutUpdated over graphql-ws
 * only for the subscriber's own business and mode.
 */

const FUND = '/api/v1/business/sandbox/wallets/fund';
const PAYOUT_FIELDS = `id status rail amount { amount amountMinor currency } serviceFee { amountMinor currency }
  destinationAmount { amount currency } rate recipientId destinationMasked { country accountNumber bankName }
  providerRef failureReason reference metadata batchId settledAt livemode createdAt`;
const USER_ERRORS = 'userErrors { field message code }';
const CREATE_RECIPIENT = `mutation($input: CreatePayoutRecipientInput!) {
  createPayoutRecipient(input: $input) { created recipient { id businessId label rail currency country detailsMasked screenedAt archivedAt } ${USER_ERRORS} } }`;
const CREATE_QUOTE = `mutation($input: CreatePayoutQuoteInput!) {
  createPayoutQuote(input: $input) { quote { id amount { amount currency } dstAmount { amount amountMinor currency } serviceFee { amount amountMinor currency } rate country rail expiresAt } ${USER_ERRORS} } }`;
const CREATE_PAYOUT = `mutation($input: CreatePayoutInput!) { createPayout(input: $input) { payout { ${PAYOUT_FIELDS} } ${USER_ERRORS} } }`;
const CREATE_BATCH = `mutation($input: CreatePayoutBatchInput!) {
  createPayoutBatch(input: $input) { batch { id name status itemCount totalAmount { amount currency } counts { created submitted settled failed cancelled pendingReview } } ${USER_ERRORS} } }`;
const CANCEL = `mutation($input: CancelPayoutInput!) { cancelPayout(input: $input) { payout { id status } ${USER_ERRORS} } }`;
const APPROVE = `mutation($input: ApprovePayoutInput!) { approvePayout(input: $input) { payout { id status } ${USER_ERRORS} } }`;
const REJECT = `mutation($input: RejectPayoutInput!) { rejectPayout(input: $input) { payout { id status failureReason } ${USER_ERRORS} } }`;
const ADVANCE = `mutation($input: AdvanceSandboxPayoutInput!) { advanceSandboxPayout(input: $input) { payout { id status providerRef } ${USER_ERRORS} } }`;
const ARCHIVE = `mutation($input: ArchivePayoutRecipientInput!) { archivePayoutRecipient(input: $input) { recipient { id archivedAt } ${USER_ERRORS} } }`;
const PAYOUTS_WITH_RECIPIENTS = `query($first: Int) { payouts(first: $first) {
  edges { cursor node { id status amount { amount } recipient { id label detailsMasked } } } pageInfo { hasNextPage endCursor } } }`;
const BATCHES_WITH_PAYOUTS = `query($first: Int, $payouts: Int) { payoutBatches(first: $first) {
  edges { node { id name status itemCount counts { created settled cancelled pendingReview }
    payouts(first: $payouts) { edges { cursor node { id batchId amount { amount } recipient { id } } } pageInfo { hasNextPage endCursor } } } }
  pageInfo { hasNextPage } } }`;
const PAYOUT_UPDATED = `subscription { payoutUpdated { payout { id status livemode } previousStatus changedFields } }`;

describe('Payouts over GraphQL', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer({ payoutSandboxSettleMs: 100 });
  });
  afterAll(async () => server.close());

  const asDashboard = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
  const asApiKey = (merchant: TestMerchant) => ({ 'x-api-key': merchant.apiKey });

  /** Runs an operation and answers its data, failing the test on any error. */
  async function ok<T = any>(
    query: string,
    variables: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<T> {
    const response = await server.graphql<T>(query, variables, headers);
    expect(response.body.errors).toBeUndefined();
    return response.body.data as T;
  }

  /** The userErrors of a mutation the caller can fix: no GraphQL error, and the payload's object null. */
  async function userErrors(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const data = await ok(query, variables, headers);
    const [payload]: any[] = Object.values(data);
    const object = Object.keys(payload).find((key) => key !== 'userErrors' && key !== 'created')!;
    expect(payload[object]).toBeNull();
    expect(payload.userErrors.length).toBeGreaterThan(0);
    return payload.userErrors as Array<{ field: string[] | null; message: string; code: string }>;
  }

  /** The first error of an operation that must fail. */
  async function refused(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const response = await server.graphql(query, variables, headers);
    expect(response.body.errors).toHaveLength(1);
    return response.body.errors![0];
  }

  async function fundedMerchant(amount = '1000.00'): Promise<TestMerchant> {
    const merchant = await server.signUp();
    const funded = await server.request('POST', FUND, {
      body: { amount, currency: 'USD' },
      headers: asApiKey(merchant),
    });
    expect(funded.status).toBe(201);
    return merchant;
  }

  async function balanceMinor(merchant: TestMerchant): Promise<bigint> {
    const data = await ok('{ wallets { currency balance { amountMinor } } }', {}, asApiKey(merchant));
    return BigInt(data.wallets.find((wallet: any) => wallet.currency === 'USD').balance.amountMinor);
  }

  /** A Nigerian bank account ending in `last4` (the sandbox rail's magic endings); unique otherwise. */
  const bank = (last4: string, accountName = 'Ada Obi') => ({
    rail: 'LOCAL_BANK',
    country: 'NG',
    currency: 'NGN',
    bankCode: '058',
    bankName: 'GTBank',
    accountNumber: `${crypto.randomInt(100_000, 999_999)}${last4}`,
    accountName,
  });

  async function recipient(merchant: TestMerchant, last4: string, headers = asApiKey(merchant)): Promise<string> {
    const data = await ok(CREATE_RECIPIENT, { input: { label: `Supplier ${last4}`, details: bank(last4) } }, headers);
    return data.createPayoutRecipient.recipient.id;
  }

  async function payout(merchant: TestMerchant, recipientId: string, amount = '10.00', headers = asApiKey(merchant)) {
    return (await ok(CREATE_PAYOUT, { input: { recipientId, amount, currency: 'USD' } }, headers)).createPayout.payout;
  }

  const recipientRows = async (businessId: string) =>
    (
      await server.runtime.dataSource.query('SELECT count(*)::int AS n FROM payout_recipients WHERE business_id = $1', [
        businessId,
      ])
    )[0].n;

  describe('recipients', () => {
    test('a dashboard create is screened: screenedAt is set, only the last 4 digits of the account show, and the recipient names its businessId as REST does', async () => {
      const owner = await server.signUp();
      const details = bank('5678');
      const data = await ok(CREATE_RECIPIENT, { input: { label: 'Ada', details } }, asDashboard(owner));
      expect(data.createPayoutRecipient).toMatchObject({
        created: true,
        recipient: {
          businessId: owner.businessId,
          label: 'Ada',
          rail: 'LOCAL_BANK',
          currency: 'NGN',
          country: 'NG',
          archivedAt: null,
          detailsMasked: expect.objectContaining({ accountNumber: '****5678', bankName: 'GTBank' }),
        },
      });
      expect(data.createPayoutRecipient.recipient.screenedAt).toEqual(expect.any(String));
      expect(JSON.stringify(data)).not.toContain(details.accountNumber);
    });

    test('a dashboard create whose accountName or label contains SANCTIONED is refused with the userError SANCTIONS_MATCH and stores nothing', async () => {
      const owner = await server.signUp();
      const byName = await userErrors(
        CREATE_RECIPIENT,
        { input: { label: 'Ada', details: bank('5678', 'Sanctioned Person') } },
        asDashboard(owner),
      );
      expect(byName).toEqual([{ field: null, code: 'SANCTIONS_MATCH', message: expect.any(String) }]);
      const byLabel = await userErrors(
        CREATE_RECIPIENT,
        { input: { label: 'a SANCTIONED supplier', details: bank('5678') } },
        asDashboard(owner),
      );
      expect(byLabel).toEqual([{ field: null, code: 'SANCTIONS_MATCH', message: expect.any(String) }]);
      expect(await recipientRows(owner.businessId)).toBe(0);
    });

    test('an API-key create is never screened: the same name is stored, screenedAt null', async () => {
      const owner = await server.signUp();
      const data = await ok(
        CREATE_RECIPIENT,
        { input: { label: 'Ada', details: bank('5678', 'Sanctioned Person') } },
        asApiKey(owner),
      );
      expect(data.createPayoutRecipient.recipient.screenedAt).toBeNull();
      expect(await recipientRows(owner.businessId)).toBe(1);
    });

    test('the same destination is the same recipient (created false); archived ones are listed only when asked', async () => {
      const owner = await server.signUp();
      const details = bank('5678');
      const first = await ok(CREATE_RECIPIENT, { input: { label: 'Ada', details } }, asApiKey(owner));
      const again = await ok(
        CREATE_RECIPIENT,
        { input: { label: 'Ada again', details: { ...details, accountNumber: ` ${details.accountNumber} ` } } },
        asApiKey(owner),
      );
      expect(again.createPayoutRecipient).toMatchObject({
        created: false,
        recipient: { id: first.createPayoutRecipient.recipient.id },
      });

      const id = first.createPayoutRecipient.recipient.id;
      const archived = await ok(ARCHIVE, { input: { id } }, asApiKey(owner));
      expect(archived.archivePayoutRecipient).toEqual({
        recipient: { id, archivedAt: expect.any(String) },
        userErrors: [],
      });
      const LIST = 'query($all: Boolean) { payoutRecipients(includeArchived: $all) { edges { node { id } } } }';
      expect((await ok(LIST, { all: false }, asApiKey(owner))).payoutRecipients.edges).toEqual([]);
      expect((await ok(LIST, { all: true }, asApiKey(owner))).payoutRecipients.edges).toEqual([{ node: { id } }]);
      expect(
        (await ok('query($id: ID!) { payoutRecipient(id: $id) { id } }', { id }, asApiKey(owner))).payoutRecipient.id,
      ).toBe(id);
    });

    test('payoutRecipients(search) (REST: ?search=) lists the recipients whose label contains the text, ignoring case, with % and _ taken literally, page after page', async () => {
      const owner = await server.signUp();
      const labels = ['Acme Ltd', 'ACME 100% supplies', 'Beta acme_co', 'Gamma', 'Acme 1005'];
      const ids = new Map<string, string>();
      for (const label of labels) {
        const data = await ok(CREATE_RECIPIENT, { input: { label, details: bank('5678') } }, asApiKey(owner));
        ids.set(label, data.createPayoutRecipient.recipient.id);
      }
      const SEARCH = `query($search: String, $first: Int, $after: String) {
        payoutRecipients(search: $search, first: $first, after: $after) { edges { node { label } } pageInfo { hasNextPage endCursor } } }`;
      const labelsFor = async (search: string) =>
        (await ok(SEARCH, { search }, asDashboard(owner))).payoutRecipients.edges.map((edge: any) => edge.node.label);

      expect(await labelsFor('acme')).toEqual(['Acme 1005', 'Beta acme_co', 'ACME 100% supplies', 'Acme Ltd']);
      expect(await labelsFor('100%')).toEqual(['ACME 100% supplies']);
      expect(await labelsFor('e_c')).toEqual(['Beta acme_co']);
      expect(await labelsFor('  gamma ')).toEqual(['Gamma']);
      expect(await labelsFor('nobody')).toEqual([]);

      const first = (await ok(SEARCH, { search: 'acme', first: 3 }, asDashboard(owner))).payoutRecipients;
      expect(first.pageInfo.hasNextPage).toBe(true);
      const second = (
        await ok(SEARCH, { search: 'acme', first: 3, after: first.pageInfo.endCursor }, asDashboard(owner))
      ).payoutRecipients;
      expect(second.edges.map((edge: any) => edge.node.label)).toEqual(['Acme Ltd']);
      expect(second.pageInfo.hasNextPage).toBe(false);

      const rest = await server.request('GET', '/api/v1/business/payouts/recipients?search=ACME%20100', {
        headers: asApiKey(owner),
      });
      expect(rest.status).toBe(200);
      expect(rest.body.data.items.map((item: any) => item.label)).toEqual(['Acme 1005', 'ACME 100% supplies']);

      const tooLong = await refused(SEARCH, { search: 'x'.repeat(201) }, asDashboard(owner));
      expect(tooLong.extensions?.code).toBe('BAD_USER_INPUT');
    });

    test('bad details answer VALIDATION_ERROR userErrors on each input field, created null, and nothing is stored', async () => {
      const owner = await server.signUp();
      const answer = await ok(
        CREATE_RECIPIENT,
        { input: { label: 'Ada', details: { ...bank('5678'), accountNumber: '!!' } } },
        asApiKey(owner),
      );
      expect(answer.createPayoutRecipient).toEqual({
        created: null,
        recipient: null,
        userErrors: [
          { field: ['input', 'details', 'accountNumber'], code: 'VALIDATION_ERROR', message: expect.any(String) },
        ],
      });
      const missing = await userErrors(
        CREATE_RECIPIENT,
        { input: { label: 'Ada', details: { rail: 'LOCAL_BANK', country: 'NG' } } },
        asApiKey(owner),
      );
      expect(missing.every((error) => error.code === 'VALIDATION_ERROR')).toBe(true);
      expect(missing.map((error) => error.field!.join('.'))).toEqual(
        expect.arrayContaining(['input.details.currency', 'input.details.accountNumber']),
      );
      expect(await recipientRows(owner.businessId)).toBe(0);
    });
  });

  describe('quotes and payouts', () => {
    test('createPayout with a pin checks it first: a wrong PIN is INVALID_PIN and nothing is debited; the right one pays', async () => {
      const owner = await fundedMerchant();
      const set = await ok(
        `mutation($input: SetPayoutPinInput!) { setPayoutPin(input: $input) { payoutPin { isSet } ${USER_ERRORS} } }`,
        { input: { pin: '123456' } },
        asDashboard(owner),
      );
      expect(set.setPayoutPin.payoutPin.isSet).toBe(true);
      const recipientId = await recipient(owner, '3333');
      const before = await balanceMinor(owner);

      const wrong = await userErrors(
        CREATE_PAYOUT,
        { input: { recipientId, amount: '10.00', currency: 'USD', pin: '654321' } },
        asDashboard(owner),
      );
      expect(wrong).toEqual([expect.objectContaining({ code: 'INVALID_PIN', field: null })]);
      const malformed = await userErrors(
        CREATE_PAYOUT,
        { input: { recipientId, amount: '10.00', currency: 'USD', pin: '12' } },
        asDashboard(owner),
      );
      expect(malformed).toEqual([expect.objectContaining({ code: 'VALIDATION_ERROR', field: ['input', 'pin'] })]);
      expect(await balanceMinor(owner)).toBe(before);
      const rows = await server.runtime.dataSource.query(
        'SELECT count(*)::int AS n FROM payouts WHERE business_id = $1',
        [owner.businessId],
      );
      expect(rows[0].n).toBe(0);

      const paid = await ok(
        CREATE_PAYOUT,
        { input: { recipientId, amount: '10.00', currency: 'USD', pin: '123456' } },
        asDashboard(owner),
      );
      expect(paid.createPayout.payout.status).toBe('CREATED');
      expect(await balanceMinor(owner)).toBe(before - 1_010n);
    });

    test('a quote prices USD to NGN at the sandbox rate less the spread, with a 1% fee in the wallet currency', async () => {
      const owner = await fundedMerchant();
      const data = await ok(
        CREATE_QUOTE,
        { input: { amount: '100.00', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' } },
        asApiKey(owner),
      );
      expect(data.createPayoutQuote.userErrors).toEqual([]);
      expect(data.createPayoutQuote.quote).toMatchObject({
        amount: { amount: '100.00', currency: 'USD' },
        rate: '1542.25000000',
        dstAmount: { amount: '154225.00', amountMinor: '15422500', currency: 'NGN' },
        serviceFee: { amount: '1.00', amountMinor: '100', currency: 'USD' },
        country: 'NG',
        rail: 'LOCAL_BANK',
      });
      expect(new Date(data.createPayoutQuote.quote.expiresAt).getTime()).toBeGreaterThan(Date.now() + 240_000);
    });

    test('createPayout with a quote answers CREATED and debits the wallet by amount + fee', async () => {
      const owner = await fundedMerchant();
      const recipientId = await recipient(owner, '3333');
      const quote = (
        await ok(
          CREATE_QUOTE,
          {
            input: { amount: '100.00', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' },
          },
          asApiKey(owner),
        )
      ).createPayoutQuote.quote;
      const before = await balanceMinor(owner);
      const created = (
        await ok(
          CREATE_PAYOUT,
          {
            input: {
              recipientId,
              amount: '100.00',
              currency: 'USD',
              quoteId: quote.id,
              reference: 'INV-7',
              metadata: { order: 7 },
            },
          },
          asDashboard(owner),
        )
      ).createPayout.payout;
      expect(created).toMatchObject({
        status: 'CREATED',
        rail: 'LOCAL_BANK',
        amount: { amount: '100.00', amountMinor: '10000', currency: 'USD' },
        serviceFee: { amountMinor: '100', currency: 'USD' },
        destinationAmount: { amount: '154225.00', currency: 'NGN' },
        rate: '1542.25000000',
        recipientId,
        destinationMasked: { country: 'NG', accountNumber: '****3333', bankName: 'GTBank' },
        providerRef: null,
        failureReason: null,
        reference: 'INV-7',
        metadata: { order: 7 },
        batchId: null,
        settledAt: null,
        livemode: false,
      });
      expect(await balanceMinor(owner)).toBe(before - 10_100n);
      const read = await ok(
        `query($id: ID!) { payout(id: $id) { id status recipient { id } } }`,
        { id: created.id },
        asApiKey(owner),
      );
      expect(read.payout).toEqual({ id: created.id, status: 'CREATED', recipient: { id: recipientId } });
    });

    test('too little balance is the userError INSUFFICIENT_FUNDS and a bad amount VALIDATION_ERROR on input.amount; neither writes a payout', async () => {
      const owner = await fundedMerchant('5.00');
      const recipientId = await recipient(owner, '3333');
      const poor = await userErrors(
        CREATE_PAYOUT,
        { input: { recipientId, amount: '5.00', currency: 'USD' } },
        asApiKey(owner),
      );
      expect(poor).toEqual([{ field: null, code: 'INSUFFICIENT_FUNDS', message: expect.any(String) }]);
      const bad = await userErrors(
        CREATE_PAYOUT,
        { input: { recipientId, amount: '1.001', currency: 'USD' } },
        asApiKey(owner),
      );
      expect(bad).toEqual([{ field: ['input', 'amount'], code: 'VALIDATION_ERROR', message: expect.any(String) }]);
      const rows = await server.runtime.dataSource.query(
        'SELECT count(*)::int AS n FROM payouts WHERE business_id = $1',
        [owner.businessId],
      );
      expect(rows[0].n).toBe(0);
      expect(await balanceMinor(owner)).toBe(500n);
    });

    test('another business cannot read, cancel or pay out to what is not its own (NOT_FOUND: thrown for a read, a userError for a mutation)', async () => {
      const owner = await fundedMerchant();
      const other = await fundedMerchant();
      const recipientId = await recipient(owner, '3333');
      const created = await payout(owner, recipientId);
      expect(
        (await refused('query($id: ID!) { payout(id: $id) { id } }', { id: created.id }, asApiKey(other))).extensions
          .code,
      ).toBe('NOT_FOUND');
      expect(await userErrors(CANCEL, { input: { id: created.id } }, asApiKey(other))).toEqual([
        { field: null, code: 'NOT_FOUND', message: expect.any(String) },
      ]);
      expect(
        (
          await userErrors(CREATE_PAYOUT, { input: { recipientId, amount: '1.00', currency: 'USD' } }, asApiKey(other))
        )[0].code,
      ).toBe('NOT_FOUND');
      const still = await ok('query($id: ID!) { payout(id: $id) { status } }', { id: created.id }, asApiKey(owner));
      expect(still.payout.status).toBe('CREATED');
    });

    test('cancelPayout: a CREATED payout is CANCELLED with its debit reversed; a SUBMITTED one is the userError CONFLICT', async () => {
      const owner = await fundedMerchant();
      const recipientId = await recipient(owner, '3333');
      const before = await balanceMinor(owner);
      const created = await payout(owner, recipientId);
      expect((await ok(CANCEL, { input: { id: created.id } }, asApiKey(owner))).cancelPayout).toEqual({
        payout: { id: created.id, status: 'CANCELLED' },
        userErrors: [],
      });
      expect(await balanceMinor(owner)).toBe(before);

      const second = await payout(owner, recipientId);
      const submitted = (await ok(ADVANCE, { input: { id: second.id, status: 'SUBMITTED' } }, asApiKey(owner)))
        .advanceSandboxPayout.payout;
      expect(submitted).toMatchObject({ status: 'SUBMITTED', providerRef: expect.stringMatching(/^sbx_po_/) });
      const beforeConflict = await balanceMinor(owner);
      expect(await userErrors(CANCEL, { input: { id: second.id } }, asApiKey(owner))).toEqual([
        { field: null, code: 'CONFLICT', message: expect.stringMatching(/CREATED/) },
      ]);
      expect(
        (await ok('query($id: ID!) { payout(id: $id) { status } }', { id: second.id }, asApiKey(owner))).payout.status,
      ).toBe('SUBMITTED');
      expect(await balanceMinor(owner)).toBe(beforeConflict);
    });

    test('advanceSandboxPayout is refused with live credentials', async () => {
      const owner = await fundedMerchant();
      const created = await payout(owner, await recipient(owner, '3333'));
      const liveKey = await server.liveKeyOf(owner);
      const error = await refused(
        ADVANCE,
        { input: { id: created.id, status: 'SUBMITTED' } },
        { 'x-api-key': liveKey },
      );
      expect(error.extensions.code).toBe('SANDBOX_ONLY');
    });
  });

  describe('review', () => {
    test('a held payout (PENDING_REVIEW) is approved or rejected only by an OWNER or ADMIN JWT: an API key and a DEVELOPER get FORBIDDEN', async () => {
      const owner = await fundedMerchant();
      const developer = await server.signUp();
      await server.addTeamMember(owner, developer, 'DEVELOPER');
      const asDeveloper = { ...asDashboard(developer), 'x-service-business-id': owner.businessId };
      const recipientId = await recipient(owner, '2222');
      const before = await balanceMinor(owner);
      const held = await payout(owner, recipientId);
      const toReject = await payout(owner, recipientId);
      expect([held.status, toReject.status]).toEqual(['PENDING_REVIEW', 'PENDING_REVIEW']);

      for (const headers of [asApiKey(owner), asDeveloper]) {
        expect((await refused(APPROVE, { input: { id: held.id } }, headers)).extensions.code).toBe('FORBIDDEN');
        expect((await refused(REJECT, { input: { id: toReject.id, reason: 'no' } }, headers)).extensions.code).toBe(
          'FORBIDDEN',
        );
      }
      const still = await ok(`query($id: ID!) { payout(id: $id) { status } }`, { id: held.id }, asApiKey(owner));
      expect(still.payout.status).toBe('PENDING_REVIEW');

      expect((await ok(APPROVE, { input: { id: held.id } }, asDashboard(owner))).approvePayout.payout.status).toBe(
        'CREATED',
      );
      const rejected = (
        await ok(REJECT, { input: { id: toReject.id, reason: 'unknown supplier' } }, asDashboard(owner))
      ).rejectPayout;
      expect(rejected).toEqual({
        payout: { id: toReject.id, status: 'FAILED', failureReason: 'unknown supplier' },
        userErrors: [],
      });
      // The rejected payout's debit (amount + fee) is back; the approved one's stands.
      expect(await balanceMinor(owner)).toBe(before - 1_010n);
      expect(await userErrors(APPROVE, { input: { id: toReject.id } }, asDashboard(owner))).toEqual([
        { field: null, code: 'CONFLICT', message: expect.any(String) },
      ]);
      // A blank reason is a userError on input.reason; the held payout stays held.
      const another = await payout(owner, recipientId);
      expect(await userErrors(REJECT, { input: { id: another.id, reason: '' } }, asDashboard(owner))).toEqual([
        { field: ['input', 'reason'], code: 'VALIDATION_ERROR', message: expect.any(String) },
      ]);
      expect(
        (await ok(`query($id: ID!) { payout(id: $id) { status } }`, { id: another.id }, asApiKey(owner))).payout.status,
      ).toBe('PENDING_REVIEW');
    });
  });

  describe('node(id:)', () => {
    const NODE = `query($id: ID!) { node(id: $id) { __typename id } }`;

    test('answers a payout, a recipient, a quote, a batch and a wallet to their owner, and null to another business and to the other mode', async () => {
      const owner = await fundedMerchant();
      const other = await fundedMerchant();
      const liveKey = await server.liveKeyOf(owner);
      const recipientId = await recipient(owner, '3333');
      const quote = (
        await ok(
          CREATE_QUOTE,
          {
            input: { amount: '10.00', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' },
          },
          asApiKey(owner),
        )
      ).createPayoutQuote.quote;
      const created = await payout(owner, recipientId);
      const batch = (
        await ok(
          CREATE_BATCH,
          { input: { items: [{ recipientId, amount: '1.00', currency: 'USD' }] } },
          asApiKey(owner),
        )
      ).createPayoutBatch.batch;
      const wallet = (await ok('{ wallets { id currency } }', {}, asApiKey(owner))).wallets.find(
        (each: any) => each.currency === 'USD',
      );
      const objects = [
        ['Payout', created.id],
        ['PayoutRecipient', recipientId],
        ['PayoutQuote', quote.id],
        ['PayoutBatch', batch.id],
        ['Wallet', wallet.id],
      ];
      for (const [typename, id] of objects) {
        expect((await ok(NODE, { id }, asApiKey(owner))).node).toEqual({ __typename: typename, id });
        expect((await ok(NODE, { id }, asDashboard(owner))).node).toEqual({ __typename: typename, id });
        expect((await ok(NODE, { id }, asApiKey(other))).node).toBeNull();
        expect((await ok(NODE, { id }, { 'x-api-key': liveKey })).node).toBeNull();
      }
      const many = await ok(
        'query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on PayoutRecipient { label } ... on Wallet { currency } } }',
        { ids: [recipientId, wallet.id] },
        asApiKey(owner),
      );
      expect(many.nodes).toEqual([
        { __typename: 'PayoutRecipient', label: 'Supplier 3333' },
        { __typename: 'Wallet', currency: 'USD' },
      ]);
    });
  });

  describe('lists without a query per row', () => {
    test("the payouts connection with each payout's recipient costs the same SQL statements for 20 payouts as for 1", async () => {
      const owner = await fundedMerchant();
      const recipients: string[] = [];
      for (let i = 0; i < 20; i += 1) recipients.push(await recipient(owner, '3333'));
      await payout(owner, recipients[0]);
      const one = await countStatements(server, () => ok(PAYOUTS_WITH_RECIPIENTS, { first: 20 }, asApiKey(owner)));

      for (const recipientId of recipients.slice(1)) await payout(owner, recipientId);
      let data: any;
      const twenty = await countStatements(server, async () => {
        data = await ok(PAYOUTS_WITH_RECIPIENTS, { first: 20 }, asApiKey(owner));
      });
      expect(data.payouts.edges).toHaveLength(20);
      expect(new Set(data.payouts.edges.map((edge: any) => edge.node.recipient.id))).toEqual(new Set(recipients));
      expect(twenty).toBe(one);

      const firstPage = await ok(PAYOUTS_WITH_RECIPIENTS, { first: 15 }, asApiKey(owner));
      expect(firstPage.payouts.pageInfo.hasNextPage).toBe(true);
      const rest = await ok(
        `query($after: String) { payouts(first: 15, after: $after) { edges { node { id } } pageInfo { hasNextPage } } }`,
        { after: firstPage.payouts.pageInfo.endCursor },
        asApiKey(owner),
      );
      expect(rest.payouts.edges).toHaveLength(5);
      expect(rest.payouts.pageInfo.hasNextPage).toBe(false);
    });

    test('a list of batches with their counts and payouts costs the same SQL statements for 3 batches as for 1', async () => {
      const owner = await fundedMerchant();
      const [r1, r2, r3] = [
        await recipient(owner, '3333'),
        await recipient(owner, '3333'),
        await recipient(owner, '3333'),
      ];
      const items = [
        { recipientId: r1, amount: '1.00', currency: 'USD' },
        { recipientId: r2, amount: '2.00', currency: 'USD' },
        { recipientId: r3, amount: '3.00', currency: 'USD', reference: 'x' },
      ];
      const first = (await ok(CREATE_BATCH, { input: { name: 'March', items } }, asApiKey(owner))).createPayoutBatch
        .batch;
      expect(first).toMatchObject({
        name: 'March',
        status: 'PROCESSING',
        itemCount: 3,
        totalAmount: { amount: '6.00', currency: 'USD' },
        counts: { created: 3, submitted: 0, settled: 0, failed: 0, cancelled: 0, pendingReview: 0 },
      });
      const one = await countStatements(server, () =>
        ok(BATCHES_WITH_PAYOUTS, { first: 10, payouts: 2 }, asApiKey(owner)),
      );

      const second = (await ok(CREATE_BATCH, { input: { items: items.slice(0, 2) } }, asApiKey(owner)))
        .createPayoutBatch.batch;
      const third = (await ok(CREATE_BATCH, { input: { items: items.slice(0, 1) } }, asApiKey(owner))).createPayoutBatch
        .batch;
      const [cancelled] = (
        await ok(
          `query($id: ID!) { payouts(batchId: $id) { edges { node { id } } } }`,
          { id: second.id },
          asApiKey(owner),
        )
      ).payouts.edges;
      await ok(CANCEL, { input: { id: cancelled.node.id } }, asApiKey(owner));

      let data: any;
      const three = await countStatements(server, async () => {
        data = await ok(BATCHES_WITH_PAYOUTS, { first: 10, payouts: 2 }, asApiKey(owner));
      });
      expect(three).toBe(one);
      const batches = data.payoutBatches.edges.map((edge: any) => edge.node);
      expect(batches.map((batch: any) => batch.id)).toEqual([third.id, second.id, first.id]);
      expect(batches.map((batch: any) => batch.counts)).toEqual([
        { created: 1, settled: 0, cancelled: 0, pendingReview: 0 },
        { created: 1, settled: 0, cancelled: 1, pendingReview: 0 },
        { created: 3, settled: 0, cancelled: 0, pendingReview: 0 },
      ]);
      expect(batches.map((batch: any) => batch.payouts.edges.length)).toEqual([1, 2, 2]);
      expect(batches.map((batch: any) => batch.payouts.pageInfo.hasNextPage)).toEqual([false, false, true]);
      for (const batch of batches) for (const edge of batch.payouts.edges) expect(edge.node.batchId).toBe(batch.id);

      // The page continues from its cursor, as the payouts list with the batch filter does (a batch's payouts share
      // their creation time: the order is then the id's).
      const rest = await ok(
        `query($id: ID!, $after: String) { payoutBatch(id: $id) { payouts(first: 2, after: $after) { edges { node { id } } pageInfo { hasNextPage } } } }`,
        { id: first.id, after: batches[2].payouts.pageInfo.endCursor },
        asApiKey(owner),
      );
      expect(rest.payoutBatch.payouts.pageInfo.hasNextPage).toBe(false);
      const paged = [...batches[2].payouts.edges, ...rest.payoutBatch.payouts.edges].map((edge: any) => edge.node.id);
      const listed = await ok(
        `query($id: ID!) { payouts(batchId: $id) { edges { node { id } } } }`,
        { id: first.id },
        asApiKey(owner),
      );
      expect(paged).toEqual(listed.payouts.edges.map((edge: any) => edge.node.id));
      expect(new Set(paged).size).toBe(3);
    });

    test('each page of a list is priced by its size: 100 batches of 100 payouts each is refused QUERY_TOO_COSTLY before any resolver runs', async () => {
      const owner = await server.signUp();
      const list = jest.spyOn(server.runtime.core.payoutBatches, 'list');
      try {
        const error = await refused(BATCHES_WITH_PAYOUTS, { first: 100, payouts: 100 }, asApiKey(owner));
        expect(error.extensions.code).toBe('QUERY_TOO_COSTLY');
        expect(list).not.toHaveBeenCalled();
        await ok(BATCHES_WITH_PAYOUTS, { first: 10, payouts: 5 }, asApiKey(owner));
        expect(list).toHaveBeenCalledTimes(1);
      } finally {
        list.mockRestore();
      }
    });

    test('a batch with a bad item is refused with a userError on input.items.N.field, and nothing is created', async () => {
      const owner = await fundedMerchant();
      const recipientId = await recipient(owner, '3333');
      const errors = await userErrors(
        CREATE_BATCH,
        {
          input: {
            items: [
              { recipientId, amount: '1.00', currency: 'USD' },
              { recipientId, amount: '1.001', currency: 'USD' },
            ],
          },
        },
        asApiKey(owner),
      );
      expect(errors).toEqual([
        { field: ['input', 'items', '1', 'amount'], code: 'VALIDATION_ERROR', message: expect.any(String) },
      ]);
      const rows = await server.runtime.dataSource.query(
        'SELECT count(*)::int AS n FROM payout_batches WHERE business_id = $1',
        [owner.businessId],
      );
      expect(rows[0].n).toBe(0);
    });
  });

  describe('payoutUpdated', () => {
    /** Each message as (previousStatus -> status: changedFields). */
    const changesOf = (messages: any[]) =>
      messages.map(
        ({ payoutUpdated: update }) =>
          `${update.previousStatus} -> ${update.payout.status}: ${update.changedFields.join(',')}`,
      );
    const statusesOf = (messages: any[]) => messages.map((message) => message.payoutUpdated.payout.status);

    test("a subscriber receives each change of its own payout once, with its previous status and the fields it set (the rail's reference is a change of its own), nothing of another business or of the other mode", async () => {
      const owner = await fundedMerchant();
      const other = await fundedMerchant();
      const liveKey = await server.liveKeyOf(owner);
      // Ending 3333: the payout waits in each status until advanced, so each message is read in the status it announces.
      const ownRecipient = await recipient(owner, '3333');
      const otherRecipient = await recipient(other, '3333');

      const mine = collect(server.subscribe(asDashboard(owner)), PAYOUT_UPDATED, 4);
      const theirs = collect(server.subscribe({ apiKey: other.apiKey }), PAYOUT_UPDATED, 1);
      const live = collect(server.subscribe({ apiKey: liveKey }), PAYOUT_UPDATED, 1);
      await Promise.all([mine.ready, theirs.ready, live.ready]);

      // The other business's payout first: had it leaked, it would be among the owner's messages.
      const ofOther = await payout(other, otherRecipient);
      const created = await payout(owner, ownRecipient);
      await waitFor(
        async () => mine.received.length,
        (count) => count >= 1,
      );
      await ok(ADVANCE, { input: { id: created.id, status: 'SUBMITTED' } }, asApiKey(owner));
      await waitFor(
        async () => mine.received.length,
        (count) => count >= 3,
      );
      await ok(ADVANCE, { input: { id: created.id, status: 'SETTLED' } }, asApiKey(owner));
      const received = await mine.done;
      expect(
        received.every(
          (message: any) =>
            message.payoutUpdated.payout.id === created.id && message.payoutUpdated.payout.livemode === false,
        ),
      ).toBe(true);
      const [creation, ...moves] = changesOf(received);
      expect(creation).toMatch(/^null -> CREATED: id,status,rail,amount,/);
      expect(received[0].payoutUpdated.changedFields).not.toContain('updatedAt');
      expect(moves).toEqual([
        'CREATED -> SUBMITTED: status',
        'SUBMITTED -> SUBMITTED: providerRef',
        'SUBMITTED -> SETTLED: status,settledAt',
      ]);
      expect(await theirs.done).toEqual([
        {
          payoutUpdated: {
            payout: { id: ofOther.id, status: 'CREATED', livemode: false },
            previousStatus: null,
            changedFields: expect.arrayContaining(['status', 'amount']),
          },
        },
      ]);
      // Live mode cannot pay out in the sandbox: the live subscriber's silence is ended by a change published last.
      expect(
        await heardBefore(server, live, (pubSub, payoutId) =>
          pubSub.publish(PayoutTopic.PAYOUT, {
            businessId: owner.businessId,
            livemode: true,
            payoutId,
            previousStatus: null,
            changedFields: null,
          }),
        ),
      ).toEqual([]);
    });

    test('a payout to an ordinary account is dispatched and settled by the sandbox rail, and its subscriber hears it settle', async () => {
      const owner = await fundedMerchant();
      const recipientId = await recipient(owner, '5678');
      const subscriber = collect(server.subscribe({ apiKey: owner.apiKey }), PAYOUT_UPDATED, 4);
      await subscriber.ready;
      const created = await payout(owner, recipientId);
      const received = await subscriber.done;
      expect(received.every((message: any) => message.payoutUpdated.payout.id === created.id)).toBe(true);
      expect(statusesOf(received).at(-1)).toBe('SETTLED');
      expect(changesOf(received).slice(1)).toEqual([
        'CREATED -> SUBMITTED: status',
        'SUBMITTED -> SUBMITTED: providerRef',
        'SUBMITTED -> SETTLED: status,settledAt',
      ]);
      const settled = await ok(
        `query($id: ID!) { payout(id: $id) { status providerRef settledAt } }`,
        { id: created.id },
        asApiKey(owner),
      );
      expect(settled.payout).toMatchObject({
        status: 'SETTLED',
        providerRef: expect.stringMatching(/^sbx_po_/),
        settledAt: expect.any(String),
      });
    });

    test('payoutUpdated(id) delivers that payout only', async () => {
      const owner = await fundedMerchant();
      const recipientId = await recipient(owner, '3333');
      const watched = await payout(owner, recipientId);
      const one = collect(
        server.subscribe({ apiKey: owner.apiKey }),
        `subscription { payoutUpdated(id: "${watched.id}") { payout { id status } previousStatus changedFields } }`,
        1,
      );
      await one.ready;
      await payout(owner, recipientId);
      await ok(CANCEL, { input: { id: watched.id } }, asApiKey(owner));
      expect(await one.done).toEqual([
        {
          payoutUpdated: {
            payout: { id: watched.id, status: 'CANCELLED' },
            previousStatus: 'CREATED',
            changedFields: ['status'],
          },
        },
      ]);
    });

    test('a subscriber whose API key is regenerated is closed (4403) and receives nothing more', async () => {
      const owner = await fundedMerchant();
      const recipientId = await recipient(owner, '3333');
      const socket = server.socket({ apiKey: owner.apiKey });
      const subscriber = collect(socket.client, PAYOUT_UPDATED, 1);
      await subscriber.ready;

      const regenerated = await server.request('POST', '/api/v1/business/regenerate-api-key', {
        headers: asApiKey(owner),
      });
      expect(regenerated.status).toBe(200);
      expect(await within(socket.closed, PATIENCE_MS, 'close after regeneration')).toMatchObject({ code: 4403 });

      const created = await payout({ ...owner, apiKey: regenerated.body.data.apiKey }, recipientId);
      expect(created.status).toBe('CREATED');
      await subscriber.done.catch(() => undefined);
      expect(subscriber.received).toEqual([]);
      const rows = await waitFor(
        () => server.runtime.dataSource.query('SELECT status FROM payouts WHERE id = $1', [created.id]),
        (found) => found.length === 1,
      );
      expect(rows[0].status).toBe('CREATED');
    });
  });

  describe('finding 26.5: extensions.idempotencyKey over HTTP', () => {
    const keyed = (
      merchant: TestMerchant,
      recipientId: string,
      body: Record<string, unknown>,
      headers: Record<string, string> = {},
    ) =>
      server.request('POST', '/graphql', {
        headers: { ...asApiKey(merchant), ...headers },
        body: {
          query: CREATE_PAYOUT,
          variables: { input: { recipientId, amount: '10.00', currency: 'USD' } },
          ...body,
        },
      });
    const debits = async (merchant: TestMerchant) =>
      (
        await server.runtime.dataSource.query(
          `SELECT (SELECT count(*)::int FROM payouts WHERE business_id = $1) AS payouts,
              (SELECT count(*)::int FROM journal_transactions WHERE business_id = $1 AND kind = 'payout_debit') AS debits`,
          [merchant.businessId],
        )
      )[0];

    test('50 concurrent createPayout with the same extensions.idempotencyKey make one payout and one ledger debit', async () => {
      const merchant = await fundedMerchant();
      const recipientId = await recipient(merchant, '6789');
      const key = `ext-${crypto.randomUUID()}`;
      const answers = await Promise.all(
        Array.from({ length: 50 }, () => keyed(merchant, recipientId, { extensions: { idempotencyKey: key } })),
      );
      expect(await debits(merchant)).toEqual({ payouts: 1, debits: 1 });
      const made = answers.filter((answer) => answer.body.data?.createPayout);
      expect(made.length).toBeGreaterThanOrEqual(1);
      expect(new Set(made.map((answer) => answer.body.data.createPayout.payout.id)).size).toBe(1);
      // The others were in progress at the same moment (409, not stored): a retry now replays the stored answer.
      for (const answer of answers.filter((each) => !each.body.data?.createPayout)) expect(answer.status).toBe(409);
      const replay = await keyed(merchant, recipientId, { extensions: { idempotencyKey: key } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.data.createPayout.payout.id).toBe(made[0].body.data.createPayout.payout.id);
      expect(await debits(merchant)).toEqual({ payouts: 1, debits: 1 });
    });

    test('the header and the extension together must agree: different keys answer 400 and write nothing; the same key is one key', async () => {
      const merchant = await fundedMerchant();
      const recipientId = await recipient(merchant, '6789');
      const differ = await keyed(
        merchant,
        recipientId,
        { extensions: { idempotencyKey: 'one-key' } },
        { 'idempotency-key': 'another-key' },
      );
      expect(differ.status).toBe(400);
      expect(differ.body).toMatchObject({
        success: false,
        error: {
          code: 'BAD_REQUEST',
          message: expect.stringMatching(/Idempotency-Key header and extensions\.idempotencyKey differ/),
        },
      });
      const notAString = await keyed(merchant, recipientId, { extensions: { idempotencyKey: 42 } });
      expect(notAString.status).toBe(400);
      expect(notAString.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: { 'extensions.idempotencyKey': [expect.any(String)] },
      });
      expect(await debits(merchant)).toEqual({ payouts: 0, debits: 0 });

      const key = `both-${crypto.randomUUID()}`;
      const first = await keyed(
        merchant,
        recipientId,
        { extensions: { idempotencyKey: key } },
        { 'idempotency-key': key },
      );
      expect(first.body.errors).toBeUndefined();
      const byHeaderOnly = await keyed(
        merchant,
        recipientId,
        { extensions: { idempotencyKey: key } },
        { 'idempotency-key': key },
      );
      expect(byHeaderOnly.headers.get('idempotent-replayed')).toBe('true');
      expect(await debits(merchant)).toEqual({ payouts: 1, debits: 1 });
    });
  });
});
