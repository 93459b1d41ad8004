import type { BalancePeriod } from '../card-acquirer/port';
import type { BalanceEntry, ReconciliationLookup, ReconciliationSource } from '../reconciliation/port';
import { BRIDGE_COMPLETED_STATES, BRIDGE_PROVIDER } from './bridge';
import { BridgeClient, BridgeList, BridgeTransfer, tesseraAmountOf } from './bridge-client';

/** Transfers per page of `GET /v0/transfers` (Bridge's maximum). */
const PAGE = 100;

/**
 * How long before the period a transfer may have been created and still complete in it: Bridge
 * lists transfers newest first by creation (`starting_after` pages back in time) and its
 * `updated_after_ms` filter cannot be combined with paging, so the source reads every transfer
 * created since this long before the period.
 */
export const BRIDGE_TRANSFER_LOOKBACK_DAYS = 30;

/** Events per page of `GET /v0/virtual_accounts/history` (Bridge's maximum). */
const ACTIVITY_PAGE = 100;

/** Drains per page of `GET /v0/customers/{customerID}/liquidation_addresses/{liquidationAddressID}/drains` (Bridge's maximum). */
const DRAIN_PAGE = 100;

/**
 * One drain of a liquidation address (https://apidocs.bridge.xyz, get drain history of a
 * liquidation address): USDC that arrived on it, what Tessera reads of it. `in_review` is held by
 * Bridge's review (not yet received: the webhook does not credit it); every other state is money
 * Bridge received, which the webhook credits once per drain id.
 */
interface BridgeDrain {
  id: string;
  amount: unknown;
  currency: unknown;
  state: string;
  created_at: string;
}

/**
 * One event of a virtual account's activity (https://apidocs.bridge.xyz, virtual account activity
 * across all customers): what Tessera reads of it. `funds_received` is a deposit Bridge received and
 * matched to the account; `deposit_id` is the deposit's id across its events.
 */
interface BridgeVirtualAccountEvent {
  id: string;
  type: string;
  amount: unknown;
  currency: unknown;
  deposit_id?: string | null;
  virtual_account_id?: string;
  created_at: string;
}

/**
 * Bridge's balance for reconciliation (docs/live.md, "Reconciliation of Bridge"): its transfers
 * that completed (`payment_processed`, https://apidocs.bridge.xyz, transfers: states) in the period,
 * read with `GET /v0/transfers` (every transfer of the developer, newest first by creation,
 * `limit` / `starting_after`; https://apidocs.bridge.xyz, fetching transfers), each an entry of type
 * `treasury_payout` whose id is the transfer's (the payout's `provider_ref`), dated when Bridge last
 * changed it (its `updated_at`: the completion), in the destination's currency and Tessera's minor
 * units; and the deposits its virtual accounts received in the period (`funds_received` events of
 * `GET /v0/virtual_accounts/history`), each an entry of type `treasury_deposit` whose id is the
 * event's and whose `sourceId` is Bridge's deposit id (what the wallet's credit is referenced by);
 * and the drains of the live USDC wallets' liquidation addresses created in the period (Bridge lists
 * drains only per address: the addresses are asked of Tessera), each a `treasury_deposit` whose id
 * and `sourceId` are the drain's (what the webhook's credit is referenced by).
 * Bridge's own fees are not listed on a transfer in a currency Tessera books: entries carry none.
 */
export function bridgeReconciliation(client: BridgeClient): ReconciliationSource {
  return {
    provider: BRIDGE_PROVIDER,
    compares: 'treasury-rail',
    balanceEntries: async (period, tessera) => [
      ...(await completedTransfers(client, period)),
      ...(await receivedDeposits(client, period)),
      ...(await receivedDrains(client, period, tessera)),
    ],
  };
}

/**
 * The `funds_received` events created in the period, from every virtual account's activity (newest
 * first by creation, `limit` / `starting_after` an event id, as Bridge's other lists): read back to
 * the first event created before the period.
 */
async function receivedDeposits(client: BridgeClient, period: BalancePeriod): Promise<BalanceEntry[]> {
  const entries: BalanceEntry[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.get<BridgeList<BridgeVirtualAccountEvent | { value: BridgeVirtualAccountEvent }>>(
      '/virtual_accounts/history',
      { limit: ACTIVITY_PAGE, starting_after: after },
    );
    // Bridge's reference shows each event of this list wrapped as `{ value: … }`, the per-account list does not: both are read.
    const events = page.data.map((item) => ('value' in item ? item.value : item));
    for (const event of events) {
      const createdAt = new Date(event.created_at);
      if (event.type !== 'funds_received' || createdAt < period.from || createdAt >= period.to) continue;
      entries.push(depositEntryOf(event, createdAt));
    }
    const last = events.at(-1);
    if (!last || page.data.length < ACTIVITY_PAGE || new Date(last.created_at) < period.from) return entries;
    after = last.id;
  }
}

