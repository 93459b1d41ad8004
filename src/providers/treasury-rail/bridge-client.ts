import type { BridgeSettings } from '../../config';
import { DomainError, ErrorCode } from '../../domain/shared/errors';
import { exponentOf } from '../../domain/shared/money';

/**
 * A small typed client of Bridge's API (https://apidocs.bridge.xyz): Bridge publishes no official
 * Node SDK. Every request carries the `Api-Key` header; every POST an `Idempotency-Key` (Bridge
 * requires one on its creates and answers a repeat with the first answer), chosen by the caller from
 * Tessera's own ids, so a request repeated after a crash or a timeout is the same object at Bridge.
 * Not answering (a timeout, the network, a 5xx, 429) is SERVICE_UNAVAILABLE; a 4xx is BridgeApiError.
 * Neither the key nor bank details are ever logged.
 */

/** What a caller hears when Bridge did not answer, or answered that it could not. */
export const BRIDGE_UNAVAILABLE =
  'The treasury partner (Bridge) could not be reached; nothing was moved, try again in a moment';

/** One request's deadline. */
export const BRIDGE_TIMEOUT_MS = 20_000;

/** Bridge's refusal of a request (4xx): its `code` and `message` (https://apidocs.bridge.xyz, error responses). */
export class BridgeApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`Bridge refused the request (${status} ${code}): ${message}`);
    this.name = 'BridgeApiError';
  }
}

export interface BridgeList<T> {
  count: number;
  data: T[];
}

/** A customer's KYC link (POST /v0/kyc_links). */
export interface BridgeKycLink {
  id: string;
  customer_id: string;
  kyc_link: string;
  tos_link: string;
  kyc_status: string;
  tos_status: string;
  rejection_reasons?: Array<{ reason?: string; developer_reason?: string }>;
}

/** A Bridge custodial wallet (POST /v0/customers/{id}/wallets): where a Tessera wallet's money is held. */
export interface BridgeWallet {
  id: string;
  chain: string;
  address: string;
}

export interface BridgeVirtualAccount {
  id: string;
  status: string;
  customer_id: string;
  source_deposit_instructions: {
    currency: string;
    bank_name?: string;
    bank_address?: string;
    bank_routing_number?: string;
    bank_account_number?: string;
    bank_beneficiary_name?: string;
    iban?: string;
    bic?: string;
    account_holder_name?: string;
    payment_rails?: string[];
    deposit_message?: string;
  };
  destination: Record<string, unknown>;
}

export interface BridgeLiquidationAddress {
  id: string;
  chain: string;
  currency: string;
  address: string;
  customer_id: string;
  state?: string;
}

export interface BridgeExternalAccount {
  id: string;
  customer_id: string;
  currency: string;
  account_type: string;
  last_4?: string;
}

export interface BridgeTransfer {
  id: string;
  client_reference_id: string | null;
  state: string;
  on_behalf_of: string;
  amount: string;
  currency?: string;
  source: Record<string, unknown>;
  destination: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

type Query = Record<string, string | number | undefined>;

export class BridgeClient {
  private readonly base: string;

  constructor(
    private readonly settings: Pick<BridgeSettings, 'apiKey' | 'apiBase'>,
    private readonly timeoutMs = BRIDGE_TIMEOUT_MS,
  ) {
    this.base = `${settings.apiBase.replace(/\/+$/, '')}/v0`;
  }

  get<T>(path: string, query: Query = {}): Promise<T> {
    return this.request<T>('GET', path, { query });
  }

  post<T>(path: string, body: unknown, idempotencyKey: string): Promise<T> {
    return this.request<T>('POST', path, { body, idempotencyKey });
  }

  private async request<T>(
    method: string,
    path: string,
    options: { body?: unknown; idempotencyKey?: string; query?: Query },
  ): Promise<T> {
    const url = new URL(`${this.base}${path}`);
    for (const [name, value] of Object.entries(options.query ?? {}))
      if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { 'Api-Key': this.settings.apiKey, Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch {
      // A timeout or the network: whether Bridge applied a POST is unknown; the caller asks again
      // under the same Idempotency-Key, or looks the object up by Tessera's reference.
      throw unavailable();
    }
    if (response.status >= 500 || response.status === 429) throw unavailable();
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      throw unavailable();
    }
    if (response.status >= 400) {
      const error = (parsed ?? {}) as { code?: string; message?: string };
      throw new BridgeApiError(response.status, error.code ?? 'error', error.message ?? 'no message');
    }
    return parsed as T;
  }
}

const unavailable = () => new DomainError(ErrorCode.SERVICE_UNAVAILABLE, BRIDGE_UNAVAILABLE);

/** Tessera's minor units as Bridge's decimal string in major units ("25.00"; USDC with its six digits). */
export function bridgeAmountOf(amount: bigint, currency: string): string {
  const exponent = exponentOf(currency);
  if (exponent === 0) return amount.toString();
  const digits = amount.toString().padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * Bridge's decimal string ("1970.0", "25.5") in Tessera's minor units of the currency: an amount
 * finer than the currency's digits, or not an amount, is an error (Bridge never sends one for a
 * deposit in the account's currency).
 */
export function tesseraAmountOf(amount: unknown, currency: string): bigint {
  const text = typeof amount === 'number' ? String(amount) : amount;
  if (typeof text !== 'string' || !/^\d+(\.\d+)?$/.test(text))
    throw new Error(`Bridge reported ${String(amount)} ${currency}: not an amount`);
  const exponent = exponentOf(currency);
  const [whole, fraction = ''] = text.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > exponent)
    throw new Error(`Bridge reported ${text} ${currency}: finer than Tessera's minor units`);
  return BigInt(whole) * 10n ** BigInt(exponent) + BigInt(trimmed.padEnd(exponent, '0') || '0');
}
