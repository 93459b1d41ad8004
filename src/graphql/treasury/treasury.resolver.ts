import { filter, pipe } from '@graphql-yoga/subscription';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import {
  EndUserStatus,
  TreasuryAccess,
  TreasuryEndUser as EndUserRow,
  TreasuryKycChange,
  TreasuryKycCheck as KycCheckRow,
  TreasuryPayout as PayoutRow,
  TreasuryPayoutChange,
  TreasuryPayoutStatus,
  TreasuryTopic,
  TreasuryWallet as WalletRow,
  TreasuryWalletView,
} from '../../domain/treasury';
import { forbidden, notFound } from '../../domain/shared/errors';
import {
  createEndUserBodySchema,
  createTreasuryPayoutBodySchema,
  createTreasuryWalletBodySchema,
  rejectKycBodySchema,
  sandboxDepositBodySchema,
  startKycBodySchema,
  toCreateEndUserCommand,
  toCreateTreasuryPayoutCommand,
  toCreateTreasuryWalletCommand,
  toRejectKycCommand,
  toSandboxDepositCommand,
  toStartKycCommand,
} from '../../wire/treasury';
import { parseInput } from '../../wire/validation';
import { definedFields } from '../customers/customer.types';
import { AFTER_ARG, FIRST_ARG, keysetPage, perRow, toConnection } from '../shared/connection';
import { GraphQLContext, caller, ownedBySubscriber } from '../shared/context';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import {
  ApproveSandboxTreasuryKycInput,
  CancelTreasuryPayoutInput,
  CreateTreasuryEndUserInput,
  CreateTreasuryPayoutInput,
  CreateTreasuryWalletInput,
  DepositSandboxTreasuryWalletInput,
  RejectSandboxTreasuryKycInput,
  StartTreasuryKycInput,
} from './treasury.inputs';
import {
  ApproveSandboxTreasuryKycPayload,
  CancelTreasuryPayoutPayload,
  CreateTreasuryEndUserPayload,
  CreateTreasuryPayoutPayload,
  CreateTreasuryWalletPayload,
  DepositSandboxTreasuryWalletPayload,
  RejectSandboxTreasuryKycPayload,
  StartTreasuryKycPayload,
} from './treasury.payloads';
import {
  StartTreasuryKycResult,
  TreasuryDeposit,
  TreasuryEndUser,
  TreasuryEndUserConnection,
  TreasuryKycCheck,
  TreasuryKycCheckConnection,
  TreasuryKycUpdate,
  TreasuryPayout,
  TreasuryPayoutConnection,
  TreasuryPayoutUpdate,
  TreasuryWallet,
  TreasuryWalletConnection,
} from './treasury.types';

/**
 * The caller, once the treasury product's refusals (role, partner, test credentials for the sandbox
 * helpers) have been asked, as REST asks them before it reads a body: a business without the
 * product hears FORBIDDEN, never a validation error about its input.
 */
async function partner(context: GraphQLContext, access: TreasuryAccess) {
  const ctx = caller(context);
  await context.core.treasuryEndUsers.assertAccess(ctx, access);
  return ctx;
}

/** The first row of a read by ids, or NOT_FOUND (what node(id:) answers null for). */
const only =
  <T>(what: string) =>
  (rows: readonly T[]): T => {
    if (rows.length === 0) throw notFound(what);
    return rows[0];
  };

// Each object as its own query reads it: the caller's partner and mode, with the product enabled.
defineNode({
  type: TreasuryEndUser,
  entity: EndUserRow,
  load: async (context, id) => TreasuryEndUser.from(await context.core.treasuryEndUsers.get(caller(context), id)),
});
defineNode({
  type: TreasuryKycCheck,
  entity: KycCheckRow,
  load: async (context, id) =>
    TreasuryKycCheck.from(
      only<KycCheckRow>('KYC check')(await context.core.treasuryKyc.byIds(await partner(context, 'read'), [id])),
    ),
});
defineNode({
  type: TreasuryWallet,
  entity: WalletRow,
  load: async (context, id) =>
    TreasuryWallet.from(
      only<TreasuryWalletView>('Wallet')(
        await context.core.treasuryWallets.byIds(await partner(context, 'read'), [id]),
      ),
    ),
});
defineNode({
  type: TreasuryPayout,
  entity: PayoutRow,
  load: async (context, id) => TreasuryPayout.from(await context.core.treasuryPayouts.get(caller(context), id)),
});

