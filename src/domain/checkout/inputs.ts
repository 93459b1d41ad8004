import { z } from 'zod';
import { absoluteUrlSchema, required } from '../../wire/validation';

/** Input pieces shared by checkout sessions, payment links and invoices. */
export const descriptionSchema = z.string({ error: 'must be a string' }).trim().max(500, 'must be at most 500 characters').nullish();
export const requiredUrlSchema = z.string({ error: required('an absolute http(s) URL') }).pipe(absoluteUrlSchema);
export const optionalUrlSchema = z.string({ error: 'must be an absolute http(s) URL' }).pipe(absoluteUrlSchema).nullish();
export const intervalSchema = z.enum(['weekly', 'monthly'], { error: 'must be weekly or monthly' });

/** Adds one interval to a date (monthly keeps the day of month, clamped to the month's last day). */
export function addInterval(from: Date, interval: 'weekly' | 'monthly'): Date {
  if (interval === 'weekly') return new Date(from.getTime() + 7 * 24 * 3600 * 1000);
  const next = new Date(from.getTime());
  const day = next.getUTCDate();
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(day, lastDay));
  return next;
}
