import { PayCheckoutSessionCommand } from '../domain/checkout';
import { CardMessages, cardSchemaWith } from '../wire/card';
import { emailSchema, fieldErrorsOf } from '../wire/validation';

/** The card rules of the API, in the words of a payer (the API's own words are for developers). */
const PAYER_CARD_MESSAGES: CardMessages = {
  number: {
    missing: 'Enter your card number',
    length: 'Enter the 12 to 19 digits of your card number',
    luhn: 'This card number is not valid: check the digits',
  },
  expiryMonth: {
    missing: 'Enter the expiry month, from 01 to 12',
    integer: 'Enter the expiry month as a number from 01 to 12',
    range: 'Enter the expiry month as a number from 01 to 12',
  },
  expiryYear: {
    missing: 'Enter the expiry year, like 2030',
    format: 'Enter the expiry year with four digits, like 2030',
    expired: 'This card has expired',
  },
  cvv: { missing: 'Enter the security code', length: (digits) => `Enter the ${digits}-digit security code` },
  card: 'Enter your card details',
};

const payerCardSchema = cardSchemaWith(PAYER_CARD_MESSAGES);

const EMAIL_MISSING = 'Enter your email address: the receipt is sent there';
const EMAIL_INVALID = 'Enter a valid email address, like name@example.com';

/** What the form may show again: never the card number or the CVV. */
export interface CheckoutFormValues {
  email?: string;
  expiryMonth?: string;
  expiryYear?: string;
  recurring?: boolean;
  /** The mobile-money form's phone and network, shown again when the collection was refused. */
  phone?: string;
  networkId?: string;
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
export function readCheckoutForm(
  token: string,
  body: unknown,
): { command: PayCheckoutSessionCommand; values: CheckoutFormValues } {
  const form = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const values: CheckoutFormValues = {
    email: formString(form, 'email'),
    expiryMonth: formString(form, 'expiryMonth'),
    expiryYear: formString(form, 'expiryYear'),
    recurring: CHECKED.includes(formString(form, 'recurring') ?? ''),
  };
  const card = payerCardSchema.safeParse({
    number: formString(form, 'number') ?? '',
    expiryMonth: formInteger(values.expiryMonth),
    expiryYear: formInteger(values.expiryYear),
    cvv: formString(form, 'cvv') ?? '',
  });
  const email = emailSchema.safeParse(values.email ?? '');
  return {
    command: {
      token,
      card: card.success ? { ok: true, value: card.data } : { ok: false, errors: fieldErrorsOf(card.error) },
      email: email.success
        ? { ok: true, value: email.data }
        : { ok: false, errors: { email: [values.email?.trim() ? EMAIL_INVALID : EMAIL_MISSING] } },
      recurring: values.recurring === true,
    },
    values,
  };
}