/**
 * The subscriber of a treasury change, asked again on every change: a socket outlives the
 * product's switch, so a business whose treasury product was turned off after it subscribed hears
 * FORBIDDEN instead of the change (the role and membership are re-checked by `caller`).
 */
async function partnerSubscriber(context: GraphQLContext) {
  const ctx = caller(context);
  if (!(await context.loaders.treasuryProductEnabled.load(ctx.requireBusiness())))
    throw forbidden('The treasury product is not enabled for this business');
  return ctx;
}

/**
 * A treasury topic's changes for a partner's subscriber: refused at the start (FORBIDDEN) for a business
 * without the product, then only the changes of the subscriber's own business and mode.
 */
async function partnerChanges<T extends { businessId: string; livemode: boolean }>(
  context: GraphQLContext,
  subscribe: () => AsyncIterable<T>,
  wanted: (change: T) => boolean,
): Promise<AsyncIterable<T>> {
  await partner(context, 'read');
  return pipe(
    subscribe(),
    filter((change: T) => ownedBySubscriber(change, context) && wanted(change)),
  );
}

/**
 * Treasury for the partner's dashboard (design section 10; docs/treasury.md): the same operations
 * and commands as /api/v1/treasury, inputs checked with the shapes REST uses (src/wire/treasury).
 */
