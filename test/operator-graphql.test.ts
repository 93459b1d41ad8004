import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import {
  ReconciliationDifference,
  ReconciliationDifferenceKind,
  ReconciliationFee,
  ReconciliationRun,
  ReconciliationRunStatus,
} from '../src/domain/reconciliation';
import { RequestContext } from '../src/domain/shared/context';
import { CLI, exitsZero } from './support/cli';
import { PATIENCE_MS, TestMerchant, TestServer, startTestServer, within } from './support/harness';
import { spawnBudget, spawnTs } from './support/process';

/**
 * Issue 29: reconciliation differences "shown to the operator (CLI, GraphQL for the platform)"
 * (docs/graphql-api.md, "Operator API"; docs/decisions.md, "Operator access to GraphQL"). The
 * operator issues a `tessera_op_…` token with the CLI; over real HTTP it reaches the operator
 * fields and nothing else, a merchant's credentials never reach them, and a revoked token stops at once.
 */

const RUNS = `query($first: Int, $after: String, $provider: String, $from: DateTimeISO, $to: DateTimeISO) {
  operatorReconciliationRuns(first: $first, after: $after, provider: $provider, from: $from, to: $to) {
    edges { cursor node { id provider status periodFrom periodTo transactions matched notCompared differenceCount
      providerFees { amount amountMinor currency } } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;
const RUN = `query($id: ID!) {
  operatorReconciliationRun(id: $id) {
    id provider status differenceCount
    differences { kind transactionType providerTransactionId providerId tesseraId
      providerAmount { amount amountMinor currency } ledgerAmount { amount amountMinor currency } }
    fees { providerTransactionId transactionType providerId tesseraId fee { amount currency } }
  }
}`;
const NODE = 'query($id: ID!) { node(id: $id) { __typename id ... on ReconciliationRun { provider } } }';

const DAY_MS = 86_400_000;
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe("the operator's GraphQL fields: reconciliation runs and their differences", () => {
  let server: TestServer;
  let merchant: TestMerchant;
  /** Runs planted oldest first: stripe 2026-03-01, a sandbox run 2026-03-02, stripe 2026-03-03 (with differences and fees). */
  let runs: ReconciliationRun[];
  /** The Tessera payment the planted currency mismatch names. */
  const tesseraId = crypto.randomUUID();

  const system = () => RequestContext.system(server.runtime.dataSource, 'test');
  const issue = async (name: string) => (await server.runtime.core.operatorTokens.issue(system(), { name })).token;
  const asOperator = (token: string) => ({ authorization: `Bearer ${token}` });
  const codesOf = (body: { errors?: any[] }) => (body.errors ?? []).map((error) => error.extensions?.code);

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
    const repo = server.runtime.dataSource.getRepository(ReconciliationRun);
    const plant = async (from: string, acquirer: string | null, fields: Partial<ReconciliationRun> = {}) =>
      repo.save(
        repo.create({
          periodFrom: day(from),
          periodTo: new Date(day(from).getTime() + DAY_MS),
          provider: acquirer,
          acquirer,
          status: acquirer ? ReconciliationRunStatus.COMPARED : ReconciliationRunStatus.NOTHING_TO_COMPARE,
          transactions: 0,
          matched: 0,
          skipped: 0,
          differences: 0,
          fees: {},
          ...fields,
        }),
      );
    // One after the other: each run is created after the previous one (newest first is by creation).
    const first = await plant('2026-03-01', 'stripe', { transactions: 4, matched: 4, fees: { USD: '1850' } });
    const sandbox = await plant('2026-03-02', null);
    const third = await plant('2026-03-03', 'stripe', {
      transactions: 3,
      matched: 1,
      skipped: 1,
      differences: 2,
      fees: { USD: '160', EUR: '45' },
    });
    runs = [first, sandbox, third];
    const base = { runId: third.id, provider: 'stripe', periodFrom: third.periodFrom, periodTo: third.periodTo };
    await server.runtime.dataSource.getRepository(ReconciliationDifference).save([
      {
        ...base,
        kind: ReconciliationDifferenceKind.MISSING_IN_LEDGER,
        transactionType: 'charge',
        acquirerTransactionId: 'txn_stray',
        acquirerId: 'pi_stray',
        tesseraId: null,
        acquirerAmount: 4200n,
        acquirerCurrency: 'USD',
        ledgerAmount: null,
        ledgerCurrency: null,
      },
      {
        ...base,
        kind: ReconciliationDifferenceKind.CURRENCY_MISMATCH,
        transactionType: 'charge',
        acquirerTransactionId: 'txn_eur',
        acquirerId: 'pi_eur',
        tesseraId,
        acquirerAmount: 1000n,
        acquirerCurrency: 'EUR',
        ledgerAmount: 1000n,
        ledgerCurrency: 'USD',
      },
    ]);
    await server.runtime.dataSource.getRepository(ReconciliationFee).save([
      {
        runId: third.id,
        acquirerTransactionId: 'txn_eur',
        transactionType: 'charge',
        acquirerId: 'pi_eur',
        tesseraId,
        fee: 45n,
        currency: 'EUR',
      },
      {
        runId: third.id,
        acquirerTransactionId: 'txn_stray',
        transactionType: 'charge',
        acquirerId: 'pi_stray',
        tesseraId: null,
        fee: 160n,
        currency: 'USD',
      },
    ]);
  });
  afterAll(async () => server.close());

  const cliEnv = () => ({
    DATABASE_URL: server.databaseUrl,
    TESSERA_DATA_DIR: path.join(os.tmpdir(), 'tessera-test-data'),
    TESSERA_MASTER_KEY: 'test-master-key',
    JWT_SECRET: 'test-jwt-secret',
  });

  test(
    'the CLI issues a token once (kept as its hash), lists hints only; the token reads the runs; revoked, it is refused at once',
    async () => {
      const created = spawnTs(CLI, ['operator-token', 'create', '--name', 'finance desk'], cliEnv());
      await exitsZero(created);
      const issued = JSON.parse(created.output());
      expect(issued).toEqual({
        id: expect.any(String),
        name: 'finance desk',
        token: expect.stringMatching(/^tessera_op_[A-Za-z0-9_-]{43}$/),
        tokenHint: issued.token.slice(0, 16) + '…',
        createdAt: expect.any(String),
      });
      const [stored] = await server.runtime.dataSource.query(
        `SELECT token_hash, token_hint FROM operator_tokens WHERE id = $1`,
        [issued.id],
      );
      expect(stored.token_hash).toBe(crypto.createHash('sha256').update(issued.token).digest('hex'));
      const everything = JSON.stringify(await server.runtime.dataSource.query(`SELECT * FROM operator_tokens`));
      expect(everything).not.toContain(issued.token);

      const listed = spawnTs(CLI, ['operator-token', 'list'], cliEnv());
      await exitsZero(listed);
      expect(listed.output()).not.toContain(issued.token);
      expect(JSON.parse(listed.output())).toContainEqual({
        id: issued.id,
        name: 'finance desk',
        tokenHint: issued.tokenHint,
        createdAt: issued.createdAt,
        revokedAt: null,
      });

      const answered = await server.graphql(RUNS, { first: 2 }, asOperator(issued.token));
      expect(answered.status).toBe(200);
      expect(answered.body.errors).toBeUndefined();
      expect(answered.body.data.operatorReconciliationRuns.edges.map((edge: any) => edge.node.id)).toEqual([
        runs[2].id,
        runs[1].id,
      ]);

      const revoked = spawnTs(CLI, ['operator-token', 'revoke', issued.id], cliEnv());
      await exitsZero(revoked);
      expect(JSON.parse(revoked.output())).toMatchObject({ id: issued.id, revokedAt: expect.any(String) });
      const refused = await server.graphql(RUNS, {}, asOperator(issued.token));
      expect(refused.body.data ?? null).toBeNull();
      expect(codesOf(refused.body)).toEqual(['UNAUTHENTICATED']);
      expect(refused.body.errors![0].message).toBe('Invalid or revoked operator token');

      const unknown = spawnTs(CLI, ['operator-token', 'revoke', crypto.randomUUID()], cliEnv());
      expect(await unknown.exited).toBe(1);
      expect(unknown.output() + unknown.errorOutput()).toContain('Operator token not found');
    },
    spawnBudget(4),
  );

  test('runs are a connection, newest first, filtered by provider and by period, paged with first and after', async () => {
    const token = await issue('reader');
    const page = async (variables: Record<string, unknown>) => {
      const response = await server.graphql(RUNS, variables, asOperator(token));
      expect(response.body.errors).toBeUndefined();
      return response.body.data.operatorReconciliationRuns;
    };
    const all = await page({});
    expect(all.edges.map((edge: any) => edge.node.id)).toEqual([runs[2].id, runs[1].id, runs[0].id]);
    expect(all.edges[0].node).toEqual({
      id: runs[2].id,
      provider: 'stripe',
      status: 'COMPARED',
      periodFrom: '2026-03-03T00:00:00.000Z',
      periodTo: '2026-03-04T00:00:00.000Z',
      transactions: 3,
      matched: 1,
      notCompared: 1,
      differenceCount: 2,
      providerFees: [
        { amount: '0.45', amountMinor: '45', currency: 'EUR' },
        { amount: '1.60', amountMinor: '160', currency: 'USD' },
      ],
    });
    expect(all.edges[1].node).toMatchObject({ provider: null, status: 'NOTHING_TO_COMPARE', providerFees: [] });

    const stripe = await page({ provider: 'stripe' });
    expect(stripe.edges.map((edge: any) => edge.node.id)).toEqual([runs[2].id, runs[0].id]);
    expect((await page({ provider: 'bridge' })).edges).toEqual([]);
    const period = await page({ from: '2026-03-02T00:00:00Z', to: '2026-03-03T00:00:00Z' });
    expect(period.edges.map((edge: any) => edge.node.id)).toEqual([runs[1].id]);
    const since = await page({ from: '2026-03-02T12:00:00Z' });
    expect(since.edges.map((edge: any) => edge.node.id)).toEqual([runs[2].id, runs[1].id]);

    const first = await page({ first: 1 });
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = await page({ first: 1, after: first.pageInfo.endCursor });
    expect(second.edges.map((edge: any) => edge.node.id)).toEqual([runs[1].id]);
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const last = await page({ first: 5, after: second.pageInfo.endCursor });
    expect(last.edges.map((edge: any) => edge.node.id)).toEqual([runs[0].id]);
    expect(last.pageInfo.hasNextPage).toBe(false);
  });

  test('one run answers its differences (kind, type, the provider ids, Tessera id, both amounts) and fees; node(id:) answers it to the operator', async () => {
    const token = await issue('reader');
    const response = await server.graphql(RUN, { id: runs[2].id }, asOperator(token));
    expect(response.body.errors).toBeUndefined();
    const run = response.body.data.operatorReconciliationRun;
    expect(run).toMatchObject({ id: runs[2].id, provider: 'stripe', status: 'COMPARED', differenceCount: 2 });
    // By kind (as text), then the provider's id.
    expect(run.differences).toEqual([
      {
        kind: 'CURRENCY_MISMATCH',
        transactionType: 'charge',
        providerTransactionId: 'txn_eur',
        providerId: 'pi_eur',
        tesseraId,
        providerAmount: { amount: '10.00', amountMinor: '1000', currency: 'EUR' },
        ledgerAmount: { amount: '10.00', amountMinor: '1000', currency: 'USD' },
      },
      {
        kind: 'MISSING_IN_LEDGER',
        transactionType: 'charge',
        providerTransactionId: 'txn_stray',
        providerId: 'pi_stray',
        tesseraId: null,
        providerAmount: { amount: '42.00', amountMinor: '4200', currency: 'USD' },
        ledgerAmount: null,
      },
    ]);
    expect(run.fees).toEqual([
      {
        providerTransactionId: 'txn_eur',
        transactionType: 'charge',
        providerId: 'pi_eur',
        tesseraId,
        fee: { amount: '0.45', currency: 'EUR' },
      },
      {
        providerTransactionId: 'txn_stray',
        transactionType: 'charge',
        providerId: 'pi_stray',
        tesseraId: null,
        fee: { amount: '1.60', currency: 'USD' },
      },
    ]);
    const clean = await server.graphql(RUN, { id: runs[0].id }, asOperator(token));
    expect(clean.body.data.operatorReconciliationRun).toMatchObject({ differences: [], fees: [] });

    const node = await server.graphql(NODE, { id: runs[2].id }, asOperator(token));
    expect(node.body).toEqual({
      data: { node: { __typename: 'ReconciliationRun', id: runs[2].id, provider: 'stripe' } },
    });
    // The merchant's objects are not the operator's to see, and the operator's not the merchant's.
    const merchantWallets = await server.graphql(
      '{ wallets { id } }',
      {},
      { authorization: `Bearer ${merchant.token}` },
    );
    const [wallet] = merchantWallets.body.data.wallets;
    expect((await server.graphql(NODE, { id: wallet.id }, asOperator(token))).body).toEqual({ data: { node: null } });
    const merchantsNode = await server.graphql(NODE, { id: runs[2].id }, { authorization: `Bearer ${merchant.token}` });
    expect(merchantsNode.body).toEqual({ data: { node: null } });
  });

  test("a merchant's dashboard token or API key is FORBIDDEN on the operator fields, no credential UNAUTHENTICATED; nothing is answered", async () => {
    const merchantCredentials: Array<Record<string, string>> = [
      { authorization: `Bearer ${merchant.token}` },
      { 'x-api-key': merchant.apiKey },
    ];
    for (const headers of merchantCredentials) {
      for (const [query, variables] of [
        [RUNS, {}],
        [RUN, { id: runs[2].id }],
      ] as const) {
        const response = await server.graphql(query, variables, headers);
        expect(response.status).toBe(200);
        expect(response.body.data ?? null).toBeNull();
        expect(codesOf(response.body)).toEqual(['FORBIDDEN']);
        expect(response.body.errors![0].extensions).toMatchObject({ domainCode: 'FORBIDDEN', statusCode: 403 });
        expect(response.body.errors![0].message).toBe(
          "This is the platform operator's: it needs an operator token (tessera_op_…)",
        );
      }
    }
    const anonymous = await server.graphql(RUNS, {});
    expect(codesOf(anonymous.body)).toEqual(['UNAUTHENTICATED']);
    const notAToken = await server.graphql(RUNS, {}, asOperator('tessera_op_not-a-token'));
    expect(codesOf(notAToken.body)).toEqual(['UNAUTHENTICATED']);
  });

  test('an operator token is FORBIDDEN on every merchant field (queries, mutations, sign-in), on REST, and on subscriptions (4403)', async () => {
    const token = await issue('reader');
    const postings = async () =>
      (await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM journal_transactions`))[0].n as number;
    const before = await postings();
    for (const query of [
      '{ wallets { id } }',
      '{ business { id } }',
      '{ me { id } }',
      '{ events(first: 1) { edges { cursor } } }',
      'mutation { sandboxFundWallet(input: { currency: "USD", amount: "5.00" }) { wallet { id } userErrors { code } } }',
      `mutation { signIn(input: { email: "${merchant.email}", password: "${merchant.password}" }) { session { token } userErrors { code } } }`,
      `{ operatorReconciliationRuns(first: 1) { edges { cursor } } wallets { id } }`,
    ]) {
      const response = await server.graphql(query, {}, asOperator(token));
      expect(response.status).toBe(200);
      expect(response.body.errors![0].message).toBe(
        'An operator token (tessera_op_…) may use only the operator fields of GraphQL (operator…)',
      );
      expect({ query, codes: codesOf(response.body) }).toMatchObject({
        query,
        codes: expect.arrayContaining(['FORBIDDEN']),
      });
      expect(JSON.stringify(response.body.data ?? {})).not.toContain('"wallets":[');
    }
    expect(await postings()).toBe(before);

    const rest = await server.request('GET', '/api/v1/business/wallets', { headers: asOperator(token) });
    expect(rest.status).toBe(403);
    expect(rest.body.error ?? rest.body).toMatchObject({ code: 'FORBIDDEN' });

    const socket = server.socket({ authorization: `Bearer ${token}` });
    expect(await within(socket.closed, PATIENCE_MS, 'the socket closed')).toMatchObject({ code: 4403 });
  });

  test('bad input is BAD_USER_INPUT with the field, an unknown or malformed id NOT_FOUND; never a 500', async () => {
    const token = await issue('reader');
    const fieldErrors = async (variables: Record<string, unknown>) => {
      const response = await server.graphql(RUNS, variables, asOperator(token));
      expect(response.status).toBeLessThan(500);
      expect(codesOf(response.body)).toEqual(['BAD_USER_INPUT']);
      return response.body.errors![0].extensions.errors;
    };
    expect(await fieldErrors({ first: 0 })).toEqual({ first: [expect.stringContaining('between 1 and 100')] });
    expect(await fieldErrors({ first: 101 })).toEqual({ first: [expect.stringContaining('between 1 and 100')] });
    expect(await fieldErrors({ after: 'not-a-cursor' })).toEqual({
      after: ['is not a valid cursor for these filters'],
    });
    const stripeCursor = (await server.graphql(RUNS, { first: 1, provider: 'stripe' }, asOperator(token))).body.data
      .operatorReconciliationRuns.pageInfo.endCursor;
    expect(await fieldErrors({ after: stripeCursor })).toEqual({ after: ['is not a valid cursor for these filters'] });
    expect(await fieldErrors({ from: '2026-03-03T00:00:00Z', to: '2026-03-01T00:00:00Z' })).toEqual({
      to: ['must be after from'],
    });
    expect(await fieldErrors({ provider: '' })).toEqual({ provider: ['must be 1 to 100 characters'] });
    const notADate = await server.graphql(RUNS, { from: 'yesterday' }, asOperator(token));
    expect(notADate.status).toBe(400);
    expect(codesOf(notADate.body)).toEqual(['BAD_USER_INPUT']);

    for (const id of [crypto.randomUUID(), 'not-a-uuid']) {
      const response = await server.graphql(RUN, { id }, asOperator(token));
      expect(response.status).toBe(200);
      expect(codesOf(response.body)).toEqual(['NOT_FOUND']);
      expect(response.body.errors![0].message).toBe('Reconciliation run not found');
    }
  });
});

describe("an operator token's rate limit", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ rateLimitMax: 3, rateLimitWindowMs: 60_000 });
  });
  afterAll(async () => server.close());

  test('each token spends its own budget, as an API credential does: the fourth request is 429 RATE_LIMITED, another token is not', async () => {
    const system = RequestContext.system(server.runtime.dataSource, 'test');
    const [one, other] = [
      (await server.runtime.core.operatorTokens.issue(system, { name: 'one' })).token,
      (await server.runtime.core.operatorTokens.issue(system, { name: 'other' })).token,
    ];
    const ask = (token: string) =>
      server.graphql('{ operatorReconciliationRuns { edges { cursor } } }', {}, { authorization: `Bearer ${token}` });
    for (let request = 0; request < 3; request++) expect((await ask(one)).status).toBe(200);
    const limited = await ask(one);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect((await ask(other)).status).toBe(200);
  });
});
