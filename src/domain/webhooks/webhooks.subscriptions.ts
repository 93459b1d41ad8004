import { AnySubscription } from '../shared/domain-events';
import { WebhookService } from './webhook.service';

/**
 * What webhooks hear: every recorded event, whose deliveries (and the change's jobs) are written
 * with the event row in one statement, in the event's transaction.
 */
export const webhooksSubscriptions = ({ webhooks }: { webhooks: WebhookService }): AnySubscription[] => [
  {
    event: 'event.recorded',
    phase: 'in-transaction',
    name: 'webhooks.write-deliveries',
    // Not async: a recording written behind is published without waiting (EventService.recordBehind).
    handle: (tx, recording) => {
      const written = recording.send();
      if (recording.behind) return webhooks.recordWithDeliveriesBehind(tx, recording.insert, written);
      return webhooks.recordWithDeliveries(tx, recording.insert).then(({ event }) => written(event));
    },
  },
];
