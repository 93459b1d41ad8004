import { defineArea } from '../shared/area';
import { WalletLowBalanceThreshold } from './low-balance.entity';

/** The wallets area: what the registries gather from it (src/areas.ts lists it). */
export const walletsArea = defineArea({
  name: 'wallets',
  entities: [WalletLowBalanceThreshold],
});
