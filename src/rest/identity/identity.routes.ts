import { FastifyInstance } from 'fastify';
import { Core } from '../../domain/core';
import { Business, BusinessSettings } from '../../domain/identity/identity.entities';
import { authenticated, originOf } from '../../http/request-context';
import { success } from '../shared/envelope';

const configJson = (business: Business, settings: BusinessSettings) => ({
  businessId: business.id,
  businessName: business.name,
  livemode: settings.livemode,
  webhookUrl: settings.webhookUrl,
  updatedAt: settings.updatedAt.toISOString(),
});

/** Authentication and business configuration (interface document, Authentication). */
export function identityRoutes(app: FastifyInstance, core: Core) {
  app.post('/api/v1/business/auth/token', { config: { auth: 'public' } }, async (request) =>
    success(await core.identity.exchangeToken(core.anonymousContext(originOf(request)), request.body)));

  app.post('/api/v1/business/regenerate-api-key', async (request) => {
    const ctx = authenticated(request);
    const { apiKey, keyHint, mode } = await core.identity.regenerateApiKey(ctx);
    return success({ apiKey, keyHint, mode, businessId: ctx.businessId });
  });

  app.put('/api/v1/business/config', async (request) => {
    const { business, settings } = await core.identity.configureWebhook(authenticated(request), request.body);
    return success(configJson(business, settings));
  });

  app.get('/api/v1/business/config', async (request) => {
    const ctx = authenticated(request);
    const [business, settings] = await Promise.all([core.identity.business(ctx), core.identity.settings(ctx)]);
    return success(configJson(business, settings));
  });
}
