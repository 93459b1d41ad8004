import {
  GraphQLArgument,
  GraphQLField,
  GraphQLInputType,
  GraphQLNamedType,
  GraphQLObjectType,
  GraphQLSchema,
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import type { TopicName } from '../../../src/domain/events/pubsub';
import { CollectionTopic } from '../../../src/domain/collections/collections.topics';
import { CheckoutTopic } from '../../../src/domain/checkout/checkout.topics';
import { EventTopic } from '../../../src/domain/events/events.topics';
import { LedgerTopic } from '../../../src/domain/ledger/ledger.topics';
import { PaymentTopic } from '../../../src/domain/payments/payments.topics';
import { PayoutTopic } from '../../../src/domain/payouts/payouts.topics';
import { TreasuryTopic } from '../../../src/domain/treasury/treasury.topics';
import { WebhookTopic } from '../../../src/domain/webhooks/webhooks.topics';
import { TestServer, collect, overSocket } from '../../support/harness';
import { ANY_KIND_OF_TABLE, GRAPHQL_RULES, Kind, looksLikeId } from './kinds';
import { IdSource, Tally, changes, classOf, revealed, secretsOf, snapshot, unknownLike, victimIdsOf } from './tally';
import { Caller, Tenant } from './world';

/**
 * GraphQL probes generated from the running server's schema (introspection): every Query and
 * Mutation root field with an ID argument (top level or inside an input object) is called with
 * another tenant's (or mode's) ids and with ids that name no row; the answers must be the same
 * (NOT_FOUND for both), hold nothing of the victim and change nothing. Query fields also over
 * graphql-ws; every Subscription field is probed by publishing the victim's changes.
 */

type Slot = { path: string; kind: Kind };
interface FieldProbe {
  root: 'Query' | 'Mutation';
  name: string;
  document: string;
  /** Variables with `{{kind}}` placeholders for ids. */
  variables: Record<string, unknown>;
  slots: Slot[];
  unknown: string[];
}

/** Root fields that take no tenant id and are not called as the other tenant, with why. */
export const GRAPHQL_SKIPPED: Record<string, string> = {
  signUp: 'starts a new business: no tenant id, answers only a sign-up token',
  confirmSignUp: 'finishes a sign-up with its token and mailed code: no tenant id',
  signIn: "signs in with the caller's own email and password: no tenant id",
  regenerateApiKey: "replaces the caller's own key (takes a mode, no id); it would end the probing credential",
  createLiveCredentials: "issues the caller's own live credentials: no tenant id",
  setPayoutPin:
    "sets the caller's own PIN: no tenant id, and changing it would refuse the probes' later schedule bodies",
  setServerToServerCharging: "switches the caller's own setting: no tenant id, answers whether it is on",
};

/** Values for arguments and input fields that carry no id, by name; otherwise by type. */
const VALUES: Record<string, unknown> = {
  amount: '1.00',
  currency: 'usd',
  reason: 'probe',
  reasons: 'probe',
  status: undefined,
  seconds: 1,
  gracePeriodHours: 1,
  email: 'probe@example.com',
  url: 'http://127.0.0.1:9/probe',
  pin: '246810',
  won: true,
  countries: ['KP'],
  level: 'basic',
  role: 'VIEWER',
};

/** Variables the generic builder cannot make valid, by root field; `{{kind}}` placeholders are ids. */
const CARD = { number: '4242424242424242', expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 2, cvv: '123' };
const OVERRIDES: Record<string, Record<string, unknown>> = {
  chargeCard: { input: { amount: '1.00', currency: 'usd', paymentMethodId: '{{payment_method}}' } },
  createPayout: {
    input: { recipientId: '{{payout_recipient}}', amount: '1.00', currency: 'USD', quoteId: '{{payout_quote}}' },
  },
  createPayoutBatch: { input: { items: [{ recipientId: '{{payout_recipient}}', amount: '1.00', currency: 'USD' }] } },
  createTreasuryPayout: {
    input: {
      partnerEndUserId: '{{treasury_end_user}}',
      partnerWalletId: '{{treasury_wallet}}',
      amount: '1.00',
      destinationType: 'BANK_ACCOUNT',
      destination: { accountNumber: '000123456789', routingNumber: '021000021', accountName: 'Probe', country: 'US' },
    },
  },
  advanceSandboxPayout: { input: { id: '{{payout}}', status: 'SUBMITTED' } },
  // No id: called as the other tenant over every month the probes' payments can fall in (from < to, 1,000 buckets at most).
  paymentVolume: { from: '2020-01-01T00:00:00.000Z', to: '2099-01-01T00:00:00.000Z', interval: 'MONTH' },
  createTreasuryWallet: { input: { endUserId: '{{treasury_end_user}}', currency: 'eur' } },
  attachPaymentMethod: { input: { customerId: '{{customer}}', card: CARD } },
  paySandboxCollection: { input: { id: '{{collection}}', amount: '5000' } },
  createPayoutSchedule: {
    input: {
      name: 'Probe',
      cadence: 'WEEKLY',
      startAt: '2099-01-01T00:00:00.000Z',
      maxRunAmountUsd: '1000.00',
      pin: '246810',
      payloadKind: 'SINGLE',
      payload: { recipientId: '{{payout_recipient}}', amount: '10.00', currency: 'USD' },
    },
  },
};

const placeholder = (kind: Kind) => `{{${kind}}}`;
const PLACEHOLDER = /\{\{([a-z0-9_]+)\}\}/g;

function kindOfArgument(field: string, argument: string, parentInput?: string): Kind | null | undefined {
  for (const key of [parentInput ? `${parentInput}.${argument}` : `${field}.${argument}`, `*.${argument}`])
    if (key in GRAPHQL_RULES) return GRAPHQL_RULES[key];
  if (argument === 'id' && !parentInput && field in GRAPHQL_RULES) return GRAPHQL_RULES[field];
  return undefined;
}

const isIdType = (type: GraphQLInputType) => getNamedType(type).name === 'ID';

/** A minimal value of an input type; ids become placeholders (slots), unknown ids are reported. */
function valueOf(
  type: GraphQLInputType,
  name: string,
  field: string,
  path: string,
  slots: Slot[],
  unknown: string[],
  parentInput?: string,
  depth = 0,
): unknown {
  if (isIdType(type) || (looksLikeId(name) && getNamedType(type).name === 'String')) {
    const kind = kindOfArgument(field, name, parentInput);
    if (kind === undefined) unknown.push(`${field}: ${path}`);
    if (!kind) return isNonNullType(type) ? 'probe' : undefined;
    slots.push({ path, kind });
    return isListType(isNonNullType(type) ? type.ofType : type) ? [placeholder(kind)] : placeholder(kind);
  }
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const item = valueOf(inner.ofType, name, field, `${path}[]`, slots, unknown, parentInput, depth);
    return item === undefined ? [] : [item];
  }
  if (name in VALUES && VALUES[name] !== undefined) return VALUES[name];
  if (isEnumType(inner)) return inner.getValues()[0].value;
  if (isInputObjectType(inner)) {
    const value: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(inner.getFields())) {
      // Optional fields only when they carry ids (each is a slot), within reason.
      const carriesId = isIdType(child.type) || looksLikeId(key);
      if (!isNonNullType(child.type) && !(carriesId && depth < 3)) continue;
      const childValue = valueOf(child.type, key, field, `${path}.${key}`, slots, unknown, inner.name, depth + 1);
      if (childValue !== undefined) value[key] = childValue;
    }
    return value;
  }
  if (isScalarType(inner)) {
    switch (inner.name) {
      case 'Int':
        return 1;
      case 'Float':
        return 1;
      case 'Boolean':
        return true;
      case 'DateTimeISO':
        return '2099-01-01T00:00:00.000Z';
      case 'JSONObject':
        return {};
      default:
        return /amount/i.test(name)
          ? '1.00'
          : /currency/i.test(name)
            ? 'usd'
            : /url/i.test(name)
              ? 'http://127.0.0.1:9/probe'
              : 'probe';
    }
  }
  return 'probe';
}

