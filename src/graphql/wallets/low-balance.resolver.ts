import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { lowBalanceCommandOf, lowBalanceThresholdSchema } from '../../wire/low-balance';
import { parseInput } from '../../wire/validation';
import { GraphQLContext, caller } from '../shared/context';
import { SetWalletLowBalanceThresholdInput, WalletLowBalanceThreshold } from './low-balance.types';

@Resolver(() => WalletLowBalanceThreshold)
export class WalletLowBalanceThresholdResolver {
  @Query(() => [WalletLowBalanceThreshold], { description: 'The low-balance thresholds of the active business in the active mode, by currency' })
  async walletLowBalanceThresholds(@Ctx() context: GraphQLContext): Promise<WalletLowBalanceThreshold[]> {
    return (await context.core.lowBalance.list(caller(context))).map(WalletLowBalanceThreshold.from);
  }

  @Mutation(() => WalletLowBalanceThreshold, {
    nullable: true,
    description: 'Sets (threshold null: removes) the low-balance threshold of a currency in the active mode; OWNER or ADMIN. Returns null when removed',
  })
  async setWalletLowBalanceThreshold(@Arg('input') input: SetWalletLowBalanceThresholdInput, @Ctx() context: GraphQLContext): Promise<WalletLowBalanceThreshold | null> {
    const saved = await context.core.lowBalance.set(caller(context), lowBalanceCommandOf(parseInput(lowBalanceThresholdSchema, { ...input })));
    return saved ? WalletLowBalanceThreshold.from(saved) : null;
  }
}
