import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../domain/core';
import { RequestContext } from '../domain/shared/context';
import { Mode } from '../domain/shared/modes';
import { HttpErrorCode, isApiError } from '../http/error-codes';
import { failureOfDomain, frameworkFailureOf } from '../http/framework-errors';
import { outageErrorOf, retryLater } from '../http/outage';
import type { InboundWebhooks } from '../providers/webhooks/port';

/** Where the providers' webhooks are served: `POST /providers/<provider>/webhooks`. */
export const PROVIDER_WEBHOOKS_PREFIX = '/providers';

/** The path of a provider's webhooks. */
export const providerWebhooksPath = (provider: string) => `${PROVIDER_WEBHOOKS_PREFIX}/${provider}/webhooks`;

/** The paths of the providers' webhooks this server receives (their bodies are bytes, for the signature: no input checks). */
export const providerWebhookPaths = (core: Core) =>
  core.providers.inboundWebhooks().map((webhooks) => providerWebhooksPath(webhooks.provider));

/**
 * A provider's answer: `{ error }` in plain JSON. The provider is the client here, not a merchant,
 * so not the `/api/v1` envelope (docs/decisions.md); all a provider reads is the status (2xx:
 * delivered; anything else: it sends again later).
 */
const refusal = (message: string) => ({ error: message });

/** Any failure of these routes, in their own body: a database outage is a 503, so the provider retries. */
function sendRefusal(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const outage = outageErrorOf(request.server.databaseOutage, error);
  const known = outage ?? (isApiError(error) ? error : null);
  const failure = known ? failureOfDomain(known) : frameworkFailureOf(error);
  if (!failure) {
    request.log.error({ err: error }, 'unexpected error receiving a provider webhook');
    return reply.status(500).send(refusal(`${HttpErrorCode.INTERNAL_ERROR}: an unexpected error occurred`));
  }
  if (failure.status >= 500 && !outage) request.log.error({ err: error }, 'server error receiving a provider webhook');
  if (failure.status === 503) retryLater(reply);
  return reply.status(failure.status).send(refusal(failure.message));
}

/**
 * The providers' webhooks (docs/architecture.md, Providers' webhooks: the inbox): one route per
 * provider whose webhooks the configuration enables (`core.providers.inboundWebhooks()`), none at
 * all when there is none. The body reaches the route as the exact bytes received, for the
 * provider's signature: this scope parses no JSON. A bad or missing signature is a 400 and stores
 * nothing; a verified event is stored once with the job that applies it, then answered 200, a
 * repeat too. No surface's guards: no credential (the signature authenticates the provider), no
 * rate limit (a provider's burst of retries after an outage is answered, never throttled), no
 * Idempotency-Key (the provider's event id is the key). Not in any OpenAPI document.
 */
export async function registerProviderWebhooks(app: FastifyInstance, core: Core): Promise<void> {
  const declared = core.providers.inboundWebhooks();
  if (declared.length === 0) return;
  await app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.setErrorHandler(sendRefusal);
      scope.setNotFoundHandler((request, reply) =>
        reply
          .status(404)
          .send(refusal(`${request.method} ${request.url.split('?')[0]}: no provider's webhooks are received here`)),
      );
      for (const webhooks of declared) scope.post(`/${webhooks.provider}/webhooks`, receiveWith(core, webhooks));
    },
    { prefix: PROVIDER_WEBHOOKS_PREFIX },
  );
}

const receiveWith = (core: Core, webhooks: InboundWebhooks) => async (request: FastifyRequest, reply: FastifyReply) => {
  const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  const verification = webhooks.verify(rawBody, request.headers);
  if (!verification.verified) {
    request.log.warn(`${webhooks.provider} webhook refused: ${verification.reason}`);
    return reply.status(400).send(refusal(verification.reason));
  }
  const { event } = verification;
  const ctx = new RequestContext(
    core.dataSource,
    { kind: 'system', name: `${webhooks.provider}-webhooks` },
    null,
    event.livemode ? Mode.LIVE : Mode.TEST,
    { requestId: request.id, clientIp: request.ip },
  );
  const receipt = await core.providerEvents.receive(ctx, { provider: webhooks.provider, event });
  request.log.info(`${webhooks.provider} event ${event.id} (${event.type}): ${receipt}`);
  return reply.status(200).send({ received: true });
};
