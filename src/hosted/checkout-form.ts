import { PayCheckoutSessionCommand } from '../domain/checkout/checkout.commands';
import { cardSchema } from '../wire/card';
import { emailSchema, fieldErrorsOf } from '../wire/validation';

/** What the form may show again: never the card number or the CVV. */
export interface CheckoutFormValues {
  email?: string;
  expiryMonth?: string;
  expiryYear?: string;
  recurring?: boolean;
}

const formString = (form: Record<string, unknown>, name: string): string | undefined => {
  const value = form[name];
  return typeof value === 'string' ? value : undefined;
};

/** A form's month or year as a number for the card schema (a blank is missing, anything else not a number). */
const formInteger = (value: string | undefined): number | undefined => {
  if (value === undefined || value.trim() === '') return undefined;
  return /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : Number.NaN;
};

const CHECKED = ['on', 'true', '1', 'yes'];

/**
 * The hosted card form (application/x-www-form-urlencoded) read into the pay command: each field's
 * value or the messages the page shows beside it, and the values the page may show again.
 */
export function readCheckoutForm(token: string, body: unknown): { command: PayCheckoutSessionCommand; values: CheckoutFormValues } {
  const form = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const values: CheckoutFormValues = {
    email: formString(form, 'email'), expiryMonth: formString(form, 'expiryMonth'), expiryYear: formString(form, 'expiryYear'),
    recurring: CHECKED.includes(formString(form, 'recurring') ?? ''),
  };
  const card = cardSchema.safeParse({
    number: formString(form, 'number') ?? '', expiryMonth: formInteger(values.expiryMonth), expiryYear: formInteger(values.expiryYear), cvv: formString(form, 'cvv') ?? '',
  });
  const email = emailSchema.safeParse(values.email ?? '');
  return {
    command: {
      token,
      card: card.success ? { ok: true, value: card.data } : { ok: false, errors: fieldErrorsOf(card.error) },
      email: email.success ? { ok: true, value: email.data } : { ok: false, errors: { email: [values.email ? 'must be a valid email address' : 'is required'] } },
      recurring: values.recurring === true,
    },
    values,
  };
}
