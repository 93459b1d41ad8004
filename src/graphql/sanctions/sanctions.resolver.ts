import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { SanctionsMatchRow } from '../../domain/sanctions';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { GraphQLContext, operatorCaller } from '../shared/context';
import { defineNode } from '../shared/node';
import { SanctionsList, SanctionsMatch, SanctionsMatchConnection } from './sanctions.types';

defineNode({
  type: SanctionsMatch,
  entity: SanctionsMatchRow,
  operator: true,
  load: async (context, id) => SanctionsMatch.from(await context.core.sanctions.match(operatorCaller(context), id)),
});

/**
 * The operator's view of sanctions screening (docs/graphql-api.md, "Operator API"): only an operator
 * token reaches these fields; merchants are FORBIDDEN.
 */
@Resolver(() => SanctionsMatch)
export class SanctionsResolver {
  @Query(() => [SanctionsList], {
    description:
      'Operator only: the official sanctions lists loaded for live screening (OFAC, UN, EU; a list never loaded is absent)',
  })
  async operatorSanctionsLists(@Ctx() context: GraphQLContext): Promise<SanctionsList[]> {
    return (await context.core.sanctions.lists(operatorCaller(context))).map(SanctionsList.from);
  }

  @Query(() => SanctionsMatchConnection, {
    description:
      'Operator only: the live screenings that matched a listed entry, newest first (an operator token, FORBIDDEN otherwise)',
    complexity: perRow,
  })
  async operatorSanctionsMatches(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
  ): Promise<SanctionsMatchConnection> {
    const page = await context.core.sanctions.matches(operatorCaller(context), {
      kind: 'keyset',
      first: first ?? null,
      after: after ?? null,
    });
    return toConnection(page, SanctionsMatch.from);
  }
}
