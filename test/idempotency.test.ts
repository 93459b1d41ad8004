import crypto from 'node:crypto';
import http from 'node:http';
import { ApiResponse, TestMerchant, TestServer, startTestServer, waitFor } from './support/harness';

/** `Idempotency-Key` on every POST, REST and GraphQL alike (design section 5). */

const FUND = '/api/v1/business/sandbox/wallets/fund';
const FUND_MUTATION = `mutation($input: SandboxFundWalletInput!) {
  sandboxFundWallet(input: $input) { wallet { id balance { amountMinor currency } } userErrors { field code } }
}`;

const newKey = () => `idem-${crypto.randomUUID()}`;

/** A JSON POST sent from a chosen loopback address, i.e. as another client machine would. */
function postFrom(localAddress: string, url: string, body: unknown, idempotencyKey: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

describe('Idempotency-Key', () => {
  let server: TestServer;
  let merchant: TestMerchant;
  let flakyCalls = 0;

  beforeAll(async () => {
    server = await startTestServer({}, (app) => {
      // Fails with a server error on its first call and succeeds on the second.
      app.post('/api/v1/test-only/flaky', async (_request, reply) => {
        flakyCalls += 1;
        if (flakyCalls === 1) throw new Error('transient failure');
        reply.status(201);
        return { success: true, data: { call: flakyCalls } };
      });
    });
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());

  const auth = (who: TestMerchant = merchant) => ({ 'x-api-key': who.apiKey });

  async function fundings(businessId: string): Promise<number> {
    const [row] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS count FROM journal_transactions WHERE business_id = $1 AND kind = 'sandbox_funding'`,
      [businessId],
    );
    return row.count;
  }

  const fund = (key: string, body: unknown = { currency: 'USD', amount: '25.00' }, who: TestMerchant = merchant) =>
    server.request('POST', FUND, { body, headers: { ...auth(who), 'idempotency-key': key } });

  test('a replay returns the identical status and body, marked idempotent-replayed, and writes nothing', async () => {
    const key = newKey();
    const before = await fundings(merchant.businessId);

    const first = await fund(key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const replay = await fund(key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.headers.get('content-type')).toMatch(/^application\/json/);
    expect(replay.body).toEqual(first.body);
    expect(await fundings(merchant.businessId)).toBe(before + 1);
  });

  test('stored responses are sealed with the master key, never kept in plain text', async () => {
    const key = newKey();
    const regenerated = await server.request('POST', '/api/v1/business/regenerate-api-key', {
      headers: { ...auth(merchant), 'idempotency-key': key },
    });
    expect(regenerated.status).toBe(200);
    merchant.apiKey = regenerated.body.data.apiKey;
    const [row] = await server.runtime.dataSource.query(`SELECT response_body FROM idempotency_keys WHERE key = $1`, [
      key,
    ]);
    expect(row.response_body).not.toContain(merchant.apiKey);
    expect(row.response_body).not.toContain('success');
    const replay = await server.request('POST', '/api/v1/business/regenerate-api-key', {
      headers: { 'x-api-key': merchant.apiKey, 'idempotency-key': key },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(regenerated.body);
  });

  test('the stored response lives for 24 hours', async () => {
    const key = newKey();
    await fund(key);
    const [record] = await server.runtime.dataSource.query(
      `SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM idempotency_keys WHERE key = $1`,
      [key],
    );
    expect(record.seconds).toBeGreaterThanOrEqual(24 * 3600 - 5);
    expect(record.seconds).toBeLessThanOrEqual(24 * 3600 + 5);
  });

  test('an expired key runs the request again', async () => {
    const key = newKey();
    const before = await fundings(merchant.businessId);
    await fund(key);
    await server.runtime.dataSource.query(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`,
      [key],
    );
    const again = await fund(key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await fundings(merchant.businessId)).toBe(before + 2);
  });

  test('expired records are purged', async () => {
    const key = newKey();
    await fund(key);
    await server.runtime.dataSource.query(
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`,
      [key],
    );
    expect(await server.runtime.core.idempotency.purgeExpired(server.runtime.dataSource)).toBeGreaterThanOrEqual(1);
    const [row] = await server.runtime.dataSource.query(
      `SELECT count(*)::int AS count FROM idempotency_keys WHERE key = $1`,
      [key],
    );
    expect(row.count).toBe(0);
  });

  test('the same key with a different body answers 409 IDEMPOTENCY_KEY_REUSED and writes nothing', async () => {
    const key = newKey();
    await fund(key, { currency: 'USD', amount: '25.00' });
    const before = await fundings(merchant.businessId);

    const reused = await fund(key, { currency: 'USD', amount: '26.00' });
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual({
      success: false,
      error: { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.any(String), statusCode: 409 },
    });
    expect(await fundings(merchant.businessId)).toBe(before);
  });

  test('the same key on a different path answers 409 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = newKey();
    await fund(key, {});
    const other = await server.request('POST', '/api/v1/business/regenerate-api-key', {
      body: {},
      headers: { ...auth(), 'idempotency-key': key },
    });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  test('an Idempotency-Key longer than 255 characters answers 400 VALIDATION_ERROR', async () => {
    const response = await fund('k'.repeat(256));
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        errors: { 'Idempotency-Key': [expect.any(String)] },
      }),
    );
  });

  test('concurrent duplicates: exactly one executes, the others replay it or answer 409 IDEMPOTENCY_REQUEST_IN_PROGRESS', async () => {
    const key = newKey();
    const before = await fundings(merchant.businessId);

    const responses = await Promise.all(
      Array.from({ length: 10 }, () => fund(key, { currency: 'USD', amount: '7.00' })),
    );

    const executed = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    const replayed = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === 'true');
    const inProgress = responses.filter((r) => r.status === 409);
    expect(executed).toHaveLength(1);
    expect(replayed.length + inProgress.length).toBe(9);
    for (const response of replayed) expect(response.body).toEqual(executed[0].body);
    for (const response of inProgress) {
      expect(response.body.error).toEqual(
        expect.objectContaining({ code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS', statusCode: 409 }),
      );
    }
    expect(await fundings(merchant.businessId)).toBe(before + 1);

    const later = await fund(key, { currency: 'USD', amount: '7.00' });
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.body).toEqual(executed[0].body);
  });

  test('keys are scoped per credential: another business using the same key string gets its own result', async () => {
    const other = await server.signUp();
    const key = newKey();
    const mine = await fund(key);
    const theirs = await fund(key, { currency: 'USD', amount: '25.00' }, other);

    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.data.wallet.id).not.toBe(mine.body.data.wallet.id);
    expect(theirs.body.data.wallet.balanceMinor).toBe('2500');
    expect(await fundings(other.businessId)).toBe(1);

    const theirReuse = await fund(key, { currency: 'USD', amount: '1.00' }, other);
    expect(theirReuse.status).toBe(409);
  });

  test('callers without a credential share keys only with themselves (scoped by client address)', async () => {
    const key = newKey();
    const tokenRequest = (localAddress: string, apiSecret: string) =>
      postFrom(
        localAddress,
        `${server.baseUrl}/api/v1/business/auth/token`,
        { apiKey: merchant.apiKey, apiSecret },
        key,
      );
    const first = await tokenRequest('127.0.0.2', merchant.apiSecret);
    expect(first.status).toBe(200);
    const elsewhere = await tokenRequest('127.0.0.3', 'bs_test_wrong');
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers['idempotent-replayed']).toBeUndefined();
    const sameClientOtherBody = await tokenRequest('127.0.0.2', 'bs_test_wrong');
    expect(sameClientOtherBody.status).toBe(409);
    expect(sameClientOtherBody.body).not.toContain('accessToken');
  });

  test('a GraphQL mutation with the same key twice funds once', async () => {
    const key = newKey();
    const before = await fundings(merchant.businessId);
    const headers = { ...auth(), 'idempotency-key': key };
    const variables = { input: { currency: 'USD', amount: '3.00' } };

    const first = await server.graphql(FUND_MUTATION, variables, headers);
    expect(first.body.errors).toBeUndefined();
    const replay = await server.graphql(FUND_MUTATION, variables, headers);
    expect(replay.status).toBe(first.status);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await fundings(merchant.businessId)).toBe(before + 1);

    const reused = await server.graphql(FUND_MUTATION, { input: { currency: 'USD', amount: '4.00' } }, headers);
    expect(reused.status).toBe(409);
    expect(reused.body).toEqual(
      expect.objectContaining({ success: false, error: expect.objectContaining({ code: 'IDEMPOTENCY_KEY_REUSED' }) }),
    );
  });

  test('a 5xx response is not stored: a retry with the same key runs again', async () => {
    const key = newKey();
    const post = () =>
      server.request('POST', '/api/v1/test-only/flaky', {
        body: { n: 1 },
        headers: { ...auth(), 'idempotency-key': key },
      });

    const failed = await post();
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('INTERNAL_ERROR');

    const retried = await post();
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body).toEqual({ success: true, data: { call: 2 } });

    const replayed = await post();
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(retried.body);
    expect(flakyCalls).toBe(2);
  });

  test('a GraphQL mutation that fails unexpectedly is not stored: a retry with the same key runs again', async () => {
    const key = newKey();
    const before = await fundings(merchant.businessId);
    const headers = { ...auth(), 'idempotency-key': key };
    const variables = { input: { currency: 'USD', amount: '5.00' } };
    const spy = jest
      .spyOn(server.runtime.core.wallets, 'sandboxFund')
      .mockRejectedValueOnce(new Error('connection reset'));
    try {
      const failed = await server.graphql(FUND_MUTATION, variables, headers);
      expect(failed.body.errors?.[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(failed.body.errors?.[0].message).not.toContain('connection reset');
    } finally {
      spy.mockRestore();
    }
    const retried: ApiResponse = await server.graphql(FUND_MUTATION, variables, headers);
    expect(retried.body.errors).toBeUndefined();
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await fundings(merchant.businessId)).toBe(before + 1);
  });

  /** A keyed request whose response could not be stored (the connection lost): 500, its effect committed. */
  async function lostResponse(send: () => Promise<ApiResponse>): Promise<void> {
    const spy = jest
      .spyOn(server.runtime.core.idempotency, 'complete')
      .mockRejectedValueOnce(new Error('connection lost while storing the response'));
    try {
      expect((await send()).status).toBe(500);
    } finally {
      spy.mockRestore();
    }
  }
  const pastLease = (key: string) =>
    server.runtime.dataSource.query(
      `UPDATE idempotency_keys SET created_at = created_at - interval '6 minutes', leased_until = leased_until - interval '6 minutes' WHERE key = $1`,
      [key],
    );

  test('finding 2: a request that changed data but lost its response is never run again, even after its lease: 409 IDEMPOTENCY_REQUEST_INTERRUPTED', async () => {
    // A customer names no object on its key (docs/security.md): its retry cannot answer from one.
    const key = newKey();
    const customers = async () =>
      (
        await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM customers WHERE business_id = $1`, [
          merchant.businessId,
        ])
      )[0].n as number;
    const create = (body: unknown = { email: 'lost-answer@example.com', name: 'Lost Answer' }) =>
      server.request('POST', '/api/v1/business/customers', { body, headers: { ...auth(), 'idempotency-key': key } });
    const before = await customers();
    await lostResponse(() => create());
    expect(await customers()).toBe(before + 1);
    expect((await create()).body.error.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    await pastLease(key);

    const retried = await create();
    expect(retried.status).toBe(409);
    expect(retried.body.error).toEqual(
      expect.objectContaining({ code: 'IDEMPOTENCY_REQUEST_INTERRUPTED', statusCode: 409 }),
    );
    expect(await customers()).toBe(before + 1);
    expect((await create({ email: 'other@example.com', name: 'Other' })).body.error.code).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  test('a sandbox funding that lost its response answers its retry after the lease from the funding it made (201), never a second one', async () => {
    const key = newKey();
    const before = await fundings(merchant.businessId);
    await lostResponse(() => fund(key));
    expect(await fundings(merchant.businessId)).toBe(before + 1);
    expect((await fund(key)).body.error.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    await pastLease(key);

    const retried = await fund(key);
    expect(retried.status).toBe(201);
    const [made] = await server.runtime.dataSource.query(
      `SELECT id FROM journal_transactions WHERE business_id = $1 AND kind = 'sandbox_funding' ORDER BY created_at DESC LIMIT 1`,
      [merchant.businessId],
    );
    expect(retried.body.data.transactionId).toBe(made.id);
    expect(await fundings(merchant.businessId)).toBe(before + 1);
    expect((await fund(key, { currency: 'USD', amount: '1.00' })).body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  test('a request that committed nothing before its lease ran out runs again; if it was only slow, it can no longer commit', async () => {
    const key = newKey();
    const before = await fundings(merchant.businessId);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const sandboxFund = server.runtime.core.wallets.sandboxFund.bind(server.runtime.core.wallets);
    const spy = jest.spyOn(server.runtime.core.wallets, 'sandboxFund').mockImplementationOnce(async (...args) => {
      await held;
      return sandboxFund(...args);
    });
    try {
      const slow = fund(key);
      await waitFor(
        async () => spy.mock.calls.length,
        (calls) => calls === 1,
      );
      await server.runtime.dataSource.query(
        `UPDATE idempotency_keys SET created_at = created_at - interval '6 minutes', leased_until = leased_until - interval '6 minutes' WHERE key = $1`,
        [key],
      );
      const retried = await fund(key);
      expect(retried.status).toBe(201);
      release();
      const late = await slow;
      expect(late.status).toBe(409);
      expect(late.body.error.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
      expect(await fundings(merchant.businessId)).toBe(before + 1);
      expect((await fund(key)).body).toEqual(retried.body);
    } finally {
      release();
      spy.mockRestore();
    }
  });

  test('a GET ignores Idempotency-Key', async () => {
    const key = newKey();
    const first = await server.request('GET', '/api/v1/business/wallets', {
      headers: { ...auth(), 'idempotency-key': key },
    });
    const second = await server.request('GET', '/api/v1/business/wallets', {
      headers: { ...auth(), 'idempotency-key': key },
    });
    expect(first.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });
});
