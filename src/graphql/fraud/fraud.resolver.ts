import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import { BlocklistEntry as BlocklistEntryRow, BlocklistEntryType, FraudRule as FraudRuleRow } from '../../domain/fraud';
import {
  blocklistBodySchema,
  createRuleBodySchema,
  toAddBlocklistEntryCommand,
  toCreateRuleCommand,
  toUpdateRuleCommand,
  updateRuleBodySchema,
} from '../../wire/fraud';
import { enumFilter, parseInput } from '../../wire/validation';
import { GraphQLContext, caller } from '../shared/context';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { pageOfList } from '../identity/list-page';
import { definedFields } from '../customers/customer.types';
import {
  AddBlocklistEntryInput,
  AddBlocklistEntryPayload,
  BlocklistEntry,
  BlocklistEntryConnection,
  CreateFraudRuleInput,
  CreateFraudRulePayload,
  DeleteFraudRuleInput,
  DeleteFraudRulePayload,
  FraudRule,
  FraudRuleConnection,
  RemoveBlocklistEntryInput,
  RemoveBlocklistEntryPayload,
  UpdateFraudRuleInput,
  UpdateFraudRulePayload,
} from './fraud.types';

const blocklistFilterSchema = z.object({ type: enumFilter(BlocklistEntryType).nullish() });

defineNode({
  type: FraudRule,
  entity: FraudRuleRow,
  load: async (context, id) => FraudRule.from(await context.core.fraud.getRule(caller(context), id)),
});
defineNode({
  type: BlocklistEntry,
  entity: BlocklistEntryRow,
  load: async (context, id) => BlocklistEntry.from(await context.core.fraud.getBlocklistEntry(caller(context), id)),
});

/**
 * Fraud rules and the block list, the same operations as /api/v1/business/fraud; inputs are
 * checked with the shapes REST also uses (src/wire/fraud), so both faces answer the same errors.
 */
@Resolver()
export class FraudResolver {
  @Query(() => FraudRuleConnection, {
    description: 'Rules of the active business and mode, in screening order (oldest first; at most 100 per mode)',
    complexity: perRow,
  })
  async fraudRules(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<FraudRuleConnection> {
    const rules = await context.core.fraud.listRules(caller(context));
    return toConnection(pageOfList(rules, 'oldestFirst', 'fraudRules', { first, after }), FraudRule.from);
  }

  @Query(() => FraudRule, { description: 'One rule of the active business and mode (NOT_FOUND otherwise)' })
  async fraudRule(
    @Arg('id', () => ID, { description: "The rule's id (UUID, as REST answers it)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<FraudRule> {
    return FraudRule.from(await context.core.fraud.getRule(caller(context), id));
  }

  @Mutation(() => CreateFraudRulePayload, {
    description: 'Adds a rule, screened after the older ones; a 101st rule of a mode is CONFLICT',
  })
  async createFraudRule(
    @Arg('input', { description: 'The rule type and its parameters' }) input: CreateFraudRuleInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreateFraudRulePayload> {
    const ctx = caller(context);
    return payloadOf(CreateFraudRulePayload, async () =>
      FraudRule.from(
        await context.core.fraud.createRule(
          ctx,
          toCreateRuleCommand(parseInput(createRuleBodySchema, definedFields(input))),
        ),
      ),
    );
  }

  @Mutation(() => UpdateFraudRulePayload, { description: 'Enables or disables a rule, or changes its parameters' })
  async updateFraudRule(
    @Arg('input', { description: 'The rule and the fields to change (its type cannot change)' })
    input: UpdateFraudRuleInput,
    @Ctx() context: GraphQLContext,
  ): Promise<UpdateFraudRulePayload> {
    const ctx = caller(context);
    const { id, ...changes } = input;
    return payloadOf(UpdateFraudRulePayload, async () =>
      FraudRule.from(
        await context.core.fraud.updateRule(
          ctx,
          toUpdateRuleCommand(id, parseInput(updateRuleBodySchema, definedFields(changes))),
        ),
      ),
    );
  }

  @Mutation(() => DeleteFraudRulePayload, { description: 'Deletes a rule; charges are no longer screened against it' })
  async deleteFraudRule(
    @Arg('input', { description: 'The rule to delete' }) input: DeleteFraudRuleInput,
    @Ctx() context: GraphQLContext,
  ): Promise<DeleteFraudRulePayload> {
    const ctx = caller(context);
    return payloadOf(DeleteFraudRulePayload, async () =>
      FraudRule.from(await context.core.fraud.deleteRule(ctx, input.id)),
    );
  }

  @Query(() => BlocklistEntryConnection, {
    description: 'The block list of the active business and mode, newest first',
    complexity: perRow,
  })
  async blocklistEntries(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('type', () => String, { nullable: true, description: 'One of email, card_fingerprint or ip' }) type?: string,
  ): Promise<BlocklistEntryConnection> {
    const ctx = caller(context);
    const filters = parseInput(blocklistFilterSchema, { type });
    const page = await context.core.fraud.listBlocklist(
      ctx,
      { type: filters.type ?? undefined },
      { kind: 'keyset', first: first ?? null, after: after ?? null },
    );
    return toConnection(page, BlocklistEntry.from);
  }

  @Mutation(() => AddBlocklistEntryPayload, {
    description: 'Blocks an email, card fingerprint or IP address (CONFLICT when already blocked)',
  })
  async addBlocklistEntry(
    @Arg('input', { description: 'The kind of value, the value and a note' }) input: AddBlocklistEntryInput,
    @Ctx() context: GraphQLContext,
  ): Promise<AddBlocklistEntryPayload> {
    const ctx = caller(context);
    return payloadOf(AddBlocklistEntryPayload, async () =>
      BlocklistEntry.from(
        await context.core.fraud.addToBlocklist(
          ctx,
          toAddBlocklistEntryCommand(parseInput(blocklistBodySchema, definedFields(input))),
        ),
      ),
    );
  }

  @Mutation(() => RemoveBlocklistEntryPayload, {
    description: 'Removes an entry from the block list: its value no longer blocks charges',
  })
  async removeBlocklistEntry(
    @Arg('input', { description: 'The entry to remove' }) input: RemoveBlocklistEntryInput,
    @Ctx() context: GraphQLContext,
  ): Promise<RemoveBlocklistEntryPayload> {
    const ctx = caller(context);
    return payloadOf(RemoveBlocklistEntryPayload, async () =>
      BlocklistEntry.from(await context.core.fraud.removeFromBlocklist(ctx, input.id)),
    );
  }
}
