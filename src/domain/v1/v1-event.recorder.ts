import { DomainEvent } from '../events/event.entity';
import { BusinessSettings } from '../identity/identity.entities';
import { RequestContext } from '../shared/context';
import { WebhookService } from '../webhooks/webhook.service';
import { V1EventName, v1EventRowType } from './v1.events';

export interface V1EventRecord {
  businessId: string;
  livemode: boolean;
  name: V1EventName;
  /** The event's `data`, as `/v1` receivers read it (snake_case, amounts in minor units). */
  data: Record<string, unknown>;
  /** Besides the business's webhook URL of the mode (a payment's `webhook_url`). */
  urls?: Array<string | null>;
}

/**
 * Records a `/v1` event in the caller's transaction: its row in the events table (`v1.<name>`) and
 * one delivery, signed with `Service-Signature`, to each of the business's webhook URL of the mode
 * and the extra URLs (once per distinct URL), through the webhook deliveries' retry machinery.
 */
export async function recordV1Event(tx: RequestContext, webhooks: WebhookService, record: V1EventRecord): Promise<DomainEvent> {
  const { businessId, livemode, name, data } = record;
  const event = await tx.repo(DomainEvent).save(tx.repo(DomainEvent).create({ businessId, livemode, type: v1EventRowType(name), data }));
  const settings = await tx.repo(BusinessSettings).findOne({ where: { businessId, livemode } });
  const urls = [...new Set([...(record.urls ?? []), settings?.webhookUrl ?? null].filter((url): url is string => Boolean(url)))];
  await webhooks.recordV1Deliveries(tx, event, urls, { event: name, timestamp: event.createdAt.toISOString(), data });
  return event;
}
