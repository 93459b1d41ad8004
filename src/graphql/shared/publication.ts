import { ExecutionArgs, ExecutionResult, createSourceEventStream, execute } from 'graphql';
import { Core } from '../../domain/core';
import { RequestContext } from '../../domain/shared/context';
import { GraphQLContext } from './context';
import { Loaders, createLoaders } from './loaders';

/**
 * One publication reaches every subscriber of this process as the same payload object (the
 * in-process event target hands each listener the same detail; the Redis target parses a message
 * once). Subscribers of one business and mode read the same rows, so they share one set of
 * DataLoaders per publication: a payment update with a thousand subscribers costs one read per
 * relation, not a thousand. The loaders read as the system, scoped to that business and mode (every
 * loader filters by the context's business and mode; none depends on who asks); the subscriber's
 * own context still decides what it may subscribe to and which publications it receives.
 */
const loadersByPublication = new WeakMap<object, Map<string, Loaders>>();

function publicationLoaders(core: Core, payload: unknown, ctx: RequestContext | null): Loaders {
  if (!ctx?.businessId || typeof payload !== 'object' || payload === null)
    return createLoaders(core, ctx ?? core.anonymousContext());
  let byTenant = loadersByPublication.get(payload);
  if (!byTenant) loadersByPublication.set(payload, (byTenant = new Map<string, Loaders>()));
  const tenant = `${ctx.businessId}:${ctx.mode}`;
  let loaders = byTenant.get(tenant);
  if (!loaders) {
    loaders = createLoaders(core, RequestContext.system(core.dataSource, 'subscription', ctx.businessId, ctx.mode));
    byTenant.set(tenant, loaders);
  }
  return loaders;
}

/**
 * GraphQL's `subscribe`, except that each event executes with the subscriber's context whose
 * loaders are the publication's shared ones (see above), instead of one context (and one loader
 * cache, which would also go stale) for the subscription's whole life.
 */
export async function subscribeSharingReads(
  core: Core,
  args: ExecutionArgs,
): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in stream)) return stream;
  const context = args.contextValue as GraphQLContext;
  return mapAsyncIterable(stream, (payload) =>
    execute({
      ...args,
      rootValue: payload,
      contextValue: { ...context, loaders: publicationLoaders(core, payload, context.ctx) },
    }),
  );
}

/**
 * Maps an async iterable without an async generator, so `return()` reaches the source at once
 * (an async generator would wait for the pending `next()`, that is, for the next publication).
 */
function mapAsyncIterable<T, U>(source: AsyncIterable<T>, map: (value: T) => U | Promise<U>): AsyncGenerator<U> {
  const iterator = source[Symbol.asyncIterator]();
  const close = async () => {
    await iterator.return?.();
  };
  const mapped = async (result: IteratorResult<T>): Promise<IteratorResult<U>> => {
    if (result.done) return { value: undefined, done: true };
    try {
      return { value: await map(result.value), done: false };
    } catch (error) {
      await close();
      throw error;
    }
  };
  const generator: AsyncGenerator<U> = {
    next: () => iterator.next().then(mapped),
    return: async () => {
      await close();
      return { value: undefined, done: true };
    },
    throw: async (error) => {
      await close();
      throw error;
    },
    [Symbol.asyncIterator]: () => generator,
    [Symbol.asyncDispose]: close,
  };
  return generator;
}
