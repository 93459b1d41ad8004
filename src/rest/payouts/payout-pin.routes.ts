import { PayoutsErrorCode } from '../../domain/payouts';
import { Core } from '../../domain/core';
import { authenticated } from '../../http/request-context';
import { success } from '../shared/envelope';
import { responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import { payoutPinStatusJson, payoutPinStatusSchema, setPinBodySchema, toSetPinCommand } from './payout-pin.validators';

/** The business's payout PIN (design section 8): an OWNER sets it; anyone of the business sees whether it is set or locked. */
export function payoutPinRoutes(app: RestApp, core: Core) {
  const { payoutPins } = core;

  app.put(
    '/api/v1/business/payouts/pin',
    {
      schema: {
        body: setPinBodySchema,
        response: responses({ 200: payoutPinStatusSchema }, [
          PayoutsErrorCode.INVALID_PIN,
          PayoutsErrorCode.PIN_LOCKED,
        ]),
      },
    },
    async (request) =>
      success(payoutPinStatusJson(await payoutPins.set(authenticated(request), toSetPinCommand(request.body)))),
  );

  app.get(
    '/api/v1/business/payouts/pin',
    { schema: { response: responses({ 200: payoutPinStatusSchema }) } },
    async (request) => success(payoutPinStatusJson(await payoutPins.status(authenticated(request)))),
  );
}
