import { ErrorCode } from '../../domain/shared/errors';
import { Core } from '../../domain/core';
import { Collection, collectionObject } from '../../domain/collections';
import { authenticated } from '../../http/request-context';
import {
  channelsQuerySchema,
  collectionsQuerySchema,
  createCollectionBodySchema,
  payCollectionBodySchema,
  toCreateCollectionCommand,
  toPayCollectionCommand,
} from '../../wire/collections';
import { skipTakeListSchema, skipTakeOf } from '../payouts/payouts.validators';
import { success } from '../shared/envelope';
import { idParamsSchema, responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import {
  channelJson,
  channelListSchema,
  collectionJson,
  collectionSchema,
  toCollectionFilters,
} from './collections.validators';

const COLLECTIONS = '/api/v1/business/collections';
const byId = { params: idParamsSchema };

const collectionOut = (collection: Collection) => collectionJson(collectionObject(collection));

/** Collections over local rails (design section 9): channels, create, read, list, and the sandbox pay helper. */
export function collectionRoutes(app: RestApp, core: Core) {
  const { collections } = core;

  app.get(
    `${COLLECTIONS}/channels`,
    { schema: { querystring: channelsQuerySchema, response: responses({ 200: channelListSchema }) } },
    async (request) =>
      success({
        items: (await collections.channels(authenticated(request), { country: request.query.country })).map(
          channelJson,
        ),
      }),
  );

  app.post(
    COLLECTIONS,
    {
      schema: {
        body: createCollectionBodySchema,
        response: responses({ 201: collectionSchema }, [ErrorCode.UNSUPPORTED_CURRENCY]),
      },
    },
    async (request, reply) => {
      const collection = await collections.create(authenticated(request), toCreateCollectionCommand(request.body));
      reply.status(201);
      return success(collectionOut(collection));
    },
  );

  app.get(
    COLLECTIONS,
    {
      schema: {
        querystring: collectionsQuerySchema,
        response: responses({ 200: skipTakeListSchema(collectionSchema) }),
      },
    },
    async (request) => {
      const page = skipTakeOf(request.query);
      const found = await collections.list(authenticated(request), toCollectionFilters(request.query), page);
      return success({
        items: found.items.map(collectionOut),
        total: found.total ?? found.items.length,
        skip: page.skip,
        take: page.take,
      });
    },
  );

  app.get(
    `${COLLECTIONS}/:id`,
    { schema: { ...byId, response: responses({ 200: collectionSchema }) } },
    async (request) => success(collectionOut(await collections.get(authenticated(request), request.params.id))),
  );

  app.post(
    '/api/v1/business/sandbox/collections/:id/pay',
    {
      schema: {
        ...byId,
        body: payCollectionBodySchema,
        response: responses({ 200: collectionSchema }, [ErrorCode.SANDBOX_ONLY]),
      },
    },
    async (request) =>
      success(
        collectionOut(
          await collections.sandboxPay(authenticated(request), toPayCollectionCommand(request.params.id, request.body)),
        ),
      ),
  );
}
