import { LedgerService } from '../src/domain/ledger/ledger.service';
import { Mode } from '../src/domain/shared/modes';
import { RequestContext } from '../src/domain/shared/context';
import { TreasuryTopic } from '../src/domain/treasury/treasury.topics';
import { TreasuryPayoutStatus } from '../src/domain/treasury/treasury.entities';
import {
  TestMerchant,
  TestServer,
  collect,
  countStatements,
  heardBefore,
  overSocket,
  startDeliveringServer,
  waitFor,
} from './support/harness';
import {
  TREASURY,
  TREASURY_PAYOUTS,
  USERS,
  activeEndUser,
  apiKey,
  countOf,
  createEndUser,
  createWallet,
  deposit,
  fundedWallet,
  ledgerBalanceOf,
  payoutBody,
  treasuryPartner,
} from './support/treasury';

/**
 * The GraphQL face of treasury (design section 10): the same commands and rules as
 * /api/v1/treasury (one wire shape, src/wire/treasury.ts, so the same field messages), cursor
 * connections, relations through loaders (a constant number of SQL statements per page), and
 * treasuryPayoutUpdated / treasuryKycUpdated over graphql-ws only for the subscriber's own
 * partner business and mode.
 */

const END_USER_FIELDS = 'id partnerId externalId email status name phone metadata livemode createdAt updatedAt';
const KYC_FIELDS =
  'id partnerEndUserId status level rejectionReasons kycLinkUrl decidedAt livemode createdAt updatedAt';
const INSTRUCTION_FIELDS = `walletId currency accountNumber routingNumber iban bankName accountType depositInstructions
  cryptoDepositAddress cryptoDepositChain walletAddress chain`;
const WALLET_FIELDS = `id partnerEndUserId currency balance { amount amountMinor currency } status livemode createdAt depositInstructions { ${INSTRUCTION_FIELDS} }`;
const PAYOUT_FIELDS = `id partnerId partnerEndUserId partnerWalletId amount { amount amountMinor currency } destinationType destinationDetails
  status failureReason metadata completedAt livemode createdAt updatedAt`;

const USER_ERRORS = 'userErrors { field message code }';
const CREATE_END_USER = `mutation($input: CreateTreasuryEndUserInput!) { createTreasuryEndUser(input: $input) { treasuryEndUser { ${END_USER_FIELDS} } ${USER_ERRORS} } }`;
const END_USER = `query($id: ID!) { treasuryEndUser(id: $id) { ${END_USER_FIELDS} kyc { id status } wallets { id currency } } }`;
const END_USERS = `query($first: Int, $after: String, $status: TreasuryEndUserStatus, $externalId: String) {
  treasuryEndUsers(first: $first, after: $after, status: $status, externalId: $externalId) { edges { cursor node { id externalId status } } pageInfo { hasNextPage endCursor } } }`;
const START_KYC = `mutation($endUserId: ID!, $level: TreasuryKycLevel) { startTreasuryKyc(input: { endUserId: $endUserId, level: $level }) {
  kycStart { created kyc { ${KYC_FIELDS} } } ${USER_ERRORS} } }`;
const KYC = `query($endUserId: ID!) { treasuryKycCheck(endUserId: $endUserId) { ${KYC_FIELDS} endUser { id status } } }`;
const KYC_CHECKS = `query($endUserId: ID!, $first: Int, $after: String) { treasuryKycChecks(endUserId: $endUserId, first: $first, after: $after) {
  edges { node { id status rejectionReasons } } pageInfo { hasNextPage endCursor } } }`;
const APPROVE = `mutation($endUserId: ID!) { approveSandboxTreasuryKyc(input: { endUserId: $endUserId }) { treasuryKycCheck { ${KYC_FIELDS} } ${USER_ERRORS} } }`;
const REJECT = `mutation($endUserId: ID!, $reasons: [String!]!) { rejectSandboxTreasuryKyc(input: { endUserId: $endUserId, reasons: $reasons }) {
  treasuryKycCheck { ${KYC_FIELDS} } ${USER_ERRORS} } }`;
const CREATE_WALLET = `mutation($endUserId: ID!, $currency: String!) { createTreasuryWallet(input: { endUserId: $endUserId, currency: $currency }) {
  treasuryWallet { ${WALLET_FIELDS} } ${USER_ERRORS} } }`;
const WALLET = `query($endUserId: ID!, $walletId: ID!) { treasuryWallet(endUserId: $endUserId, walletId: $walletId) { ${WALLET_FIELDS} endUser { id } } }`;
const WALLETS = `query($endUserId: ID!, $first: Int, $after: String) { treasuryWallets(endUserId: $endUserId, first: $first, after: $after) {
  edges { node { id currency balance { amount } } } pageInfo { hasNextPage endCursor } } }`;
const DEPOSIT = `mutation($endUserId: ID!, $walletId: ID!, $amount: String!) {
  depositSandboxTreasuryWallet(input: { endUserId: $endUserId, walletId: $walletId, amount: $amount }) {
    treasuryDeposit { id walletId partnerEndUserId amount { amount amountMinor currency } balance { amount amountMinor currency } createdAt } ${USER_ERRORS} } }`;
const CREATE_PAYOUT = `mutation($input: CreateTreasuryPayoutInput!) { createTreasuryPayout(input: $input) { treasuryPayout { ${PAYOUT_FIELDS} } ${USER_ERRORS} } }`;
const PAYOUT = `query($id: ID!) { treasuryPayout(id: $id) { ${PAYOUT_FIELDS} endUser { id } wallet { id balance { amountMinor } } } }`;
const PAYOUTS = `query($first: Int, $after: String, $status: TreasuryPayoutStatus, $partnerEndUserId: ID, $partnerWalletId: ID) {
  treasuryPayouts(first: $first, after: $after, status: $status, partnerEndUserId: $partnerEndUserId, partnerWalletId: $partnerWalletId) {
    edges { node { id status amount { amount } } } pageInfo { hasNextPage endCursor } } }`;
const CANCEL = `mutation($id: ID!) { cancelTreasuryPayout(input: { id: $id }) { treasuryPayout { id status } ${USER_ERRORS} } }`;
const PAYOUT_UPDATED =
  'subscription { treasuryPayoutUpdated { treasuryPayout { id status livemode } previousStatus changedFields } }';
const KYC_UPDATED =
  'subscription { treasuryKycUpdated { treasuryKycCheck { id partnerEndUserId status livemode } previousStatus changedFields } }';

/** A REST payout body as the GraphQL input (the destination type as its enum name). */
const payoutInput = (body: Record<string, unknown>) => ({
  ...body,
  destinationType: String(body.destinationType).toUpperCase(),
});

