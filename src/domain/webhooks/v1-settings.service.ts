import { BusinessSettings } from '../shared/business-settings.entity';
import { Mode } from '../shared/modes';
import { ALL_ROLES, RequestContext, WRITE_ROLES, inTransaction } from '../shared/context';
import { validationError } from '../shared/errors';
import { WebhookTargetPolicy } from '../shared/url-policy';

/** The `/v1` settings of a business's mode. */
export interface V1Settings {
  mode: Mode;
  /** Where the business's `/v1` events go (besides a payment's own `webhook_url`); null: nowhere else. */
  webhookUrl: string | null;
}

/**
 * `/v1`'s own settings (docs/alt-v1.md, Events): the business-level URL that receives `/v1` events,
 * one per mode, apart from the main surface's `webhookUrl` and endpoints, which never receive them
 * (their receivers check `X-Service-Signature` and read major units). Set through GraphQL and the
 * operator CLI; judged by the same target policy as every webhook URL of the mode.
 */
export class V1SettingsService {
  constructor(private readonly webhookTargets: WebhookTargetPolicy) {}

  async get(ctx: RequestContext): Promise<V1Settings> {
    ctx.requireRole(...ALL_ROLES);
    const settings = await ctx
      .repo(BusinessSettings)
      .findOneOrFail({ where: { businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
    return this.view(ctx, settings);
  }

  /** Sets (or, with null, removes) the `/v1` webhook URL of the context's mode. */
  async setWebhookUrl(ctx: RequestContext, webhookUrl: string | null): Promise<V1Settings> {
    ctx.requireRole(...WRITE_ROLES);
    const refusal = webhookUrl ? await this.webhookTargets.refusal(webhookUrl, ctx.livemode) : null;
    if (refusal) throw validationError({ webhookUrl: [refusal] });
    return inTransaction(ctx, async (tx) => {
      tx.requireRole(...WRITE_ROLES);
      await tx
        .repo(BusinessSettings)
        .update({ businessId: tx.requireBusiness(), livemode: tx.livemode }, { v1WebhookUrl: webhookUrl });
      return this.view(
        tx,
        await tx
          .repo(BusinessSettings)
          .findOneOrFail({ where: { businessId: tx.requireBusiness(), livemode: tx.livemode } }),
      );
    });
  }

  private view(ctx: RequestContext, settings: BusinessSettings): V1Settings {
    return { mode: ctx.livemode ? Mode.LIVE : Mode.TEST, webhookUrl: settings.v1WebhookUrl };
  }
}