const typeText = (type: GraphQLInputType): string => type.toString();

/** Scalars of the type, and `id`/`__typename` of its object fields (and connection nodes): enough to see a leak. */
function selection(type: GraphQLNamedType, depth = 0): string {
  // An interface (node, nodes): what every implementation has; an answer that differs from an unknown id's is caught as distinguishable.
  if (isInterfaceType(type)) return `__typename ${Object.keys(type.getFields()).join(' ')}`;
  if (!isObjectType(type)) return '';
  const parts: string[] = ['__typename'];
  for (const [name, field] of Object.entries((type as GraphQLObjectType).getFields())) {
    if (field.args.some((argument) => isNonNullType(argument.type))) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) parts.push(name);
    else if (!isObjectType(named)) parts.push(`${name} { __typename }`);
    else if (depth < 2 && (name === 'edges' || name === 'node' || depth === 0)) {
      const inner = selection(named, depth + 1);
      if (inner) parts.push(`${name} { ${inner} }`);
    }
  }
  return parts.join(' ');
}

function fieldProbe(root: 'Query' | 'Mutation', field: GraphQLField<unknown, unknown>): FieldProbe {
  const slots: Slot[] = [];
  const unknown: string[] = [];
  const variables: Record<string, unknown> = {};
  const argumentsNeeded = field.args.filter(
    (argument: GraphQLArgument) =>
      isNonNullType(argument.type) ||
      isIdType(argument.type) ||
      looksLikeId(argument.name) ||
      (isInputObjectType(getNamedType(argument.type)) && argument.name === 'filter'),
  );
  for (const argument of argumentsNeeded) {
    const value = valueOf(argument.type, argument.name, field.name, argument.name, slots, unknown);
    if (value !== undefined) variables[argument.name] = value;
  }
  const override = OVERRIDES[field.name];
  const finalVariables = override ?? variables;
  const finalSlots = override
    ? [...JSON.stringify(override).matchAll(PLACEHOLDER)].map((match) => ({ path: match[0], kind: match[1] as Kind }))
    : slots;
  const used = field.args.filter((argument) => argument.name in finalVariables);
  const declarations = used.map((argument) => `$${argument.name}: ${typeText(argument.type)}`).join(', ');
  const call = used.map((argument) => `${argument.name}: $${argument.name}`).join(', ');
  const select = selection(getNamedType(field.type));
  const document = `${root === 'Query' ? 'query' : 'mutation'} Probe${declarations ? `(${declarations})` : ''} { ${field.name}${call ? `(${call})` : ''}${select ? ` { ${select} }` : ''} }`;
  return { root, name: field.name, document, variables: finalVariables, slots: finalSlots, unknown };
}

