import { RetrySchedule } from '../src/domain/webhooks/delivery-attempts';
import { routesOf } from '../src/domain/webhooks/delivery-routing';
import {
  DELIVERY_ROWS,
  deliveryTransition,
  isAttemptable,
  statusesAllowing,
} from '../src/domain/webhooks/delivery.states';
import { treasuryEndpointsRoute } from '../src/domain/webhooks/treasury-webhook-endpoint.route';
import { WebhookDeliveryStatus } from '../src/domain/webhooks/webhook-delivery.entity';
import { merchantEndpointsRoute } from '../src/domain/webhooks/webhook-endpoint.route';
import { webhookUrlRoute } from '../src/domain/webhooks/webhook-url.route';

const { PENDING, SUCCEEDED, FAILED, PERMANENTLY_FAILED } = WebhookDeliveryStatus;
const conflict = (message: string) => expect.objectContaining({ code: 'CONFLICT', message });

describe('webhook delivery rules, each alone: the status table, the retry schedule, the routes', () => {
  test('an attempt moves a pending or failed delivery: delivered, retried or given up', () => {
    for (const from of [PENDING, FAILED]) {
      expect(deliveryTransition(from, 'deliver')).toBe(SUCCEEDED);
      expect(deliveryTransition(from, 'retry')).toBe(FAILED);
      expect(deliveryTransition(from, 'give_up')).toBe(PERMANENTLY_FAILED);
      expect(isAttemptable(from)).toBe(true);
    }
    expect(statusesAllowing('deliver')).toEqual([PENDING, FAILED]);
    expect(DELIVERY_ROWS.table).toBe('webhook_deliveries');
  });

  test('a finished delivery refuses every move: a succeeded or given-up one is never attempted again', () => {
    expect(() => deliveryTransition(SUCCEEDED, 'retry')).toThrow(
      conflict('Cannot retry a webhook delivery that is succeeded'),
    );
    expect(() => deliveryTransition(SUCCEEDED, 'deliver')).toThrow(
      conflict('Cannot deliver a webhook delivery that is succeeded'),
    );
    expect(() => deliveryTransition(PERMANENTLY_FAILED, 'deliver')).toThrow(
      conflict('Cannot deliver a webhook delivery that is permanently_failed'),
    );
    expect(() => deliveryTransition(PERMANENTLY_FAILED, 'give_up')).toThrow(
      conflict('Cannot give up a webhook delivery that is permanently_failed'),
    );
    expect(isAttemptable(SUCCEEDED)).toBe(false);
    expect(isAttemptable(PERMANENTLY_FAILED)).toBe(false);
  });

  test('attempt n waits the schedule’s n-th delay; a failure with no delay left gives the delivery up', () => {
    const now = Date.UTC(2026, 10, 27, 12, 0, 0);
    const schedule = new RetrySchedule([0, 30, 60]);
    expect(schedule.firstAttemptAt(now)).toBeNull();
    expect(schedule.afterAttempt(1, true, now)).toEqual({ action: 'deliver', nextRetryAt: null });
    expect(schedule.afterAttempt(1, false, now)).toEqual({ action: 'retry', nextRetryAt: new Date(now + 30_000) });
    expect(schedule.afterAttempt(2, false, now)).toEqual({ action: 'retry', nextRetryAt: new Date(now + 60_000) });
    expect(schedule.afterAttempt(3, false, now)).toEqual({ action: 'give_up', nextRetryAt: null });
    expect(schedule.afterAttempt(3, true, now)).toEqual({ action: 'deliver', nextRetryAt: null });
  });

  test('a first delay puts off the first attempt; a schedule of one attempt gives up at its first failure', () => {
    const now = Date.UTC(2026, 10, 27, 12, 0, 0);
    expect(new RetrySchedule([5]).firstAttemptAt(now)).toEqual(new Date(now + 5_000));
    expect(new RetrySchedule([5]).afterAttempt(1, false, now)).toEqual({ action: 'give_up', nextRetryAt: null });
    expect(new RetrySchedule([]).firstAttemptAt(now)).toBeNull();
  });

  test('treasury events go by the treasury route alone; every other event by every route, the webhookUrl first', () => {
    expect(routesOf('treasury.wallet.funded')).toEqual([treasuryEndpointsRoute]);
    expect(routesOf('payment.succeeded')).toEqual([webhookUrlRoute, merchantEndpointsRoute, treasuryEndpointsRoute]);
    expect(routesOf('wallet.treasury.funded')).toEqual([
      webhookUrlRoute,
      merchantEndpointsRoute,
      treasuryEndpointsRoute,
    ]);
  });
});
