import { z } from 'zod';
import { brandOf, luhnValid, notExpired } from '../domain/shared/card';
import { evenWhenFieldsFail, required } from './validation';

const digitsOnly = (value: string) => value.replace(/[\s-]/g, '');

type Missing = string | z.core.$ZodErrorMap;

/**
 * The words of each card rule. The rules are the same for every face; who reads the answer is not:
 * a developer reading the API's field errors, or a payer on the hosted page (src/hosted).
 */
export interface CardMessages {
  number: { missing: Missing; length: string; luhn: string };
  expiryMonth: { missing: Missing; integer: string; range: string };
  expiryYear: { missing: Missing; format: string; expired: string };
  cvv: { missing: Missing; length: (digits: number) => string };
  card: Missing;
}

/** The API's words (the documented field errors). */
const API_CARD_MESSAGES: CardMessages = {
  number: {
    missing: required('the card number as a string'),
    length: 'must be 12 to 19 digits',
    luhn: 'is not a valid card number (Luhn check failed)',
  },
  expiryMonth: {
    missing: required('a number from 1 to 12'),
    integer: 'must be a whole number from 1 to 12',
    range: 'must be from 1 to 12',
  },
  expiryYear: {
    missing: required('a four-digit year'),
    format: 'must be a four-digit year',
    expired: 'the card has expired',
  },
  cvv: { missing: required('3 digits (4 for American Express)'), length: (digits) => `must be ${digits} digits` },
  card: required('an object with number, expiryMonth, expiryYear and cvv'),
};

/** The `card { number, expiryMonth, expiryYear, cvv }` object, validated field by field, worded by `messages`. */
export function cardSchemaWith(messages: CardMessages) {
  const { number, expiryMonth, expiryYear, cvv } = messages;
  return z
    .object(
      {
        number: z
          .string({ error: number.missing })
          .transform(digitsOnly)
          .refine((value) => /^\d{12,19}$/.test(value), number.length)
          .refine((value) => !/^\d{12,19}$/.test(value) || luhnValid(value), number.luhn),
        expiryMonth: z
          .number({ error: expiryMonth.missing })
          .int(expiryMonth.integer)
          .min(1, expiryMonth.range)
          .max(12, expiryMonth.range),
        expiryYear: z
          .number({ error: expiryYear.missing })
          .int(expiryYear.format)
          .transform((year) => (year < 100 ? 2000 + year : year))
          .refine((year) => year >= 2000 && year <= 2100, expiryYear.format),
        cvv: z.string({ error: cvv.missing }).trim(),
      },
      { error: messages.card },
    )
    .superRefine((card, issues) => {
      // Runs beside failed fields too (evenWhenFieldsFail), so each check first makes sure of its inputs.
      if (typeof card.cvv === 'string') {
        const cvvLength = typeof card.number === 'string' && brandOf(card.number) === 'amex' ? 4 : 3;
        if (!new RegExp(`^\\d{${cvvLength}}$`).test(card.cvv)) {
          issues.addIssue({ code: 'custom', path: ['cvv'], message: cvv.length(cvvLength) });
        }
      }
      const expiryValid =
        Number.isInteger(card.expiryMonth) &&
        card.expiryMonth >= 1 &&
        card.expiryMonth <= 12 &&
        Number.isInteger(card.expiryYear);
      if (expiryValid && !notExpired(card.expiryMonth, card.expiryYear)) {
        issues.addIssue({ code: 'custom', path: ['expiryYear'], message: expiryYear.expired });
      }
    }, evenWhenFieldsFail);
}

/** The documented `card { number, expiryMonth, expiryYear, cvv }` object of the API. */
export const cardSchema = cardSchemaWith(API_CARD_MESSAGES);
