import { createPublicKey, verify as verifySignature, KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { BridgeSettings } from '../../config';
import type {
  InboundWebhooks,
  ProviderEventHandled,
  ProviderEventHandler,
  WebhookVerification,
} from '../webhooks/port';
import { BRIDGE_PROVIDER, outcomeOfTransferState } from './bridge';
import { tesseraAmountOf } from './bridge-client';

/**
 * How old a signed event may be (X-Webhook-Signature's `t=`, in milliseconds): Bridge advises
 * refusing events older than 10 minutes with a 400, so that it retries them with a fresh signature
 * (https://apidocs.bridge.xyz, webhook event signature verification).
 */
export const BRIDGE_SIGNATURE_TOLERANCE_MS = 10 * 60 * 1000;

/** Bridge's webhook event (https://apidocs.bridge.xyz, webhooks: event structure). */
interface BridgeEvent {
  api_version?: string;
  event_id: string;
  event_category: string;
  event_type: string;
  event_object_id?: string;
  event_object_status?: string | null;
  event_object: Record<string, unknown>;
  event_object_changes?: Record<string, unknown>;
  event_created_at?: string;
}

/**
 * Bridge's webhooks, served at `POST /providers/bridge/webhooks`: each delivery's signature is
 * checked with the endpoint's public key (BRIDGE_WEBHOOK_PUBLIC_KEY), the event stored once by its
 * `event_id` and applied once (the inbox). Handlers, by `<event_category>.<mutation>`:
 * `customer.*` and `kyc_link.*` decide the end-user's KYC check (approved / rejected);
 * `virtual_account.activity.*` (`funds_received`) and `liquidation_address.drain.*` credit the
 * wallet; `transfer.*` finishes a treasury payout (payment_processed → COMPLETED; returned, error,
 * canceled, refunded → FAILED). Every other event is stored and marked ignored.
 */
export function bridgeWebhooks(settings: Pick<BridgeSettings, 'webhookPublicKey'>): InboundWebhooks {
  const publicKey = createPublicKey(settings.webhookPublicKey);
  const handlers: Record<string, ProviderEventHandler> = {};
  for (const mutation of ['created', 'updated', 'updated.status_transitioned']) {
    handlers[`customer.${mutation}`] = customerStatus;
    handlers[`kyc_link.${mutation}`] = kycLinkStatus;
    handlers[`transfer.${mutation}`] = transferState;
    handlers[`liquidation_address.drain.${mutation}`] = drainReceived;
  }
  handlers['virtual_account.activity.created'] = virtualAccountActivity;
  handlers['virtual_account.activity.updated'] = virtualAccountActivity;
  return {
    provider: BRIDGE_PROVIDER,
    verify: (rawBody, headers) => verifyBridgeEvent(rawBody, headers, publicKey, Date.now()),
    handlers,
  };
}

const objectOf = (payload: Record<string, unknown>) => (payload as unknown as BridgeEvent).event_object ?? {};
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** A customer's status (https://apidocs.bridge.xyz, customers): `active` approves, `rejected` rejects; others wait. */
const customerStatus: ProviderEventHandler = async ({ tx, core, event }) => {
  const customer = objectOf(event.payload);
  const status = text(customer.status);
  const customerId = text(customer.id);
  if (!customerId) return { ignored: 'a customer event without an id' };
  if (status === 'active')
    return decided(await core.treasuryKyc.applyProviderDecision(tx, decision(customerId, 'approve', [])));
  if (status === 'rejected')
    return decided(
      await core.treasuryKyc.applyProviderDecision(tx, decision(customerId, 'reject', reasonsOf(customer))),
    );
  return { ignored: `customer ${customerId} is ${status ?? 'without a status'}: not a decision` };
};

/** A KYC link's `kyc_status`: `approved` or `rejected` decides its customer's check; others wait. */
const kycLinkStatus: ProviderEventHandler = async ({ tx, core, event }) => {
  const link = objectOf(event.payload);
  const status = text(link.kyc_status);
  const customerId = text(link.customer_id);
  if (!customerId) return { ignored: 'a KYC link without a customer' };
  if (status === 'approved')
    return decided(await core.treasuryKyc.applyProviderDecision(tx, decision(customerId, 'approve', [])));
  if (status === 'rejected')
    return decided(await core.treasuryKyc.applyProviderDecision(tx, decision(customerId, 'reject', reasonsOf(link))));
  return { ignored: `KYC link of customer ${customerId} is ${status ?? 'without a status'}: not a decision` };
};

const decision = (providerRef: string, action: 'approve' | 'reject', reasons: string[]) => ({
  provider: BRIDGE_PROVIDER,
  providerRef,
  decision: action,
  reasons,
});

/** Bridge's rejection reasons, as the end-user may read them (`reason`, not the developer's). */
function reasonsOf(object: Record<string, unknown>): string[] {
  const reasons = Array.isArray(object.rejection_reasons) ? object.rejection_reasons : [];
  return reasons
    .map((reason: unknown) =>
      typeof reason === 'string' ? reason : text((reason as { reason?: unknown } | null)?.reason),
    )
    .filter((reason): reason is string => reason !== null && reason.trim() !== '');
}

const decided = (result: object): ProviderEventHandled =>
  'ignored' in result ? { ignored: (result as { ignored: string }).ignored } : undefined;

/** A transfer's state: a final one finishes the payout named by `client_reference_id` (Tessera's payout id). */
const transferState: ProviderEventHandler = async ({ tx, core, event }) => {
  const transfer = objectOf(event.payload);
  const payoutId = text(transfer.client_reference_id);
  const state = text(transfer.state) ?? text((event.payload as unknown as BridgeEvent).event_object_status);
  if (!payoutId) return { ignored: 'a transfer without a client_reference_id: not a Tessera payout' };
  const outcome = state ? outcomeOfTransferState(state) : null;
  if (!outcome) return { ignored: `transfer ${text(transfer.id)} is ${state}: not final` };
  return decided(await core.treasuryPayouts.applyProviderOutcome(tx, payoutId, outcome));
};

/** Money received on a virtual account (`type: funds_received`, the full amount sent, in its source currency). */
const virtualAccountActivity: ProviderEventHandler = async ({ tx, core, event }) => {
  const activity = objectOf(event.payload);
  const accountId = text(activity.virtual_account_id);
  if (activity.type !== 'funds_received') return { ignored: `virtual account activity ${String(activity.type)}` };
  if (!accountId) return { ignored: 'a virtual account activity without its account' };
  return credited(
    await core.treasuryWallets.creditProviderDeposit(tx, {
      refKey: 'virtualAccountId',
      accountRef: accountId,
      depositRef: text(activity.deposit_id) ?? text(activity.id) ?? event.id,
      currency: text(activity.currency),
      amountOf: (currency) => tesseraAmountOf(activity.amount, currency),
    }),
    accountId,
  );
};

/** A drain of a liquidation address: USDC arrived on it (any state but `in_review`), credited once per drain. */
const drainReceived: ProviderEventHandler = async ({ tx, core, event }) => {
  const drain = objectOf(event.payload);
  const addressId = text(drain.liquidation_address_id);
  if (!addressId) return { ignored: 'a drain without its liquidation address' };
  if (drain.state === 'in_review') return { ignored: `drain ${text(drain.id)} is in review` };
  return credited(
    await core.treasuryWallets.creditProviderDeposit(tx, {
      refKey: 'liquidationAddressId',
      accountRef: addressId,
      depositRef: text(drain.id) ?? event.id,
      currency: text(drain.currency),
      amountOf: (currency) => tesseraAmountOf(drain.amount, currency),
    }),
    addressId,
  );
};

const credited = (deposit: unknown, accountRef: string): ProviderEventHandled =>
  deposit ? undefined : { ignored: `no wallet of ${accountRef}, or its deposit was credited already` };

/** `t=<ms>,v0=<base64>` (X-Webhook-Signature), verified over `<t>.<raw body>` with RSA-SHA256 and the endpoint's public key. */
export function verifyBridgeEvent(
  rawBody: Buffer,
  headers: IncomingHttpHeaders,
  publicKey: KeyObject,
  nowMs: number,
): WebhookVerification {
  const header = headers['x-webhook-signature'];
  if (typeof header !== 'string' || header === '')
    return { verified: false, reason: 'The X-Webhook-Signature header is missing' };
  const parts = new Map<string, string>();
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at > 0) parts.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const timestamp = parts.get('t');
  const signature = parts.get('v0');
  if (!timestamp || !/^\d+$/.test(timestamp) || !signature)
    return { verified: false, reason: 'The X-Webhook-Signature header is not t=<timestamp>,v0=<signature>' };
  // Strict base64: a signature with other characters is not Bridge's.
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return { verified: false, reason: 'The signature is not base64' };
  const signed = Buffer.concat([Buffer.from(`${timestamp}.`), rawBody]);
  if (!verifySignature('sha256', signed, publicKey, Buffer.from(signature, 'base64')))
    return { verified: false, reason: "The signature does not verify with the endpoint's public key" };
  if (Math.abs(nowMs - Number(timestamp)) > BRIDGE_SIGNATURE_TOLERANCE_MS)
    return {
      verified: false,
      reason: 'The signature is more than 10 minutes old: a replay, or a retry to be signed anew',
    };
  let event: BridgeEvent;
  try {
    event = JSON.parse(rawBody.toString('utf8')) as BridgeEvent;
  } catch {
    return { verified: false, reason: 'The body is not a Bridge event' };
  }
  if (
    typeof event?.event_id !== 'string' ||
    typeof event.event_type !== 'string' ||
    typeof event.event_category !== 'string' ||
    typeof event.event_object !== 'object' ||
    event.event_object === null
  )
    return {
      verified: false,
      reason: 'The body is not a Bridge event: no event_id, event_category, event_type or event_object',
    };
  // `<event_category>.<mutation>`; an event_type given as the mutation alone is read the same way.
  const type = event.event_type.startsWith(`${event.event_category}.`)
    ? event.event_type
    : `${event.event_category}.${event.event_type}`;
  return {
    verified: true,
    event: { id: event.event_id, type, livemode: true, payload: event as unknown as Record<string, unknown> },
  };
}