interface Outcome {
  code: string | null;
  hasData: boolean;
  text: string;
  internal: boolean;
}

/**
 * The first error's code and where it arose: a row of another tenant that the root field found
 * but a nested field then refused (NOT_FOUND at `webhookEndpoint.deliveries`) is not the answer
 * to an id that does not exist (NOT_FOUND at `webhookEndpoint`).
 */
const outcomeOf = (body: any): Outcome => {
  // A mutation's payload answers a refusal the caller can fix as userErrors: its first code, at the root field.
  const [root, payload] = Object.entries(body?.data ?? {})[0] ?? [];
  const userError = (payload as any)?.userErrors?.[0];
  const code = body?.errors?.[0]
    ? `${body.errors[0].extensions?.code} at ${(body.errors[0].path ?? []).join('.')}`
    : userError
      ? `${userError.code} at ${root}`
      : body?.success === false
        ? body.error?.code
        : null;
  const values = (value: unknown) =>
    value !== null && typeof value === 'object' && Array.isArray((value as any).userErrors)
      ? Object.entries(value)
          .filter(([key]) => key !== 'userErrors' && key !== '__typename')
          .map(([, inner]) => inner)
      : [value];
  return {
    code,
    hasData:
      body?.data != null &&
      Object.values(body.data)
        .flatMap(values)
        .some((value) => value !== null),
    text: JSON.stringify(body),
    internal:
      (body?.errors ?? []).some((error: any) => error?.extensions?.code === 'INTERNAL_SERVER_ERROR') ||
      (body?.error?.statusCode ?? 0) >= 500,
  };
};

