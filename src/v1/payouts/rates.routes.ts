import { z } from 'zod';
import { Core } from '../../domain/core';
import { IndicativeRate, V1_TRANSFER_RAIL } from '../../domain/payouts';
import { v1Caller } from '../guards';
import { currencyCodeSchema, v1Responses, v1TimestampSchema } from '../schemas';
import type { V1App } from '../surface';

export const ratesQuerySchema = z.object({
  from: currencyCodeSchema('the 3-letter ISO code of the currency to convert from'),
  to: currencyCodeSchema('the 3-letter ISO code of the currency to convert to'),
});

export const rateSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    rate: z.number().describe('Units of `to` per unit of `from`, spread included (up to 8 decimals)'),
    fee_pct: z.number().describe('The transfer fee, in percent of the source amount'),
    expires_at: v1TimestampSchema.describe('Until when a transfer gets this rate'),
  })
  .meta({ id: 'V1Rate' });

const rateJson = (rate: IndicativeRate): z.input<typeof rateSchema> => ({
  from: rate.from,
  to: rate.to,
  rate: Number(rate.rate),
  fee_pct: rate.serviceFeeBps / 100,
  expires_at: rate.expiresAt.toISOString(),
});

/** `GET /v1/rates?from=&to=`: the FX provider's rate and fee, as payouts get them. */
export function rateRoutes(app: V1App, core: Core) {
  app.get(
    '/rates',
    { schema: { querystring: ratesQuerySchema, response: v1Responses({ 200: rateSchema }) } },
    async (request) =>
      rateJson(
        await core.quotes.rate(v1Caller(request), {
          from: request.query.from,
          to: request.query.to,
          rail: V1_TRANSFER_RAIL,
        }),
      ),
  );
}
