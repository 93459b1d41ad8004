import { z } from 'zod';
import { brandOf, luhnValid, notExpired } from '../domain/payments/card';
import { evenWhenFieldsFail, required } from './validation';

const digitsOnly = (value: string) => value.replace(/[\s-]/g, '');

/** The documented `card { number, expiryMonth, expiryYear, cvv }` object, validated field by field. */
export const cardSchema = z.object({
  number: z.string({ error: required('the card number as a string') })
    .transform(digitsOnly)
    .refine((value) => /^\d{12,19}$/.test(value), 'must be 12 to 19 digits')
    .refine((value) => !/^\d{12,19}$/.test(value) || luhnValid(value), 'is not a valid card number (Luhn check failed)'),
  expiryMonth: z.number({ error: required('a number from 1 to 12') }).int('must be a whole number from 1 to 12').min(1, 'must be from 1 to 12').max(12, 'must be from 1 to 12'),
  expiryYear: z.number({ error: required('a four-digit year') }).int('must be a four-digit year')
    .transform((year) => (year < 100 ? 2000 + year : year))
    .refine((year) => year >= 2000 && year <= 2100, 'must be a four-digit year'),
  cvv: z.string({ error: required('3 digits (4 for American Express)') }).trim(),
}, { error: required('an object with number, expiryMonth, expiryYear and cvv') }).superRefine((card, issues) => {
  // Runs beside failed fields too (evenWhenFieldsFail), so each check first makes sure of its inputs.
  if (typeof card.cvv === 'string') {
    const cvvLength = typeof card.number === 'string' && brandOf(card.number) === 'amex' ? 4 : 3;
    if (!new RegExp(`^\\d{${cvvLength}}$`).test(card.cvv)) {
      issues.addIssue({ code: 'custom', path: ['cvv'], message: `must be ${cvvLength} digits` });
    }
  }
  const expiryValid = Number.isInteger(card.expiryMonth) && card.expiryMonth >= 1 && card.expiryMonth <= 12 && Number.isInteger(card.expiryYear);
  if (expiryValid && !notExpired(card.expiryMonth, card.expiryYear)) {
    issues.addIssue({ code: 'custom', path: ['expiryYear'], message: 'the card has expired' });
  }
}, evenWhenFieldsFail);
