import { ErrorCode } from '../../domain/shared/errors';
import { PaymentsErrorCode } from '../../domain/payments';
import { Core } from '../../domain/core';
import { authenticated } from '../../http/request-context';
import { declaredResponses, idParamsSchema, offsetListOf, offsetPageOf } from '../checkout/checkout.validators';
import { success } from '../shared/envelope';
import type { RestApp } from '../surface';
import {
  giftFiltersOf,
  listGiftsQuerySchema,
  recurringGiftJson,
  recurringGiftListSchema,
  recurringGiftSchema,
} from './recurring-gifts.validators';

export { recurringGiftJson };

const one = { params: idParamsSchema, response: declaredResponses({ 200: recurringGiftSchema }) };

/** Recurring gifts: list, read, cancel, resume, and the sandbox's charge-now. */
export function recurringGiftRoutes(app: RestApp, core: Core) {
  const gifts = core.recurringGifts;

  app.get(
    '/api/v1/business/recurring-gifts',
    { schema: { querystring: listGiftsQuerySchema, response: declaredResponses({ 200: recurringGiftListSchema }) } },
    async (request) => {
      const page = offsetPageOf(request.query);
      return success(
        offsetListOf(
          await gifts.list(authenticated(request), giftFiltersOf(request.query), page),
          page,
          recurringGiftJson,
        ),
      );
    },
  );

  app.get('/api/v1/business/recurring-gifts/:id', { schema: one }, async (request) =>
    success(recurringGiftJson(await gifts.get(authenticated(request), request.params.id))),
  );

  app.post('/api/v1/business/recurring-gifts/:id/cancel', { schema: one }, async (request) =>
    success(recurringGiftJson(await gifts.cancel(authenticated(request), request.params.id))),
  );

  app.post('/api/v1/business/recurring-gifts/:id/resume', { schema: one }, async (request) =>
    success(recurringGiftJson(await gifts.resume(authenticated(request), request.params.id))),
  );

  app.post(
    '/api/v1/business/sandbox/recurring-gifts/:id/charge-now',
    {
      schema: {
        ...one,
        response: declaredResponses({ 200: recurringGiftSchema }, [
          ErrorCode.SANDBOX_ONLY,
          PaymentsErrorCode.CARD_DECLINED,
        ]),
      },
    },
    async (request) =>
      success(recurringGiftJson(await gifts.sandboxChargeNow(authenticated(request), request.params.id))),
  );
}
