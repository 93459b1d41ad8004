import { CheckoutSessionStatus } from '../src/domain/checkout/checkout-session.entity';
import { checkoutSessionAllows, checkoutSessionTransition } from '../src/domain/checkout/checkout-session.states';
import { InvoiceStatus } from '../src/domain/invoices/invoice.entity';
import { invoiceAllows, invoiceTransition } from '../src/domain/invoices/invoice.states';
import { RecurringGiftStatus } from '../src/domain/recurring-gifts/recurring-gift.entity';
import { recurringGiftTransition } from '../src/domain/recurring-gifts/recurring-gift.states';
import { readCheckoutForm } from '../src/hosted/checkout-form';

const conflict = (message: string) => expect.objectContaining({ code: 'CONFLICT', message });

describe('state tables of checkout sessions, invoices and recurring gifts', () => {
  test('only an OPEN session is paid, expired or locked; a paid one can never be withdrawn, an expired or locked one stays as it is', () => {
    expect(checkoutSessionTransition(CheckoutSessionStatus.OPEN, 'complete')).toBe(CheckoutSessionStatus.COMPLETED);
    expect(checkoutSessionTransition(CheckoutSessionStatus.OPEN, 'lock')).toBe(CheckoutSessionStatus.LOCKED);
    expect(() => checkoutSessionTransition(CheckoutSessionStatus.COMPLETED, 'withdraw')).toThrow(
      conflict('The checkout session is already paid'),
    );
    expect(checkoutSessionTransition(CheckoutSessionStatus.EXPIRED, 'withdraw')).toBe(CheckoutSessionStatus.EXPIRED);
    expect(checkoutSessionTransition(CheckoutSessionStatus.LOCKED, 'withdraw')).toBe(CheckoutSessionStatus.LOCKED);
    expect(checkoutSessionAllows(CheckoutSessionStatus.COMPLETED, 'expire')).toBe(false);
    expect(() => checkoutSessionTransition(CheckoutSessionStatus.COMPLETED, 'complete')).toThrow(
      conflict('The checkout session is already paid'),
    );
  });

  test('an invoice is sent from DRAFT (again from OPEN changes nothing), paid only while OPEN, and a PAID one cannot be voided', () => {
    expect(invoiceTransition(InvoiceStatus.DRAFT, 'finalize')).toBe(InvoiceStatus.OPEN);
    expect(invoiceTransition(InvoiceStatus.OPEN, 'finalize')).toBe(InvoiceStatus.OPEN);
    expect(() => invoiceTransition(InvoiceStatus.VOID, 'finalize')).toThrow(conflict('A VOID invoice cannot be sent'));
    expect(invoiceAllows(InvoiceStatus.DRAFT, 'pay')).toBe(false);
    expect(invoiceAllows(InvoiceStatus.VOID, 'pay')).toBe(false);
    expect(() => invoiceTransition(InvoiceStatus.PAID, 'void')).toThrow(
      conflict('A PAID invoice cannot be voided; refund its payment instead'),
    );
    expect(invoiceTransition(InvoiceStatus.VOID, 'void')).toBe(InvoiceStatus.VOID);
  });

  test('a CANCELLED recurring gift is final; only an ACTIVE one is charged or paused', () => {
    expect(() => recurringGiftTransition(RecurringGiftStatus.CANCELLED, 'resume')).toThrow(
      conflict('A CANCELLED recurring gift cannot be resumed'),
    );
    expect(() => recurringGiftTransition(RecurringGiftStatus.PAUSED, 'charge')).toThrow(
      conflict('A PAUSED recurring gift cannot be charged'),
    );
    expect(recurringGiftTransition(RecurringGiftStatus.PAUSED, 'resume')).toBe(RecurringGiftStatus.ACTIVE);
    expect(recurringGiftTransition(RecurringGiftStatus.CANCELLED, 'cancel')).toBe(RecurringGiftStatus.CANCELLED);
    expect(recurringGiftTransition(RecurringGiftStatus.ACTIVE, 'pause')).toBe(RecurringGiftStatus.PAUSED);
  });
});

describe('the hosted card form (src/hosted)', () => {
  test('a good form becomes the pay command: digits only, four-digit year, lower-cased email, the recurring tick', () => {
    const { command, values } = readCheckoutForm('cs_test_x', {
      number: '4242 4242 4242 4242',
      expiryMonth: '12',
      expiryYear: '2099',
      cvv: '123',
      email: ' Payer@Example.com ',
      recurring: 'on',
    });
    expect(command).toEqual({
      token: 'cs_test_x',
      card: { ok: true, value: { number: '4242424242424242', expiryMonth: 12, expiryYear: 2099, cvv: '123' } },
      email: { ok: true, value: 'payer@example.com' },
      recurring: true,
    });
    expect(values).toEqual({ email: ' Payer@Example.com ', expiryMonth: '12', expiryYear: '2099', recurring: true });
  });

  test('a bad form keeps the messages the page shows per field, and never the card number or CVV in what it shows again', () => {
    const { command, values } = readCheckoutForm('cs_test_x', {
      number: '4242',
      expiryMonth: 'ab',
      expiryYear: '',
      cvv: '1',
      email: 'nope',
    });
    expect(command.card.ok).toBe(false);
    if (!command.card.ok)
      expect(Object.keys(command.card.errors).sort()).toEqual(['cvv', 'expiryMonth', 'expiryYear', 'number']);
    expect(command.email).toEqual({
      ok: false,
      errors: { email: ['Enter a valid email address, like name@example.com'] },
    });
    expect(readCheckoutForm('t', {}).command.email).toEqual({
      ok: false,
      errors: { email: ['Enter your email address: the receipt is sent there'] },
    });
    // The API's card rules, in a payer's words.
    if (!command.card.ok) {
      expect(command.card.errors).toEqual({
        number: ['Enter the 12 to 19 digits of your card number'],
        expiryMonth: ['Enter the expiry month, from 01 to 12'],
        expiryYear: ['Enter the expiry year, like 2030'],
        cvv: ['Enter the 3-digit security code'],
      });
    }
    const expired = readCheckoutForm('t', {
      number: '4242424242424242',
      expiryMonth: '1',
      expiryYear: '2020',
      cvv: '123',
    }).command.card;
    expect(expired).toEqual({ ok: false, errors: { expiryYear: ['This card has expired'] } });
    expect(values).not.toHaveProperty('number');
    expect(values).not.toHaveProperty('cvv');
    expect(command.recurring).toBe(false);
  });
});