const fill = (value: unknown, idFor: (kind: Kind) => string) =>
  JSON.parse(JSON.stringify(value).replace(PLACEHOLDER, (_, kind: Kind) => idFor(kind)));

interface GraphQLVariant extends IdSource {
  name: string;
  caller: Caller;
  ownMode: 'test' | 'live';
}

export async function graphqlProbes(
  server: TestServer,
  tally: Tally,
  a: Tenant,
  b: Tenant,
  scale: 'ci' | 'full',
  idsPerKind: number,
): Promise<{ unprobed: string[]; unknown: string[] }> {
  const introspection = await server.graphql(getIntrospectionQuery(), {}, b.callers.testKey);
  const schema: GraphQLSchema = buildClientSchema(introspection.body.data);
  const probes: FieldProbe[] = [];
  for (const root of ['Query', 'Mutation'] as const) {
    for (const field of Object.values(
      root === 'Query' ? schema.getQueryType()!.getFields() : schema.getMutationType()!.getFields(),
    ))
      probes.push(fieldProbe(root, field));
  }
  const subscriptionFields = Object.values(schema.getSubscriptionType()?.getFields() ?? {});
  tally.graphqlFieldsPresent = probes.length + subscriptionFields.length;
  const unknown = [
    ...probes.flatMap((probe) => probe.unknown),
    ...subscriptionFields
      .filter((field) => !(field.name in SUBSCRIPTIONS))
      .map((field) => `subscription ${field.name}`),
  ];
  // The lists name fields that exist.
  const names = new Set([...probes.map((probe) => probe.name), ...subscriptionFields.map((field) => field.name)]);
  const listed = [
    ...Object.keys(GRAPHQL_SKIPPED),
    ...Object.keys(ANY_KIND_OF_TABLE).filter((key) => !key.includes(' ')),
    ...Object.keys(SUBSCRIPTIONS),
  ];
  unknown.push(
    ...listed.filter((name) => !names.has(name)).map((name) => `${name} is listed but the schema has no such field`),
  );

  const variants: GraphQLVariant[] = [
    {
      name: `${b.name} testKey -> ${a.name} test ids`,
      owner: b,
      caller: 'testKey',
      ownMode: 'test',
      victim: a,
      victimMode: 'test',
    },
    {
      name: `${b.name} dashboard -> ${a.name} test ids`,
      owner: b,
      caller: 'dashboard',
      ownMode: 'test',
      victim: a,
      victimMode: 'test',
    },
    {
      name: `${b.name} liveKey -> ${a.name} live ids`,
      owner: b,
      caller: 'liveKey',
      ownMode: 'live',
      victim: a,
      victimMode: 'live',
    },
    {
      name: `${b.name} dashboard naming ${a.name}'s business -> ${a.name} test ids`,
      owner: b,
      caller: 'dashboardNamingOther',
      ownMode: 'test',
      victim: a,
      victimMode: 'test',
    },
    {
      name: `${a.name} testKey -> own live ids`,
      owner: a,
      caller: 'testKey',
      ownMode: 'test',
      victim: a,
      victimMode: 'live',
    },
    {
      name: `${a.name} liveKey -> own test ids`,
      owner: a,
      caller: 'liveKey',
      ownMode: 'live',
      victim: a,
      victimMode: 'test',
    },
    {
      name: `${b.name} testKey -> own ids of another kind`,
      owner: b,
      caller: 'testKey',
      ownMode: 'test',
      victim: b,
      victimMode: 'test',
      sibling: true,
    },
  ];
  if (scale === 'full') {
    variants.push({
      name: `${b.name} dashboardLive -> ${a.name} live ids`,
      owner: b,
      caller: 'dashboardLive',
      ownMode: 'live',
      victim: a,
      victimMode: 'live',
    });
    variants.push({
      name: `${b.name} apiToken -> ${a.name} test ids`,
      owner: b,
      caller: 'apiToken',
      ownMode: 'test',
      victim: a,
      victimMode: 'test',
    });
  }

  const unprobed: string[] = [];
  let before = await snapshot(server, tally, a.merchant.businessId);
  const send = async (headers: Record<string, string>, document: string, variables: Record<string, unknown>) => {
    tally.requests += 1;
    return outcomeOf((await server.graphql(document, variables, headers)).body);
  };
  for (const probe of probes) {
    if (GRAPHQL_SKIPPED[probe.name]) continue;
    const kinds = [...new Set(probe.slots.map((slot) => slot.kind))];
    if (kinds.length === 0) {
      // No id: called as B, the answer holds nothing of A.
      for (const caller of ['testKey', 'dashboard'] as const) {
        const answer = await send(b.callers[caller], probe.document, probe.variables);
        if (answer.internal)
          tally.violation('server_error', `${probe.name} as ${b.name} ${caller}: ${answer.text.slice(0, 200)}`);
        const leaked = revealed(answer.text, secretsOf(a), '', a.marker);
        if (leaked.length > 0)
          tally.violation('cross_tenant_leak', `${probe.name} as ${b.name} ${caller} holds ${leaked.join(', ')}`);
      }
      tally.graphqlFields += 1;
      continue;
    }
    let reached = false;
    const controls = new Set<string>();
    const slotSets = kinds.length > 1 ? [kinds, ...kinds.map((kind) => [kind])] : [kinds];
    for (const variant of variants.filter((candidate) => !(candidate.sibling && ANY_KIND_OF_TABLE[probe.name]))) {
      const crossTenant = variant.owner !== variant.victim;
      const secrets = variant.sibling
        ? new Set<string>()
        : secretsOf(variant.victim, crossTenant ? 'both' : variant.victimMode);
      const own = (kind: Kind) => variant.owner.ids[kind][variant.ownMode][0] ?? variant.owner.ids[kind].test[0];
      for (const foreign of slotSets) {
        const victimIds = (kind: Kind) => victimIdsOf(variant, kind);
        if (foreign.some((kind) => victimIds(kind).length === 0)) continue;
        const count = Math.min(idsPerKind, Math.max(...foreign.map((kind) => victimIds(kind).length)));
        for (let index = 0; index < count; index += 1) {
          const probeId = (kind: Kind) =>
            foreign.includes(kind) ? (victimIds(kind)[index] ?? victimIds(kind)[0]) : own(kind);
          const unknownIds = new Map<Kind, string>();
          const controlId = (kind: Kind) =>
            foreign.includes(kind)
              ? (unknownIds.get(kind) ?? unknownIds.set(kind, unknownLike(probeId(kind))).get(kind)!)
              : own(kind);
          const variables = fill(probe.variables, probeId);
          const headers = variant.owner.callers[variant.caller];
          const [answer, control] = await Promise.all([
            send(headers, probe.document, variables),
            send(headers, probe.document, fill(probe.variables, controlId)),
          ]);
          const label = `${probe.name} [${variant.name}; foreign ${foreign.join('+')}] ${JSON.stringify(variables).slice(0, 160)}`;
          if (answer.internal) tally.violation('server_error', `${label}: ${answer.text.slice(0, 200)}`);
          if (answer.code !== control.code || answer.hasData !== control.hasData) {
            tally.violation(
              classOf(variant, 'distinguishable'),
              `${label} -> ${answer.code} (data: ${answer.hasData}) but an unknown id -> ${control.code} (data: ${control.hasData}): ${answer.text.slice(0, 200)}`,
            );
          }
          const leaked = revealed(
            answer.text,
            secrets,
            JSON.stringify(variables),
            crossTenant ? variant.victim.marker : undefined,
          );
          if (leaked.length > 0) tally.violation(classOf(variant, 'leak'), `${label} holds ${leaked.join(', ')}`);
          // A lookup answers NOT_FOUND; a list filtered by an id answers (an empty page).
          if (control.code === `NOT_FOUND at ${probe.name}` || (probe.root === 'Query' && control.code === null))
            reached = true;
          controls.add(`${control.code} ${control.text.slice(0, 160)}`);
        }
      }
    }
    if (probe.root === 'Query') await overWebSocket(server, tally, probe, a, b);
    if (!reached) {
      // Unknown ids refused otherwise than NOT_FOUND (a batch item's VALIDATION_ERROR): the probe counts when B's own ids succeed.
      const own = await Promise.all(
        (['testKey', 'dashboard'] as const).map((caller) =>
          send(
            b.callers[caller],
            probe.document,
            fill(probe.variables, (kind) => b.ids[kind].test[0]),
          ),
        ),
      );
      if (!own.some((answer) => answer.code === null && answer.hasData)) {
        unprobed.push(
          `${probe.name} (unknown ids: ${[...controls].join(' | ')}; own ids: ${own.map((answer) => answer.text.slice(0, 160)).join(' | ')})`,
        );
      }
    }
    tally.graphqlFields += 1;
    if (probe.root === 'Mutation') {
      const after = await snapshot(server, tally, a.merchant.businessId);
      const changed = changes(before, after);
      if (changed.length > 0)
        tally.violation('victim_changed', `${probe.name} changed ${a.name}'s rows:\n${changed.slice(0, 6).join('\n')}`);
      before = after;
    }
  }
  await probeSubscriptions(server, tally, a, b, subscriptionFields);
  return { unprobed, unknown };
}

