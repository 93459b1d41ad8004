import { refuseUnredactedCapability } from '../src/http/capabilities';
import { errorForLog } from '../src/http/logging';
import { TestServer, capturedLog, startTestServer } from './support/harness';
import { CARDS, api, cardForm, createSession, page, pathOf } from './support/checkout';
import { USERS, apiKey as treasuryKey, createEndUser, treasuryPartner } from './support/treasury';

/**
 * Every hosted page's capability token stays out of every log line (issue 26, finding 4): the
 * request URL, its query string, a Referer naming a page, a 404 under a page's path and an error's
 * message all keep the page's route with `[redacted]` where the token was.
 */
describe('capability tokens in the log', () => {
  let server: TestServer;
  const { logStream, lines } = capturedLog();

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'debug', publicBaseUrl: 'https://pay.tessera.test' }, undefined, {
      logStream,
    });
  });
  afterAll(async () => server.close());

  const tokenOf = (url: string) => pathOf(url).split('/')[2];
  const logged = () => lines.map((line) => JSON.stringify(line)).join('\n');

  test('no log line holds the token of a checkout, 3-D Secure, payment-link, collection or KYC page', async () => {
    const merchant = await server.signUp();
    const tokens: string[] = [];

    // Checkout: the page, a 3-D Secure payment (its challenge page and the completion), and a local rail chosen there.
    const session = await createSession(server, merchant, { amount: 25, currency: 'usd' });
    const checkout = pathOf(session.checkoutUrl);
    tokens.push(tokenOf(session.checkoutUrl));
    expect((await page(server, 'GET', checkout)).status).toBe(200);
    const challenged = await page(server, 'POST', checkout, cardForm(CARDS.threeDSSuccess));
    expect(challenged.status).toBe(303);
    expect(challenged.location).toMatch(/^\/checkout\/3ds\//);
    expect((await page(server, 'GET', challenged.location!)).status).toBe(200);
    await page(server, 'GET', `${checkout}/complete`);

    const localRails = await createSession(server, merchant, {
      amount: '50000.00',
      currency: 'ngn',
      paymentMethods: ['bank'],
    });
    tokens.push(tokenOf(localRails.checkoutUrl));
    const started = await page(server, 'POST', `${pathOf(localRails.checkoutUrl)}/collection`, { rail: 'bank' });
    expect(started.location).toMatch(/^\/collect\//);
    tokens.push(tokenOf(started.location!));
    expect((await page(server, 'GET', started.location!)).status).toBe(200);

    // A collection's own hosted page (hosted_page instructions).
    const collection = await api(server, merchant)('POST', '/api/v1/business/collections', {
      amount: 25_000,
      currency: 'zar',
      country: 'ZA',
      rail: 'eft',
    });
    expect(collection.status).toBe(201);
    tokens.push(tokenOf(collection.body.data.instructions.url));
    expect((await page(server, 'GET', pathOf(collection.body.data.instructions.url))).status).toBe(200);

    // A payment link's public URL (which opens a checkout session of its own).
    const link = await api(server, merchant)('POST', '/api/v1/business/payment-links', {
      name: 'Gift',
      amount: '10',
      currency: 'usd',
    });
    expect(link.status).toBe(201);
    tokens.push(tokenOf(link.body.data.url));
    const visited = await page(server, 'GET', pathOf(link.body.data.url));
    expect(visited.status).toBe(303);
    tokens.push(tokenOf(visited.location!));

    // The sandbox KYC page, its decision, a path under it no route serves, a query string and a Referer.
    const partner = await treasuryPartner(server);
    const user = await createEndUser(server, partner);
    const kyc = await server.request('POST', `${USERS}/${user.id}/kyc`, { headers: treasuryKey(partner), body: {} });
    const kycPath = pathOf(kyc.body.data.kycLinkUrl);
    tokens.push(tokenOf(kyc.body.data.kycLinkUrl));
    expect((await page(server, 'GET', kycPath)).status).toBe(200);
    expect((await server.request('GET', `${kycPath}/no-such-page`)).status).toBe(404);
    await server.request('GET', `/kyc?token=${tokens.at(-1)}`);
    await server.request('GET', '/healthz', { headers: { referer: `https://pay.tessera.test${kycPath}` } });
    expect((await page(server, 'POST', `${kycPath}/approve`, {})).status).toBeLessThan(500);

    expect(tokens.every((token) => token && token.length > 20)).toBe(true);
    const text = logged();
    for (const page of [
      '/checkout/[redacted]',
      '/checkout/3ds/[redacted]',
      '/collect/[redacted]',
      '/pay/[redacted]',
      '/kyc/[redacted]',
    ]) {
      expect(text).toContain(page);
    }
    for (const token of tokens) expect(text).not.toContain(token);
  });

  test("an error's message and stack lose the token of a page they name", () => {
    const token = 'kyc_test_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const logged = JSON.stringify(
      errorForLog(
        new Error(`No route for GET /kyc/${token}/x; referer https://pay.example.com/collect/col_test_${token}`),
      ),
    );
    expect(logged).not.toContain(token);
    expect(logged).toContain('/kyc/[redacted]');
  });

  test('a route taking a capability token outside the list of capability pages refuses to register', () => {
    expect(() => refuseUnredactedCapability('/invite/:token')).toThrow(/CAPABILITY_PAGES/);
    expect(() => refuseUnredactedCapability('/api/v1/business/things/:token')).toThrow(/CAPABILITY_PAGES/);
    expect(() => refuseUnredactedCapability('/kyc/:token/approve')).not.toThrow();
    expect(() => refuseUnredactedCapability('/api/v1/business/payouts/:id')).not.toThrow();
  });
});
