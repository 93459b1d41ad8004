import { Arg, Ctx, FieldResolver, ID, Int, Query, Resolver, Root } from 'type-graphql';
import { ReconciliationRun as RunRow } from '../../domain/reconciliation';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { GraphQLContext, operatorCaller } from '../shared/context';
import { defineNode } from '../shared/node';
import {
  ReconciliationDifference,
  ReconciliationFee,
  ReconciliationRun,
  ReconciliationRunConnection,
} from './reconciliation.types';

defineNode({
  type: ReconciliationRun,
  entity: RunRow,
  operator: true,
  load: async (context, id) =>
    ReconciliationRun.from(await context.core.reconciliation.run(operatorCaller(context), id)),
});

/**
 * The operator's view of reconciliation (docs/graphql-api.md, "Operator API"): only an operator
 * token reaches these fields, and an operator token reaches nothing else.
 */
@Resolver(() => ReconciliationRun)
export class ReconciliationResolver {
  @Query(() => ReconciliationRunConnection, {
    description:
      "Operator only: reconciliation runs of providers' balances with the ledger, newest first (an operator token, FORBIDDEN otherwise)",
    complexity: perRow,
  })
  async operatorReconciliationRuns(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('provider', () => String, { nullable: true, description: 'Only the runs of this provider (stripe)' })
    provider?: string,
    @Arg('from', () => Date, { nullable: true, description: 'Only runs whose period ends after this instant' })
    from?: Date,
    @Arg('to', () => Date, { nullable: true, description: 'Only runs whose period starts before this instant' })
    to?: Date,
  ): Promise<ReconciliationRunConnection> {
    const page = await context.core.reconciliation.runs(
      operatorCaller(context),
      { provider: provider ?? undefined, from: from ?? undefined, to: to ?? undefined },
      { kind: 'keyset', first: first ?? null, after: after ?? null },
    );
    return toConnection(page, ReconciliationRun.from);
  }

  @Query(() => ReconciliationRun, {
    description: 'Operator only: one reconciliation run with its differences and fees (NOT_FOUND for an unknown id)',
  })
  async operatorReconciliationRun(
    @Arg('id', () => ID, { description: "The run's id (as the CLI and operatorReconciliationRuns answer it)" })
    id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<ReconciliationRun> {
    return ReconciliationRun.from(await context.core.reconciliation.run(operatorCaller(context), id));
  }

  @FieldResolver(() => [ReconciliationDifference], {
    description: 'Every difference the run found, by kind then the provider id (a run spans at most 31 days)',
  })
  async differences(@Root() run: ReconciliationRun, @Ctx() { loaders }: GraphQLContext) {
    return (await loaders.reconciliationDifferencesByRunId.load(run.id)).map(ReconciliationDifference.from);
  }

  @FieldResolver(() => [ReconciliationFee], {
    description: "The provider's fee on each balance transaction of the period that carried one",
  })
  async fees(@Root() run: ReconciliationRun, @Ctx() { loaders }: GraphQLContext) {
    return (await loaders.reconciliationFeesByRunId.load(run.id)).map(ReconciliationFee.from);
  }
}
