import crypto from 'node:crypto';
import type { YellowcardSettings } from '../../config';
import { DomainError, ErrorCode } from '../../domain/shared/errors';

/**
 * A small typed client of Yellow Card's business (Payments) API, shared by the payout rail, the
 * collection rail and the FX provider (src/providers/yellowcard/connection.ts). Yellow Card has no
 * official Node SDK on npm (a Python one, `yellowcard-business` on PyPI, documents the same API), so
 * this speaks HTTP with `fetch`.
 *
 * Authentication, as Yellow Card documents it (docs.yellowcard.engineering, "Authentication"; the
 * same scheme in every public client read, docs/live.md): every request carries `X-YC-Timestamp`
 * (ISO 8601) and `Authorization: YcHmacV1 <apiKey>:<signature>`, where the signature is the base64
 * HMAC-SHA256, keyed with the API secret, of timestamp + path (the URL's path, `/business/…`, no
 * query) + method, followed for a request with a body by the base64 SHA-256 of the body as sent.
 */

/** How long one call may take before it is abandoned (and answered SERVICE_UNAVAILABLE). */
export const YELLOWCARD_TIMEOUT_MS = 10_000;

/** What a caller hears when Yellow Card did not answer (the network, a timeout, its 5xx or 429). */
export const YELLOWCARD_UNAVAILABLE = 'Yellow Card could not be reached; try again in a moment';

/** The signature of one request (see the file's comment); exported for the local fake, which checks it. */
export function yellowCardSignature(
  secret: string,
  timestamp: string,
  path: string,
  method: string,
  body?: string,
): string {
  const hmac = crypto.createHmac('sha256', secret).update(timestamp).update(path).update(method.toUpperCase());
  if (body !== undefined) hmac.update(crypto.createHash('sha256').update(body).digest('base64'));
  return hmac.digest('base64');
}

/** Yellow Card's refusal of a request (a 4xx other than 429): its error code and message, as it sent them. */
export class YellowCardRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'YellowCardRefusal';
  }
}

/** A channel (`GET /business/channels`): a country's way to pay out (`withdraw`) or collect (`deposit`). */
export interface YcChannel {
  id: string;
  country: string;
  currency: string;
  /** `bank` or `momo` (others, e.g. `p2p`, are not used by Tessera). */
  channelType: string;
  /** `withdraw` (payments, money out) or `deposit` (collections, money in). */
  rampType: string;
  status: string;
  apiStatus?: string;
  /** Limits per transaction, in major units of `currency`. */
  min: number;
  max: number;
}

/** A network (`GET /business/networks`): a bank or a mobile-money operator, and the channels it serves. */
export interface YcNetwork {
  id: string;
  name: string;
  code?: string;
  country: string;
  status: string;
  channelIds: string[];
  accountNumberType?: string;
}

/** A rate (`GET /business/rates`): units of `code` per USD; `buy` when Yellow Card buys USD (collections), `sell` when it sells (payments). */
export interface YcRate {
  code: string;
  buy: number;
  sell: number;
  locale?: string;
  rateId?: string;
  updatedAt?: string;
}

/** What payments and collections share: Yellow Card's id, Tessera's sequence id, the state and the amounts. */
export interface YcTransaction {
  id: string;
  sequenceId: string;
  channelId: string;
  status: string;
  currency: string;
  /** In USD. */
  amount: number;
  /** In major units of `currency`. */
  localAmount: number;
  rate?: number;
  errorCode?: string;
  expiresAt?: string;
  /** ISO 8601: when Yellow Card made it, and when its state last changed (a completed one's: when it completed). */
  createdAt?: string;
  updatedAt?: string;
}

/** How many payments or collections one list page asks for. */
export const YELLOWCARD_PAGE_SIZE = 100;

/** A period of Yellow Card's lists: its payments or collections created from `startDate` (inclusive) to `endDate` (exclusive). */
export interface YcListPeriod {
  startDate: Date;
  endDate: Date;
}

export interface YcPayment extends YcTransaction {
  destination: { accountNumber: string; accountType: string; networkId: string; accountName: string };
}

export interface YcCollection extends YcTransaction {
  /** A bank collection's account to pay into. */
  bankInfo?: { name: string; accountNumber: string; accountName: string };
  /** The reference the payer quotes, when the channel needs one. */
  reference?: string;
}

export interface YcPaymentRequest {
  channelId: string;
  sequenceId: string;
  localAmount: number;
  reason: string;
  customerType: 'retail' | 'institution';
  forceAccept: boolean;
  sender: Record<string, string>;
  destination: { accountNumber: string; accountType: 'bank' | 'momo'; networkId: string; accountName: string };
}

export interface YcCollectionRequest {
  channelId: string;
  sequenceId: string;
  localAmount: number;
  customerType: 'retail' | 'institution';
  forceAccept: boolean;
  recipient: Record<string, string>;
  source: { accountType: 'bank' | 'momo'; accountNumber?: string; networkId?: string };
}