describe('Treasury over GraphQL', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startDeliveringServer({ payoutSandboxSettleMs: 100 });
  });
  afterAll(async () => server.close());

  const asDashboard = (merchant: TestMerchant) => ({ authorization: `Bearer ${merchant.token}` });
  const liveKeys = new Map<string, Promise<string>>();
  /** The partner's live API key (issued once per business). */
  const liveKeyOf = (partner: TestMerchant) => {
    if (!liveKeys.has(partner.businessId)) liveKeys.set(partner.businessId, server.liveKeyOf(partner));
    return liveKeys.get(partner.businessId)!;
  };

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

  /** The only error of an operation that must fail. */
  async function refused(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    const response = await server.graphql(query, variables, headers);
    expect(response.body.errors).toHaveLength(1);
    return response.body.errors![0];
  }

  /** Runs a mutation and answers the object of its payload, failing the test on any error or userError. */
  async function made<T = any>(
    query: string,
    variables: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<T> {
    const [payload]: Array<Record<string, unknown>> = Object.values(await ok(query, variables, headers));
    expect(payload.userErrors).toEqual([]);
    const [object] = Object.entries(payload)
      .filter(([key]) => key !== 'userErrors')
      .map(([, value]) => value);
    return object as T;
  }

  /** The userErrors of a mutation the caller can fix: no GraphQL error, and no object in the payload. */
  async function userErrorsOf(
    query: string,
    variables: Record<string, unknown>,
    headers: Record<string, string>,
  ): Promise<any[]> {
    const [payload]: Array<Record<string, unknown>> = Object.values(await ok(query, variables, headers));
    const objects = Object.entries(payload)
      .filter(([key]) => key !== 'userErrors')
      .map(([, value]) => value);
    expect(objects).toEqual([null]);
    expect((payload.userErrors as unknown[]).length).toBeGreaterThan(0);
    return payload.userErrors as any[];
  }

  /** NOT_FOUND as the operation answers it: a query's GraphQL error, a mutation's one userError. */
  async function expectNotFound(query: string, variables: Record<string, unknown>, headers: Record<string, string>) {
    if (query.startsWith('mutation'))
      expect(await userErrorsOf(query, variables, headers)).toEqual([
        { field: null, message: expect.any(String), code: 'NOT_FOUND' },
      ]);
    else expect((await refused(query, variables, headers)).extensions.code).toBe('NOT_FOUND');
  }

  const restGet = async (partner: TestMerchant, path: string) =>
    (await server.request('GET', path, { headers: apiKey(partner) })).body.data;

  describe('end-users and KYC', () => {
    test('createTreasuryEndUser answers the end-user REST reads, PENDING_KYC, with no KYC record and no wallets yet', async () => {
      const partner = await treasuryPartner(server);
      const input = {
        externalId: 'gql-0001',
        email: 'Amara@Example.com',
        name: 'Amara Obi',
        phone: '+2348012345678',
        metadata: { tier: 'gold' },
      };
      const user = await made(CREATE_END_USER, { input }, asDashboard(partner));
      const rest = await restGet(partner, `${USERS}/${user.id}`);
      expect(user).toEqual({
        id: rest.id,
        partnerId: partner.businessId,
        externalId: 'gql-0001',
        email: 'amara@example.com',
        status: 'PENDING_KYC',
        name: 'Amara Obi',
        phone: '+2348012345678',
        metadata: { tier: 'gold' },
        livemode: false,
        createdAt: rest.createdAt,
        updatedAt: rest.updatedAt,
      });
      expect(rest.status).toBe('pending_kyc');
      expect((await ok(END_USER, { id: user.id }, apiKey(partner))).treasuryEndUser).toEqual({
        ...user,
        kyc: null,
        wallets: [],
      });
      const again = await userErrorsOf(
        CREATE_END_USER,
        { input: { externalId: 'gql-0001', email: 'x@example.com' } },
        apiKey(partner),
      );
      expect(again).toEqual([{ field: ['input', 'externalId'], message: expect.any(String), code: 'CONFLICT' }]);
      expect(await countOf(server, 'treasury_end_users', partner.businessId)).toBe(1);
    });

    test('treasuryEndUsers is a cursor connection, newest first, filtered by status and externalId; a cursor is bound to its filters', async () => {
      const partner = await treasuryPartner(server);
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1)
        ids.push((await createEndUser(server, partner, { externalId: `page-${index}` })).id);
      await activeEndUser(server, partner, { externalId: 'page-active' });
      const first = (await ok(END_USERS, { first: 2, status: 'PENDING_KYC' }, apiKey(partner))).treasuryEndUsers;
      expect(first.edges.map((edge: any) => edge.node.id)).toEqual([ids[2], ids[1]]);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const rest = (
        await ok(END_USERS, { first: 2, after: first.pageInfo.endCursor, status: 'PENDING_KYC' }, apiKey(partner))
      ).treasuryEndUsers;
      expect(rest.edges.map((edge: any) => edge.node.id)).toEqual([ids[0]]);
      expect(rest.pageInfo.hasNextPage).toBe(false);
      const active = (await ok(END_USERS, { status: 'ACTIVE' }, apiKey(partner))).treasuryEndUsers;
      expect(active.edges.map((edge: any) => edge.node)).toEqual([
        { id: expect.any(String), externalId: 'page-active', status: 'ACTIVE' },
      ]);
      const byExternalId = (await ok(END_USERS, { externalId: 'page-1' }, apiKey(partner))).treasuryEndUsers;
      expect(byExternalId.edges.map((edge: any) => edge.node.id)).toEqual([ids[1]]);
      const crossed = await refused(END_USERS, { first: 2, after: first.pageInfo.endCursor }, apiKey(partner));
      expect(crossed.extensions).toMatchObject({
        domainCode: 'VALIDATION_ERROR',
        errors: { after: [expect.any(String)] },
      });
    });

    test('startTreasuryKyc starts a PENDING check (created true) with a kycLinkUrl, then answers that same check (created false); it reads as REST reads it', async () => {
      const partner = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      const started = await made(START_KYC, { endUserId: user.id, level: 'FULL' }, apiKey(partner));
      expect(started).toEqual({
        created: true,
        kyc: {
          id: expect.any(String),
          partnerEndUserId: user.id,
          status: 'PENDING',
          level: 'FULL',
          rejectionReasons: [],
          decidedAt: null,
          livemode: false,
          kycLinkUrl: expect.stringMatching(/\/kyc\/kyc_test_[A-Za-z0-9_-]{32}$/),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      const again = await made(START_KYC, { endUserId: user.id }, apiKey(partner));
      expect(again).toEqual({ created: false, kyc: started.kyc });
      const read = (await ok(KYC, { endUserId: user.id }, apiKey(partner))).treasuryKycCheck;
      expect(read).toEqual({ ...started.kyc, endUser: { id: user.id, status: 'PENDING_KYC' } });
      const rest = await restGet(partner, `${USERS}/${user.id}/kyc`);
      expect(rest).toMatchObject({
        id: read.id,
        status: 'PENDING',
        level: 'full',
        kycLinkUrl: read.kycLinkUrl,
        updatedAt: read.updatedAt,
      });
      const none = await createEndUser(server, partner);
      expect((await refused(KYC, { endUserId: none.id }, apiKey(partner))).extensions.code).toBe('NOT_FOUND');
    });

    test('sandbox approve makes the end-user ACTIVE; sandbox reject records the reasons and makes it REJECTED; a decided check is CONFLICT; the checks read newest first', async () => {
      const partner = await treasuryPartner(server);
      const approvedUser = await createEndUser(server, partner);
      await made(START_KYC, { endUserId: approvedUser.id }, apiKey(partner));
      const approved = await made(APPROVE, { endUserId: approvedUser.id }, asDashboard(partner));
      expect(approved).toMatchObject({
        status: 'APPROVED',
        level: 'BASIC',
        rejectionReasons: [],
        decidedAt: expect.any(String),
      });
      expect((await ok(END_USER, { id: approvedUser.id }, apiKey(partner))).treasuryEndUser).toMatchObject({
        status: 'ACTIVE',
        kyc: { id: approved.id, status: 'APPROVED' },
      });
      expect(await userErrorsOf(APPROVE, { endUserId: approvedUser.id }, apiKey(partner))).toEqual([
        { field: null, message: expect.any(String), code: 'CONFLICT' },
      ]);
      expect(await userErrorsOf(START_KYC, { endUserId: approvedUser.id }, apiKey(partner))).toEqual([
        { field: null, message: expect.any(String), code: 'CONFLICT' },
      ]);

      const rejectedUser = await createEndUser(server, partner);
      await made(START_KYC, { endUserId: rejectedUser.id }, apiKey(partner));
      const rejected = await made(
        REJECT,
        { endUserId: rejectedUser.id, reasons: ['document_expired', 'selfie_mismatch'] },
        apiKey(partner),
      );
      expect(rejected).toMatchObject({ status: 'REJECTED', rejectionReasons: ['document_expired', 'selfie_mismatch'] });
      expect((await restGet(partner, `${USERS}/${rejectedUser.id}`)).status).toBe('rejected');
      expect(await userErrorsOf(REJECT, { endUserId: rejectedUser.id, reasons: ['again'] }, apiKey(partner))).toEqual([
        { field: null, message: expect.any(String), code: 'CONFLICT' },
      ]);

      const restarted = await made(START_KYC, { endUserId: rejectedUser.id }, apiKey(partner));
      expect(restarted.created).toBe(true);
      const page = (await ok(KYC_CHECKS, { endUserId: rejectedUser.id, first: 1 }, apiKey(partner))).treasuryKycChecks;
      expect(page.edges.map((edge: any) => edge.node)).toEqual([
        { id: restarted.kyc.id, status: 'PENDING', rejectionReasons: [] },
      ]);
      expect(page.pageInfo.hasNextPage).toBe(true);
      const older = (
        await ok(KYC_CHECKS, { endUserId: rejectedUser.id, first: 1, after: page.pageInfo.endCursor }, apiKey(partner))
      ).treasuryKycChecks;
      expect(older.edges.map((edge: any) => edge.node.id)).toEqual([rejected.id]);
      expect(older.pageInfo.hasNextPage).toBe(false);
    });
  });

  describe('wallets and deposits', () => {
    test('createTreasuryWallet before KYC approval is KYC_REQUIRED and writes nothing; after, the wallet reads as REST reads it, its deposit instructions included', async () => {
      const partner = await treasuryPartner(server);
      const pending = await createEndUser(server, partner);
      const early = await userErrorsOf(CREATE_WALLET, { endUserId: pending.id, currency: 'usd' }, apiKey(partner));
      expect(early).toEqual([
        {
          field: null,
          message: "The end-user's KYC must be APPROVED before a wallet can be opened",
          code: 'KYC_REQUIRED',
        },
      ]);
      expect(await countOf(server, 'treasury_wallets', partner.businessId)).toBe(0);

      const user = await activeEndUser(server, partner);
      const usd = await made(CREATE_WALLET, { endUserId: user.id, currency: 'usd' }, asDashboard(partner));
      expect(usd).toMatchObject({
        partnerEndUserId: user.id,
        currency: 'USD',
        balance: { amount: '0.00', amountMinor: '0', currency: 'USD' },
        status: 'ACTIVE',
        livemode: false,
      });
      const restWallet = await restGet(partner, `${USERS}/${user.id}/wallets/${usd.id}`);
      expect(restWallet).toMatchObject({ id: usd.id, currency: 'usd', balance: '0.00', createdAt: usd.createdAt });
      const restInstructions = await restGet(partner, `${USERS}/${user.id}/wallets/${usd.id}/deposit_instructions`);
      expect(usd.depositInstructions).toEqual({ ...restInstructions, currency: 'USD' }); // GraphQL upper case, REST lower case
      expect(usd.depositInstructions).toMatchObject({
        routingNumber: '110000000',
        accountType: 'checking',
        cryptoDepositAddress: null,
      });

      const usdc = await made(CREATE_WALLET, { endUserId: user.id, currency: 'USDC' }, apiKey(partner));
      expect(usdc.depositInstructions).toMatchObject({
        accountNumber: null,
        routingNumber: null,
        cryptoDepositChain: 'ethereum',
        cryptoDepositAddress: expect.stringMatching(/^0x[0-9a-f]{40}$/),
      });
      expect(usdc.depositInstructions.walletAddress).toBe(usdc.depositInstructions.cryptoDepositAddress);
      const twice = await userErrorsOf(CREATE_WALLET, { endUserId: user.id, currency: 'USD' }, apiKey(partner));
      expect(twice.map((error) => error.code)).toEqual(['CONFLICT']);
      expect((await ok(END_USER, { id: user.id }, apiKey(partner))).treasuryEndUser.wallets).toEqual([
        { id: usd.id, currency: 'USD' },
        { id: usdc.id, currency: 'USDC' },
      ]);
      const page = (await ok(WALLETS, { endUserId: user.id, first: 1 }, apiKey(partner))).treasuryWallets;
      expect(page.edges.map((edge: any) => edge.node.id)).toEqual([usdc.id]);
      const rest = (
        await ok(WALLETS, { endUserId: user.id, first: 1, after: page.pageInfo.endCursor }, apiKey(partner))
      ).treasuryWallets;
      expect(rest.edges.map((edge: any) => edge.node.id)).toEqual([usd.id]);
      expect(rest.pageInfo.hasNextPage).toBe(false);
    });

    test('depositSandboxTreasuryWallet credits the wallet through the ledger; the wallet reads its new balance', async () => {
      const partner = await treasuryPartner(server);
      const user = await activeEndUser(server, partner);
      const wallet = await createWallet(server, partner, user.id, 'usd');
      const first = await made(DEPOSIT, { endUserId: user.id, walletId: wallet.id, amount: '100.50' }, apiKey(partner));
      expect(first).toMatchObject({
        walletId: wallet.id,
        partnerEndUserId: user.id,
        amount: { amount: '100.50', amountMinor: '10050', currency: 'USD' },
        balance: { amount: '100.50', amountMinor: '10050', currency: 'USD' },
      });
      const second = await made(DEPOSIT, { endUserId: user.id, walletId: wallet.id, amount: '0.5' }, apiKey(partner));
      expect(second.balance).toEqual({ amount: '101.00', amountMinor: '10100', currency: 'USD' });
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(10_100n);
      const read = (await ok(WALLET, { endUserId: user.id, walletId: wallet.id }, apiKey(partner))).treasuryWallet;
      expect(read).toMatchObject({ id: wallet.id, balance: { amount: '101.00' }, endUser: { id: user.id } });
      const tooPrecise = await userErrorsOf(
        DEPOSIT,
        { endUserId: user.id, walletId: wallet.id, amount: '1.001' },
        apiKey(partner),
      );
      expect(tooPrecise).toEqual([
        { field: ['input', 'amount'], message: expect.any(String), code: 'VALIDATION_ERROR' },
      ]);
      const otherUser = await activeEndUser(server, partner);
      expect(
        (await refused(WALLET, { endUserId: otherUser.id, walletId: wallet.id }, apiKey(partner))).extensions.code,
      ).toBe('NOT_FOUND');
      await expectNotFound(DEPOSIT, { endUserId: otherUser.id, walletId: wallet.id, amount: '1.00' }, apiKey(partner));
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(10_100n);
    });
  });

  describe('treasury payouts', () => {
    test('createTreasuryPayout answers PENDING with Money and the masked destination, debits the wallet at once, and reads as REST reads it', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '100.00');
      const input = payoutInput(
        payoutBody(user.id, wallet.id, {
          amount: '25.5',
          idempotencyKey: 'order-7781',
          metadata: { orderId: '7781', test_outcome: 'pending' },
        }),
      );
      const payout = await made(CREATE_PAYOUT, { input }, asDashboard(partner));
      expect(payout).toEqual({
        id: expect.any(String),
        partnerId: partner.businessId,
        partnerEndUserId: user.id,
        partnerWalletId: wallet.id,
        amount: { amount: '25.50', amountMinor: '2550', currency: 'USD' },
        destinationType: 'BANK_ACCOUNT',
        destinationDetails: {
          accountNumber: '****6789',
          routingNumber: '021000021',
          accountName: 'Amara Obi',
          country: 'US',
        },
        status: 'PENDING',
        failureReason: null,
        metadata: { orderId: '7781', test_outcome: 'pending', idempotencyKey: 'order-7781' },
        completedAt: null,
        livemode: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(7_450n);
      const rest = await restGet(partner, `${TREASURY_PAYOUTS}/${payout.id}`);
      expect(rest).toMatchObject({
        id: payout.id,
        amount: '25.50',
        currency: 'usd',
        destinationType: 'bank_account',
        status: 'PENDING',
        createdAt: payout.createdAt,
      });
      const read = (await ok(PAYOUT, { id: payout.id }, apiKey(partner))).treasuryPayout;
      expect(read).toMatchObject({
        id: payout.id,
        endUser: { id: user.id },
        wallet: { id: wallet.id, balance: { amountMinor: '7450' } },
      });
    });

    test('cancelTreasuryPayout: a PENDING payout is CANCELLED with the debit reversed once; cancelling again is CONFLICT', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '50.00');
      const input = payoutInput(
        payoutBody(user.id, wallet.id, { amount: '20.00', metadata: { test_outcome: 'pending' } }),
      );
      const payout = await made(CREATE_PAYOUT, { input }, apiKey(partner));
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(3_000n);
      expect(await made(CANCEL, { id: payout.id }, apiKey(partner))).toEqual({ id: payout.id, status: 'CANCELLED' });
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(5_000n);
      expect(await userErrorsOf(CANCEL, { id: payout.id }, apiKey(partner))).toEqual([
        { field: null, message: expect.any(String), code: 'CONFLICT' },
      ]);
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(5_000n);
      expect((await LedgerService.check(server.runtime.dataSource)).balanced).toBe(true);
    });

    test('the sandbox rail completes a payout (test_outcome success) and fails one (failed) with its reason and the debit reversed', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '50.00');
      const completed = await made(
        CREATE_PAYOUT,
        { input: payoutInput(payoutBody(user.id, wallet.id, { amount: '10.00' })) },
        apiKey(partner),
      );
      const failed = await made(
        CREATE_PAYOUT,
        {
          input: payoutInput(payoutBody(user.id, wallet.id, { amount: '5.00', metadata: { test_outcome: 'failed' } })),
        },
        apiKey(partner),
      );
      const statusOf = async (id: string) => (await ok(PAYOUT, { id }, apiKey(partner))).treasuryPayout;
      expect(
        await waitFor(
          () => statusOf(completed.id),
          (payout) => payout.status === 'COMPLETED',
        ),
      ).toMatchObject({ status: 'COMPLETED', completedAt: expect.any(String) });
      expect(
        await waitFor(
          () => statusOf(failed.id),
          (payout) => payout.status === 'FAILED',
        ),
      ).toMatchObject({ status: 'FAILED', failureReason: 'sandbox_test_outcome_failed' });
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(4_000n);
      const failedOnly = (await ok(PAYOUTS, { status: 'FAILED' }, apiKey(partner))).treasuryPayouts;
      expect(failedOnly.edges.map((edge: any) => edge.node.id)).toEqual([failed.id]);
    });

    test('the same Idempotency-Key on createTreasuryPayout answers the first payout again and debits the wallet once', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '50.00');
      const input = payoutInput(
        payoutBody(user.id, wallet.id, { amount: '20.00', metadata: { test_outcome: 'pending' } }),
      );
      const headers = { ...apiKey(partner), 'idempotency-key': 'gql-treasury-payout-1' };
      const first = await made(CREATE_PAYOUT, { input }, headers);
      const again = await server.graphql(CREATE_PAYOUT, { input }, headers);
      expect(again.body.data.createTreasuryPayout).toEqual({ treasuryPayout: first, userErrors: [] });
      expect(await countOf(server, 'treasury_payouts', partner.businessId)).toBe(1);
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(3_000n);
    });

    test('too little balance is INSUFFICIENT_FUNDS and writes nothing; treasuryPayouts pages newest first and filters by end-user and wallet', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '30.00');
      const poor = await userErrorsOf(
        CREATE_PAYOUT,
        { input: payoutInput(payoutBody(user.id, wallet.id, { amount: '30.01' })) },
        apiKey(partner),
      );
      expect(poor).toEqual([
        { field: null, message: 'Insufficient funds in the USD wallet', code: 'INSUFFICIENT_FUNDS' },
      ]);
      expect(await countOf(server, 'treasury_payouts', partner.businessId)).toBe(0);
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(3_000n);

      const ids: string[] = [];
      for (const amount of ['1.00', '2.00', '3.00']) {
        ids.push(
          (
            await made(
              CREATE_PAYOUT,
              { input: payoutInput(payoutBody(user.id, wallet.id, { amount, metadata: { test_outcome: 'pending' } })) },
              apiKey(partner),
            )
          ).id,
        );
      }
      const other = await activeEndUser(server, partner);
      const otherWallet = await createWallet(server, partner, other.id, 'usd');
      await deposit(server, partner, other.id, otherWallet.id, '5.00');
      const ofOther = await made(
        CREATE_PAYOUT,
        {
          input: payoutInput(
            payoutBody(other.id, otherWallet.id, { amount: '5.00', metadata: { test_outcome: 'pending' } }),
          ),
        },
        apiKey(partner),
      );

      const first = (await ok(PAYOUTS, { first: 2, partnerEndUserId: user.id }, apiKey(partner))).treasuryPayouts;
      expect(first.edges.map((edge: any) => edge.node.id)).toEqual([ids[2], ids[1]]);
      expect(first.pageInfo.hasNextPage).toBe(true);
      const rest = (
        await ok(PAYOUTS, { first: 2, after: first.pageInfo.endCursor, partnerEndUserId: user.id }, apiKey(partner))
      ).treasuryPayouts;
      expect(rest.edges.map((edge: any) => edge.node)).toEqual([
        { id: ids[0], status: 'PENDING', amount: { amount: '1.00' } },
      ]);
      const byWallet = (await ok(PAYOUTS, { partnerWalletId: otherWallet.id }, apiKey(partner))).treasuryPayouts;
      expect(byWallet.edges.map((edge: any) => edge.node.id)).toEqual([ofOther.id]);
      expect((await ok(PAYOUTS, {}, apiKey(partner))).treasuryPayouts.edges).toHaveLength(4);
    });
  });

  describe('bad input', () => {
    /** The REST answer and the userErrors of the same bad request: one userError per REST field message, on the same field under input. */
    async function expectSameRefusal(
      rest: { status: number; body: any },
      query: string,
      variables: Record<string, unknown>,
      partner: TestMerchant,
    ) {
      const userErrors = await userErrorsOf(query, variables, apiKey(partner));
      expect(rest.status).toBe(400);
      expect(rest.body.error.code).toBe('VALIDATION_ERROR');
      const errors = rest.body.error.errors as Record<string, string[]>;
      expect(userErrors).toEqual(
        Object.entries(errors).flatMap(([field, messages]) =>
          messages.map((message) => ({ field: ['input', ...field.split('.')], message, code: 'VALIDATION_ERROR' })),
        ),
      );
      return errors;
    }

    test('bad treasury payouts are refused with the same field messages as REST, and nothing is written', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '100.00');
      const cases: Array<[Record<string, unknown>, string[]]> = [
        [payoutBody('short', 'tiny', { amount: '1.2.3' }), ['partnerEndUserId', 'partnerWalletId', 'amount']],
        [payoutBody(user.id, wallet.id, { amount: '-5' }), ['amount']],
        [
          payoutBody(user.id, wallet.id, {
            destination: { accountNumber: '!!', accountName: 'Amara Obi', country: 'USA' },
          }),
          ['destination.accountNumber', 'destination.country', 'destination.routingNumber'],
        ],
        [
          payoutBody(user.id, wallet.id, {
            destinationType: 'mobile_money',
            destination: { networkId: 'mtn-gh', country: 'GH' },
          }),
          ['destination.phone'],
        ],
        [
          payoutBody(user.id, wallet.id, { destinationType: 'crypto', destination: { address: '0xabc' } }),
          ['destination.chain'],
        ],
        [payoutBody(user.id, wallet.id, { metadata: { test_outcome: 'maybe' } }), ['metadata.test_outcome']],
      ];
      for (const [body, fields] of cases) {
        const rest = await server.request('POST', TREASURY_PAYOUTS, { headers: apiKey(partner), body });
        const errors = await expectSameRefusal(rest, CREATE_PAYOUT, { input: payoutInput(body) }, partner);
        expect(Object.keys(errors).sort()).toEqual([...fields].sort());
      }
      expect(await countOf(server, 'treasury_payouts', partner.businessId)).toBe(0);
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(10_000n);
    });

    test('a treasuryPayouts filter that is no id is refused as REST refuses it, naming partnerEndUserId / partnerWalletId', async () => {
      const { partner } = await fundedWallet(server, '1.00');
      for (const field of ['partnerEndUserId', 'partnerWalletId']) {
        const rest = await server.request('GET', `${TREASURY_PAYOUTS}?${field}=nope`, { headers: apiKey(partner) });
        const error = await refused(PAYOUTS, { [field]: 'nope' }, apiKey(partner));
        expect(rest.status).toBe(400);
        expect(error.extensions).toMatchObject({
          code: 'BAD_USER_INPUT',
          domainCode: 'VALIDATION_ERROR',
          statusCode: 400,
        });
        expect(error.message).toBe(rest.body.error.message);
        expect(error.extensions.errors).toEqual(rest.body.error.errors);
        expect(Object.keys(error.extensions.errors)).toEqual([field]);
      }
    });

    test('bad end-users, KYC rejections, wallets and deposits are refused with the same field messages as REST, and nothing is written', async () => {
      const partner = await treasuryPartner(server);
      const user = await activeEndUser(server, partner);
      const wallet = await createWallet(server, partner, user.id, 'usd');
      const pending = await createEndUser(server, partner);
      await server.request('POST', `${USERS}/${pending.id}/kyc`, { headers: apiKey(partner), body: {} });
      const before = await countOf(server, 'treasury_end_users', partner.businessId);

      const badUser = { externalId: ' ', email: 'not-an-email' };
      await expectSameRefusal(
        await server.request('POST', USERS, { headers: apiKey(partner), body: badUser }),
        CREATE_END_USER,
        { input: badUser },
        partner,
      );
      for (const reasons of [[], ['']]) {
        const rest = await server.request('POST', `${USERS}/${pending.id}/kyc/sandbox-reject`, {
          headers: apiKey(partner),
          body: { reasons },
        });
        await expectSameRefusal(rest, REJECT, { endUserId: pending.id, reasons }, partner);
      }
      const restWallet = await server.request('POST', `${USERS}/${user.id}/wallets`, {
        headers: apiKey(partner),
        body: { currency: 'dollars' },
      });
      await expectSameRefusal(restWallet, CREATE_WALLET, { endUserId: user.id, currency: 'dollars' }, partner);
      for (const amount of ['1.2.3', '-5', '']) {
        const rest = await server.request('POST', `${TREASURY}/sandbox/users/${user.id}/wallets/${wallet.id}/deposit`, {
          headers: apiKey(partner),
          body: { amount },
        });
        await expectSameRefusal(rest, DEPOSIT, { endUserId: user.id, walletId: wallet.id, amount }, partner);
      }
      expect(await countOf(server, 'treasury_end_users', partner.businessId)).toBe(before);
      expect((await restGet(partner, `${USERS}/${pending.id}/kyc`)).status).toBe('PENDING');
      expect(await countOf(server, 'treasury_wallets', partner.businessId)).toBe(1);
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(0n);
    });
  });

  describe('partners, tenancy and modes', () => {
    test('a business without the treasury product gets FORBIDDEN on every treasury query and mutation, even with bad input', async () => {
      const merchant = await server.signUp();
      const { partner, user, wallet } = await fundedWallet(server, '10.00');
      const payout = await made(
        CREATE_PAYOUT,
        {
          input: payoutInput(payoutBody(user.id, wallet.id, { amount: '1.00', metadata: { test_outcome: 'pending' } })),
        },
        apiKey(partner),
      );
      const operations: Array<[string, Record<string, unknown>]> = [
        [END_USERS, {}],
        [END_USER, { id: user.id }],
        [KYC, { endUserId: user.id }],
        [KYC_CHECKS, { endUserId: user.id }],
        [WALLETS, { endUserId: user.id }],
        [WALLET, { endUserId: user.id, walletId: wallet.id }],
        [PAYOUTS, {}],
        [PAYOUT, { id: payout.id }],
        [CREATE_END_USER, { input: { externalId: ' ', email: 'bad' } }],
        [START_KYC, { endUserId: user.id }],
        [APPROVE, { endUserId: user.id }],
        [REJECT, { endUserId: user.id, reasons: [] }],
        [CREATE_WALLET, { endUserId: user.id, currency: '??' }],
        [DEPOSIT, { endUserId: user.id, walletId: wallet.id, amount: 'x' }],
        [CREATE_PAYOUT, { input: payoutInput(payoutBody('short', 'short', { amount: '-1' })) }],
        [CANCEL, { id: payout.id }],
      ];
      for (const [query, variables] of operations) {
        for (const headers of [apiKey(merchant), asDashboard(merchant)]) {
          expect((await refused(query, variables, headers)).extensions).toMatchObject({
            code: 'FORBIDDEN',
            statusCode: 403,
          });
        }
      }
      expect(await countOf(server, 'treasury_end_users', merchant.businessId)).toBe(0);
      expect((await restGet(partner, `${TREASURY_PAYOUTS}/${payout.id}`)).status).toBe('PENDING');
    });

    test('a VIEWER of a partner reads treasury but every treasury mutation is FORBIDDEN', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '10.00');
      const viewer = await server.signUp();
      await server.addTeamMember(partner, viewer, 'VIEWER');
      const asViewer = { ...asDashboard(viewer), 'x-service-business-id': partner.businessId };
      expect((await ok(END_USERS, {}, asViewer)).treasuryEndUsers.edges.map((edge: any) => edge.node.id)).toEqual([
        user.id,
      ]);
      expect(
        (await ok(WALLET, { endUserId: user.id, walletId: wallet.id }, asViewer)).treasuryWallet.balance.amount,
      ).toBe('10.00');
      for (const [query, variables] of [
        [CREATE_END_USER, { input: { externalId: 'v-1', email: 'v@example.com' } }],
        [CREATE_WALLET, { endUserId: user.id, currency: 'EUR' }],
        [DEPOSIT, { endUserId: user.id, walletId: wallet.id, amount: '1.00' }],
        [CREATE_PAYOUT, { input: payoutInput(payoutBody(user.id, wallet.id, { amount: '1.00' })) }],
      ] as const) {
        expect((await refused(query, variables, asViewer)).extensions.code).toBe('FORBIDDEN');
      }
      expect(await countOf(server, 'treasury_payouts', partner.businessId)).toBe(0);
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(1_000n);
    });

    test("another partner's ids are NOT_FOUND on every read and write, and nothing of it changes", async () => {
      const { partner, user, wallet } = await fundedWallet(server, '10.00');
      const other = await treasuryPartner(server);
      await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: apiKey(partner), body: {} });
      const payout = await made(
        CREATE_PAYOUT,
        {
          input: payoutInput(payoutBody(user.id, wallet.id, { amount: '1.00', metadata: { test_outcome: 'pending' } })),
        },
        apiKey(partner),
      );
      const operations: Array<[string, Record<string, unknown>]> = [
        [END_USER, { id: user.id }],
        [KYC, { endUserId: user.id }],
        [KYC_CHECKS, { endUserId: user.id }],
        [WALLETS, { endUserId: user.id }],
        [WALLET, { endUserId: user.id, walletId: wallet.id }],
        [PAYOUT, { id: payout.id }],
        [START_KYC, { endUserId: user.id }],
        [APPROVE, { endUserId: user.id }],
        [REJECT, { endUserId: user.id, reasons: ['x'] }],
        [CREATE_WALLET, { endUserId: user.id, currency: 'EUR' }],
        [DEPOSIT, { endUserId: user.id, walletId: wallet.id, amount: '1.00' }],
        [CREATE_PAYOUT, { input: payoutInput(payoutBody(user.id, wallet.id, { amount: '1.00' })) }],
        [CANCEL, { id: payout.id }],
      ];
      for (const [query, variables] of operations) await expectNotFound(query, variables, apiKey(other));
      expect((await ok(END_USERS, {}, apiKey(other))).treasuryEndUsers.edges).toEqual([]);
      expect((await ok(PAYOUTS, {}, apiKey(other))).treasuryPayouts.edges).toEqual([]);
      expect((await restGet(partner, `${TREASURY_PAYOUTS}/${payout.id}`)).status).toBe('PENDING');
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(900n);
      expect(await countOf(server, 'treasury_payouts', other.businessId)).toBe(0);
    });

    test('live credentials see no test rows and test credentials no live ones; sandbox mutations with live credentials are SANDBOX_ONLY before the input is read', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '10.00');
      const live = { 'x-api-key': await liveKeyOf(partner) };
      const payout = await made(
        CREATE_PAYOUT,
        {
          input: payoutInput(payoutBody(user.id, wallet.id, { amount: '1.00', metadata: { test_outcome: 'pending' } })),
        },
        apiKey(partner),
      );
      const liveUser = await made(
        CREATE_END_USER,
        { input: { externalId: 'live-1', email: 'live@example.com' } },
        live,
      );
      expect(liveUser.livemode).toBe(true);

      for (const [query, variables] of [
        [END_USER, { id: user.id }],
        [WALLET, { endUserId: user.id, walletId: wallet.id }],
        [PAYOUT, { id: payout.id }],
        [CANCEL, { id: payout.id }],
      ] as const) {
        await expectNotFound(query, variables, live);
      }
      expect((await ok(END_USERS, {}, live)).treasuryEndUsers.edges.map((edge: any) => edge.node.id)).toEqual([
        liveUser.id,
      ]);
      expect((await ok(PAYOUTS, {}, live)).treasuryPayouts.edges).toEqual([]);
      expect((await refused(END_USER, { id: liveUser.id }, apiKey(partner))).extensions.code).toBe('NOT_FOUND');
      expect(
        (await ok(END_USERS, {}, apiKey(partner))).treasuryEndUsers.edges.map((edge: any) => edge.node.id),
      ).toEqual([user.id]);

      for (const [query, variables] of [
        [APPROVE, { endUserId: liveUser.id }],
        [REJECT, { endUserId: liveUser.id, reasons: [] }],
        [DEPOSIT, { endUserId: liveUser.id, walletId: wallet.id, amount: '-1' }],
      ] as const) {
        expect((await refused(query, variables, live)).extensions).toMatchObject({
          code: 'SANDBOX_ONLY',
          statusCode: 403,
        });
      }
      const liveKyc = await userErrorsOf(START_KYC, { endUserId: liveUser.id }, live);
      expect(liveKyc.map((error) => [error.field, error.code])).toEqual([[null, 'UNPROCESSABLE']]);
      expect(await ledgerBalanceOf(server, wallet.id)).toBe(900n);
    });
  });

  describe('object identification', () => {
    const NODE = `query($id: ID!) { node(id: $id) { __typename id
      ... on TreasuryEndUser { externalId } ... on TreasuryKycCheck { kycStatus: status } ... on TreasuryWallet { currency } ... on TreasuryPayout { status } } }`;

    test('node(id:) answers an end-user, a KYC check, a wallet and a payout to their partner in their mode; null for another partner and for the other mode', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '10.00');
      const check = (await ok(KYC, { endUserId: user.id }, apiKey(partner))).treasuryKycCheck;
      const payout = await made(
        CREATE_PAYOUT,
        {
          input: payoutInput(payoutBody(user.id, wallet.id, { amount: '1.00', metadata: { test_outcome: 'pending' } })),
        },
        apiKey(partner),
      );
      const other = await treasuryPartner(server);
      const live = { 'x-api-key': await liveKeyOf(partner) };
      const expected: Array<[string, Record<string, unknown>]> = [
        [user.id, { __typename: 'TreasuryEndUser', id: user.id, externalId: user.externalId }],
        [check.id, { __typename: 'TreasuryKycCheck', id: check.id, kycStatus: 'APPROVED' }],
        [wallet.id, { __typename: 'TreasuryWallet', id: wallet.id, currency: 'USD' }],
        [payout.id, { __typename: 'TreasuryPayout', id: payout.id, status: 'PENDING' }],
      ];
      for (const [id, node] of expected) {
        expect((await ok(NODE, { id }, asDashboard(partner))).node).toEqual(node);
        expect((await ok(NODE, { id }, apiKey(other))).node).toBeNull();
        expect((await ok(NODE, { id }, live)).node).toBeNull();
      }
      const ids = expected.map(([id]) => id);
      expect((await ok('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids }, apiKey(partner))).nodes).toEqual(
        ids.map((id) => ({ id })),
      );
    });
  });

  describe('lists without a query per row', () => {
    const END_USERS_WITH_RELATIONS = `query { treasuryEndUsers(first: 20) { edges { node { id status
      kyc { id status endUser { id } } wallets { id balance { amountMinor } depositInstructions { accountNumber } endUser { id } } } } } }`;
    const PAYOUTS_WITH_RELATIONS = `query { treasuryPayouts(first: 20) { edges { node { id amount { amount }
      endUser { id kyc { status } wallets { id } } wallet { id balance { amountMinor } endUser { id } } } } } }`;

    test('end-users with their KYC record and wallets cost the same SQL statements for 8 end-users as for 1', async () => {
      const partner = await treasuryPartner(server);
      const first = await activeEndUser(server, partner);
      await createWallet(server, partner, first.id, 'usd');
      const one = await countStatements(server, () => ok(END_USERS_WITH_RELATIONS, {}, apiKey(partner)));
      for (let index = 0; index < 7; index += 1) {
        const user = await activeEndUser(server, partner);
        await createWallet(server, partner, user.id, 'usd');
        await createWallet(server, partner, user.id, 'eur');
      }
      let data: any;
      const eight = await countStatements(server, async () => {
        data = await ok(END_USERS_WITH_RELATIONS, {}, apiKey(partner));
      });
      expect(eight).toBe(one);
      const nodes = data.treasuryEndUsers.edges.map((edge: any) => edge.node);
      expect(nodes).toHaveLength(8);
      for (const node of nodes) {
        expect(node.kyc).toMatchObject({ status: 'APPROVED', endUser: { id: node.id } });
        expect(node.wallets.length).toBeGreaterThan(0);
        for (const wallet of node.wallets) expect(wallet.endUser.id).toBe(node.id);
      }
    });

    test('treasury payouts with their end-user (and its KYC and wallets) and wallet cost the same SQL statements for 6 payouts of 6 end-users as for 1', async () => {
      const partner = await treasuryPartner(server);
      const pay = async () => {
        const user = await activeEndUser(server, partner);
        const wallet = await createWallet(server, partner, user.id, 'usd');
        await deposit(server, partner, user.id, wallet.id, '10.00');
        await made(
          CREATE_PAYOUT,
          {
            input: payoutInput(
              payoutBody(user.id, wallet.id, { amount: '4.00', metadata: { test_outcome: 'pending' } }),
            ),
          },
          apiKey(partner),
        );
        return { user, wallet };
      };
      await pay();
      const one = await countStatements(server, () => ok(PAYOUTS_WITH_RELATIONS, {}, apiKey(partner)));
      const paid: Array<{ user: { id: string } }> = [];
      for (let index = 0; index < 5; index += 1) paid.push(await pay());
      let data: any;
      const six = await countStatements(server, async () => {
        data = await ok(PAYOUTS_WITH_RELATIONS, {}, apiKey(partner));
      });
      expect(six).toBe(one);
      const nodes = data.treasuryPayouts.edges.map((edge: any) => edge.node);
      expect(nodes).toHaveLength(6);
      for (const node of nodes) {
        expect(node.endUser.kyc.status).toBe('APPROVED');
        expect(node.wallet).toMatchObject({ balance: { amountMinor: '600' }, endUser: { id: node.endUser.id } });
        expect(node.endUser.wallets).toEqual([{ id: node.wallet.id }]);
      }
      expect(nodes[0].endUser.id).toBe(paid[4].user.id);
    });
    test("the loaders' batches (an end-user's latest check, its wallets) answer only the context's partner and mode, the latest check of each end-user", async () => {
      const { partner, user, wallet } = await fundedWallet(server, '10.00');
      const rejected = await createEndUser(server, partner);
      await made(START_KYC, { endUserId: rejected.id }, apiKey(partner));
      await made(REJECT, { endUserId: rejected.id, reasons: ['blurry_photo'] }, apiKey(partner));
      const restarted = (await made(START_KYC, { endUserId: rejected.id }, apiKey(partner))).kyc;
      const other = await fundedWallet(server, '1.00');
      const { treasuryKyc, treasuryWallets } = server.runtime.core;
      const ctxOf = (businessId: string, mode = Mode.TEST) =>
        RequestContext.system(server.runtime.dataSource, 'test', businessId, mode);
      const mine = ctxOf(partner.businessId);
      const latest = await treasuryKyc.latestOfEndUsers(mine, [user.id, rejected.id, other.user.id, 'nope']);
      expect(latest.map((check) => [check.endUserId, check.status]).sort()).toEqual(
        [
          [user.id, 'APPROVED'],
          [rejected.id, 'PENDING'],
        ].sort(),
      );
      expect(latest.find((check) => check.endUserId === rejected.id)!.id).toBe(restarted.id);
      expect(
        (await treasuryWallets.ofEndUsers(mine, [user.id, other.user.id])).map((view) => [
          view.wallet.id,
          view.balance,
        ]),
      ).toEqual([[wallet.id, 1_000n]]);
      expect(await treasuryKyc.latestOfEndUsers(ctxOf(other.partner.businessId), [user.id])).toEqual([]);
      expect(await treasuryKyc.latestOfEndUsers(ctxOf(partner.businessId, Mode.LIVE), [user.id])).toEqual([]);
      expect(await treasuryWallets.ofEndUsers(ctxOf(partner.businessId, Mode.LIVE), [user.id])).toEqual([]);
    });
  });

  describe('subscriptions', () => {
    test('treasuryPayoutUpdated: a partner hears its own payout created PENDING then CANCELLED from PENDING, once each, nothing of another partner or of live mode', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '20.00');
      const { partner: other, user: otherUser, wallet: otherWallet } = await fundedWallet(server, '20.00');
      const mine = collect(server.subscribe({ apiKey: partner.apiKey }), PAYOUT_UPDATED, 2);
      const theirs = collect(server.subscribe({ token: other.token }), PAYOUT_UPDATED, 1);
      const live = collect(server.subscribe({ apiKey: await liveKeyOf(partner) }), PAYOUT_UPDATED, 1);
      await Promise.all([mine.ready, theirs.ready, live.ready]);

      // The other partner's payout first: had it leaked, it would be among the partner's messages.
      const ofOther = await made(
        CREATE_PAYOUT,
        { input: payoutInput(payoutBody(otherUser.id, otherWallet.id, { metadata: { test_outcome: 'pending' } })) },
        apiKey(other),
      );
      const payout = await made(
        CREATE_PAYOUT,
        { input: payoutInput(payoutBody(user.id, wallet.id, { metadata: { test_outcome: 'pending' } })) },
        apiKey(partner),
      );
      await waitFor(
        async () => mine.received.length,
        (count) => count >= 1,
      );
      await made(CANCEL, { id: payout.id }, apiKey(partner));
      expect(await mine.done).toEqual([
        {
          treasuryPayoutUpdated: {
            treasuryPayout: { id: payout.id, status: 'PENDING', livemode: false },
            previousStatus: null,
            changedFields: ['status'],
          },
        },
        {
          treasuryPayoutUpdated: {
            treasuryPayout: { id: payout.id, status: 'CANCELLED', livemode: false },
            previousStatus: 'PENDING',
            changedFields: ['status'],
          },
        },
      ]);
      expect(await theirs.done).toEqual([
        {
          treasuryPayoutUpdated: {
            treasuryPayout: { id: ofOther.id, status: 'PENDING', livemode: false },
            previousStatus: null,
            changedFields: ['status'],
          },
        },
      ]);
      // Live mode has no treasury rail: the live subscriber's silence is ended by a change published last.
      expect(
        await heardBefore(server, live, (pubSub, payoutId) =>
          pubSub.publish(TreasuryTopic.TREASURY_PAYOUT, {
            businessId: partner.businessId,
            livemode: true,
            payoutId,
            previousStatus: null,
            changed: ['status'],
          }),
        ),
      ).toEqual([]);
    });

    test('treasuryPayoutUpdated(id) follows one payout through the sandbox rail to COMPLETED: each move once, with the status it left and the fields it set', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '20.00');
      const watched = await made(
        CREATE_PAYOUT,
        { input: payoutInput(payoutBody(user.id, wallet.id, { metadata: { test_outcome: 'pending' } })) },
        apiKey(partner),
      );
      const one = collect(
        server.subscribe({ apiKey: partner.apiKey }),
        `subscription { treasuryPayoutUpdated(id: "${watched.id}") { treasuryPayout { id status } } }`,
        1,
      );
      const all = collect(
        server.subscribe({ apiKey: partner.apiKey }),
        'subscription { treasuryPayoutUpdated { treasuryPayout { id status completedAt } previousStatus changedFields } }',
        3,
      );
      await Promise.all([one.ready, all.ready]);
      const completing = await made(
        CREATE_PAYOUT,
        { input: payoutInput(payoutBody(user.id, wallet.id, { amount: '2.00' })) },
        apiKey(partner),
      );
      const received = await all.done;
      expect(received.every((message: any) => message.treasuryPayoutUpdated.treasuryPayout.id === completing.id)).toBe(
        true,
      );
      expect(
        received.map((message: any) => [
          message.treasuryPayoutUpdated.previousStatus,
          message.treasuryPayoutUpdated.changedFields,
        ]),
      ).toEqual([
        [null, ['status']],
        ['PENDING', ['status']],
        ['PROCESSING', ['status', 'completedAt']],
      ]);
      // The object is read when the message is sent (docs/graphql-api.md): a rail quicker than the
      // socket can show a later status than the move, never an earlier one, and the last is final.
      const order = ['PENDING', 'PROCESSING', 'COMPLETED'];
      received.forEach((message: any, index: number) =>
        expect(order.indexOf(message.treasuryPayoutUpdated.treasuryPayout.status)).toBeGreaterThanOrEqual(index),
      );
      expect(received.at(-1).treasuryPayoutUpdated.treasuryPayout.status).toBe('COMPLETED');
      expect(received.at(-1).treasuryPayoutUpdated.treasuryPayout.completedAt).toEqual(expect.any(String));
      await made(CANCEL, { id: watched.id }, apiKey(partner));
      expect(await one.done).toEqual([
        { treasuryPayoutUpdated: { treasuryPayout: { id: watched.id, status: 'CANCELLED' } } },
      ]);
    });

    test('treasuryKycUpdated: a partner hears its own checks started and decided (also on the hosted page), nothing of another partner; endUserId narrows it to one end-user', async () => {
      const partner = await treasuryPartner(server);
      const other = await treasuryPartner(server);
      const user = await createEndUser(server, partner);
      const second = await createEndUser(server, partner);
      const otherUser = await createEndUser(server, other);
      const mine = collect(server.subscribe({ apiKey: partner.apiKey }), KYC_UPDATED, 4);
      const one = collect(
        server.subscribe({ apiKey: partner.apiKey }),
        `subscription { treasuryKycUpdated(endUserId: "${second.id}") { treasuryKycCheck { partnerEndUserId status } } }`,
        2,
      );
      const theirs = collect(server.subscribe({ apiKey: other.apiKey }), KYC_UPDATED, 1);
      await Promise.all([mine.ready, one.ready, theirs.ready]);

      const ofOther = (await made(START_KYC, { endUserId: otherUser.id }, apiKey(other))).kyc;
      const started = (await made(START_KYC, { endUserId: user.id }, apiKey(partner))).kyc;
      await waitFor(
        async () => mine.received.length,
        (count) => count >= 1,
      );
      await made(APPROVE, { endUserId: user.id }, apiKey(partner));
      await waitFor(
        async () => mine.received.length,
        (count) => count >= 2,
      );
      const link = new URL((await made(START_KYC, { endUserId: second.id }, apiKey(partner))).kyc.kycLinkUrl).pathname;
      await waitFor(
        async () => mine.received.length,
        (count) => count >= 3,
      );
      const page = await fetch(`${server.baseUrl}${link}/reject`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'reasons=blurry_photo',
      });
      expect(page.status).toBe(200);

      const received = (await mine.done).map((message: any) => message.treasuryKycUpdated);
      expect(
        received.map((update: any) => [
          update.treasuryKycCheck.partnerEndUserId,
          update.previousStatus,
          update.treasuryKycCheck.status,
          update.changedFields,
        ]),
      ).toEqual([
        [user.id, null, 'PENDING', ['status']],
        [user.id, 'PENDING', 'APPROVED', ['status', 'decidedAt']],
        [second.id, null, 'PENDING', ['status']],
        [second.id, 'PENDING', 'REJECTED', ['status', 'rejectionReasons', 'decidedAt']],
      ]);
      expect(received[0].treasuryKycCheck).toMatchObject({ id: started.id, livemode: false });
      expect(await one.done).toEqual([
        { treasuryKycUpdated: { treasuryKycCheck: { partnerEndUserId: second.id, status: 'PENDING' } } },
        { treasuryKycUpdated: { treasuryKycCheck: { partnerEndUserId: second.id, status: 'REJECTED' } } },
      ]);
      expect(await theirs.done).toEqual([
        {
          treasuryKycUpdated: {
            treasuryKycCheck: { id: ofOther.id, partnerEndUserId: otherUser.id, status: 'PENDING', livemode: false },
            previousStatus: null,
            changedFields: ['status'],
          },
        },
      ]);
    });

    test('a subscription outlives no product switch: once the treasury product is turned off, the next change is FORBIDDEN, not delivered', async () => {
      const { partner, user, wallet } = await fundedWallet(server, '20.00');
      const subscriber = collect(server.subscribe({ apiKey: partner.apiKey }), PAYOUT_UPDATED, 2);
      await subscriber.ready;
      const payout = await made(
        CREATE_PAYOUT,
        { input: payoutInput(payoutBody(user.id, wallet.id, { metadata: { test_outcome: 'pending' } })) },
        apiKey(partner),
      );
      await waitFor(
        async () => subscriber.received.length,
        (count) => count >= 1,
      );
      await server.setTreasury(partner.businessId, false);
      // The next change of the payout, as the domain announces it after a commit (the dispatch job needs no partner check).
      server.runtime.core.pubSub.publish(TreasuryTopic.TREASURY_PAYOUT, {
        businessId: partner.businessId,
        livemode: false,
        payoutId: payout.id,
        previousStatus: TreasuryPayoutStatus.PENDING,
        changed: ['status'],
      });
      await expect(subscriber.done).rejects.toThrow(/FORBIDDEN/);
      expect(subscriber.received).toEqual([
        {
          treasuryPayoutUpdated: {
            treasuryPayout: { id: payout.id, status: 'PENDING', livemode: false },
            previousStatus: null,
            changedFields: ['status'],
          },
        },
      ]);
    });

    test('a business without the treasury product cannot subscribe: FORBIDDEN when the subscription starts', async () => {
      const merchant = await server.signUp();
      const client = server.subscribe({ apiKey: merchant.apiKey });
      for (const query of [PAYOUT_UPDATED, KYC_UPDATED]) {
        const outcome = await overSocket(client, query);
        expect(outcome.result?.errors).toEqual([
          expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) }),
        ]);
      }
    });
  });
});
