import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { lowBalanceCommandOf, lowBalanceThresholdSchema } from '../../wire/low-balance';
import { parseInput } from '../../wire/validation';
import { PayoutUserErrors } from '../payouts/payout.errors';
import { GraphQLContext, caller } from '../shared/context';
import { Payload, payloadOf } from '../shared/payload';
import { defineNode } from '../shared/node';
import { notFound } from '../../domain/shared/errors';
import { SetWalletLowBalanceThresholdInput, WalletLowBalanceThreshold } from './low-balance.types';

export const SetWalletLowBalanceThresholdPayload = Payload(
  'SetWalletLowBalanceThreshold',
  'walletLowBalanceThreshold',
  () => WalletLowBalanceThreshold,
  PayoutUserErrors,
  'The result of setWalletLowBalanceThreshold: the threshold as set (null when removed, or when userErrors is not empty)',
);
export type SetWalletLowBalanceThresholdPayload = InstanceType<typeof SetWalletLowBalanceThresholdPayload>;

defineNode({
  type: WalletLowBalanceThreshold,
  prefix: 'WalletLowBalanceThreshold',
  load: async (context, id) => {
    const found = (await context.core.lowBalance.list(caller(context)))
      .map(WalletLowBalanceThreshold.from)
      .find((threshold) => threshold.id === id);
    if (!found) throw notFound('WalletLowBalanceThreshold');
    return found;
  },
});

@Resolver(() => WalletLowBalanceThreshold)
export class WalletLowBalanceThresholdResolver {
  @Query(() => [WalletLowBalanceThreshold], {
    description:
      'The low-balance thresholds of the active business in the active mode, by currency (at most one per currency: a plain list)',
  })
  async walletLowBalanceThresholds(@Ctx() context: GraphQLContext): Promise<WalletLowBalanceThreshold[]> {
    return (await context.core.lowBalance.list(caller(context))).map(WalletLowBalanceThreshold.from);
  }

  @Mutation(() => SetWalletLowBalanceThresholdPayload, {
    description:
      'Sets (threshold null: removes) the low-balance threshold of a currency in the active mode; OWNER or ADMIN. walletLowBalanceThreshold is null when removed',
  })
  async setWalletLowBalanceThreshold(
    @Arg('input', { description: 'The currency, and its threshold (null removes it)' })
    input: SetWalletLowBalanceThresholdInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SetWalletLowBalanceThresholdPayload> {
    const who = caller(context);
    return payloadOf(SetWalletLowBalanceThresholdPayload, async () => {
      const saved = await context.core.lowBalance.set(
        who,
        lowBalanceCommandOf(parseInput(lowBalanceThresholdSchema, { ...input })),
      );
      return saved ? WalletLowBalanceThreshold.from(saved) : null;
    });
  }
}