/** The client. Every failure to get an answer is a DomainError SERVICE_UNAVAILABLE (503), its cause kept for the log. */
export class YellowCardClient {
  constructor(
    private readonly settings: YellowcardSettings,
    private readonly timeoutMs = YELLOWCARD_TIMEOUT_MS,
  ) {}

  async channels(): Promise<YcChannel[]> {
    return (await this.request<{ channels: YcChannel[] }>('GET', '/channels')).channels;
  }

  async networks(): Promise<YcNetwork[]> {
    return (await this.request<{ networks: YcNetwork[] }>('GET', '/networks')).networks;
  }

  async rates(): Promise<YcRate[]> {
    return (await this.request<{ rates: YcRate[] }>('GET', '/rates')).rates;
  }

  createPayment(body: YcPaymentRequest): Promise<YcPayment> {
    return this.request('POST', '/payments', body);
  }

  acceptPayment(id: string): Promise<YcPayment> {
    return this.request('POST', `/payments/${encodeURIComponent(id)}/accept`, {});
  }

  payment(id: string): Promise<YcPayment> {
    return this.request('GET', `/payments/${encodeURIComponent(id)}`);
  }

  /** The payment Tessera submitted under `sequenceId`, or null when Yellow Card has none (404). */
  paymentBySequenceId(sequenceId: string): Promise<YcPayment | null> {
    return orNull(this.request('GET', `/payments/sequence-id/${encodeURIComponent(sequenceId)}`));
  }

  /** Every payment created in the period, every page (docs/live.md, "Yellow Card's reconciliation"). */
  listPayments(period: YcListPeriod): Promise<YcPayment[]> {
    return this.listAll('/payments', 'payments', period);
  }

  /** Every collection created in the period, every page. */
  listCollections(period: YcListPeriod): Promise<YcCollection[]> {
    return this.listAll('/collections', 'collections', period);
  }

  createCollection(body: YcCollectionRequest): Promise<YcCollection> {
    return this.request('POST', '/collections', body);
  }

  acceptCollection(id: string): Promise<YcCollection> {
    return this.request('POST', `/collections/${encodeURIComponent(id)}/accept`, {});
  }

  collection(id: string): Promise<YcCollection> {
    return this.request('GET', `/collections/${encodeURIComponent(id)}`);
  }

  /** The collection Tessera opened under `sequenceId`, or null when Yellow Card has none (404). */
  collectionBySequenceId(sequenceId: string): Promise<YcCollection | null> {
    return orNull(this.request('GET', `/collections/sequence-id/${encodeURIComponent(sequenceId)}`));
  }

  /**
   * `GET /business/payments` or `/business/collections` with `startDate`/`endDate` (ISO 8601) and
   * `page` (from 1) and `perPage`: pages are read until one is not full. The query is not part of
   * the signed path (the signature covers the URL's path only).
   */
  private async listAll<T, K extends string>(path: string, key: K, period: YcListPeriod): Promise<T[]> {
    const all: T[] = [];
    for (let page = 1; ; page++) {
      const query = new URLSearchParams({
        startDate: period.startDate.toISOString(),
        endDate: period.endDate.toISOString(),
        page: String(page),
        perPage: String(YELLOWCARD_PAGE_SIZE),
      });
      const answer = await this.request<Partial<Record<K, T[]>>>('GET', `${path}?${query.toString()}`);
      const items = answer[key] ?? [];
      all.push(...items);
      if (items.length < YELLOWCARD_PAGE_SIZE) return all;
    }
  }

  /** One signed call: its JSON answer; YellowCardRefusal for a 4xx; SERVICE_UNAVAILABLE for no answer. */
  async request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const url = new URL(`${this.settings.apiBase}${path}`);
    const text = body === undefined ? undefined : JSON.stringify(body);
    const timestamp = new Date().toISOString();
    const signature = yellowCardSignature(this.settings.apiSecret, timestamp, url.pathname, method, text);
    let response: Response;
    let answer: string;
    try {
      response = await fetch(url, {
        method,
        headers: {
          Accept: 'application/json',
          ...(text === undefined ? {} : { 'Content-Type': 'application/json' }),
          'X-YC-Timestamp': timestamp,
          Authorization: `YcHmacV1 ${this.settings.apiKey}:${signature}`,
        },
        body: text,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      answer = await response.text();
    } catch (error) {
      throw unavailable(error);
    }
    if (response.status >= 500 || response.status === 429)
      throw unavailable(new Error(`Yellow Card answered ${response.status} to ${method} ${url.pathname}`));
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(answer) as Record<string, unknown>;
    } catch (error) {
      throw unavailable(error);
    }
    if (response.status >= 400) {
      throw new YellowCardRefusal(
        response.status,
        typeof parsed.code === 'string' ? parsed.code : `HTTP${response.status}`,
        typeof parsed.message === 'string' ? parsed.message : `Yellow Card refused ${method} ${url.pathname}`,
      );
    }
    return parsed as T;
  }
}

const unavailable = (cause: unknown) =>
  Object.assign(new DomainError(ErrorCode.SERVICE_UNAVAILABLE, YELLOWCARD_UNAVAILABLE), { cause });

async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof YellowCardRefusal && error.status === 404) return null;
    throw error;
  }
}