/**
 * The drains created in the period of every live wallet's liquidation address (its customer and
 * address ids, kept with the wallet when Bridge opened it), one address after the other: each
 * address's drains newest first by creation, `limit` / `starting_after` a drain id, read back to the
 * first drain created before the period.
 */
async function receivedDrains(
  client: BridgeClient,
  period: BalancePeriod,
  tessera: ReconciliationLookup,
): Promise<BalanceEntry[]> {
  const entries: BalanceEntry[] = [];
  for (const refs of await tessera.liveWalletRefs('liquidationAddressId')) {
    if (!refs.customerId) continue;
    const path = `/customers/${encodeURIComponent(refs.customerId)}/liquidation_addresses/${encodeURIComponent(
      refs.liquidationAddressId,
    )}/drains`;
    let after: string | undefined;
    for (;;) {
      const page = await client.get<BridgeList<BridgeDrain>>(path, { limit: DRAIN_PAGE, starting_after: after });
      for (const drain of page.data) {
        const createdAt = new Date(drain.created_at);
        if (createdAt < period.from || createdAt >= period.to) continue;
        entries.push(drainEntryOf(drain, createdAt));
      }
      const last = page.data.at(-1);
      if (!last || page.data.length < DRAIN_PAGE || new Date(last.created_at) < period.from) break;
      after = last.id;
    }
  }
  return entries;
}

/** A drain as an entry: its amount in its currency (USDC), listed but not compared while in review or in a currency Tessera has not. */
function drainEntryOf(drain: BridgeDrain, createdAt: Date): BalanceEntry {
  const currency = typeof drain.currency === 'string' ? drain.currency.toUpperCase() : '';
  let amount: bigint | null;
  try {
    amount = tesseraAmountOf(drain.amount, currency);
  } catch {
    amount = null;
  }
  return {
    id: drain.id,
    type: amount === null || drain.state === 'in_review' ? 'other' : 'treasury_deposit',
    acquirerType: `drain:${drain.state}`,
    sourceId: drain.id,
    paymentReference: null,
    amount: amount ?? 0n,
    currency,
    fee: 0n,
    feeCurrency: currency,
    createdAt,
  };
}

/** A deposit as an entry: its amount in its currency (USD, EUR), or not compared when Tessera has no such currency. */
function depositEntryOf(event: BridgeVirtualAccountEvent, createdAt: Date): BalanceEntry {
  const currency = typeof event.currency === 'string' ? event.currency.toUpperCase() : '';
  let amount: bigint | null;
  try {
    amount = tesseraAmountOf(event.amount, currency);
  } catch {
    amount = null;
  }
  return {
    id: event.id,
    type: amount === null ? 'other' : 'treasury_deposit',
    acquirerType: `virtual_account_activity:${event.type}`,
    sourceId: event.deposit_id ?? event.id,
    paymentReference: null,
    amount: amount ?? 0n,
    currency,
    fee: 0n,
    feeCurrency: currency,
    createdAt,
  };
}

async function completedTransfers(client: BridgeClient, period: BalancePeriod): Promise<BalanceEntry[]> {
  const oldest = period.from.getTime() - BRIDGE_TRANSFER_LOOKBACK_DAYS * 86_400_000;
  const entries: BalanceEntry[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await client.get<BridgeList<BridgeTransfer>>('/transfers', { limit: PAGE, starting_after: after });
    for (const transfer of page.data) {
      const completedAt = new Date(transfer.updated_at);
      if (!BRIDGE_COMPLETED_STATES.has(transfer.state)) continue;
      if (completedAt < period.from || completedAt >= period.to) continue;
      entries.push(entryOf(transfer, completedAt));
    }
    const last = page.data.at(-1);
    if (!last || page.data.length < PAGE || new Date(last.created_at).getTime() < oldest) return entries;
    after = last.id;
  }
}

/** A completed transfer as an entry: its amount in the destination's currency (USD, EUR, USDC), or not compared when Tessera has no such currency. */
function entryOf(transfer: BridgeTransfer, completedAt: Date): BalanceEntry {
  const named = (transfer.destination as { currency?: unknown }).currency ?? transfer.currency;
  const currency = typeof named === 'string' ? named.toUpperCase() : '';
  let amount: bigint | null;
  try {
    amount = tesseraAmountOf(transfer.amount, currency);
  } catch {
    amount = null;
  }
  return {
    id: transfer.id,
    type: amount === null ? 'other' : 'treasury_payout',
    acquirerType: `transfer:${transfer.state}`,
    sourceId: transfer.id,
    paymentReference: null,
    amount: amount ?? 0n,
    currency,
    fee: 0n,
    feeCurrency: currency,
    createdAt: completedAt,
  };
}
