import { FIELD_RULES, Kind, PATH_RULES, SKIPPED, looksLikeId } from './kinds';

/**
 * REST operations read from an OpenAPI document, each turned into request templates whose tenant
 * ids are placeholders (`{{kind}}`): in the path (every path parameter), in the query (every query
 * parameter that carries an id) and in the body (a minimal valid body built from the operation's
 * requestBody schema, or a known-good one from BODIES, with every id field a placeholder).
 */

export interface Operation {
  document: 'api' | 'v1';
  method: string;
  path: string;
  key: string;
  /** Request templates: `{{kind}}` placeholders stand for tenant ids. */
  templates: Array<{ path: string; body?: unknown }>;
  /** Placeholders of the templates, by kind, in order of appearance (one slot each). */
  slots: Kind[];
  /** Id parameters or fields whose kind no rule knows: the coverage check fails on them. */
  unknown: string[];
  skipped?: string;
  /** Whether the operation may change state (POST, PUT, PATCH, DELETE). */
  writes: boolean;
}

type Schema = Record<string, any>;
const placeholder = (kind: Kind) => `{{${kind}}}`;
export const PLACEHOLDER = /\{\{([a-z0-9_]+)\}\}/g;

/** The kind of an id field of an operation, `null` for a documented non-tenant id, `undefined` when no rule knows it. */
function fieldKind(path: string, field: string): Kind | null | undefined {
  const rule = FIELD_RULES.find((candidate) => candidate.path.test(path) && candidate.field === field);
  return rule ? rule.kind : undefined;
}

/**
 * Bodies the generic builder cannot make valid (a choice between fields, a PIN, a card), by
 * `METHOD path`; `{{kind}}` placeholders are tenant ids. Several bodies: each is probed.
 */
