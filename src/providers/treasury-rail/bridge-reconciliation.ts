import type { BalancePeriod } from '../card-acquirer/port';
import type { BalanceEntry, ReconciliationSource } from '../reconciliation/port';
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

/**
 * Bridge's balance for reconciliation (docs/live.md, "Reconciliation of Bridge"): its transfers
 * that completed (`payment_processed`, https://apidocs.bridge.xyz, transfers: states) in the period,
 * read with `GET /v0/transfers` (every transfer of the developer, newest first by creation,
 * `limit` / `starting_after`; https://apidocs.bridge.xyz, fetching transfers), each an entry of type
 * `treasury_payout` whose id is the transfer's (the payout's `provider_ref`), dated when Bridge last
 * changed it (its `updated_at`: the completion), in the destination's currency and Tessera's minor
 * units. Bridge's own fees are not listed on a transfer in a currency Tessera books: entries carry none.
 */
export function bridgeReconciliation(client: BridgeClient): ReconciliationSource {
  return {
    provider: BRIDGE_PROVIDER,
    compares: 'treasury-rail',
    balanceEntries: (period) => completedTransfers(client, period),
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
