import crypto from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import type { YellowcardSettings } from '../../src/config';
import type { YcChannel, YcCollection, YcNetwork, YcPayment, YcRate } from '../../src/providers/yellowcard/client';
import { yellowCardSignature } from '../../src/providers/yellowcard/client';

/**
 * A local fake of Yellow Card's business (Payments) API for the subset Tessera uses, spoken as
 * docs.yellowcard.engineering describes it (docs/live.md, "Yellow Card", says what was read and
 * what is a guess): JSON over HTTP under `/business`, every request signed (`X-YC-Timestamp`,
 * `Authorization: YcHmacV1 <key>:<signature>`) and refused 401 when the signature does not verify;
 * channels, networks and rates; payments and collections, idempotent on their `sequenceId`, moving
 * through Yellow Card's states (pending_approval → processing → complete / failed / expired), listed
 * by creation (`GET /payments`, `GET /collections` with `startDate`, `endDate`, `page`, `perPage`:
 * docs/live.md, "Yellow Card's reconciliation", says what is a guess); signed
 * webhooks (`X-YC-Signature`: base64 HMAC-SHA256 of the body with the API secret). Tests steer what
 * Yellow Card cannot be asked over HTTP (a payout's outcome, a payer's transfer, outages, timeouts,
 * lost answers) through plain methods.
 */

export interface LoggedYcRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  /** The status the fake answered (a dropped answer keeps the status it would have had). */
  status: number;
}

export interface YcWebhookDelivery {
  url: string;
  payload: string;
  signature: string;
  event: string;
  /** The endpoint's HTTP status, or the connection error's message. */
  outcome: number | string;
}

/** A request `holdNext` holds: applied, its answer on its way, until `release()` (the test kills the client meanwhile). */
export interface HeldYcRequest {
  readonly arrived: Promise<LoggedYcRequest>;
  release(): void;
}

type Transaction = (YcPayment | YcCollection) & { kind: 'payment' | 'collection'; [key: string]: unknown };

/** Fixtures: Nigeria (bank, both ways) and Ghana (mobile money, both ways), with their networks. */
export const YC_CHANNELS: readonly YcChannel[] = [
  ych('1c7e1c8a-0000-4000-8000-0000000000a1', 'NG', 'NGN', 'bank', 'withdraw', 1_000, 5_000_000),
  ych('1c7e1c8a-0000-4000-8000-0000000000a2', 'NG', 'NGN', 'bank', 'deposit', 1_000, 5_000_000),
  ych('1c7e1c8a-0000-4000-8000-0000000000b1', 'GH', 'GHS', 'momo', 'withdraw', 1, 20_000),
  ych('1c7e1c8a-0000-4000-8000-0000000000b2', 'GH', 'GHS', 'momo', 'deposit', 1, 20_000),
  ych('1c7e1c8a-0000-4000-8000-0000000000c1', 'KE', 'KES', 'momo', 'deposit', 10, 150_000, 'inactive'),
];

export const YC_NETWORKS: readonly YcNetwork[] = [
  {
    id: '5a1b0000-0000-4000-8000-000000000058',
    name: 'Guaranty Trust Bank',
    code: '058',
    country: 'NG',
    status: 'active',
    channelIds: [YC_CHANNELS[0].id, YC_CHANNELS[1].id],
    accountNumberType: 'bank',
  },
  {
    id: '5a1b0000-0000-4000-8000-0000000000e1',
    name: 'MTN Mobile Money',
    code: 'MTN',
    country: 'GH',
    status: 'active',
    channelIds: [YC_CHANNELS[2].id, YC_CHANNELS[3].id],
    accountNumberType: 'phone',
  },
  {
    id: '5a1b0000-0000-4000-8000-0000000000e2',
    name: 'Vodafone Cash',
    code: 'VODAFONE',
    country: 'GH',
    status: 'active',
    channelIds: [YC_CHANNELS[3].id],
    accountNumberType: 'phone',
  },
];

