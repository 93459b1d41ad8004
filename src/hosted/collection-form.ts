import { CollectionRailKind, StartSessionCollectionCommand } from '../domain/collections';
import { FieldErrors, validationError } from '../domain/shared/errors';
import type { CheckoutFormValues } from './checkout-form';

const formString = (form: Record<string, unknown>, name: string): string | null => {
  const value = form[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

const RAILS = Object.values(CollectionRailKind) as string[];

/** The hosted page's local-rail form (application/x-www-form-urlencoded) read into the command: the rail, and for mobile money the phone and network. */
export function readCollectionForm(token: string, body: unknown): StartSessionCollectionCommand {
  const form = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const rail = formString(form, 'rail');
  if (!rail || !RAILS.includes(rail)) throw validationError({ rail: [`must be one of ${RAILS.join(', ')}`] });
  return {
    token,
    rail: rail as CollectionRailKind,
    phone: formString(form, 'phone')?.slice(0, 20) ?? null,
    networkId: formString(form, 'networkId')?.slice(0, 64) ?? null,
  };
}

/** What the refused mobile-money form shows again. */
export function collectionFormValues(body: unknown): CheckoutFormValues {
  const form = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return {
    phone: formString(form, 'phone')?.slice(0, 20) ?? undefined,
    networkId: formString(form, 'networkId')?.slice(0, 64) ?? undefined,
  };
}

/**
 * The domain's refusal of a collection, in a payer's words and on the page's own fields (`phone`,
 * `networkId`); what no field of the page holds (the amount against the channel's limits, the rail)
 * becomes the form's message (`_`).
 */
export function payerCollectionErrors(errors: FieldErrors): FieldErrors {
  const payer: FieldErrors = {};
  const add = (field: string, message: string) => {
    if (!(payer[field] ??= []).includes(message)) payer[field].push(message);
  };
  for (const [field, messages] of Object.entries(errors)) {
    if (field === 'customer.phone') {
      add(
        'phone',
        messages.some((message) => message.startsWith('is required'))
          ? 'Enter the phone number of your mobile money account'
          : 'Enter your mobile money number with its country code, like +233 24 123 4567',
      );
    } else if (field === 'customer.networkId') add('networkId', 'Choose the mobile network of your phone number');
    else if (field === 'amount')
      add(
        '_',
        'This amount cannot be paid this way (it is outside what the network accepts): choose another way to pay.',
      );
    else add('_', 'This way to pay is not available for this payment: choose another.');
  }
  return payer;
}
