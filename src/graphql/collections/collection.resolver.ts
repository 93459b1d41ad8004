import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import {
  Collection as CollectionRow,
  CollectionChange,
  CollectionStatus,
  CollectionTopic,
} from '../../domain/collections';
import { notFound } from '../../domain/shared/errors';
import {
  channelsQuerySchema,
  createCollectionBodySchema,
  payCollectionBodySchema,
  toCreateCollectionCommand,
  toPayCollectionCommand,
} from '../../wire/collections';
import { parseInput } from '../../wire/validation';
import { definedFields } from '../customers/customer.types';
import { AFTER_ARG, FIRST_ARG, perRow, toConnection } from '../shared/connection';
import { GraphQLContext, caller, ownedBySubscriber } from '../shared/context';
import { defineNode } from '../shared/node';
import { payloadOf } from '../shared/payload';
import { CreateCollectionPayload, PaySandboxCollectionPayload } from './collection.payloads';
import {
  Collection,
  CollectionChannel,
  CollectionConnection,
  CollectionUpdate,
  CreateCollectionInput,
  PaySandboxCollectionInput,
} from './collection.types';

/** GraphQL's minor-unit strings become the JSON integers the shared shape takes; anything else is left for it to refuse. */
const minorOf = (value: string | undefined) =>
  value !== undefined && /^\s*-?\d{1,16}(\.\d{1,16})?\s*$/.test(value) ? Number(value) : value;

defineNode({
  type: Collection,
  entity: CollectionRow,
  load: async (context, id) => Collection.from(await context.core.collections.get(caller(context), id)),
});

/**
 * Collections for the dashboard (design section 9): the same operations and commands as
 * /api/v1/business/collections, inputs checked with the shapes REST uses (src/wire/collections).
 */
@Resolver(() => Collection)
export class CollectionResolver {
  // A plain list: the rail provider's own channel list, a handful per country (docs/graphql-api.md, lists that are not connections).
  @Query(() => [CollectionChannel], {
    description:
      "The collection rail's channels (of one country when asked), with their limits; the provider's list, a few per country, so not paged",
  })
  async collectionChannels(
    @Ctx() context: GraphQLContext,
    @Arg('country', () => String, {
      nullable: true,
      description: "ISO 3166-1 alpha-2, any case; every country's channels when omitted",
    })
    country?: string,
  ): Promise<CollectionChannel[]> {
    const query = parseInput(channelsQuerySchema, definedFields({ country: country ?? undefined }));
    return (await context.core.collections.channels(caller(context), query)).map(CollectionChannel.from);
  }

  @Query(() => CollectionConnection, {
    description: 'Collections of the active business and mode, newest first',
    complexity: perRow,
  })
  async collections(
    @Ctx() context: GraphQLContext,
    @Arg('first', () => Int, FIRST_ARG) first?: number,
    @Arg('after', () => String, AFTER_ARG) after?: string,
    @Arg('status', () => CollectionStatus, { nullable: true, description: 'Only collections in this status' })
    status?: CollectionStatus,
  ): Promise<CollectionConnection> {
    const page = await context.core.collections.list(
      caller(context),
      { status: status ?? undefined },
      { kind: 'keyset', first: first ?? null, after: after ?? null },
    );
    return toConnection(page, Collection.from);
  }

  @Query(() => Collection, {
    description:
      'One collection of the active business and mode (NOT_FOUND for an unknown id or another business or mode)',
  })
  async collection(
    @Arg('id', () => ID, { description: "The collection's id (UUID)" }) id: string,
    @Ctx() context: GraphQLContext,
  ): Promise<Collection> {
    return Collection.from(await context.core.collections.get(caller(context), id));
  }

  @Mutation(() => CreateCollectionPayload, {
    description:
      'Opens deposit instructions with the rail: the collection is pending until the payer pays or it expires',
  })
  async createCollection(
    @Arg('input', { description: 'The amount, currency, country, rail and payer' }) input: CreateCollectionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<CreateCollectionPayload> {
    const ctx = caller(context);
    return payloadOf(CreateCollectionPayload, async () => {
      const body = parseInput(createCollectionBodySchema, { ...definedFields(input), amount: minorOf(input.amount) });
      return Collection.from(await context.core.collections.create(ctx, toCreateCollectionCommand(body)));
    });
  }

  @Mutation(() => PaySandboxCollectionPayload, {
    description:
      'Sandbox only: the payer sends amount (minor units, as a string of digits); the same amount completes it, another fails it (amount_mismatch)',
  })
  async paySandboxCollection(
    @Arg('input', { description: 'The collection and the amount the payer sends' }) input: PaySandboxCollectionInput,
    @Ctx() context: GraphQLContext,
  ): Promise<PaySandboxCollectionPayload> {
    const ctx = caller(context);
    return payloadOf(PaySandboxCollectionPayload, async () => {
      const body = parseInput(payCollectionBodySchema, { amount: minorOf(input.amount) });
      return Collection.from(await context.core.collections.sandboxPay(ctx, toPayCollectionCommand(input.id, body)));
    });
  }

  @Subscription(() => CollectionUpdate, {
    topics: CollectionTopic.COLLECTION,
    description:
      "Each change of the subscriber's collections once (one collection when id is given): created, then each status; its business and mode only",
    filter: ({
      payload,
      args,
      context,
    }: {
      payload: CollectionChange;
      args: { id?: string };
      context: GraphQLContext;
    }) => ownedBySubscriber(payload, context) && (!args.id || args.id === payload.collectionId),
  })
  async collectionUpdated(
    @Root() change: CollectionChange,
    @Ctx() context: GraphQLContext,
    @Arg('id', () => ID, {
      nullable: true,
      description: "Only this collection's changes; every collection of the business and mode when omitted",
    })
    _id?: string,
  ): Promise<CollectionUpdate> {
    caller(context);
    const collection = await context.loaders.collectionById.load(change.collectionId);
    if (!collection) throw notFound('Collection');
    return CollectionUpdate.of(collection, change.previousStatus, change.changed);
  }
}
