import { TestMerchant, TestServer, startTestServer } from './support/harness';

describe('Authentication (interface document, Authentication)', () => {
  let server: TestServer;
  let merchant: TestMerchant;

  beforeAll(async () => {
    server = await startTestServer();
    merchant = await server.signUp();
  });
  afterAll(async () => server.close());

  test('token exchange returns accessToken, tokenType Bearer, expiresIn 3600, businessId and businessName', async () => {
    const response = await server.request('POST', '/api/v1/business/auth/token', {
      body: { apiKey: merchant.apiKey, apiSecret: merchant.apiSecret },
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(response.body.data).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 3600,
      businessId: merchant.businessId,
      businessName: expect.stringMatching(/^Business /),
    });
  });

  test.each([
    ['apiKey', { apiSecret: 'bs_test_x' }],
    ['apiSecret', { apiKey: 'bk_test_x' }],
  ])('token exchange answers 400 when %s is missing', async (field, body) => {
    const response = await server.request('POST', '/api/v1/business/auth/token', { body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: expect.any(String), statusCode: 400, errors: { [field]: expect.any(Array) } },
    });
  });
});