/** Units per USD: Yellow Card buys USD (collections) at `buy`, sells it (payments) at `sell`. */
export const YC_RATES: readonly YcRate[] = [
  { code: 'NGN', buy: 1600, sell: 1550, locale: 'nigeria', rateId: 'ngn-rate', updatedAt: '2026-11-28T00:00:00Z' },
  { code: 'GHS', buy: 15.5, sell: 15, locale: 'ghana', rateId: 'ghs-rate', updatedAt: '2026-11-28T00:00:00Z' },
  { code: 'KES', buy: 130, sell: 128, locale: 'kenya', rateId: 'kes-rate', updatedAt: '2026-11-28T00:00:00Z' },
];

function ych(
  id: string,
  country: string,
  currency: string,
  channelType: string,
  rampType: string,
  min: number,
  max: number,
  status = 'active',
): YcChannel {
  return { id, country, currency, channelType, rampType, status, apiStatus: status, min, max };
}

export class FakeYellowCard {
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly requests: LoggedYcRequest[] = [];
  readonly deliveries: YcWebhookDelivery[] = [];
  channels: YcChannel[] = YC_CHANNELS.map((channel) => ({ ...channel }));
  networks: YcNetwork[] = YC_NETWORKS.map((network) => ({ ...network, channelIds: [...network.channelIds] }));
  rates: YcRate[] = YC_RATES.map((rate) => ({ ...rate }));
  private readonly transactions = new Map<string, Transaction>();
  private readonly endpoints: string[] = [];
  private readonly pendingDeliveries = new Set<Promise<void>>();
  private readonly faults: { status: number; path?: string }[] = [];
  private readonly delays: number[] = [];
  private readonly drops: { path?: string }[] = [];
  private readonly holds: Array<{ path: string; arrive: (entry: LoggedYcRequest) => void; released: Promise<void> }> =
    [];
  private readonly server = http.createServer((request, response) => {
    this.receive(request, response).catch((failure: unknown) => {
      if (!response.headersSent)
        response
          .writeHead(500, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ code: 'InternalError', message: String(failure) }));
    });
  });
  private port = 0;

  constructor(options: { apiKey?: string; apiSecret?: string } = {}) {
    this.apiKey = options.apiKey ?? crypto.randomBytes(16).toString('hex');
    this.apiSecret = options.apiSecret ?? crypto.randomBytes(32).toString('hex');
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.pendingDeliveries]);
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Where the API answers, as YELLOWCARD_API_BASE takes it (the `/business` prefix included). */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/business`;
  }

  /** Tessera's `config.yellowcard` pointed here. */
  get settings(): YellowcardSettings {
    return { apiKey: this.apiKey, apiSecret: this.apiSecret, apiBase: this.baseUrl };
  }

  /** Sends every later webhook to `url`, signed as Yellow Card signs them. */
  deliverTo(url: string): void {
    this.endpoints.push(url);
  }

  /** Yellow Card's webhooks are lost until the answer is called (a late or lost webhook): answers the function that restores them. */
  loseWebhooks(): () => void {
    const endpoints = this.endpoints.splice(0);
    return () => {
      this.endpoints.push(...endpoints);
    };
  }

  async deliveriesSettled(): Promise<void> {
    while (this.pendingDeliveries.size > 0) await Promise.allSettled([...this.pendingDeliveries]);
  }

  /** The next `count` requests (to `path` only, when given; the path after `/business`) answer `status` without being applied. */
  failNext(count: number, status = 500, path?: string): void {
    for (let i = 0; i < count; i++) this.faults.push({ status, path });
  }

  /** The next request is applied, and its answer held back `ms` (longer than the client's timeout: it times out). */
  delayNext(ms: number): void {
    this.delays.push(ms);
  }

  /** The next `count` requests (to `path` only, when given) are applied, then their sockets destroyed before any answer. */
  dropAfterCommit(count = 1, path?: string): void {
    for (let i = 0; i < count; i++) this.drops.push({ path });
  }

  /** The next request to `path` is applied and its answer held until `release()`: the outcome a client killed now never hears. */
  holdNext(path: string): HeldYcRequest {
    let arrive!: (entry: LoggedYcRequest) => void;
    let release!: () => void;
    const arrived = new Promise<LoggedYcRequest>((resolve) => (arrive = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holds.push({ path, arrive, released });
    return { arrived, release };
  }

  payments(): YcPayment[] {
    return this.list('payment') as YcPayment[];
  }

  collections(): YcCollection[] {
    return this.list('collection');
  }

  /** Yellow Card's payment (or collection) with this id or sequence id, a copy. */
  find(idOrSequenceId: string): Transaction | undefined {
    const found = this.transactions.get(idOrSequenceId) ?? this.bySequence(idOrSequenceId);
    return found && structuredClone(found);
  }

  /**
   * Changes a payment or collection at Yellow Card with no webhook (for reconciliation's planted
   * differences: Yellow Card's record says another amount or currency than Tessera booked).
   */
  amend(id: string, changes: Partial<Pick<YcPayment, 'localAmount' | 'currency' | 'status' | 'updatedAt'>>): void {
    const found = this.transactions.get(id) ?? this.bySequence(id);
    if (!found) throw new Error(`The fake Yellow Card has no payment or collection ${id}`);
    Object.assign(found, changes);
  }

  /** A payment or collection made at Yellow Card outside Tessera (another system, its dashboard): no webhook. */
  plant(
    kind: 'payment' | 'collection',
    fields: Partial<YcPayment> & { localAmount: number; currency: string },
  ): string {
    const id = crypto.randomUUID();
    const at = new Date().toISOString();
    this.transactions.set(id, {
      id,
      sequenceId: crypto.randomUUID(),
      channelId: this.channels[0].id,
      status: 'complete',
      amount: 0,
      createdAt: at,
      updatedAt: at,
      ...fields,
      kind,
    });
    return id;
  }

  /** Yellow Card loses a payment or collection: it is no longer found nor listed. */
  forget(id: string): void {
    const found = this.transactions.get(id) ?? this.bySequence(id);
    if (found) this.transactions.delete(found.id);
  }

  /** The payout reached the recipient: COMPLETE, and its webhook. */
  completePayment(id: string): void {
    this.move(this.need(id, 'payment'), 'complete');
  }

  /** The payout failed at the destination (`errorCode` as Yellow Card reports it). */
  failPayment(id: string, errorCode = 'REFUSED'): void {
    this.move(this.need(id, 'payment'), 'failed', { errorCode });
  }

  /** The payer paid `localAmount` (major units; the collection's own by default): COMPLETE, and its webhook. */
  completeCollection(id: string, localAmount?: number): void {
    const collection = this.need(id, 'collection');
    this.move(collection, 'complete', localAmount === undefined ? {} : { localAmount });
  }

  failCollection(id: string, errorCode = 'REFUSED'): void {
    this.move(this.need(id, 'collection'), 'failed', { errorCode });
  }

  expireCollection(id: string): void {
    this.move(this.need(id, 'collection'), 'expired');
  }

  /** A webhook body for `transaction` with `event` (the body Yellow Card posts), and its signature. */
  webhook(id: string, event: string, extra: Record<string, unknown> = {}): { payload: string; signature: string } {
    const transaction = this.transactions.get(id) ?? this.bySequence(id);
    if (!transaction) throw new Error(`The fake Yellow Card has no payment or collection ${id}`);
    const payload = JSON.stringify({
      id: transaction.id,
      sequenceId: transaction.sequenceId,
      status: transaction.status,
      apiKey: this.apiKey,
      event,
      ...(transaction.errorCode ? { errorCode: transaction.errorCode } : {}),
      executedAt: Date.now(),
      ...extra,
    });
    return { payload, signature: this.sign(payload) };
  }

  /** Signs a body as Yellow Card signs its webhooks. */
  sign(payload: string): string {
    return crypto.createHmac('sha256', this.apiSecret).update(payload).digest('base64');
  }

  /** Posts a delivery again, byte for byte (Yellow Card retrying one it thinks failed). */
  redeliver(delivery: YcWebhookDelivery): void {
    this.post(delivery.url, delivery.payload, delivery.event);
  }

  private list(kind: 'payment' | 'collection') {
    return [...this.transactions.values()]
      .filter((item) => item.kind === kind)
      .map((item) => {
        const { kind: _kind, ...rest } = structuredClone(item);
        return rest;
      });
  }

  private bySequence(sequenceId: string): Transaction | undefined {
    return [...this.transactions.values()].find((item) => item.sequenceId === sequenceId);
  }

  private need(id: string, kind: 'payment' | 'collection'): Transaction {
    const found = this.transactions.get(id) ?? this.bySequence(id);
    if (!found || found.kind !== kind) throw new Error(`The fake Yellow Card has no ${kind} ${id}`);
    return found;
  }

  private move(transaction: Transaction, status: string, changes: Record<string, unknown> = {}): void {
    Object.assign(transaction, changes, { status, updatedAt: new Date().toISOString() });
    const event = `${transaction.kind === 'payment' ? 'PAYMENT' : 'COLLECTION'}.${status.toUpperCase()}`;
    for (const url of this.endpoints) this.post(url, this.webhook(transaction.id, event).payload, event);
  }

  private post(url: string, payload: string, event: string): void {
    const delivery: YcWebhookDelivery = { url, payload, signature: this.sign(payload), event, outcome: 'pending' };
    this.deliveries.push(delivery);
    const sending = fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-YC-Signature': delivery.signature },
      body: payload,
    })
      .then(async (answer) => {
        await answer.arrayBuffer();
        delivery.outcome = answer.status;
      })
      .catch((failure: unknown) => {
        delivery.outcome = failure instanceof Error ? failure.message : String(failure);
      })
      .finally(() => this.pendingDeliveries.delete(sending));
    this.pendingDeliveries.add(sending);
  }

  private async receive(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    const route = url.pathname.replace(/^\/business/, '');
    let body: Record<string, unknown> | null = null;
    try {
      body = raw === '' ? null : (JSON.parse(raw) as Record<string, unknown>);
    } catch {
      body = null;
    }
    const entry: LoggedYcRequest = { method, path: route, body, status: 0 };
    this.requests.push(entry);

    const fault = takeFor(this.faults, route);
    const delay = this.delays.shift() ?? 0;
    let answer: { status: number; body: unknown };
    const refusal = this.authenticate(request, url.pathname, method, raw);
    if (refusal) answer = { status: 401, body: refusal };
    else if (fault)
      answer = { status: fault.status, body: { code: 'InternalServerError', message: 'Something went wrong' } };
    else {
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      answer = this.apply(method, route, body ?? {}, url.searchParams);
    }
    entry.status = answer.status;
    const held = takeFor(this.holds, route);
    if (held) {
      held.arrive(entry);
      await held.released;
    }
    if (takeFor(this.drops, route)) {
      request.socket.destroy();
      return;
    }
    if (response.destroyed || !response.writable) return;
    response.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body));
  }

  /** Yellow Card's check of a request's signature: its error body when it fails (401), null when it verifies. */
  private authenticate(
    request: http.IncomingMessage,
    path: string,
    method: string,
    raw: string,
  ): { code: string; message: string } | null {
    const timestamp = header(request, 'x-yc-timestamp');
    const authorization = header(request, 'authorization') ?? '';
    const match = /^YcHmacV1 ([^:\s]+):(\S+)$/.exec(authorization);
    if (!timestamp || !match) return { code: 'UnauthorizedError', message: 'Missing authorization or timestamp' };
    if (match[1] !== this.apiKey) return { code: 'UnauthorizedError', message: 'Invalid api key' };
    const at = Date.parse(timestamp);
    if (Number.isNaN(at) || Math.abs(Date.now() - at) > 5 * 60_000)
      return { code: 'UnauthorizedError', message: 'Request timestamp is invalid or expired' };
    const expected = yellowCardSignature(this.apiSecret, timestamp, path, method, raw === '' ? undefined : raw);
    const given = Buffer.from(match[2]);
    const wanted = Buffer.from(expected);
    if (given.length !== wanted.length || !crypto.timingSafeEqual(given, wanted))
      return { code: 'UnauthorizedError', message: 'Invalid signature' };
    return null;
  }

  private apply(
    method: string,
    route: string,
    body: Record<string, unknown>,
    query: URLSearchParams,
  ): { status: number; body: unknown } {
    const ok = (value: unknown) => ({ status: 200, body: value });
    const notFound = (what: string) => ({
      status: 404,
      body: { code: `${what}NotFoundError`, message: `${what} not found` },
    });
    const bad = (code: string, message: string) => ({ status: 400, body: { code, message } });
    if (method === 'GET' && route === '/channels') return ok({ channels: this.channels });
    if (method === 'GET' && route === '/networks') return ok({ networks: this.networks });
    if (method === 'GET' && route === '/rates') return ok({ rates: this.rates });
    const match = /^\/(payments|collections)(?:\/(sequence-id)\/([^/]+)|\/([^/]+)(\/accept)?)?$/.exec(route);
    if (!match) return { status: 404, body: { code: 'NotFoundError', message: `No route ${method} ${route}` } };
    const kind = match[1] === 'payments' ? 'payment' : 'collection';
    const noun = kind === 'payment' ? 'Payment' : 'Collection';
    if (method === 'GET' && match[2]) {
      const found = this.bySequence(decodeURIComponent(match[3]));
      return found && found.kind === kind ? ok(this.view(found)) : notFound(noun);
    }
    if (method === 'GET' && match[4]) {
      const found = this.transactions.get(decodeURIComponent(match[4]));
      return found && found.kind === kind ? ok(this.view(found)) : notFound(noun);
    }
    if (method === 'POST' && match[4] && match[5]) {
      const found = this.transactions.get(decodeURIComponent(match[4]));
      if (!found || found.kind !== kind) return notFound(noun);
      if (found.status !== 'pending_approval')
        return bad(`${noun}StatusError`, `${noun} cannot be accepted in status ${found.status}`);
      this.move(found, 'processing');
      return ok(this.view(found));
    }
    if (method === 'POST' && !match[2] && !match[4]) return this.create(kind, body);
    if (method === 'GET' && !match[2] && !match[4]) return this.listPage(kind, query);
    return { status: 404, body: { code: 'NotFoundError', message: `No route ${method} ${route}` } };
  }

  private create(kind: 'payment' | 'collection', body: Record<string, unknown>): { status: number; body: unknown } {
    const bad = (code: string, message: string) => ({ status: 400, body: { code, message } });
    const channel = this.channels.find((item) => item.id === body.channelId);
    const ramp = kind === 'payment' ? 'withdraw' : 'deposit';
    if (!channel || channel.rampType !== ramp || channel.status !== 'active')
      return bad('ChannelNotFoundError', 'Channel not found or not active');
    if (typeof body.sequenceId !== 'string' || body.sequenceId === '')
      return bad('ValidationError', 'sequenceId is required');
    if (this.bySequence(body.sequenceId))
      return bad(`${kind === 'payment' ? 'Payment' : 'Collection'}SequenceIdExistsError`, 'sequenceId already used');
    const localAmount = Number(body.localAmount);
    if (!Number.isFinite(localAmount) || localAmount < channel.min || localAmount > channel.max)
      return bad('AmountError', `localAmount must be between ${channel.min} and ${channel.max}`);
    const account = (kind === 'payment' ? body.destination : body.source) as Record<string, unknown> | undefined;
    if (kind === 'payment' || channel.channelType === 'momo') {
      const network = this.networks.find((item) => item.id === account?.networkId);
      if (!network || !network.channelIds.includes(channel.id))
        return bad('NetworkNotFoundError', 'Network not found for channel');
      if (typeof account?.accountNumber !== 'string' || account.accountNumber === '')
        return bad('ValidationError', 'accountNumber is required');
    }
    const rate = this.rates.find((item) => item.code === channel.currency);
    if (!rate) return bad('RateNotFoundError', 'No rate for the channel');
    const usd = localAmount / (kind === 'payment' ? rate.sell : rate.buy);
    const id = crypto.randomUUID();
    const created: Transaction = {
      kind,
      id,
      sequenceId: body.sequenceId,
      channelId: channel.id,
      status: 'pending_approval',
      currency: channel.currency,
      country: channel.country,
      localAmount,
      amount: Math.round(usd * 100) / 100,
      rate: kind === 'payment' ? rate.sell : rate.buy,
      reason: body.reason,
      customerType: body.customerType,
      expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
      ...(kind === 'payment'
        ? { sender: body.sender, destination: body.destination }
        : { recipient: body.recipient, source: body.source }),
      ...(kind === 'collection' && channel.channelType === 'bank'
        ? {
            bankInfo: {
              name: 'Yellow Card Collections Bank',
              accountNumber: `30${crypto.randomInt(10 ** 7, 10 ** 8)}`,
              accountName: 'Yellow Card Financial',
            },
            reference: `YC${crypto.randomBytes(4).toString('hex').toUpperCase()}`,
          }
        : {}),
    };
    this.transactions.set(id, created);
    if (body.forceAccept === true) this.move(created, 'processing');
    return { status: 200, body: this.view(created) };
  }

  /**
   * One page of the payments or collections created from `startDate` (inclusive) to `endDate`
   * (exclusive), oldest first: `page` from 1, `perPage` up to 100 (400 beyond, or for a bad date).
   */
  private listPage(kind: 'payment' | 'collection', query: URLSearchParams): { status: number; body: unknown } {
    const bad = (message: string) => ({ status: 400, body: { code: 'ValidationError', message } });
    const start = query.get('startDate') === null ? -Infinity : Date.parse(query.get('startDate')!);
    const end = query.get('endDate') === null ? Infinity : Date.parse(query.get('endDate')!);
    if (Number.isNaN(start) || Number.isNaN(end)) return bad('startDate and endDate must be ISO 8601 dates');
    const page = Number(query.get('page') ?? 1);
    const perPage = Number(query.get('perPage') ?? 50);
    if (!Number.isInteger(page) || page < 1) return bad('page must be a positive integer');
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) return bad('perPage must be 1 to 100');
    const items = [...this.transactions.values()]
      .filter((item) => item.kind === kind)
      .filter((item) => {
        const at = Date.parse(item.createdAt as string);
        return at >= start && at < end;
      })
      .sort((a, b) => Date.parse(a.createdAt as string) - Date.parse(b.createdAt as string))
      .slice((page - 1) * perPage, page * perPage)
      .map((item) => this.view(item));
    return { status: 200, body: { [kind === 'payment' ? 'payments' : 'collections']: items } };
  }

  private view(transaction: Transaction): Record<string, unknown> {
    const { kind: _kind, ...rest } = structuredClone(transaction);
    return rest;
  }
}

function header(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Takes the first of `queue` meant for `path` (or for any path). */
function takeFor<T extends { path?: string }>(queue: T[], path: string): T | undefined {
  const index = queue.findIndex((item) => item.path === undefined || item.path === path);
  return index < 0 ? undefined : queue.splice(index, 1)[0];
}
