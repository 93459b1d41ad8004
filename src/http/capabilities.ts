/**
 * Capability URLs: pages whose token in the path is, alone, the right to use them (a payer's
 * checkout, its 3-D Secure step, a payment link, a collection's page, the sandbox KYC page that
 * approves a check). The one list of them: the hosted pages declare their routes from it
 * (`capabilityRoute`), and every log line loses the token of any path it names
 * (`redactCapabilities`: request URLs, messages, errors). A route with a `:token` parameter outside
 * this list refuses to register (`refuseUnredactedCapability`), so a new page cannot forget it.
 */
export const CAPABILITY_PAGES = ['/checkout/3ds', '/checkout', '/pay', '/collect', '/kyc'] as const;
export type CapabilityPage = (typeof CAPABILITY_PAGES)[number];

/** Route parameters that carry a capability. */
const CAPABILITY_PARAMS = ['token'];

/** Query-string parameters whose value is a capability or a credential, wherever they appear. */
const CAPABILITY_QUERY_PARAMS = [
  'token',
  'signUpToken',
  'apiKey',
  'api_key',
  'apiSecret',
  'key',
  'secret',
  'access_token',
  'code',
  // Stripe's, on the payer's return from 3-D Secure (/3ds/return/…): the PaymentIntent's client secret.
  'payment_intent_client_secret',
];

export const REDACTED = '[redacted]';

/** A hosted page's route pattern: `capabilityRoute('/kyc', '/approve')` is `/kyc/:token/approve`. */
export const capabilityRoute = (page: CapabilityPage, rest = '') => `${page}/:token${rest}`;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first, so `/checkout/3ds/<token>` is not read as `/checkout/<"3ds">`. A page's path
// starts a URL's path: the start of the text, after a space, quote or bracket, or after a scheme
// and host (`https://pay.example.com/kyc/…`); `/api/v1/business/checkout/session` is no page.
const pages = [...CAPABILITY_PAGES]
  .sort((a, b) => b.length - a.length)
  .map(escape)
  .join('|');
const PAGE_TOKEN = new RegExp(
  `((?:^|[\\s"'(<\\[=,;])(?:[a-z][a-z0-9+.-]*://[^/\\s"'<>]+)?)(${pages})/[^/?#\\s"'<>]+`,
  'gi',
);
const QUERY_TOKEN = new RegExp(`([?&](?:${CAPABILITY_QUERY_PARAMS.map(escape).join('|')})=)[^&#\\s"'<>]*`, 'gi');

/** `text` with the token of every capability page it names, and every capability query parameter's value, as `[redacted]`. */
export function redactCapabilities(text: string): string {
  return text.replace(PAGE_TOKEN, `$1$2/${REDACTED}`).replace(QUERY_TOKEN, `$1${REDACTED}`);
}

/**
 * Throws (at start) for a route that takes a capability parameter the log would not redact: its
 * page belongs in CAPABILITY_PAGES and its route is declared with `capabilityRoute`.
 */
export function refuseUnredactedCapability(url: string) {
  const params = [...url.matchAll(/:([A-Za-z0-9_]+)/g)]
    .map((match) => match[1])
    .filter((name) => CAPABILITY_PARAMS.includes(name));
  if (params.length === 0) return;
  const sample = url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    CAPABILITY_PARAMS.includes(name) ? 'capability_sample_value' : 'x',
  );
  if (redactCapabilities(sample).includes('capability_sample_value')) {
    throw new Error(
      `The route ${url} takes a capability (:${params.join(', :')}) that the log would show: add its page to CAPABILITY_PAGES (src/http/capabilities.ts) and declare it with capabilityRoute`,
    );
  }
}