const CARD = { number: '4242424242424242', expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 2, cvv: '123' };
const SINGLE = (extra: Record<string, unknown> = {}) => ({
  payloadKind: 'SINGLE',
  payload: { recipientId: '{{payout_recipient}}', amount: '10.00', currency: 'USD' },
  pin: '246810',
  ...extra,
});
const BATCH = (extra: Record<string, unknown> = {}) => ({
  payloadKind: 'BATCH',
  payload: { items: [{ recipientId: '{{payout_recipient}}', amount: '10.00', currency: 'USD' }] },
  pin: '246810',
  ...extra,
});
const SCHEDULE = { name: 'Probe', cadence: 'WEEKLY', startAt: '2099-01-01T00:00:00.000Z', maxRunAmountUsd: '1000.00' };
export const BODIES: Record<string, unknown[]> = {
  'POST /api/v1/business/payment/charge': [{ amount: 5, currency: 'usd', paymentMethodId: '{{payment_method}}' }],
  'POST /api/v1/business/payouts/schedules': [
    { ...SCHEDULE, ...SINGLE() },
    { ...SCHEDULE, ...BATCH() },
  ],
  'PATCH /api/v1/business/payouts/schedules/{id}': [{ name: 'Probe' }, SINGLE(), BATCH()],
  'POST /api/v1/business/payouts': [
    { recipientId: '{{payout_recipient}}', amount: '1.00', currency: 'USD', quoteId: '{{payout_quote}}' },
  ],
  'POST /api/v1/business/payouts/batches': [
    { items: [{ recipientId: '{{payout_recipient}}', amount: '1.00', currency: 'USD' }] },
  ],
  'POST /api/v1/treasury/payouts': [
    {
      partnerEndUserId: '{{treasury_end_user}}',
      partnerWalletId: '{{treasury_wallet}}',
      amount: '1.00',
      destinationType: 'bank_account',
      destination: { accountNumber: '000123456789', routingNumber: '021000021', accountName: 'Probe', country: 'US' },
    },
  ],
  'POST /api/v1/events/{id}/replay': [{}, { endpointId: '{{webhook_endpoint}}' }],
  'POST /api/v1/business/customers/{customerId}/payment-methods': [{ card: CARD }],
  'POST /api/v1/business/payments/{id}/refunds': [{ amount: '0.01' }],
  'POST /api/v1/business/sandbox/disputes/{id}/resolve': [{ won: true }],
  'POST /api/v1/business/sandbox/payouts/{id}/advance': [{ status: 'SUBMITTED' }],
  'POST /api/v1/business/payouts/{id}/reject': [{ reason: 'probe' }],
  'POST /api/v1/treasury/users/{id}/kyc/sandbox-reject': [{ reasons: ['probe'] }],
  'POST /api/v1/treasury/users/{id}/wallets': [{ currency: 'eur' }],
  'POST /api/v1/treasury/sandbox/users/{id}/wallets/{walletId}/deposit': [{ amount: '1.00' }],
  'POST /api/v1/business/sandbox/collections/{id}/pay': [{ amount: 5000 }],
  'POST /api/v1/treasury/webhook-endpoints/{id}/rotate-secret': [{ gracePeriodHours: 1 }],
  'PATCH /api/v1/webhook-endpoints/{id}': [{ description: 'probe' }],
  'PATCH /api/v1/treasury/webhook-endpoints/{id}': [{ description: 'probe' }],
  'PATCH /api/v1/business/customers/{customerId}': [{ firstName: 'Probe' }],
  'PATCH /api/v1/business/fraud/rules/{id}': [{ enabled: false }],
  // Operations without an id (called only to read their answers): bodies that change little.
  'PUT /api/v1/business/config': [{ webhookUrl: 'http://127.0.0.1:9/probe' }],
  'POST /api/v1/business/sandbox/clock/advance': [{ seconds: 1 }],
  'PUT /api/v1/business/payouts/pin': [{ pin: '246810', currentPin: '246810' }],
  'POST /api/v1/webhook-endpoints': [{ url: 'http://127.0.0.1:9/probe', events: ['*'] }],
  'POST /api/v1/treasury/webhook-endpoints': [{ url: 'http://127.0.0.1:9/probe', events: ['*'] }],
  'POST /api/v1/business/fraud/rules': [{ type: 'card_country', countries: ['KP'] }],
  'POST /api/v1/business/fraud/blocklist': [{ type: 'ip', value: '192.0.2.77' }],
  'POST /api/v1/business/checkout/session': [{ amount: 5, currency: 'usd', successUrl: 'https://example.com/ok' }],
  'POST /api/v1/business/payment/session': [{ amount: 5, currency: 'usd', successUrl: 'https://example.com/ok' }],
  'POST /api/v1/business/payment-links': [{ name: 'Probe', amount: 5, currency: 'usd' }],
  'POST /api/v1/business/invoices': [{ customerEmail: 'probe@example.com', currency: 'usd', amount: 5 }],
  'POST /api/v1/business/payouts/recipients': [
    {
      label: 'Probe',
      details: {
        rail: 'LOCAL_BANK',
        country: 'NG',
        currency: 'NGN',
        bankCode: '058',
        bankName: 'GTBank',
        accountNumber: '0123459876',
        accountName: 'Probe',
      },
    },
  ],
  'POST /api/v1/business/payouts/quote': [
    { amount: '10.00', currency: 'USD', destinationCurrency: 'NGN', country: 'NG', rail: 'LOCAL_BANK' },
  ],
  'POST /api/v1/business/collections': [
    {
      amount: 5_000,
      currency: 'ghs',
      country: 'GH',
      rail: 'momo',
      customer: { phone: '+233241234567', networkId: 'mtn-gh' },
    },
  ],
  'POST /api/v1/treasury/users': [{ externalId: 'probe-ext', email: 'probe@example.com' }],
  'POST /api/v1/business/sandbox/wallets/fund': [{ currency: 'USD', amount: '1.00' }],
  'POST /api/v1/business/customers': [{ email: 'probe-customer@example.com' }],
  'POST /v1/payments': [{ amount: 100, currency: 'usd' }],
  'POST /v1/transfers': [
    {
      source_amount: 100,
      source_currency: 'USD',
      destination_currency: 'NGN',
      recipient: { name: 'Probe', sort_code: '058', account_number: '0123456789', country: 'NG' },
    },
  ],
};

/** Query values the generic builder uses for required query parameters that carry no id. */
const QUERY_VALUES: Record<string, string> = { from: 'USD', to: 'NGN', country: 'NG' };

function resolve(document: Schema, schema: Schema | undefined): Schema | undefined {
  if (schema?.$ref) return resolve(document, document.components?.schemas?.[schema.$ref.split('/').pop()]);
  return schema;
}

/** Every property path of a schema (through $ref, anyOf, oneOf, allOf and arrays), `[]` for items. */
function propertyPaths(document: Schema, schema: Schema | undefined, prefix = '', seen = new Set<Schema>()): string[] {
  const resolved = resolve(document, schema);
  if (!resolved || seen.has(resolved)) return [];
  seen.add(resolved);
  const paths: string[] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const branch of resolved[key] ?? []) paths.push(...propertyPaths(document, branch, prefix, seen));
  for (const [name, property] of Object.entries<Schema>(resolved.properties ?? {})) {
    paths.push(`${prefix}${name}`);
    paths.push(...propertyPaths(document, property, `${prefix}${name}.`, seen));
  }
  if (resolved.items) paths.push(...propertyPaths(document, resolved.items, prefix.replace(/\.$/, '[].'), seen));
  return paths;
}