/** The same query over graphql-ws, as B's API key with A's test ids: the same answer as an unknown id. */
async function overWebSocket(server: TestServer, tally: Tally, probe: FieldProbe, a: Tenant, b: Tenant) {
  const socket = server.socket({ apiKey: b.merchant.apiKey });
  try {
    await socket.connected;
    const own = (kind: Kind) => b.ids[kind].test[0];
    const victim = (kind: Kind) => a.ids[kind].test[0] ?? own(kind);
    const variables = fill(probe.variables, victim);
    const run = async (values: Record<string, unknown>) => {
      tally.requests += 1;
      const outcome = await overSocket(socket.client, probe.document, values);
      return outcomeOf(outcome.result ?? { errors: [{ extensions: { code: `closed ${outcome.closed?.code}` } }] });
    };
    const answer = await run(variables);
    const control = await run(fill(probe.variables, (kind) => unknownLike(victim(kind))));
    const label = `${probe.name} over WebSocket [${b.name} -> ${a.name} test ids]`;
    if (answer.internal) tally.violation('server_error', `${label}: ${answer.text.slice(0, 200)}`);
    if (answer.code !== control.code || answer.hasData !== control.hasData) {
      tally.violation(
        'cross_tenant_distinguishable',
        `${label} -> ${answer.code} but an unknown id -> ${control.code}: ${answer.text.slice(0, 200)}`,
      );
    }
    const leaked = revealed(answer.text, secretsOf(a), JSON.stringify(variables), a.marker);
    if (leaked.length > 0) tally.violation('cross_tenant_leak', `${label} holds ${leaked.join(', ')}`);
  } finally {
    await socket.client.dispose();
  }
}

