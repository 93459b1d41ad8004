/** The task a gift's schedule enqueues (its runner: recurring-gifts.jobs.ts). */
export const CHARGE_RECURRING_GIFT_TASK = 'charge_recurring_gift';
