import { Core } from '../../domain/core';
import { authenticated, originOf } from '../../http/request-context';
import { success } from '../shared/envelope';
import { responses } from '../shared/schemas';
import type { RestApp } from '../surface';
import {
  businessConfigJson,
  businessConfigSchema,
  regeneratedKeySchema,
  tokenExchangeSchema,
  tokenResponseSchema,
  webhookConfigSchema,
} from './identity.validators';

/** Authentication and business configuration (interface document, Authentication). */
export function identityRoutes(app: RestApp, core: Core) {
  const { auth, credentials, businesses } = core.identity;

  app.post(
    '/api/v1/business/auth/token',
    {
      config: { auth: 'public' },
      schema: { body: tokenExchangeSchema, response: responses({ 200: tokenResponseSchema }) },
    },
    async (request) => success(await auth.exchangeToken(core.anonymousContext(originOf(request)), request.body)),
  );

  app.post(
    '/api/v1/business/regenerate-api-key',
    { schema: { response: responses({ 200: regeneratedKeySchema }) } },
    async (request) => {
      const ctx = authenticated(request);
      const { apiKey, keyHint, mode } = await credentials.regenerateApiKey(ctx);
      return success({ apiKey, keyHint, mode, businessId: ctx.requireBusiness() });
    },
  );

  app.put(
    '/api/v1/business/config',
    { schema: { body: webhookConfigSchema, response: responses({ 200: businessConfigSchema }) } },
    async (request) => {
      const { business, settings } = await businesses.configureWebhook(authenticated(request), request.body);
      return success(businessConfigJson(business, settings));
    },
  );

  app.get(
    '/api/v1/business/config',
    { schema: { response: responses({ 200: businessConfigSchema }) } },
    async (request) => {
      const ctx = authenticated(request);
      const [business, settings] = await Promise.all([businesses.business(ctx), businesses.settings(ctx)]);
      return success(businessConfigJson(business, settings));
    },
  );
}
