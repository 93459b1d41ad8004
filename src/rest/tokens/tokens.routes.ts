import { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { Core } from '../../domain/core';
import { CardToken } from '../../domain/tokens';
import { publishableCaller } from '../../http/request-context';
import { success } from '../shared/envelope';
import { errorEnvelopeSchema, responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import { cardTokenSchema, createCardTokenBodySchema, toCreateCardTokenCommand } from './tokens.validators';

export const TOKENS_PATH = '/api/v1/tokens';

/** Browsers call this route from the merchant's own pages, so it (and only it) answers cross-origin requests. */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type, x-publishable-key, authorization, idempotency-key, x-request-id',
  'access-control-expose-headers':
    'x-request-id, idempotent-replayed, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after',
  'access-control-max-age': '600',
};

/** Every answer of the route carries the CORS headers, errors and rate-limit refusals included. */
const withCors = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  reply.headers(CORS_HEADERS);
  return payload;
};

export const cardTokenJson = (token: CardToken): z.input<typeof cardTokenSchema> => ({
  id: token.id,
  object: 'card_token',
  card: {
    brand: token.brand,
    last4: token.last4,
    expiryMonth: token.expiryMonth,
    expiryYear: token.expiryYear,
    country: token.country,
  },
  livemode: token.livemode,
  expiresAt: token.expiresAt.toISOString(),
  createdAt: token.createdAt.toISOString(),
});

/** Card tokenisation for the browser SDK, authenticated with the publishable key. */
export function tokenRoutes(app: RestApp, core: Core) {
  app.options(
    TOKENS_PATH,
    {
      onSend: withCors,
      config: { auth: 'public' },
      schema: {
        response: {
          204: z.null().describe('CORS preflight: no body'),
          '4xx': errorEnvelopeSchema,
          '5xx': errorEnvelopeSchema,
        },
      },
    },
    async (_request, reply) => (reply as FastifyReply).status(204).send(),
  );

  app.post(
    TOKENS_PATH,
    {
      onSend: withCors,
      config: { auth: 'publishable' },
      schema: { body: createCardTokenBodySchema, response: responses({ 201: cardTokenSchema }) },
    },
    async (request, reply) => {
      const token = await core.cardTokens.create(publishableCaller(request), toCreateCardTokenCommand(request.body));
      reply.status(201);
      return success(cardTokenJson(token));
    },
  );
}
