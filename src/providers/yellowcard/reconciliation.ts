import { exponentOf } from '../../domain/shared/money';
import type { BalancePeriod } from '../card-acquirer/port';
import type { BalanceEntry, ReconciliationSource } from '../reconciliation/port';
import type { YcTransaction } from './client';
import { YELLOWCARD_PROVIDER, YellowCardConnection } from './connection';

/**
 * How long before the period Yellow Card's lists are read: they are by creation, and a payment or
 * collection is compared in the period it completed (when its posting is made), which may be days
 * after Yellow Card made it (a bank payout, a payer who pays late).
 */
export const YELLOWCARD_RECONCILIATION_LOOKBACK_MS = 7 * 86_400_000;

/**
 * Yellow Card's reconciliation source (docs/live.md, "Yellow Card's reconciliation"): its payments
 * (payouts) and collections, compared with the ledger by the payout rail's rules (`compares:
 * 'payout-rail'`: a completed payment with its payout's settlement, a completed collection with its
 * credit, by the id Tessera keeps as `providerRef`). Payments and collections in another state are
 * listed, not compared.
 */
export function yellowCardReconciliation(connection: YellowCardConnection): ReconciliationSource {
  return {
    provider: YELLOWCARD_PROVIDER,
    compares: 'payout-rail',
    balanceEntries: async ({ from, to }: BalancePeriod) => {
      const period = { startDate: new Date(from.getTime() - YELLOWCARD_RECONCILIATION_LOOKBACK_MS), endDate: to };
      const [payments, collections] = await Promise.all([
        connection.client.listPayments(period),
        connection.client.listCollections(period),
      ]);
      return [
        ...payments.map((payment) => entryOf(payment, 'payout')),
        ...collections.map((collection) => entryOf(collection, 'collection')),
      ];
    },
  };
}

/**
 * One payment or collection as a balance entry: compared (as `payout` / `collection`) when complete,
 * at the time it completed; its local amount in Tessera's minor units of its currency; no fee
 * (Yellow Card's margin is in its rate, not billed per transaction).
 */
function entryOf(transaction: YcTransaction, type: 'payout' | 'collection'): BalanceEntry {
  const currency = transaction.currency.toUpperCase();
  const complete = transaction.status.toLowerCase() === 'complete';
  const at = (complete ? transaction.updatedAt : undefined) ?? transaction.createdAt;
  return {
    id: transaction.id,
    type: complete ? type : 'other',
    acquirerType: `${type === 'payout' ? 'payment' : 'collection'}.${transaction.status.toLowerCase()}`,
    sourceId: transaction.id,
    paymentReference: transaction.sequenceId,
    // Rounded to the currency's minor unit: one entry with more decimals must not stop the run.
    amount: BigInt(Math.round(transaction.localAmount * 10 ** exponentOf(currency))),
    currency,
    fee: 0n,
    feeCurrency: currency,
    createdAt: at ? new Date(at) : new Date(0),
  };
}
