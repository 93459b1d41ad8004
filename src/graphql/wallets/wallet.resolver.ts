import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { LedgerAccount, LedgerTopic, WalletBalanceChange } from '../../domain/ledger';
import { fundCommandOf, fundRequestSchema } from '../../wire/wallets';
import { parseInput } from '../../wire/validation';
import { PayoutUserErrors } from '../payouts/payout.errors';
import { GraphQLContext, caller } from '../shared/context';
import { defineNode } from '../shared/node';
import { Payload, payloadOf } from '../shared/payload';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import {
  SandboxFundWalletInput,
  Wallet,
  WalletBalanceUpdate,
  WalletEntry,
  WalletEntryConnection,
} from './wallet.types';

/** Wallets carry the payouts area's money: their refusals are PayoutErrorCode's. */
export const SandboxFundWalletPayload = Payload('SandboxFundWallet', 'wallet', () => Wallet, PayoutUserErrors);
export type SandboxFundWalletPayload = InstanceType<typeof SandboxFundWalletPayload>;

defineNode({
  type: Wallet,
  entity: LedgerAccount,
  load: async (context, id) => Wallet.from(await context.core.wallets.wallet(caller(context), id)),
});

@Resolver(() => Wallet)
export class WalletResolver {
  @Query(() => [Wallet], {
    description:
      'Wallets of the active business in the active mode, by currency: at most one per currency, so a plain list',
  })
  async wallets(@Ctx() context: GraphQLContext): Promise<Wallet[]> {
    return (await context.core.wallets.wallets(caller(context))).map(Wallet.from);
  }

  @Query(() => Wallet, {
    description: "One wallet of the active business and mode (NOT_FOUND for another business's or mode's id)",
  })
  async wallet(
    @Arg('id', () => ID, { description: "The wallet's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<Wallet> {
    return Wallet.from(await context.core.wallets.wallet(caller(context), id));
  }

  @FieldResolver(() => WalletEntryConnection, {
    description: "The wallet's ledger entries, newest first",
    complexity: perRow,
  })
  async entries(
    @Root() wallet: Wallet,
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<WalletEntryConnection> {
    const page = await context.core.wallets.entries(caller(context), wallet.id, {
      kind: 'keyset',
      first: first ?? null,
      after: after ?? null,
    });
    return toConnection(page, WalletEntry.from);
  }

  @Mutation(() => SandboxFundWalletPayload, {
    description: 'Sandbox only: adds play money to a wallet (refused in live mode)',
  })
  async sandboxFundWallet(
    @Arg('input', { description: 'The currency and the amount to add' }) input: SandboxFundWalletInput,
    @Ctx() context: GraphQLContext,
  ): Promise<SandboxFundWalletPayload> {
    const who = caller(context);
    return payloadOf(SandboxFundWalletPayload, async () => {
      const command = fundCommandOf(parseInput(fundRequestSchema, { ...input }));
      return Wallet.from((await context.core.wallets.sandboxFund(who, command)).wallet);
    });
  }

  @Subscription(() => WalletBalanceUpdate, {
    topics: LedgerTopic.WALLET_BALANCE,
    description: "Balance changes of the subscriber's wallets, in the subscriber's business and mode only",
    filter: ({ payload, context }: { payload: WalletBalanceChange; context: GraphQLContext }) => {
      const ctx = context.ctx;
      return !!ctx && payload.businessId === ctx.businessId && payload.livemode === ctx.livemode;
    },
  })
  walletBalanceUpdated(@Root() message: WalletBalanceChange): WalletBalanceUpdate {
    return WalletBalanceUpdate.from(message);
  }
}