/**
 * Each subscription field: its topic, the id argument (if any) and the payload of a change. A
 * subscription with an id argument is given A's id; A's own change is published, then the same
 * id as if it were B's (what only a forged payload could say): B must hear nothing of the first
 * and NOT_FOUND for the second. One without an id hears A's real change, then B's: B's comes first.
 */
const SUBSCRIPTIONS: Record<
  string,
  { topic: TopicName; argument?: string; kind?: Kind; payload?: (id: string) => Record<string, unknown> }
> = {
  checkoutSessionUpdated: {
    topic: CheckoutTopic.CHECKOUT_SESSION,
    argument: 'id',
    kind: 'checkout_session',
    payload: (id) => ({ sessionId: id, previousStatus: 'OPEN' }),
  },
  collectionUpdated: {
    topic: CollectionTopic.COLLECTION,
    argument: 'id',
    kind: 'collection',
    payload: (id) => ({ collectionId: id }),
  },
  paymentUpdated: {
    topic: PaymentTopic.PAYMENT,
    argument: 'paymentId',
    kind: 'payment',
    payload: (id) => ({ paymentId: id, previousStatus: null, changedFields: [] }),
  },
  payoutScheduleUpdated: {
    topic: PayoutTopic.PAYOUT_SCHEDULE,
    argument: 'id',
    kind: 'payout_schedule',
    payload: (id) => ({ scheduleId: id, previousStatus: 'ACTIVE', changedFields: ['status'] }),
  },
  payoutUpdated: {
    topic: PayoutTopic.PAYOUT,
    argument: 'id',
    kind: 'payout',
    payload: (id) => ({ payoutId: id, previousStatus: 'CREATED', changedFields: ['status'] }),
  },
  treasuryKycUpdated: {
    topic: TreasuryTopic.TREASURY_KYC,
    argument: 'endUserId',
    kind: 'treasury_end_user',
    payload: (id) => ({ endUserId: id, checkId: id }),
  },
  treasuryPayoutUpdated: {
    topic: TreasuryTopic.TREASURY_PAYOUT,
    argument: 'id',
    kind: 'treasury_payout',
    payload: (id) => ({ payoutId: id }),
  },
  eventCreated: { topic: EventTopic.EVENT },
  walletBalanceUpdated: { topic: LedgerTopic.WALLET_BALANCE },
  webhookDeliveryUpdated: { topic: WebhookTopic.WEBHOOK_DELIVERY },
};

