import crypto from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A local fake of Bridge's API (https://apidocs.bridge.xyz) for the subset Tessera uses, spoken on
 * the wire as Bridge speaks it: JSON under `/v0`, the `Api-Key` header (401 without the right one),
 * `Idempotency-Key` required on every POST (a repeat answers the first answer, without applying
 * anything again), Bridge's error envelope `{ code, message }`, customers made by KYC links, custodial
 * wallets, virtual accounts (USD: ACH / wire details; EUR: an IBAN), liquidation addresses (USDC),
 * external accounts and transfers with their states, every virtual account's activity listed, each
 * liquidation address's drains listed, and webhooks in Bridge's event envelope signed
 * as Bridge signs them (`X-Webhook-Signature: t=<ms>,v0=<base64 RSA-SHA256 over "<t>.<body>">`) with
 * a key pair the fake generates (`publicKeyPem` is what BRIDGE_WEBHOOK_PUBLIC_KEY takes). Tests steer
 * what Bridge cannot be asked over HTTP (KYC decisions, deposits, a transfer's fate, outages,
 * timeouts, lost answers) through plain methods.
 */

type BridgeObject = { id: string; [key: string]: unknown };
type Answer = { status: number; body: unknown };

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  idempotencyKey: string | undefined;
  body: any;
  /** The status the fake answered (0: never applied, lost on its way). */
  status: number;
  replayed: boolean;
}

export interface HeldRequest {
  readonly arrived: Promise<LoggedRequest>;
  readonly clientGone: Promise<void>;
  release(): void;
}

export interface WebhookDelivery {
  url: string;
  event: Record<string, any>;
  payload: string;
  signature: string;
  outcome: number | string;
}

class Hold implements HeldRequest {
  arrive!: (request: LoggedRequest) => void;
  gone!: () => void;
  private released!: () => void;
  readonly arrived = new Promise<LoggedRequest>((resolve) => (this.arrive = resolve));
  readonly clientGone = new Promise<void>((resolve) => (this.gone = resolve));
  readonly whenReleased = new Promise<void>((resolve) => (this.released = resolve));
  release(): void {
    this.released();
  }
}

/** Bridge's transfer states (https://apidocs.bridge.xyz, transfers). */
export type TransferState =
  | 'awaiting_funds'
  | 'funds_received'
  | 'payment_submitted'
  | 'payment_processed'
  | 'returned'
  | 'error'
  | 'canceled'
  | 'refunded';

