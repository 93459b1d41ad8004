import type { Core } from '../core';
import { defineArea } from '../shared/area';
import { WalletLowBalanceThreshold } from './low-balance.entity';
import { WalletService } from './wallet.service';
import { LowBalanceService } from './low-balance.service';
import { walletsSubscriptions } from './wallets.subscriptions';

// The area's public surface, by file: src/ outside the area imports it only through here (test/architecture.test.ts).
export { WalletLowBalanceThreshold } from './low-balance.entity';
export type { FundWalletCommand, SetLowBalanceThresholdCommand } from './wallet.commands';
export type { Wallet, WalletEntry } from './wallet.service';

declare module '../core' {
  interface Core {
    wallets: WalletService;
    /** Low-balance thresholds of wallets per business, mode and currency, and their crossings (`wallet.low_balance` on /v1). */
    lowBalance: LowBalanceService;
  }
}

/** The wallets area: what the registries gather from it (src/areas.ts lists it). */
export const walletsArea = defineArea<Core>({
  name: 'wallets',
  entities: [WalletLowBalanceThreshold],
  services: {
    wallets: (core) => new WalletService(core.ledger, core.events),
    lowBalance: (core) => new LowBalanceService(core.bus),
  },
  subscriptions: walletsSubscriptions,
});
