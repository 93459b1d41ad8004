import { WalletResolver } from './wallet.resolver';
import { WalletLowBalanceThresholdResolver } from './low-balance.resolver';

/** The wallets area's GraphQL resolvers (src/areas.ts). */
export const resolvers = [WalletResolver, WalletLowBalanceThresholdResolver];