async function probeSubscriptions(
  server: TestServer,
  tally: Tally,
  a: Tenant,
  b: Tenant,
  fields: Array<GraphQLField<unknown, unknown>>,
) {
  const pubSub = server.runtime.core.pubSub as unknown as { publish(topic: string, payload: unknown): void };
  const withoutId: Array<{ field: string; subscriber: ReturnType<typeof collect> }> = [];
  for (const { name: field, type } of fields) {
    const spec = SUBSCRIPTIONS[field];
    if (!spec) continue;
    tally.subscriptions += 1;
    tally.graphqlFields += 1;
    const client = server.subscribe({ apiKey: b.merchant.apiKey });
    if (!spec.argument) {
      withoutId.push({
        field,
        subscriber: collect(client, `subscription { ${field} { ${selection(getNamedType(type))} } }`, 1),
      });
      continue;
    }
    const victimId = a.ids[spec.kind!].test[0];
    const subscriber = collect(client, `subscription { ${field}(${spec.argument}: "${victimId}") { __typename } }`, 1);
    await subscriber.ready;
    tally.requests += 3;
    pubSub.publish(spec.topic, { businessId: a.merchant.businessId, livemode: false, ...spec.payload!(victimId) });
    pubSub.publish(spec.topic, { businessId: b.merchant.businessId, livemode: false, ...spec.payload!(victimId) });
    let outcome: string;
    try {
      const received = await subscriber.done;
      outcome = `data ${JSON.stringify(received).slice(0, 200)}`;
    } catch (error) {
      outcome =
        /NOT_FOUND/.test(String(error)) && subscriber.received.length === 0
          ? 'NOT_FOUND'
          : `${String(error).slice(0, 200)} after ${JSON.stringify(subscriber.received)}`;
    }
    if (outcome !== 'NOT_FOUND')
      tally.violation(
        'cross_tenant_leak',
        `subscription ${field}(${spec.argument}: ${a.name}'s id) as ${b.name}: ${outcome}`,
      );
  }
  if (withoutId.length === 0) return;
  for (const { subscriber } of withoutId) await subscriber.ready;
  // A's real change first, then B's: each of B's subscriptions hears B's change first, nothing of A.
  tally.requests += 2;
  await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
    headers: a.callers.testKey,
    body: { currency: 'USD', amount: '1.00' },
  });
  await server.request('POST', '/api/v1/business/sandbox/wallets/fund', {
    headers: b.callers.testKey,
    body: { currency: 'USD', amount: '1.00' },
  });
  for (const { field, subscriber } of withoutId) {
    const received = await subscriber.done;
    const leaked = revealed(JSON.stringify(received), secretsOf(a), '', a.marker);
    if (received.length === 0)
      tally.violation('unprobed', `subscription ${field}: heard nothing of ${b.name}'s own change`);
    if (leaked.length > 0)
      tally.violation('cross_tenant_leak', `subscription ${field} as ${b.name} heard ${leaked.join(', ')}`);
  }
}
