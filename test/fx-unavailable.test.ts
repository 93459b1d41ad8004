import { FxPairNotQuoted } from '../src/providers/fx/port';
import { FX_UNAVAILABLE } from '../src/providers/fx/reachable';
import { SandboxFxProvider } from '../src/providers/fx/sandbox';
import { TestServer, capturedLog, startTestServer } from './support/harness';
import { PAYOUTS, apiKey, bankDetails, createPayout, createRecipient, fundWallet } from './support/payouts';
import { v1, v1Merchant } from './support/v1';

/**
 * An exchange-rate provider that does not answer (the network, a timeout, its own fault) is a 503
 * SERVICE_UNAVAILABLE on every face, in the face's envelope, and changes nothing: never a 500.
 * The sandbox provider is made to fail the way a real one would, by throwing a plain Error.
 */
describe('the exchange-rate provider does not answer', () => {
  let server: TestServer;
  let fx: SandboxFxProvider;

  const { logStream, lines } = capturedLog();
  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'info' }, undefined, { logStream });
    fx = server.runtime.core.providers.inMode('fx', 'test') as SandboxFxProvider;
  });
  afterAll(async () => server.close());
  afterEach(() => jest.restoreAllMocks());

  const unreachable = () => {
    const failure = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:443'), { code: 'ECONNREFUSED' });
    jest.spyOn(fx, 'offer').mockRejectedValue(failure);
    jest.spyOn(fx, 'midRate').mockRejectedValue(failure);
  };
  const count = async (table: string, businessId: string) =>
    (
      await server.runtime.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE business_id = $1`, [
        businessId,
      ])
    )[0].n as number;
  const quoteBody = { amount: '10.00', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' };

  test('REST: a quote is 503 SERVICE_UNAVAILABLE in the envelope and stores no quote; once it answers again, 201', async () => {
    const merchant = await server.signUp();
    unreachable();
    const refused = await server.request('POST', `${PAYOUTS}/quote`, {
      headers: { ...apiKey(merchant), 'x-request-id': 'fx-down-rest' },
      body: quoteBody,
    });
    expect(refused.status).toBe(503);
    // The provider's own error is for the server's log, not the client.
    expect(lines.filter((line) => line.reqId === 'fx-down-rest' && line.level === 50)).toEqual([
      expect.objectContaining({
        msg: 'server error',
        err: expect.objectContaining({
          message: FX_UNAVAILABLE,
          cause: expect.objectContaining({ message: 'connect ECONNREFUSED 10.0.0.7:443' }),
        }),
      }),
    ]);
    expect(refused.body).toMatchObject({
      success: false,
      error: { code: 'SERVICE_UNAVAILABLE', statusCode: 503, message: FX_UNAVAILABLE },
    });
    expect(JSON.stringify(refused.body)).not.toContain('ECONNREFUSED');
    expect(await count('payout_quotes', merchant.businessId)).toBe(0);

    jest.restoreAllMocks();
    expect(
      (await server.request('POST', `${PAYOUTS}/quote`, { headers: apiKey(merchant), body: quoteBody })).status,
    ).toBe(201);
  });

  test('REST: a payout needing a conversion is 503 and debits nothing', async () => {
    const merchant = await server.signUp();
    await fundWallet(server, merchant, '50.00');
    const recipient = await createRecipient(server, merchant, bankDetails());
    unreachable();
    const refused = await createPayout(server, merchant, { recipientId: recipient.id, amount: '10.00' });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({
      success: false,
      error: { code: 'SERVICE_UNAVAILABLE', message: FX_UNAVAILABLE },
    });
    expect(await count('payouts', merchant.businessId)).toBe(0);
    const wallets = await server.request('GET', '/api/v1/business/wallets', { headers: apiKey(merchant) });
    expect(wallets.body.data.items.find((wallet: { currency: string }) => wallet.currency === 'usd').balance).toBe(
      '50.00',
    );
  });

  test('GraphQL: createPayoutQuote answers the error with code SERVICE_UNAVAILABLE', async () => {
    const merchant = await server.signUp();
    unreachable();
    const response = await server.graphql(
      `mutation Quote($input: CreatePayoutQuoteInput!) { createPayoutQuote(input: $input) { quote { id } userErrors { code } } }`,
      { input: quoteBody },
      { ...apiKey(merchant), 'x-request-id': 'fx-down-graphql' },
    );
    expect(lines.filter((line) => line.reqId === 'fx-down-graphql' && line.level === 50)).toEqual([
      expect.objectContaining({
        msg: 'server error',
        operationName: 'Quote',
        err: expect.objectContaining({
          cause: expect.objectContaining({ message: 'connect ECONNREFUSED 10.0.0.7:443' }),
        }),
      }),
    ]);
    expect(response.body.data).toBeNull();
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message: FX_UNAVAILABLE,
        extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }),
      }),
    ]);
    expect(await count('payout_quotes', merchant.businessId)).toBe(0);
  });

  test('/v1: GET /v1/rates is 503 service_unavailable in its own envelope', async () => {
    const merchant = await v1Merchant(server);
    unreachable();
    const response = await v1(server, merchant.testKey)('GET', '/v1/rates?from=USD&to=NGN');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: { code: 'service_unavailable', message: FX_UNAVAILABLE } });
  });

  test('a pair the provider does not quote is the input refused, naming the field, not a 503 nor a 500', async () => {
    const merchant = await v1Merchant(server);
    jest.spyOn(fx, 'offer').mockImplementation(async (request) => {
      throw new FxPairNotQuoted(request.sourceCurrency, request.destinationCurrency, 'not traded');
    });
    const refusal = FxPairNotQuoted.refusal('USD', 'NGN');
    const rates = await v1(server, merchant.testKey)('GET', '/v1/rates?from=USD&to=NGN');
    expect(rates.status).toBe(422);
    expect(rates.body).toEqual({
      error: { code: 'validation_failed', message: expect.any(String), details: { to: [refusal] } },
    });
    const quote = await server.request('POST', `${PAYOUTS}/quote`, { headers: apiKey(merchant), body: quoteBody });
    expect(quote.status).toBe(400);
    expect(quote.body).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', errors: { destinationCurrency: [refusal] } },
    });
    expect(await count('payout_quotes', merchant.businessId)).toBe(0);
  });
});
