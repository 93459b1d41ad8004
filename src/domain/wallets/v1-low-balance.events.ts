import { Subscription } from '../shared/domain-events';
import { V1Events, V1EventService } from '../webhooks';

/**
 * `wallet.low_balance` on `/v1`: each crossing the wallets' low-balance rule finds (in the debit's
 * transaction) is recorded and delivered to the business's webhook URL of the mode, signed like
 * every `/v1` event. Data: `{ wallet_id, currency, balance, threshold }`, amounts in minor units.
 */
export const lowBalanceOnV1 = (v1Events: V1EventService): Subscription<'wallet.low-balance-crossed'> => ({
  event: 'wallet.low-balance-crossed',
  phase: 'in-transaction',
  name: 'v1.wallet-low-balance',
  handle: async (tx, crossing) => {
    await v1Events.record(tx, {
      businessId: crossing.businessId,
      livemode: crossing.livemode,
      name: V1Events.WALLET_LOW_BALANCE,
      data: {
        wallet_id: crossing.walletId,
        currency: crossing.currency,
        balance: Number(crossing.balance),
        threshold: Number(crossing.threshold),
      },
      alsoTo: [],
    });
  },
});
