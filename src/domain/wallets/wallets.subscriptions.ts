import { AnySubscription } from '../shared/domain-events';
import { LowBalanceService } from './low-balance.service';
import { WalletService } from './wallet.service';

/** What wallets hear: a mode enabled (its default wallet provisioned) and every wallet debit (judged against the low-balance threshold). */
export const walletsSubscriptions = ({
  wallets,
  lowBalance,
}: {
  wallets: WalletService;
  lowBalance: LowBalanceService;
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
];
