import { TestMerchant, TestServer } from './harness';

/** Helpers shared by the checkout, payment link, invoice and recurring gift tests. */

export const FUTURE_YEAR = String(new Date().getUTCFullYear() + 3);

export const CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  threeDSSuccess: '4000002500003155',
  threeDSFailure: '4000008260003178',
  insufficientFunds: '4000000000009995',
  badLuhn: '4242424242424241',
};

export interface PageResponse {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
}

/** A request to a hosted page, without following redirects. */
export async function page(
  server: TestServer,
  method: 'GET' | 'POST',
  url: string,
  form?: Record<string, string>,
): Promise<PageResponse> {
  const target = url.startsWith('http') ? url : `${server.baseUrl}${url}`;
  const response = await fetch(target, {
    method,
    redirect: 'manual',
    headers: form ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  return {
    status: response.status,
    headers: response.headers,
    body: await response.text(),
    location: response.headers.get('location'),
  };
}

export const cardForm = (number: string, extra: Record<string, string> = {}) => ({
  number,
  expiryMonth: '12',
  expiryYear: FUTURE_YEAR,
  cvv: '123',
  ...extra,
});

/** The path of a URL handed out by Tessera (publicBaseUrl is not the test server's address), or of a path itself (a hosted page's redirect). */
export const pathOf = (url: string) => {
  const parsed = new URL(url, 'http://path.invalid');
  return parsed.pathname + parsed.search;
};

export function api(server: TestServer, merchant: TestMerchant | string) {
  const key = typeof merchant === 'string' ? merchant : merchant.apiKey;
  return (method: string, path: string, body?: unknown) =>
    server.request(method, path, { headers: { 'x-api-key': key }, ...(body === undefined ? {} : { body }) });
}

export async function createSession(server: TestServer, merchant: TestMerchant, body: Record<string, unknown> = {}) {
  const response = await api(server, merchant)('POST', '/api/v1/business/checkout/session', {
    amount: 25,
    currency: 'usd',
    customerEmail: 'payer@example.com',
    successUrl: 'https://shop.example.com/thanks',
    ...body,
  });
  if (response.status !== 201) throw new Error(`session creation failed: ${JSON.stringify(response.body)}`);
  return response.body.data;
}

export const eventsOf = (server: TestServer, businessId: string, type: string): Promise<Array<{ data: any }>> =>
  server.runtime.dataSource.query(`SELECT data FROM events WHERE business_id = $1 AND type = $2 ORDER BY created_at`, [
    businessId,
    type,
  ]);

export { waitFor } from './harness';
