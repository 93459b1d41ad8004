import { DomainEvent } from '../events/event.entity';
import { BusinessSettings } from '../shared/business-settings.entity';
import { RequestContext } from '../shared/context';
import { WebhookService } from './webhook.service';
import { v1EventRowType } from './v1.events';

/** A `/v1` event about to be recorded: its `/v1` name, its data, and the URLs it goes to besides the business's `/v1` webhook URL. */
export interface V1EventRecord {
  businessId: string;
  livemode: boolean;
  name: string;
  data: Record<string, unknown>;
  /** A resource's own webhook URL (a payment's `webhook_url`), or none. */
  alsoTo: Array<string | null>;
}

/**
 * The one emitter of `/v1` events (design section 11), in the transaction of the change they
 * record: the event row (`v1.<name>` in the events table) and one delivery per URL (the resource's
 * own URL and the business's `/v1` webhook URL of the mode, once each), through the webhook
 * deliveries (target `v1`: the `/v1` body, signed with the business's `/v1` key in
 * `Service-Signature`). Never the main surface's `webhookUrl` or endpoints (V1SettingsService).
 */
export class V1EventService {
  constructor(private readonly webhooks: WebhookService) {}

  async record(tx: RequestContext, record: V1EventRecord): Promise<DomainEvent> {
    const event = await tx.repo(DomainEvent).save(
      tx.repo(DomainEvent).create({
        businessId: record.businessId,
        livemode: record.livemode,
        type: v1EventRowType(record.name),
        data: record.data,
      }),
    );
    const settings = await tx
      .repo(BusinessSettings)
      .findOne({ where: { businessId: record.businessId, livemode: record.livemode } });
    const urls = [
      ...new Set([...record.alsoTo, settings?.v1WebhookUrl ?? null].filter((url): url is string => Boolean(url))),
    ];
    await this.webhooks.recordV1Deliveries(tx, event, urls, {
      event: record.name,
      timestamp: event.createdAt.toISOString(),
      data: record.data,
    });
    return event;
  }
}
