import { TransitionTable, assertTransition } from '../shared/states';
import { InvoiceStatus } from './invoice.entity';

/** What happens to an invoice: sent (finalize), paid through its checkout session (pay), withdrawn (void). */
export type InvoiceAction = 'finalize' | 'pay' | 'void';

const { DRAFT, OPEN, PAID, VOID } = InvoiceStatus;

/**
 * Every allowed transition; anything else is a 409 CONFLICT that changes nothing. Sending an OPEN
 * invoice again and voiding a VOID one lead to the same state (nothing changes); PAID is final.
 */
const TRANSITIONS: TransitionTable<InvoiceStatus, InvoiceAction> = {
  [DRAFT]: { finalize: OPEN, void: VOID },
  [OPEN]: { finalize: OPEN, pay: PAID, void: VOID },
  [PAID]: {},
  [VOID]: { void: VOID },
};

const REFUSALS: Readonly<Record<InvoiceAction, (from: InvoiceStatus) => string>> = {
  finalize: (from) => `A ${from} invoice cannot be sent`,
  pay: (from) => `A ${from} invoice cannot be paid`,
  void: (from) => `A ${from} invoice cannot be voided; refund its payment instead`,
};

/** The status an invoice moves to, or CONFLICT when the table does not allow the action from `from`. */
export function invoiceTransition(from: InvoiceStatus, action: InvoiceAction): InvoiceStatus {
  return assertTransition(TRANSITIONS, from, action, (state) => REFUSALS[action](state));
}

/** Whether the table allows the action (a payment arriving for an invoice no longer OPEN changes nothing). */
export const invoiceAllows = (from: InvoiceStatus, action: InvoiceAction) => TRANSITIONS[from][action] !== undefined;
