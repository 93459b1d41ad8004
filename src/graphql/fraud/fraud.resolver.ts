import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { z } from 'zod';
import { BlocklistEntryType } from '../../domain/fraud/fraud.entities';
import {
  blocklistBodySchema, createRuleBodySchema, toAddBlocklistEntryCommand, toCreateRuleCommand, toUpdateRuleCommand, updateRuleBodySchema,
} from '../../wire/fraud';
import { enumFilter, parseInput } from '../../wire/validation';
import { GraphQLContext, caller } from '../shared/context';
import { toConnection } from '../shared/connection';
import { definedFields } from '../customers/customer.types';
import {
  AddBlocklistEntryInput, BlocklistEntry, BlocklistEntryConnection, CreateFraudRuleInput, FraudRule, UpdateFraudRuleInput,
} from './fraud.types';

const blocklistFilterSchema = z.object({ type: enumFilter(BlocklistEntryType).nullish() });

/**
 * Fraud rules and the block list, the same operations as /api/v1/business/fraud; inputs are
 * checked with the shapes REST also uses (src/wire/fraud), so both faces answer the same errors.
 */
@Resolver()
export class FraudResolver {
  @Query(() => [FraudRule], { description: 'Rules of the active business and mode, in screening order (oldest first)' })
  async fraudRules(@Ctx() context: GraphQLContext): Promise<FraudRule[]> {
    return (await context.core.fraud.listRules(caller(context))).map(FraudRule.from);
  }

  @Query(() => FraudRule)
  async fraudRule(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<FraudRule> {
    return FraudRule.from(await context.core.fraud.getRule(caller(context), id));
  }

  @Mutation(() => FraudRule)
  async createFraudRule(@Arg('input') input: CreateFraudRuleInput, @Ctx() context: GraphQLContext): Promise<FraudRule> {
    return FraudRule.from(await context.core.fraud.createRule(caller(context), toCreateRuleCommand(parseInput(createRuleBodySchema, definedFields(input)))));
  }

  @Mutation(() => FraudRule, { description: 'Enables or disables a rule, or changes its parameters' })
  async updateFraudRule(@Arg('id', () => ID) id: string, @Arg('input') input: UpdateFraudRuleInput, @Ctx() context: GraphQLContext): Promise<FraudRule> {
    return FraudRule.from(await context.core.fraud.updateRule(caller(context), toUpdateRuleCommand(id, parseInput(updateRuleBodySchema, definedFields(input)))));
  }

  @Mutation(() => FraudRule)
  async deleteFraudRule(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<FraudRule> {
    return FraudRule.from(await context.core.fraud.deleteRule(caller(context), id));
  }

  @Query(() => BlocklistEntryConnection, {
    description: 'The block list of the active business and mode, newest first',
    complexity: ({ args, childComplexity }) => (args.first ?? 20) * childComplexity,
  })
  async blocklistEntries(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, { nullable: true }) first?: number,
    @Arg('after', () => String, { nullable: true }) after?: string,
    @Arg('type', () => String, { nullable: true, description: 'One of email, card_fingerprint or ip' }) type?: string,
  ): Promise<BlocklistEntryConnection> {
    const ctx = caller(context);
    const filters = parseInput(blocklistFilterSchema, { type });
    const page = await context.core.fraud.listBlocklist(ctx, { type: filters.type ?? undefined }, { kind: 'keyset', first: first ?? null, after: after ?? null });
    return toConnection(page, BlocklistEntry.from);
  }

  @Mutation(() => BlocklistEntry, { description: 'Blocks an email, card fingerprint or IP address (CONFLICT when already blocked)' })
  async addBlocklistEntry(@Arg('input') input: AddBlocklistEntryInput, @Ctx() context: GraphQLContext): Promise<BlocklistEntry> {
    return BlocklistEntry.from(await context.core.fraud.addToBlocklist(caller(context), toAddBlocklistEntryCommand(parseInput(blocklistBodySchema, definedFields(input)))));
  }

  @Mutation(() => BlocklistEntry)
  async removeBlocklistEntry(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<BlocklistEntry> {
    return BlocklistEntry.from(await context.core.fraud.removeFromBlocklist(caller(context), id));
  }
}
