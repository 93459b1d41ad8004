import { RowMachine, rowMachine } from '../shared/row-transition';
import { TransitionTable, assertTransition } from '../shared/states';
import { WebhookDelivery, WebhookDeliveryStatus } from './webhook-delivery.entity';

/**
 * What an attempt's outcome does to its delivery. `deliver`: the receiver answered 2xx in time;
 * `retry`: it failed and the schedule has another attempt; `give_up`: it failed and was the
 * schedule's last. A manual redelivery makes a new delivery, so nothing moves a finished one.
 */
export type DeliveryAction = 'deliver' | 'retry' | 'give_up';

const { PENDING, SUCCEEDED, FAILED, PERMANENTLY_FAILED } = WebhookDeliveryStatus;

/** Every allowed transition: only a delivery still waiting for an attempt records one. */
export const DELIVERY_TRANSITIONS: TransitionTable<WebhookDeliveryStatus, DeliveryAction> = {
  [PENDING]: { deliver: SUCCEEDED, retry: FAILED, give_up: PERMANENTLY_FAILED },
  [FAILED]: { deliver: SUCCEEDED, retry: FAILED, give_up: PERMANENTLY_FAILED },
  [SUCCEEDED]: {},
  [PERMANENTLY_FAILED]: {},
};

/** The status `action` leads to from `from`, or CONFLICT. */
export function deliveryTransition(from: WebhookDeliveryStatus, action: DeliveryAction): WebhookDeliveryStatus {
  return assertTransition(
    DELIVERY_TRANSITIONS,
    from,
    action,
    (state, act) => `Cannot ${act.replace(/_/g, ' ')} a webhook delivery that is ${state}`,
  );
}

/** The statuses from which `action` is allowed. */
export const statusesAllowing = (action: DeliveryAction): WebhookDeliveryStatus[] =>
  (Object.keys(DELIVERY_TRANSITIONS) as WebhookDeliveryStatus[]).filter(
    (status) => DELIVERY_TRANSITIONS[status][action] !== undefined,
  );

/** Whether a delivery may still be attempted: its outcome, whichever it is, can be recorded. */
export const isAttemptable = (status: WebhookDeliveryStatus): boolean =>
  (['deliver', 'retry', 'give_up'] as const).every((action) => DELIVERY_TRANSITIONS[status][action] !== undefined);

/** Where deliveries live and how they move, for `moveRows` (the outcomes of a pump's attempts in one conditional UPDATE). */
export const DELIVERY_ROWS: RowMachine<WebhookDelivery, WebhookDeliveryStatus, DeliveryAction> = rowMachine(
  DELIVERY_TRANSITIONS,
  {
    entity: WebhookDelivery,
    table: 'webhook_deliveries',
    statusType: 'webhook_delivery_status',
    noun: 'Webhook delivery',
    transition: deliveryTransition,
    allowing: statusesAllowing,
  },
);