export class FakeBridge {
  readonly apiKey = `sk-test-${crypto.randomBytes(12).toString('hex')}`;
  readonly requests: LoggedRequest[] = [];
  readonly deliveries: WebhookDelivery[] = [];
  readonly publicKeyPem: string;
  private readonly privateKey: crypto.KeyObject;
  private readonly objects = new Map<string, BridgeObject & { kind: string }>();
  private readonly idempotent = new Map<string, Answer>();
  private readonly endpoints: string[] = [];
  private readonly pendingDeliveries = new Set<Promise<void>>();
  private readonly faults: { status: number; path?: string }[] = [];
  private delays: number[] = [];
  private readonly drops: { path?: string }[] = [];
  private readonly holds: Array<{ path: string; applied: boolean; hold: Hold }> = [];
  private sequence = 0;
  /** The clock of signatures (ms): a test signs an event from the past with it. */
  signingClock: () => number = () => Date.now();
  private readonly server = http.createServer((request, response) => {
    this.receive(request, response).catch((failure: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(failure));
    });
  });
  private port = 0;

  constructor() {
    const pair = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = pair.privateKey;
    this.publicKeyPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
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

  /** Where the API answers, as BRIDGE_API_BASE takes it. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The settings of a Tessera server pointed here (`config.bridge`). */
  get settings() {
    return { apiKey: this.apiKey, webhookPublicKey: this.publicKeyPem, apiBase: this.baseUrl };
  }

  /** Sends every later event to `url` (Bridge's webhook endpoint), signed with the fake's private key. */
  deliverTo(url: string): void {
    this.endpoints.push(url);
  }

  /** Bridge's webhooks are lost until the answer is called (a late or lost webhook): answers the function that restores them. */
  loseWebhooks(): () => void {
    const endpoints = this.endpoints.splice(0);
    return () => {
      this.endpoints.push(...endpoints);
    };
  }

  async deliveriesSettled(): Promise<void> {
    while (this.pendingDeliveries.size > 0) await Promise.allSettled([...this.pendingDeliveries]);
  }

  object(id: string): BridgeObject | undefined {
    const found = this.objects.get(id);
    return found && structuredClone(found);
  }

  /** Stored objects of one kind (`customer`, `kyc_link`, `wallet`, `virtual_account`, `liquidation_address`, `external_account`, `transfer`), oldest first. */
  list(kind: string): BridgeObject[] {
    return [...this.objects.values()].filter((item) => item.kind === kind).map((item) => structuredClone(item));
  }

  failNext(count: number, status = 500, path?: string): void {
    for (let i = 0; i < count; i++) this.faults.push({ status, path });
  }

  delayNext(ms: number): void {
    this.delays.push(ms);
  }

  dropAfterCommit(count = 1, path?: string): void {
    for (let i = 0; i < count; i++) this.drops.push({ path });
  }

  holdNext(path: string, options: { applied?: boolean } = {}): HeldRequest {
    const hold = new Hold();
    this.holds.push({ path, applied: options.applied ?? true, hold });
    return hold;
  }

  /** Bridge's compliance decides the customer's KYC: its KYC link and the customer change, each with its event. */
  decideKyc(customerId: string, decision: 'approved' | 'rejected', reasons: string[] = []): void {
    const customer = this.stored(customerId, 'customer');
    const link = [...this.objects.values()].find(
      (item) => item.kind === 'kyc_link' && item.customer_id === customerId,
    )!;
    link.kyc_status = decision;
    link.tos_status = 'approved';
    link.rejection_reasons = reasons.map((reason) => ({
      reason,
      developer_reason: reason,
      created_at: new Date().toISOString(),
    }));
    this.emit('kyc_link', 'updated.status_transitioned', link, 'kyc_status');
    customer.status = decision === 'approved' ? 'active' : 'rejected';
    customer.rejection_reasons = link.rejection_reasons;
    this.emit('customer', 'updated.status_transitioned', customer, 'status');
  }

  /**
   * Money arrives on a virtual account (ACH / wire / SEPA): its `funds_received` activity, announced
   * (`announce: false`: listed in the account's history, no webhook sent: a deposit Tessera never heard of).
   */
  depositToVirtualAccount(virtualAccountId: string, amount: string, { announce = true } = {}): BridgeObject {
    const account = this.stored(virtualAccountId, 'virtual_account');
    const source = account.source_deposit_instructions as Record<string, unknown>;
    const activity = this.save('virtual_account_activity', 'va_evt', {
      type: 'funds_received',
      amount,
      currency: source.currency,
      customer_id: account.customer_id,
      virtual_account_id: account.id,
      deposit_id: crypto.randomUUID(),
      subtotal_amount: amount,
      developer_fee_amount: '0.0',
      exchange_fee_amount: '0.0',
      gas_fee: '0.0',
      source: { payment_rail: source.currency === 'eur' ? 'sepa' : 'ach_push', sender_name: 'Sender Co' },
      created_at: new Date().toISOString(),
    });
    if (announce) this.emit('virtual_account.activity', 'created', activity);
    return structuredClone(activity);
  }

  /** Bridge's record of a virtual account's activity changes without any event: what reconciliation must find. */
  alterActivity(activityId: string, fields: Record<string, unknown>): void {
    Object.assign(this.stored(activityId, 'virtual_account_activity'), structuredClone(fields));
  }

  /**
   * USDC arrives on a liquidation address: a drain, announced as created (`announce: false`: listed
   * in the address's drain history, no webhook sent: a deposit Tessera never heard of).
   */
  depositToLiquidationAddress(liquidationAddressId: string, amount: string, { announce = true } = {}): BridgeObject {
    const address = this.stored(liquidationAddressId, 'liquidation_address');
    const drain = this.save('drain', 'drain', {
      amount,
      currency: address.currency,
      state: 'funds_received',
      customer_id: address.customer_id,
      liquidation_address_id: address.id,
      created_at: new Date().toISOString(),
    });
    if (announce) this.emit('liquidation_address.drain', 'created', drain);
    return structuredClone(drain);
  }

  /** Bridge's record of a drain changes without any event: what reconciliation must find. */
  alterDrain(drainId: string, fields: Record<string, unknown>): void {
    Object.assign(this.stored(drainId, 'drain'), structuredClone(fields));
  }

  /** The transfer moves to `state` (payment_submitted, payment_processed, returned, error, …), announced. */
  moveTransfer(transferId: string, state: TransferState): void {
    const transfer = this.stored(transferId, 'transfer');
    transfer.state = state;
    transfer.updated_at = new Date().toISOString();
    this.emit('transfer', 'updated.status_transitioned', transfer, 'state');
  }

  /**
   * Bridge's record of a transfer changes without any event (a state Bridge moved it to silently, an
   * amount or currency it holds differently): what reconciliation must find.
   */
  alterTransfer(transferId: string, fields: Record<string, unknown>): void {
    const transfer = this.stored(transferId, 'transfer');
    Object.assign(transfer, structuredClone(fields), { updated_at: new Date().toISOString() });
  }

  /** A transfer made at Bridge outside Tessera (its dashboard, another integration), already completed, with no event. */
  plantTransfer(fields: { amount: string; currency: string; clientReferenceId?: string | null }): BridgeObject {
    const transfer = this.save('transfer', 'transfer', {
      client_reference_id: fields.clientReferenceId ?? null,
      state: 'payment_processed',
      on_behalf_of: null,
      amount: fields.amount,
      currency: fields.currency,
      developer_fee: '0.0',
      source: { payment_rail: 'solana', currency: 'usdb' },
      destination: { payment_rail: 'ach', currency: fields.currency },
    });
    return structuredClone(transfer);
  }

  completeTransfer(transferId: string): void {
    this.moveTransfer(transferId, 'payment_submitted');
    this.moveTransfer(transferId, 'payment_processed');
  }

  failTransfer(transferId: string): void {
    this.moveTransfer(transferId, 'error');
  }

  returnTransfer(transferId: string): void {
    this.moveTransfer(transferId, 'returned');
  }

  /** An event in Bridge's envelope (not sent): for tests that deliver by hand (repeats, reordering, tampering). */
  event(category: string, mutation: string, object: BridgeObject, statusField?: string): Record<string, any> {
    return {
      api_version: 'v0',
      event_id: `wh_${crypto.randomBytes(12).toString('hex')}`,
      event_developer_id: 'dev_fake',
      event_category: category,
      event_type: `${category}.${mutation}`,
      event_object_id: object.id,
      event_object_status: statusField ? (object[statusField] ?? null) : null,
      event_object: structuredClone(object),
      event_object_changes: {},
      event_created_at: new Date().toISOString(),
    };
  }

  /** The X-Webhook-Signature of a body, as Bridge signs it, at `timestampMs`. */
  sign(payload: string, timestampMs = this.signingClock()): string {
    const signature = crypto.sign('sha256', Buffer.from(`${timestampMs}.${payload}`), this.privateKey);
    return `t=${timestampMs},v0=${signature.toString('base64')}`;
  }

  /** Sends one signed event to `url` now; resolves with the endpoint's status. */
  async send(url: string, event: Record<string, any>, options: { signature?: string; payload?: string } = {}) {
    const payload = options.payload ?? JSON.stringify(event);
    const signature = options.signature ?? this.sign(payload);
    let outcome: number | string;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
        body: payload,
      });
      outcome = response.status;
      await response.arrayBuffer();
    } catch (error) {
      outcome = (error as Error).message;
    }
    this.deliveries.push({ url, event, payload, signature, outcome });
    return outcome;
  }

  private emit(category: string, mutation: string, object: BridgeObject, statusField?: string): void {
    const event = this.event(category, mutation, object, statusField);
    for (const url of this.endpoints) {
      const delivery = this.send(url, event).then(() => undefined);
      this.pendingDeliveries.add(delivery);
      void delivery.finally(() => this.pendingDeliveries.delete(delivery));
    }
  }

  private stored(id: string, kind: string): BridgeObject & { kind: string } {
    const found = this.objects.get(id);
    if (!found || found.kind !== kind) throw new Error(`The fake Bridge has no ${kind} ${id}`);
    return found;
  }

  private save(kind: string, prefix: string, fields: Record<string, unknown>): BridgeObject & { kind: string } {
    this.sequence += 1;
    const id = `${prefix}_${this.sequence.toString().padStart(4, '0')}${crypto.randomBytes(6).toString('hex')}`;
    const now = new Date().toISOString();
    const object = { id, created_at: now, updated_at: now, ...fields, kind };
    this.objects.set(id, object);
    return object;
  }

  /** The object as the API shows it (without the fake's `kind`). */
  private shown(object: BridgeObject & { kind?: string }): BridgeObject {
    const { kind: _kind, ...rest } = structuredClone(object);
    return rest;
  }

  private async receive(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', this.baseUrl);
    const path = url.pathname;
    const idempotencyKey = (request.headers['idempotency-key'] as string | undefined) || undefined;
    let body: any = null;
    const text = Buffer.concat(chunks).toString('utf8');
    const logged: LoggedRequest = {
      method: request.method ?? 'GET',
      path,
      query: Object.fromEntries(url.searchParams),
      idempotencyKey,
      body: null,
      status: 0,
      replayed: false,
    };
    this.requests.push(logged);
    const answer = (status: number, payload: unknown) => {
      logged.status = status;
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(payload));
    };
    if (request.headers['api-key'] !== this.apiKey)
      return answer(401, { code: 'unauthorized', message: 'Invalid or missing Api-Key' });
    try {
      body = text === '' ? null : JSON.parse(text);
      logged.body = body;
    } catch {
      return answer(400, { code: 'invalid_json', message: 'The body is not JSON' });
    }
    const fault = this.takeFor(this.faults, path);
    if (fault) return answer(fault.status, { code: 'server_error', message: 'Something went wrong' });
    const hold = this.holds.findIndex((held) => held.path === path);
    const held = hold >= 0 ? this.holds.splice(hold, 1)[0] : null;
    if (held) {
      request.socket.once('close', () => held.hold.gone());
      if (!held.applied) {
        held.hold.arrive(logged);
        await held.hold.whenReleased;
        if (request.socket.destroyed) return; // lost with its client: never applied
      }
    }
    const result = this.apply(logged, body, idempotencyKey);
    logged.status = result.status;
    if (held?.applied) {
      held.hold.arrive(logged);
      await held.hold.whenReleased;
      if (request.socket.destroyed) return;
    }
    const delay = this.delays.shift();
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    if (this.takeFor(this.drops, path)) {
      request.socket.destroy();
      return;
    }
    if (!response.writableEnded && !request.socket.destroyed)
      response.writeHead(result.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(result.body));
  }

  private takeFor<T extends { path?: string }>(queue: T[], path: string): T | null {
    const at = queue.findIndex((item) => item.path === undefined || item.path === path);
    return at >= 0 ? queue.splice(at, 1)[0] : null;
  }

  /** Applies one request; POSTs need an Idempotency-Key, and a repeated one answers the first answer. */
  private apply(logged: LoggedRequest, body: any, idempotencyKey: string | undefined): Answer {
    if (logged.method === 'POST') {
      if (!idempotencyKey)
        return {
          status: 400,
          body: { code: 'missing_idempotency_key', message: 'Idempotency-Key header is required' },
        };
      const key = `${logged.path}|${idempotencyKey}`;
      const earlier = this.idempotent.get(key);
      if (earlier) {
        logged.replayed = true;
        return structuredClone(earlier);
      }
      const result = this.route(logged, body ?? {});
      if (result.status < 500) this.idempotent.set(key, structuredClone(result));
      return result;
    }
    return this.route(logged, body);
  }

  private route(logged: LoggedRequest, body: any): Answer {
    const { method, path } = logged;
    const notFound = { status: 404, body: { code: 'not_found', message: `No such resource: ${path}` } };
    const invalid = (message: string) => ({ status: 400, body: { code: 'invalid_parameters', message } });
    if (method === 'POST' && path === '/v0/kyc_links') {
      if (typeof body.email !== 'string' || body.email === '') return invalid('email is required');
      if (body.type !== 'individual' && body.type !== 'business') return invalid('type must be individual or business');
      const customer = this.save('customer', 'cust', {
        email: body.email,
        full_name: body.full_name ?? null,
        type: body.type,
        status: 'not_started',
      });
      const link = this.save('kyc_link', 'kyc_link', {
        full_name: body.full_name ?? null,
        email: body.email,
        type: body.type,
        kyc_link: `https://bridge.withpersona.com/verify?reference-id=${customer.id}`,
        tos_link: `https://dashboard.bridge.xyz/accept-terms-of-service?customer=${customer.id}`,
        kyc_status: 'not_started',
        rejection_reasons: [],
        tos_status: 'pending',
        customer_id: customer.id,
      });
      return { status: 200, body: this.shown(link) };
    }
    const customerPath =
      /^\/v0\/customers\/([^/]+)\/(wallets|virtual_accounts|liquidation_addresses|external_accounts|transfers)$/.exec(
        path,
      );
    if (customerPath) {
      const customer = this.objects.get(customerPath[1]);
      if (!customer || customer.kind !== 'customer') return notFound;
      const what = customerPath[2];
      if (method === 'GET' && what === 'transfers') return this.listTransfers(customer.id, logged.query);
      if (method !== 'POST') return notFound;
      if (what !== 'external_accounts' && customer.status !== 'active')
        return { status: 400, body: { code: 'customer_not_active', message: 'The customer has not been approved' } };
      if (what === 'wallets') {
        if (body.chain !== 'base' && body.chain !== 'solana') return invalid('chain must be base or solana');
        return {
          status: 201,
          body: this.shown(
            this.save('wallet', 'bw', {
              chain: body.chain,
              address: crypto.randomBytes(32).toString('hex'),
              customer_id: customer.id,
            }),
          ),
        };
      }
      if (what === 'virtual_accounts') {
        const currency = body.source?.currency;
        if (currency !== 'usd' && currency !== 'eur') return invalid('source.currency must be usd or eur');
        if (!body.destination?.currency || !body.destination?.payment_rail) return invalid('destination is required');
        if (body.destination.bridge_wallet_id && !this.objects.has(body.destination.bridge_wallet_id))
          return invalid('destination.bridge_wallet_id is not a Bridge wallet');
        const instructions =
          currency === 'usd'
            ? {
                currency,
                bank_beneficiary_name: customer.full_name,
                bank_name: 'Lead Bank',
                bank_address: '1801 Main St., Kansas City, MO 64108',
                bank_routing_number: '101019644',
                bank_account_number: String(100000000 + this.sequence * 7919).padStart(12, '0'),
                payment_rails: ['ach_push', 'wire'],
                payment_rail: 'ach_push',
              }
            : {
                currency,
                iban: 'DE89370400440532013000',
                bic: 'COBADEFFXXX',
                account_holder_name: customer.full_name,
                bank_name: 'Banking Circle S.A.',
                bank_address: '2, Boulevard de la Foire, L-1528 Luxembourg',
                payment_rails: ['sepa'],
                payment_rail: 'sepa',
              };
        return {
          status: 201,
          body: this.shown(
            this.save('virtual_account', 'va', {
              status: 'activated',
              customer_id: customer.id,
              developer_fee_percent: '0.0',
              source_deposit_instructions: instructions,
              destination: body.destination,
            }),
          ),
        };
      }
      if (what === 'liquidation_addresses') {
        if (!body.chain || !body.currency) return invalid('chain and currency are required');
        const duplicate = this.list('liquidation_address').find(
          (item) =>
            item.customer_id === customer.id &&
            item.chain === body.chain &&
            item.currency === body.currency &&
            item.bridge_wallet_id === body.bridge_wallet_id,
        );
        if (duplicate) return invalid('A liquidation address with this chain, currency and destination already exists');
        return {
          status: 201,
          body: this.shown(
            this.save('liquidation_address', 'la', {
              chain: body.chain,
              currency: body.currency,
              customer_id: customer.id,
              bridge_wallet_id: body.bridge_wallet_id ?? null,
              destination_payment_rail: body.destination_payment_rail ?? null,
              destination_currency: body.destination_currency ?? null,
              address: `0x${crypto.randomBytes(20).toString('hex')}`,
              state: 'active',
            }),
          ),
        };
      }
      if (what === 'external_accounts') {
        if (body.currency !== 'usd' && body.currency !== 'eur') return invalid('currency must be usd or eur');
        const number = body.account_type === 'iban' ? body.iban?.account_number : body.account?.account_number;
        if (typeof number !== 'string' || number.length < 4) return invalid('account number is required');
        if (body.account_type === 'us' && !/^\d{9}$/.test(String(body.account?.routing_number ?? '')))
          return invalid('account.routing_number must be 9 digits');
        return {
          status: 201,
          body: this.shown(
            this.save('external_account', 'ea', {
              customer_id: customer.id,
              currency: body.currency,
              account_type: body.account_type,
              account_owner_name: body.account_owner_name,
              last_4: number.slice(-4),
              active: true,
            }),
          ),
        };
      }
    }
    if (method === 'POST' && path === '/v0/transfers') {
      const customer = this.objects.get(body.on_behalf_of);
      if (!customer || customer.kind !== 'customer') return invalid('on_behalf_of is not a customer');
      if (typeof body.amount !== 'string' || !/^\d+(\.\d+)?$/.test(body.amount))
        return invalid('amount must be a decimal string');
      if (body.source?.bridge_wallet_id && !this.objects.has(body.source.bridge_wallet_id))
        return invalid('source.bridge_wallet_id is not a Bridge wallet');
      if (body.destination?.external_account_id && !this.objects.has(body.destination.external_account_id))
        return invalid('destination.external_account_id is not an external account');
      // Funds pulled from a Bridge wallet: no deposit to wait for, the payment is under way at once.
      const transfer = this.save('transfer', 'transfer', {
        client_reference_id: body.client_reference_id ?? null,
        state: body.source?.bridge_wallet_id ? 'funds_received' : 'awaiting_funds',
        on_behalf_of: customer.id,
        amount: body.amount,
        currency: body.source?.currency,
        developer_fee: '0.0',
        source: body.source,
        destination: body.destination,
      });
      this.emit('transfer', 'created', transfer, 'state');
      return { status: 201, body: this.shown(transfer) };
    }
    if (method === 'GET' && path === '/v0/transfers') return this.listTransfers(null, logged.query);
    // Every virtual account's activity (https://apidocs.bridge.xyz, virtual account activity across all customers).
    if (method === 'GET' && path === '/v0/virtual_accounts/history')
      return this.newestFirst(this.list('virtual_account_activity'), logged.query);
    // A liquidation address's drains (https://apidocs.bridge.xyz, get drain history of a liquidation address).
    const drainsPath = /^\/v0\/customers\/([^/]+)\/liquidation_addresses\/([^/]+)\/drains$/.exec(path);
    if (method === 'GET' && drainsPath) {
      const address = this.objects.get(drainsPath[2]);
      if (address?.kind !== 'liquidation_address' || address.customer_id !== drainsPath[1]) return notFound;
      return this.newestFirst(
        this.list('drain').filter((drain) => drain.liquidation_address_id === address.id),
        logged.query,
      );
    }
    const transferPath = /^\/v0\/transfers\/([^/]+)$/.exec(path);
    if (method === 'GET' && transferPath) {
      const transfer = this.objects.get(transferPath[1]);
      return transfer?.kind === 'transfer' ? { status: 200, body: this.shown(transfer) } : notFound;
    }
    return notFound;
  }

  /**
   * A customer's transfers (every transfer of the developer when `customerId` is null), newest
   * first by creation, `limit` at a time after `starting_after` (https://apidocs.bridge.xyz, fetching transfers).
   */
  private listTransfers(customerId: string | null, query: Record<string, string>): Answer {
    return this.newestFirst(
      this.list('transfer').filter((transfer) => customerId === null || transfer.on_behalf_of === customerId),
      query,
    );
  }

  /** Objects (oldest first) listed newest first, `limit` at a time (at most 100) after `starting_after`. */
  private newestFirst(objects: BridgeObject[], query: Record<string, string>): Answer {
    const all = [...objects].reverse();
    const limit = Math.min(Number(query.limit ?? 10), 100);
    const start = query.starting_after ? all.findIndex((item) => item.id === query.starting_after) + 1 : 0;
    const data = all.slice(start, start + limit).map((item) => this.shown(item));
    return { status: 200, body: { count: data.length, data } };
  }
}