/** A minimal value of a schema: required properties only, the first enum value or branch, a value in range. */
function minimal(document: Schema, schema: Schema | undefined, name = ''): unknown {
  const resolved = resolve(document, schema) ?? {};
  if (resolved.const !== undefined) return resolved.const;
  if (resolved.enum) return resolved.enum[0];
  for (const key of ['anyOf', 'oneOf']) {
    if (resolved[key])
      return minimal(
        document,
        resolved[key].find((branch: Schema) => resolve(document, branch)?.type !== 'null') ?? resolved[key][0],
        name,
      );
  }
  if (resolved.allOf)
    return Object.assign({}, ...resolved.allOf.map((branch: Schema) => minimal(document, branch, name)));
  const type = Array.isArray(resolved.type)
    ? resolved.type.find((candidate: string) => candidate !== 'null')
    : resolved.type;
  if (type === 'object' || resolved.properties) {
    const value: Record<string, unknown> = {};
    for (const property of resolved.required ?? [])
      value[property] = minimal(document, resolved.properties?.[property], property);
    return value;
  }
  if (type === 'array') return [minimal(document, resolved.items, name)];
  if (type === 'integer' || type === 'number') return Math.max(1, resolved.minimum ?? 1);
  if (type === 'boolean') return true;
  if (resolved.format === 'email' || /email/i.test(name)) return 'probe@example.com';
  if (resolved.format === 'uri' || /url/i.test(name)) return 'https://example.com/probe';
  if (resolved.format === 'date-time') return '2099-01-01T00:00:00.000Z';
  if (/amount/i.test(name)) return '1.00';
  if (/currency/i.test(name)) return 'usd';
  return 'probe'.padEnd(resolved.minLength ?? 0, 'x');
}

/** Sets `value` at a dotted path with `[]` for the first array item, where the body has that place. */
function place(body: any, path: string, value: string) {
  const parts = path.replace(/\[\]/g, '.0').split('.');
  let at = body;
  for (const part of parts.slice(0, -1)) {
    if (at?.[part] === undefined) return;
    at = at[part];
  }
  if (at && typeof at === 'object') at[parts[parts.length - 1]] = value;
}

/** The operations of a document, with their templates and slots. */
export function operationsOf(document: Schema, name: 'api' | 'v1'): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Schema>(document.paths)) {
    for (const [lower, operation] of Object.entries<Schema>(methods)) {
      const method = lower.toUpperCase();
      const key = `${method} ${path}`;
      const unknown: string[] = [];
      // Path parameters: the kind from the path up to each one (without /api, earlier parameters as {}).
      let templatePath = '';
      for (const segment of path.split('/').slice(1)) {
        const parameter = /^\{(.+)\}$/.exec(segment);
        if (!parameter) {
          templatePath += `/${segment}`;
          continue;
        }
        const prefix = `${templatePath.replace(/\{\{[a-z0-9_]+\}\}/g, '{}')}/${segment}`.replace(/^\/api\/v1/, '/v1');
        const kind = PATH_RULES.find(([pattern]) => pattern.test(prefix))?.[1];
        if (!kind) unknown.push(`path parameter ${parameter[1]} of ${key}`);
        templatePath += `/${kind ? placeholder(kind) : segment}`;
      }
      // Query parameters that carry ids.
      const query: string[] = [];
      for (const parameter of (operation.parameters ?? []).filter((candidate: Schema) => candidate.in === 'query')) {
        const kind = fieldKind(path, parameter.name);
        if (kind) query.push(`${parameter.name}=${placeholder(kind)}`);
        else if (kind === undefined && looksLikeId(parameter.name))
          unknown.push(`query parameter ${parameter.name} of ${key}`);
        else if (parameter.required)
          query.push(`${parameter.name}=${encodeURIComponent(QUERY_VALUES[parameter.name] ?? 'probe')}`);
      }
      // Body fields that carry ids.
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      const idFields: Array<[string, Kind]> = [];
      for (const field of new Set(propertyPaths(document, bodySchema))) {
        const last = field.split('.').pop()!.replace('[]', '');
        if (!looksLikeId(last)) continue;
        const kind = fieldKind(path, field);
        if (kind === undefined) unknown.push(`body field ${field} of ${key}`);
        if (kind) idFields.push([field, kind]);
      }
      let bodies: unknown[] | undefined = BODIES[key];
      if (!bodies && operation.requestBody) {
        const body = minimal(document, bodySchema) as Record<string, unknown>;
        for (const [field, kind] of idFields) place(body, field, placeholder(kind));
        bodies = [body];
      }
      // An id field the bodies never carry is not probed: a coverage failure like an unknown kind.
      const carried = JSON.stringify(bodies ?? []);
      for (const [field, kind] of idFields)
        if (!carried.includes(placeholder(kind))) unknown.push(`body field ${field} of ${key} (no body carries it)`);
      const fullPath = query.length ? `${templatePath}?${query.join('&')}` : templatePath;
      const templates = (bodies ?? [undefined]).map((body) => ({ path: fullPath, body }));
      const slots = templates.flatMap((template) =>
        [...JSON.stringify(template).matchAll(PLACEHOLDER)].map((match) => match[1] as Kind),
      );
      operations.push({
        document: name,
        method,
        path,
        key,
        templates,
        slots: [...new Set(slots)],
        unknown,
        skipped: SKIPPED[key],
        writes: method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS',
      });
    }
  }
  return operations;
}
