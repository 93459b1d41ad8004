import { TransitionTable, assertTransition, movesOf } from '../shared/states';
import { PaymentStatus } from './payment.entities';

/**
 * What can happen to a payment. The acquirer answers the authorization of a PENDING payment
 * (`authorize_*`) or the 3-D Secure completion of a REQUIRES_ACTION one (`authenticate_*`); a
 * recorded answer is never recorded twice, so a late second answer is a CONFLICT.
 */
export type PaymentAction =
  | 'authorize_approved'
  | 'authorize_declined'
  | 'authorize_challenged'
  | 'block'
  | 'complete_authentication'
  | 'authenticate_approved'
  | 'authenticate_declined'
  | 'authenticate_challenged'
  | 'settle'
  | 'refund_part'
  | 'refund_all'
  | 'refund_reversed'
  | 'refund_reversed_settled'
  | 'dispute';

const { PENDING, REQUIRES_ACTION, COMPLETED, SETTLED, FAILED, REFUNDED } = PaymentStatus;

/**
 * Every allowed transition; anything else is a 409 CONFLICT that changes nothing. FAILED is final;
 * REFUNDED too, except that a refund the acquirer failed afterwards (`refund_reversed`, Stripe's
 * `refund.updated` failed) gives the payment its money back: captured again, or settled again.
 */
const TRANSITIONS: TransitionTable<PaymentStatus, PaymentAction> = {
  [PENDING]: {
    authorize_approved: COMPLETED,
    authorize_declined: FAILED,
    authorize_challenged: REQUIRES_ACTION,
    block: FAILED,
  },
  [REQUIRES_ACTION]: {
    complete_authentication: REQUIRES_ACTION,
    authenticate_approved: COMPLETED,
    authenticate_declined: FAILED,
    authenticate_challenged: REQUIRES_ACTION,
  },
  [COMPLETED]: { settle: SETTLED, refund_part: COMPLETED, refund_all: REFUNDED, refund_reversed: COMPLETED },
  [SETTLED]: {
    refund_part: SETTLED,
    refund_all: REFUNDED,
    dispute: SETTLED,
    refund_reversed: SETTLED,
    refund_reversed_settled: SETTLED,
  },
  [FAILED]: {},
  [REFUNDED]: { refund_reversed: COMPLETED, refund_reversed_settled: SETTLED },
};

const answered = (from: PaymentStatus) => `The payment is already ${from}`;
const REFUSALS: Readonly<Record<PaymentAction, (from: PaymentStatus) => string>> = {
  authorize_approved: answered,
  authorize_declined: answered,
  authorize_challenged: answered,
  block: answered,
  authenticate_approved: answered,
  authenticate_declined: answered,
  authenticate_challenged: answered,
  complete_authentication: (from) =>
    `The payment is ${from}; only a payment waiting for 3-D Secure (REQUIRES_ACTION) can complete it`,
  settle: (from) => `Only a COMPLETED payment can be settled; this one is ${from}`,
  refund_part: (from) => `A ${from} payment cannot be refunded`,
  refund_all: (from) => `A ${from} payment cannot be refunded`,
  dispute: (from) => `A ${from} payment cannot be disputed`,
  refund_reversed: (from) => `A refund of a ${from} payment cannot be reversed`,
  refund_reversed_settled: (from) => `A refund of a ${from} payment cannot be reversed`,
};

/** The status a payment moves to, or CONFLICT when the table does not allow the action from `from`. */
export function paymentTransition(from: PaymentStatus, action: PaymentAction): PaymentStatus {
  return assertTransition(TRANSITIONS, from, action, (state) => REFUSALS[action](state));
}

/** The statuses `action` moves a payment from, each with the status it leads to (for a conditional UPDATE). */
export function paymentMoves(action: PaymentAction): Array<[from: PaymentStatus, to: PaymentStatus]> {
  return movesOf(TRANSITIONS, action);
}

/** Whether the table allows the action from `from` (for jobs that leave a payment alone otherwise). */
export function paymentAllows(from: PaymentStatus, action: PaymentAction): boolean {
  return TRANSITIONS[from][action] !== undefined;
}

/**
 * Whether the payment waits for its 3-D Secure completion (the one status the table lets complete
 * it): a payment still under way, which holds its checkout session and is finished, never charged again.
 */
export const awaitsAuthentication = (payment: { status: PaymentStatus } | null | undefined): boolean =>
  payment != null && paymentAllows(payment.status, 'complete_authentication');

/** The statuses of a payment a source still counts as made or in flight (failed and fully refunded ones do not). */
export const FINAL_WITHOUT_MONEY: readonly PaymentStatus[] = [FAILED, REFUNDED];
