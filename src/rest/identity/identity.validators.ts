import { z } from 'zod';
import { Business } from '../../domain/identity';
import { BusinessSettings } from '../../domain/shared/business-settings.entity';
import { Mode } from '../../domain/shared/modes';
import { timestampSchema } from '../shared/schemas';

export { tokenExchangeSchema, webhookConfigSchema } from '../../wire/accounts';

/** The token response of the interface document (merchant API). */
export const tokenResponseSchema = z
  .object({
    accessToken: z.string().describe('JWT to send as `Authorization: Bearer …`'),
    tokenType: z.literal('Bearer'),
    expiresIn: z.number().int().describe('Seconds until the token expires'),
    businessId: z.string(),
    businessName: z.string(),
  })
  .meta({ id: 'TokenResponse' });

export const regeneratedKeySchema = z
  .object({
    apiKey: z.string().describe('The new key, shown once; the previous key stopped working'),
    keyHint: z.string().describe('First characters of the key, safe to display'),
    mode: z.enum(Mode),
    businessId: z.string(),
  })
  .meta({ id: 'RegeneratedApiKey' });

export const businessConfigSchema = z
  .object({
    businessId: z.string(),
    businessName: z.string(),
    livemode: z.boolean(),
    webhookUrl: z.string().nullable().describe('Where events of this mode are POSTed; null when unset'),
    updatedAt: timestampSchema,
  })
  .meta({ id: 'BusinessConfig' });

export const businessConfigJson = (
  business: Business,
  settings: BusinessSettings,
): z.input<typeof businessConfigSchema> => ({
  businessId: business.id,
  businessName: business.name,
  livemode: settings.livemode,
  webhookUrl: settings.webhookUrl,
  updatedAt: settings.updatedAt.toISOString(),
});
