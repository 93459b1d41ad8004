import { ErrorCode } from '../../domain/shared/errors';
import { LedgerErrorCode } from '../../domain/ledger';
import { PayoutsErrorCode } from '../../domain/payouts';
import { z } from 'zod';
import { Core } from '../../domain/core';
import { v1Caller } from '../guards';
import { v1Responses } from '../schemas';
import type { V1App } from '../surface';
import {
  createTransferBodySchema,
  toCreateTransferCommand,
  transferJson,
  transferSchema,
} from './transfers.validators';

const byId = { params: z.object({ id: z.string() }) };

/** `/v1/transfers`: create (spends the `create` budget, like payment creation) and read. */
export function transferRoutes(app: V1App, core: Core) {
  const { v1Transfers } = core;

  app.post(
    '/transfers',
    {
      schema: {
        body: createTransferBodySchema,
        response: v1Responses({ 201: transferSchema }, [
          LedgerErrorCode.INSUFFICIENT_FUNDS,
          ErrorCode.UNSUPPORTED_CURRENCY,
          PayoutsErrorCode.SANCTIONS_MATCH,
        ]),
      },
      config: { v1Budget: 'create' },
    },
    async (request, reply) => {
      const transfer = await v1Transfers.create(v1Caller(request), toCreateTransferCommand(request.body));
      reply.status(201);
      return transferJson(transfer);
    },
  );

  app.get('/transfers/:id', { schema: { ...byId, response: v1Responses({ 200: transferSchema }) } }, async (request) =>
    transferJson(await v1Transfers.get(v1Caller(request), request.params.id)),
  );
}