@Resolver(() => TreasuryEndUser)
export class TreasuryEndUserResolver {
  @Query(() => TreasuryEndUserConnection, {
    description: "The partner's end-users in the active mode, newest first",
    complexity: perRow,
  })
  async treasuryEndUsers(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => EndUserStatus, { nullable: true, description: 'Only the end-users in this status' })
    status?: EndUserStatus,
    @Arg('externalId', () => String, {
      nullable: true,
      description: 'Only the end-user with this externalId (exact match)',
    })
    externalId?: string,
  ): Promise<TreasuryEndUserConnection> {
    const filters = { status: status ?? undefined, externalId: externalId ?? undefined };
    return toConnection(
      await context.core.treasuryEndUsers.list(caller(context), filters, keysetPage(first, after)),
      TreasuryEndUser.from,
    );
  }

  @Query(() => TreasuryEndUser, {
    description: "One of the partner's end-users in the active mode (NOT_FOUND for another partner's or mode's id)",
  })
  async treasuryEndUser(
    @Arg('id', () => ID, { description: "The end-user's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<TreasuryEndUser> {
    return TreasuryEndUser.from(await context.core.treasuryEndUsers.get(caller(context), id));
  }

  @FieldResolver(() => TreasuryKycCheck, {
    nullable: true,
    description: 'Its KYC record: the latest check (null before the first)',
  })
  async kyc(@Root() endUser: TreasuryEndUser, @Ctx() context: GraphQLContext): Promise<TreasuryKycCheck | null> {
    const check = await context.loaders.treasuryKycOfEndUser.load(endUser.id);
    return check && TreasuryKycCheck.from(check);
  }

  @FieldResolver(() => [TreasuryWallet], { description: 'Its wallets (one per currency), oldest first' })
  async wallets(@Root() endUser: TreasuryEndUser, @Ctx() context: GraphQLContext): Promise<TreasuryWallet[]> {
    return (await context.loaders.treasuryWalletsOfEndUser.load(endUser.id)).map(TreasuryWallet.from);
  }

  @Mutation(() => CreateTreasuryEndUserPayload, {
    description: 'A new end-user, PENDING_KYC (CONFLICT when the externalId is taken in this mode)',
  })
  async createTreasuryEndUser(
    @Arg('input', { description: "The end-user's fields, as REST's body" }) input: CreateTreasuryEndUserInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreateTreasuryEndUserPayload> {
    const ctx = await partner(context, 'write');
    return payloadOf(CreateTreasuryEndUserPayload, async () => {
      const command = toCreateEndUserCommand(parseInput(createEndUserBodySchema, definedFields(input)));
      return TreasuryEndUser.from(await context.core.treasuryEndUsers.create(ctx, command));
    });
  }
}

@Resolver(() => TreasuryKycCheck)
export class TreasuryKycResolver {
  @Query(() => TreasuryKycCheck, {
    description: "The end-user's KYC record: its latest check (NOT_FOUND before the first)",
  })
  async treasuryKycCheck(
    @Arg('endUserId', () => ID, { description: 'The id of the end-user whose latest check to read' }) endUserId: string,
    @Ctx() context: GraphQLContext,
  ): Promise<TreasuryKycCheck> {
    return TreasuryKycCheck.from(await context.core.treasuryKyc.get(caller(context), endUserId));
  }

  @Query(() => TreasuryKycCheckConnection, { description: "The end-user's checks, newest first", complexity: perRow })
  async treasuryKycChecks(
    @Arg('endUserId', () => ID, { description: 'The id of the end-user whose checks to list' }) endUserId: string,
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<TreasuryKycCheckConnection> {
    return toConnection(
      await context.core.treasuryKyc.list(caller(context), { endUserId }, keysetPage(first, after)),
      TreasuryKycCheck.from,
    );
  }

  @FieldResolver(() => TreasuryEndUser, { description: 'The end-user checked' })
  async endUser(@Root() check: TreasuryKycCheck, @Ctx() context: GraphQLContext): Promise<TreasuryEndUser> {
    const row = await context.loaders.treasuryEndUserById.load(check.partnerEndUserId);
    if (!row) throw notFound('End-user');
    return TreasuryEndUser.from(row);
  }

  @Mutation(() => StartTreasuryKycPayload, {
    description:
      'Starts a check (PENDING, with kycLinkUrl); the PENDING one when there is one (created false); CONFLICT once APPROVED',
  })
  async startTreasuryKyc(
    @Arg('input', { description: 'The end-user to check, and the level' }) input: StartTreasuryKycInput,
    @Ctx() context: GraphQLContext,
  ): Promise<StartTreasuryKycPayload> {
    const ctx = await partner(context, 'write');
    return payloadOf(StartTreasuryKycPayload, async () => {
      const command = toStartKycCommand(
        input.endUserId,
        parseInput(startKycBodySchema, definedFields({ level: input.level })),
      );
      const { check, created } = await context.core.treasuryKyc.start(ctx, command);
      return Object.assign(new StartTreasuryKycResult(), { kyc: TreasuryKycCheck.from(check), created });
    });
  }

  @Mutation(() => ApproveSandboxTreasuryKycPayload, {
    description:
      "Sandbox only: approves the end-user's PENDING check (CONFLICT otherwise); the end-user becomes ACTIVE",
  })
  async approveSandboxTreasuryKyc(
    @Arg('input', { description: 'The end-user whose PENDING check to approve' }) input: ApproveSandboxTreasuryKycInput,
    @Ctx() context: GraphQLContext,
  ): Promise<ApproveSandboxTreasuryKycPayload> {
    const ctx = await partner(context, 'sandbox');
    return payloadOf(ApproveSandboxTreasuryKycPayload, async () =>
      TreasuryKycCheck.from(await context.core.treasuryKyc.sandboxApprove(ctx, input.endUserId)),
    );
  }

  @Mutation(() => RejectSandboxTreasuryKycPayload, {
    description:
      "Sandbox only: rejects the end-user's PENDING check with 1 to 10 reasons (CONFLICT otherwise); the end-user becomes REJECTED",
  })
  async rejectSandboxTreasuryKyc(
    @Arg('input', { description: 'The end-user whose PENDING check to reject, and the reasons' })
    input: RejectSandboxTreasuryKycInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RejectSandboxTreasuryKycPayload> {
    const ctx = await partner(context, 'sandbox');
    return payloadOf(RejectSandboxTreasuryKycPayload, async () => {
      const command = toRejectKycCommand(input.endUserId, parseInput(rejectKycBodySchema, { reasons: input.reasons }));
      return TreasuryKycCheck.from(await context.core.treasuryKyc.sandboxReject(ctx, command));
    });
  }

  @Subscription(() => TreasuryKycUpdate, {
    description:
      "Each change of the partner's KYC checks once (one end-user's when endUserId is given): started, approved, rejected; its business and mode only",
    subscribe: ({ args, context }: { args: { endUserId?: string }; context: GraphQLContext }) =>
      partnerChanges(
        context,
        () => context.core.pubSub.subscribe(TreasuryTopic.TREASURY_KYC),
        (change) => !args.endUserId || args.endUserId === change.endUserId,
      ),
  })
  async treasuryKycUpdated(
    @Root() change: TreasuryKycChange,
    @Ctx() context: GraphQLContext,
    @Arg('endUserId', () => ID, {
      nullable: true,
      description: "Only this end-user's checks (every end-user's when omitted)",
    })
    _endUserId?: string,
  ): Promise<TreasuryKycUpdate> {
    await partnerSubscriber(context);
    // Through the publication's shared loader: one read for every subscriber of this process.
    const check = await context.loaders.treasuryKycCheckById.load(change.checkId);
    if (!check) throw notFound('KYC check');
    return TreasuryKycUpdate.of(check, change.previousStatus, change.changed);
  }
}

@Resolver(() => TreasuryWallet)
export class TreasuryWalletResolver {
  @Query(() => TreasuryWalletConnection, { description: "The end-user's wallets, newest first", complexity: perRow })
  async treasuryWallets(
    @Arg('endUserId', () => ID, { description: 'The id of the end-user whose wallets to list' }) endUserId: string,
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<TreasuryWalletConnection> {
    return toConnection(
      await context.core.treasuryWallets.list(caller(context), { endUserId }, keysetPage(first, after)),
      TreasuryWallet.from,
    );
  }

  @Query(() => TreasuryWallet, {
    description:
      "The end-user's wallet with its balance and deposit instructions (a wallet of another end-user is NOT_FOUND)",
  })
  async treasuryWallet(
    @Arg('endUserId', () => ID, { description: 'The id of the end-user who owns the wallet' }) endUserId: string,
    @Arg('walletId', () => ID, { description: "The wallet's id (UUID, as REST answers it)" }) walletId: string,
    @Ctx() context: GraphQLContext,
  ): Promise<TreasuryWallet> {
    return TreasuryWallet.from(await context.core.treasuryWallets.get(caller(context), { endUserId, walletId }));
  }

  @FieldResolver(() => TreasuryEndUser, { description: 'The end-user who owns the wallet' })
  async endUser(@Root() wallet: TreasuryWallet, @Ctx() context: GraphQLContext): Promise<TreasuryEndUser> {
    const row = await context.loaders.treasuryEndUserById.load(wallet.partnerEndUserId);
    if (!row) throw notFound('End-user');
    return TreasuryEndUser.from(row);
  }

  @Mutation(() => CreateTreasuryWalletPayload, {
    description:
      'Opens a wallet in a currency (KYC_REQUIRED before KYC approval; CONFLICT for a second wallet of a currency)',
  })
  async createTreasuryWallet(
    @Arg('input', { description: "The end-user and the wallet's currency" }) input: CreateTreasuryWalletInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreateTreasuryWalletPayload> {
    const ctx = await partner(context, 'write');
    return payloadOf(CreateTreasuryWalletPayload, async () => {
      const command = toCreateTreasuryWalletCommand(
        input.endUserId,
        parseInput(createTreasuryWalletBodySchema, { currency: input.currency }),
      );
      return TreasuryWallet.from(await context.core.treasuryWallets.create(ctx, command));
    });
  }

  @Mutation(() => DepositSandboxTreasuryWalletPayload, {
    description:
      "Sandbox only: money arrives on the wallet's deposit account (amount in major units of the wallet's currency)",
  })
  async depositSandboxTreasuryWallet(
    @Arg('input', { description: 'The wallet credited, and the amount that arrives' })
    input: DepositSandboxTreasuryWalletInput,
    @Ctx() context: GraphQLContext,
  ): Promise<DepositSandboxTreasuryWalletPayload> {
    const ctx = await partner(context, 'sandbox');
    return payloadOf(DepositSandboxTreasuryWalletPayload, async () => {
      const command = toSandboxDepositCommand(
        input.endUserId,
        input.walletId,
        parseInput(sandboxDepositBodySchema, { amount: input.amount }),
      );
      return TreasuryDeposit.from(await context.core.treasuryWallets.sandboxDeposit(ctx, command));
    });
  }
}

@Resolver(() => TreasuryPayout)
export class TreasuryPayoutResolver {
  @Query(() => TreasuryPayoutConnection, {
    description: "The partner's treasury payouts in the active mode, newest first",
    complexity: perRow,
  })
  async treasuryPayouts(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => TreasuryPayoutStatus, { nullable: true, description: 'Only the payouts in this status' })
    status?: TreasuryPayoutStatus,
    @Arg('partnerEndUserId', () => ID, { nullable: true, description: "Only this end-user's payouts" })
    partnerEndUserId?: string,
    @Arg('partnerWalletId', () => ID, { nullable: true, description: 'Only the payouts from this wallet' })
    partnerWalletId?: string,
  ): Promise<TreasuryPayoutConnection> {
    const filters = {
      status: status ?? undefined,
      endUserId: partnerEndUserId ?? undefined,
      walletId: partnerWalletId ?? undefined,
    };
    return toConnection(
      await context.core.treasuryPayouts.list(caller(context), filters, keysetPage(first, after)),
      TreasuryPayout.from,
    );
  }

  @Query(() => TreasuryPayout, {
    description:
      "One of the partner's treasury payouts in the active mode (NOT_FOUND for another partner's or mode's id)",
  })
  async treasuryPayout(
    @Arg('id', () => ID, { description: "The payout's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<TreasuryPayout> {
    return TreasuryPayout.from(await context.core.treasuryPayouts.get(caller(context), id));
  }

  @FieldResolver(() => TreasuryEndUser, { description: 'The end-user paying out' })
  async endUser(@Root() payout: TreasuryPayout, @Ctx() context: GraphQLContext): Promise<TreasuryEndUser> {
    const row = await context.loaders.treasuryEndUserById.load(payout.partnerEndUserId);
    if (!row) throw notFound('End-user');
    return TreasuryEndUser.from(row);
  }

  @FieldResolver(() => TreasuryWallet, { description: 'The wallet paid from, with its current balance' })
  async wallet(@Root() payout: TreasuryPayout, @Ctx() context: GraphQLContext): Promise<TreasuryWallet> {
    const view = await context.loaders.treasuryWalletById.load(payout.partnerWalletId);
    if (!view) throw notFound('Wallet');
    return TreasuryWallet.from(view);
  }

  @Mutation(() => CreateTreasuryPayoutPayload, {
    description: 'Debits the wallet and creates the payout, PENDING (INSUFFICIENT_FUNDS writes nothing)',
  })
  async createTreasuryPayout(
    @Arg('input', { description: "The payout request, as REST's body" }) input: CreateTreasuryPayoutInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreateTreasuryPayoutPayload> {
    const ctx = await partner(context, 'write');
    return payloadOf(CreateTreasuryPayoutPayload, async () => {
      const command = toCreateTreasuryPayoutCommand(parseInput(createTreasuryPayoutBodySchema, definedFields(input)));
      return TreasuryPayout.from(await context.core.treasuryPayouts.create(ctx, command));
    });
  }

  @Mutation(() => CancelTreasuryPayoutPayload, {
    description: 'Only a PENDING payout (CONFLICT otherwise): CANCELLED, and the debit reversed',
  })
  async cancelTreasuryPayout(
    @Arg('input', { description: 'The PENDING payout to cancel' }) input: CancelTreasuryPayoutInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CancelTreasuryPayoutPayload> {
    const ctx = caller(context);
    return payloadOf(CancelTreasuryPayoutPayload, async () =>
      TreasuryPayout.from(await context.core.treasuryPayouts.cancel(ctx, input.id)),
    );
  }

  @Subscription(() => TreasuryPayoutUpdate, {
    description:
      "Each change of the partner's treasury payouts once (one payout when id is given): created, then each status; its business and mode only",
    subscribe: ({ args, context }: { args: { id?: string }; context: GraphQLContext }) =>
      partnerChanges(
        context,
        () => context.core.pubSub.subscribe(TreasuryTopic.TREASURY_PAYOUT),
        (change) => !args.id || args.id === change.payoutId,
      ),
  })
  async treasuryPayoutUpdated(
    @Root() change: TreasuryPayoutChange,
    @Ctx() context: GraphQLContext,
    @Arg('id', () => ID, { nullable: true, description: "Only this payout's changes (every payout's when omitted)" })
    _id?: string,
  ): Promise<TreasuryPayoutUpdate> {
    await partnerSubscriber(context);
    const payout = await context.loaders.treasuryPayoutById.load(change.payoutId);
    if (!payout) throw notFound('Treasury payout');
    return TreasuryPayoutUpdate.of(payout, change.previousStatus, change.changed);
  }
}
