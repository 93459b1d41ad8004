import { V1EventService } from '../webhooks/v1-event.service';
import { V1Events } from '../webhooks/v1.events';
import { LowBalanceService } from './low-balance.service';

/**
 * `wallet.low_balance` on `/v1`: each crossing the wallets' low-balance rule finds (in the debit's
 * transaction) is recorded and delivered to the business's webhook URL of the mode, signed like
 * every `/v1` event. Data: `{ wallet_id, currency, balance, threshold }`, amounts in minor units.
 */
export function announceLowBalanceOnV1(lowBalance: LowBalanceService, v1Events: V1EventService): void {
  lowBalance.onCrossedBelow(async (tx, crossing) => {
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
  });
}
