import { RecurringInterval } from '../checkout';

/** Adds one interval to a date (monthly keeps the day of month, clamped to the month's last day). */
export function addInterval(from: Date, interval: RecurringInterval): Date {
  if (interval === 'weekly') return new Date(from.getTime() + 7 * 24 * 3600 * 1000);
  const next = new Date(from.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}
