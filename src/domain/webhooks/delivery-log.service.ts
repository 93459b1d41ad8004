import { In } from 'typeorm';
import { RequestContext } from '../shared/context';
import { isUuid } from '../shared/ids';
import { WebhookDelivery } from './webhook-delivery.entity';

/** The deliveries the event log shows beside each event (webhooks read events; the event log names no webhook). */
export class DeliveryLogService {
  /** Deliveries of the given events (of the caller's business and mode), oldest first. */
  async deliveriesOf(ctx: RequestContext, eventIds: string[]): Promise<WebhookDelivery[]> {
    if (eventIds.length === 0) return [];
    return ctx.repo(WebhookDelivery).find({
      where: { eventId: In(eventIds), businessId: ctx.requireBusiness(), livemode: ctx.livemode },
      order: { createdAt: 'ASC' },
    });
  }

  /** Deliveries of the caller's business and mode among `ids` (unknown and foreign ids are left out). */
  async deliveriesByIds(ctx: RequestContext, ids: string[]): Promise<WebhookDelivery[]> {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return [];
    return ctx
      .repo(WebhookDelivery)
      .find({ where: { id: In(valid), businessId: ctx.requireBusiness(), livemode: ctx.livemode } });
  }
}
