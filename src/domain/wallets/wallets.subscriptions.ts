import { AnySubscription } from '../shared/domain-events';
import { LowBalanceService } from './low-balance.service';
import { WalletService } from './wallet.service';
import { V1EventService } from '../webhooks';
import { lowBalanceOnV1 } from './v1-low-balance.events';

/**
 * What wallets hear: a mode enabled (its default wallet provisioned), every wallet debit (judged
 * against the low-balance threshold) and each crossing below it (`wallet.low_balance` on `/v1`).
 */
export const walletsSubscriptions = ({
  wallets,
  lowBalance,
  v1Events,
}: {
  wallets: WalletService;
  lowBalance: LowBalanceService;
  v1Events: V1EventService;
}): AnySubscription[] => [
  {
    event: 'identity.mode-enabled',
    phase: 'in-transaction',
    name: 'wallets.provision-default-wallet',
    handle: async (ctx) => {
      await wallets.provisionWallet(ctx, 'USD');
    },
  },
  {
    event: 'ledger.wallet-debited',
    phase: 'in-transaction',
    name: 'wallets.judge-low-balance',
    handle: (tx, debit) => lowBalance.judge(tx, debit),
  },
  lowBalanceOnV1(v1Events),
];
