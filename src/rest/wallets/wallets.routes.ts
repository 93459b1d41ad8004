import { ErrorCode } from '../../domain/shared/errors';
import { Core } from '../../domain/core';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import {
  entriesPageOf,
  entriesQuerySchema,
  fundBodySchema,
  fundCommandOf,
  fundResultSchema,
  walletEntriesSchema,
  walletEntryJson,
  walletJson,
  walletListSchema,
  walletParamsSchema,
  walletSchema,
} from './wallets.validators';

/** Merchant wallets and their ledger entries, plus the sandbox funding helper. */
export function walletRoutes(app: RestApp, core: Core) {
  const { wallets } = core;

  app.get(
    '/api/v1/business/wallets',
    { schema: { response: responses({ 200: walletListSchema }) } },
    async (request) => {
      const items = await wallets.wallets(authenticated(request));
      return success({ items: items.map(walletJson), total: items.length });
    },
  );

  app.get(
    '/api/v1/business/wallets/:walletId',
    { schema: { params: walletParamsSchema, response: responses({ 200: walletSchema }) } },
    async (request) => success(walletJson(await wallets.wallet(authenticated(request), request.params.walletId))),
  );

  app.get(
    '/api/v1/business/wallets/:walletId/entries',
    {
      schema: {
        params: walletParamsSchema,
        querystring: entriesQuerySchema,
        response: responses({ 200: walletEntriesSchema }),
      },
    },
    async (request) => {
      const page = await wallets.entries(authenticated(request), request.params.walletId, entriesPageOf(request.query));
      return success({
        items: page.items.map(walletEntryJson),
        hasMore: page.hasNextPage,
        nextCursor: page.hasNextPage ? page.endCursor : null,
      });
    },
  );

  app.post(
    '/api/v1/business/sandbox/wallets/fund',
    {
      schema: {
        body: fundBodySchema,
        response: responses({ 201: fundResultSchema }, [ErrorCode.SANDBOX_ONLY, ErrorCode.UNSUPPORTED_CURRENCY]),
      },
    },
    async (request, reply) => {
      const { wallet, transaction } = await wallets.sandboxFund(authenticated(request), fundCommandOf(request.body));
      reply.status(201);
      return success({ wallet: walletJson(wallet), transactionId: transaction.id });
    },
  );
}
