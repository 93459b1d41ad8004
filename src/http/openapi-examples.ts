/**
 * Request and response examples for the OpenAPI documents, so that Postman, portman and the
 * Swagger UI show a usable sample of every body. Each body's example is built from its schema:
 * a schema's own `examples` (set on the zod declaration, from docs/ where a page shows the object)
 * win; otherwise a value the field's name and format make plausible (`currency` → `"usd"`,
 * `createdAt` → a timestamp, `email` → an address). test/openapi.test.ts validates every example
 * against its schema, and Spectral's example rules run on both documents.
 */

type Schema = Record<string, any>;

const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;

/** Values by field name (the last segment of its path), for the fields whose schema says no more than `string`. */
const STRING_BY_NAME: Array<[RegExp, string]> = [
  [/^(currency|sourceCurrency|source_currency|settle_in|settleIn|serviceFeeCurrency)$/, 'usd'],
  [/^(destinationCurrency|destination_currency|dstCurrency)$/, 'ngn'],
  [/^(country|countryCode)$/, 'NG'],
  [/^dstAmount$/, '154225.00'],
  [/(fee|Fee)$/, '1.00'],
  [/(^|_)?(amount|Amount|balance|Balance|total|Total)$/, '100.00'],
  [/(Minor|_minor)$/, '10000'],
  [/^rate$/, '1542.25000000'],
  [/(At|_at)$/, '2026-04-15T10:00:00.000Z'],
  [/^(date|dueDate|startDate|endDate)$/, '2026-04-15'],
  [/(email|Email)$/, 'ada@example.com'],
  [/(url|Url|URL|_url)$/, 'https://merchant.example.com/webhooks/tessera'],
  [/^(phone|phoneNumber)$/, '+2348012345678'],
  [/^(label|name|accountName|holderName|businessName)$/, 'Ada Lovelace'],
  [/^(firstName)$/, 'Ada'],
  [/^(lastName)$/, 'Lovelace'],
  [/^(description|note|memo)$/, 'Invoice 1042'],
  [/^(reference|externalId|external_id)$/, 'order_1042'],
  [/^(reason|failureReason)$/, 'Requested by the customer'],
  [/^(bankName)$/, 'GTBank'],
  [/^(bankCode|sortCode|sort_code)$/, '058'],
  [/^(accountNumber|account_number)$/, '0123456789'],
  [/^(last4)$/, '4242'],
  [/^(brand)$/, 'visa'],
  [/^(pin)$/, '1234'],
  [/^(secret|signingSecret|webhookSecret|apiSecret)$/, 'whsec_3f9c2a7be1d84c0f'],
  [/^(apiKey)$/, 'bk_test_4f1d8a2c9b7e'],
  [/^(token|accessToken)$/, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJiaXoifQ.sig'],
  [/^(cursor|nextCursor|after|before)$/, 'eyJpZCI6IjUifQ'],
  [/^(id|.*Id|.*_id)$/, '3f0c1e5a-8d2b-4c7e-9a41-6b2f0d9e7c13'],
];

/** Nullable fields that a newly made object has null (a new payout is not settled, has no failure). */
const NULL_WHEN_NEW =
  /^(settledAt|archivedAt|deletedAt|canceledAt|cancelledAt|completedAt|failedAt|voidedAt|reviewedAt|reviewedBy|failureReason|providerRef|batchId|lastError|nextCursor|quoteId)$/;

const SAMPLE_BY_FORMAT: Record<string, string> = {
  'date-time': '2026-04-15T10:00:00.000Z',
  date: '2026-04-15',
  email: 'ada@example.com',
  uri: 'https://merchant.example.com/webhooks/tessera',
  url: 'https://merchant.example.com/webhooks/tessera',
  uuid: '3f0c1e5a-8d2b-4c7e-9a41-6b2f0d9e7c13',
};

/** A few strings to try, in order, when a pattern or a length bound rules out the first. */
const FALLBACK_STRINGS = [
  'example',
  'usd',
  'USD',
  'NG',
  '100.00',
  '100',
  'ada@example.com',
  'https://merchant.example.com',
  'example',
  'a',
];

function fitsString(schema: Schema, value: string): boolean {
  if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
  if (typeof schema.pattern === 'string') {
    try {
      if (!new RegExp(schema.pattern, 'u').test(value)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function sampleString(schema: Schema, name: string): string | undefined {
  const candidates = [
    ...(schema.format && SAMPLE_BY_FORMAT[schema.format] ? [SAMPLE_BY_FORMAT[schema.format]] : []),
    ...STRING_BY_NAME.filter(([pattern]) => pattern.test(name)).map(([, value]) => value),
    ...FALLBACK_STRINGS,
  ];
  const fitting = candidates.find((candidate) => fitsString(schema, candidate));
  if (fitting !== undefined) return fitting;
  if (typeof schema.minLength === 'number' && !schema.pattern) return 'x'.repeat(schema.minLength);
  return undefined;
}

function sampleNumber(schema: Schema, name: string): number {
  const integer = schema.type === 'integer';
  let value = /amount|Amount/.test(name)
    ? integer
      ? 10000
      : 100
    : /limit|take|first/.test(name)
      ? 20
      : /page/.test(name)
        ? 1
        : /month|Month/.test(name)
          ? 12
          : /year|Year/.test(name)
            ? 2030
            : /day|Day/.test(name)
              ? 15
              : 1;
  if (typeof schema.minimum === 'number' && value < schema.minimum) value = schema.minimum;
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum)
    value = schema.exclusiveMinimum + 1;
  if (typeof schema.maximum === 'number' && value > schema.maximum) value = schema.maximum;
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum)
    value = schema.exclusiveMaximum - 1;
  return integer ? Math.ceil(value) : value;
}

/** The first type of a schema's `type` that is not null. */
const typeOf = (schema: Schema): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((type: string) => type !== 'null') : schema.type;

/**
 * A value of `schema`, or undefined when none could be made (a pattern no candidate fits): the
 * test that validates every example then names the body, which gets an `examples` of its own.
 */
export function sampleOf(
  schema: Schema | undefined,
  components: Record<string, Schema>,
  name = '',
  depth = 0,
): unknown {
  if (!schema || typeof schema !== 'object' || depth > 12) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (typeof schema.$ref === 'string') {
    const target = SCHEMA_REF.exec(schema.$ref)?.[1];
    return target ? sampleOf(components[decodeURIComponent(target)], components, name, depth + 1) : undefined;
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((value: unknown) => value !== null) ?? schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) {
      if (NULL_WHEN_NEW.test(name) && (schema[key] as Schema[]).some((branch) => branch.type === 'null')) return null;
      const branches = (schema[key] as Schema[])
        .filter((branch) => branch.type !== 'null')
        // An amount is written as a decimal string where a body takes both ("100.50").
        .sort(
          (a, b) =>
            Number(/amount|Amount/.test(name) && b.type === 'string') -
            Number(/amount|Amount/.test(name) && a.type === 'string'),
        );
      for (const branch of branches.length > 0 ? branches : schema[key]) {
        const value = sampleOf(branch, components, name, depth + 1);
        if (value !== undefined) return value;
      }
      return undefined;
    }
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part: Schema) => sampleOf(part, components, name, depth + 1));
    return parts.every((part: unknown) => part && typeof part === 'object' && !Array.isArray(part))
      ? Object.assign({}, ...parts)
      : parts[0];
  }
  if (Array.isArray(schema.type) && schema.type.includes('null') && NULL_WHEN_NEW.test(name)) return null;
  switch (typeOf(schema)) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [property, propertySchema] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
        const value = sampleOf(propertySchema, components, property, depth + 1);
        if (value === undefined) {
          if ((schema.required ?? []).includes(property)) return undefined;
          continue;
        }
        result[property] = value;
      }
      if (
        Object.keys(result).length === 0 &&
        schema.additionalProperties &&
        typeof schema.additionalProperties === 'object'
      ) {
        const value = sampleOf(schema.additionalProperties, components, name, depth + 1);
        if (value !== undefined) return { orderId: value };
      }
      return result;
    }
    case 'array': {
      const item = sampleOf(schema.items, components, name.replace(/s$/, ''), depth + 1);
      const count = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 1, item === undefined ? 0 : 1);
      if (item === undefined) return count === 0 ? [] : undefined;
      return Array.from({ length: count }, () => item);
    }
    case 'string':
      return sampleString(schema, name);
    case 'integer':
    case 'number':
      return sampleNumber(schema, name);
    case 'boolean':
      return /^(livemode|deleted)$/.test(name) ? false : true;
    case 'null':
      return null;
    default:
      return schema.type === undefined && !schema.properties ? undefined : {};
  }
}

interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: unknown;
}
interface Operation {
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}

/**
 * The document with an `example` on each JSON request body and each JSON success answer of every
 * operation (an error answer shows the envelope's shape in its schema; its codes are an enum).
 */
export function withExamples<
  T extends { paths?: Record<string, unknown>; components?: { schemas?: Record<string, unknown> } },
>(document: T): T {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const exemplify = (media: MediaType | undefined) => {
    if (!media?.schema || media.example !== undefined || media.examples !== undefined) return media;
    const example = sampleOf(media.schema, components);
    return example === undefined ? media : { ...media, example };
  };
  const paths = Object.fromEntries(
    Object.entries((document.paths ?? {}) as Record<string, Record<string, Operation>>).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => {
          if (!operation || typeof operation !== 'object') return [method, operation];
          const json = operation.requestBody?.content?.['application/json'];
          const requestBody = json
            ? {
                ...operation.requestBody,
                content: { ...operation.requestBody!.content, 'application/json': exemplify(json) },
              }
            : operation.requestBody;
          const responses =
            operation.responses &&
            Object.fromEntries(
              Object.entries(operation.responses).map(([status, response]) => {
                const body = response?.content?.['application/json'];
                return [
                  status,
                  /^2\d\d$/.test(status) && body
                    ? { ...response, content: { ...response.content, 'application/json': exemplify(body) } }
                    : response,
                ];
              }),
            );
          return [
            method,
            { ...operation, ...(requestBody ? { requestBody } : {}), ...(responses ? { responses } : {}) },
          ];
        }),
      ),
    ]),
  );
  return { ...document, paths };
}
