import type { CardDetails } from '../../domain/shared/card';

/** What Tessera keeps of a card: the acquirer's reference and what may be shown. Never the number. */
export interface VaultedCard {
  providerRef: string;
  brand: string;
  last4: string;
  bin: string;
  expiryMonth: number;
  expiryYear: number;
  /** Same card, same fingerprint, across businesses; not reversible to the number. */
  fingerprint: string;
  /** Issuing country (ISO 3166-1 alpha-2). */
  country: string;
}

export type DeclineReason = 'card_declined' | 'insufficient_funds' | 'authentication_failed';

/**
 * An acquirer's answer about a payment. `reference`: the acquirer's own id of the payment (Stripe's
 * PaymentIntent id), kept on the payment; an acquirer without references (the sandbox) gives none.
 */
export type Authorization = (
  | { outcome: 'approved' }
  | { outcome: 'declined'; reason: DeclineReason; message: string }
  | {
      outcome: 'authentication_required';
      version: '1' | '2';
      /**
       * The acquirer's own authentication page the payer is sent to (Stripe's
       * `next_action.redirect_to_url.url`), which sends the payer back to the request's `returnUrl`;
       * absent when the acquirer has none (the sandbox: Tessera shows its own challenge page).
       */
      redirectUrl?: string;
    }
) & {
  reference?: string;
  /**
   * The card as the acquirer now keeps it for the request's `keepFor` customer (Stripe: the
   * Customer, made for it if need be, and the `cus_…/pm_…` reference later charges use); absent
   * when nothing was kept (no `keepFor`, or an acquirer without customers).
   */
  kept?: { customerRef: string; providerRef: string };
};

/** The Tessera customer a charge keeps its card for (a recurring gift started by the payment). */
export interface KeepCardFor {
  customerId: string;
  email: string;
  /** The acquirer's customer this Tessera customer already has, or null. */
  customerRef: string | null;
}

export interface AuthorizationRequest {
  paymentId: string;
  amount: bigint;
  currency: string;
  card: VaultedCard;
  /**
   * Where the acquirer's authentication page sends the payer back (Tessera's return route, on
   * PUBLIC_BASE_URL). The same for every call of one payment, so that a repeated call is the same request.
   */
  returnUrl?: string;
  /**
   * The payer is not present: a merchant-initiated charge of a saved card (a recurring gift, a
   * server-to-server charge naming a saved card). A card that asks for authentication then is
   * declined (`authentication_failed`) at an acquirer that cannot reach the payer; the sandbox
   * ignores it (its challenge completes on its own).
   */
  offSession?: boolean;
  /**
   * The payer is present and the card is to be charged again later, off-session (a checkout
   * session that starts a recurring gift): the acquirer keeps it for this customer as it charges
   * it (Stripe: the Customer named and `setup_future_usage: 'off_session'`), and says so in
   * `kept`. Only for an acquirer that `keepsCardsWithCustomers`; the sandbox ignores it.
   */
  keepFor?: KeepCardFor;
}

/** A card kept for later charges of one Tessera customer (saving a card, a token exchanged for a saved card). */
export interface SaveCardRequest {
  /** The card as `vault` gave it, not yet charged. */
  card: VaultedCard;
  /** The acquirer's customer this Tessera customer already has (`customers.acquirer_customer_ref`), or null on its first save. */
  customerRef: string | null;
  /** Tessera's customer id: keys the acquirer's customer, so a retry of the first save makes one. */
  customerId: string;
  email: string;
}

/**
 * The card as kept: its reference names the acquirer's customer too when the acquirer needs it to
 * charge the card again (Stripe), and `customerRef` is that customer (null for an acquirer without
 * customers: the sandbox gives the card back as it was).
 */
export interface SavedCard {
  customerRef: string | null;
  card: VaultedCard;
}

/** What the payer came back from the acquirer's authentication page with (the query of the return route). */
export interface AuthenticationReturn {
  /** The acquirer's reference of the authenticated payment (Stripe's `payment_intent`), as the query gave it; null when absent. */
  reference: string | null;
}

/** A payment the recovery sweep asks about: when Tessera recorded it (an acquirer's search may lag behind). */
export interface PaymentLookup extends AuthorizationRequest {
  createdAt: Date;
}

/** A refund of a payment the acquirer knows by `paymentReference`; `refundId` (Tessera's) keys it at the acquirer. */
export interface RefundRequest {
  refundId: string;
  paymentReference: string;
  amount: bigint;
  currency: string;
}

/** A refund the recovery sweep asks about: when Tessera recorded it (a request still on its way may arrive later). */
export interface RefundLookup {
  refundId: string;
  paymentReference: string;
  createdAt: Date;
}

/**
 * What the acquirer made of a refund whose answer was lost: `refunded` (it accepted the refund:
 * given back, or on its way back to the card), or `failed` (it refused or cancelled it: nothing
 * given back).
 */
export type RefundFound = { outcome: 'refunded'; reference: string | null } | { outcome: 'failed'; reason: string };

/**
 * What an acquirer's balance moved for, in Tessera's words: a charge captured, a refund (and its
 * failure), a dispute's withdrawal and its reversal when won; `other` for what reconciliation does
 * not compare (payouts, top-ups, the acquirer's own fees billed apart).
 */
export type AcquirerTransactionType = 'charge' | 'refund' | 'refund_failure' | 'dispute' | 'dispute_reversal' | 'other';

/**
 * One entry of the acquirer's balance (Stripe's balance transaction), for reconciliation. `amount`
 * and `currency` are the source's (what the payer paid, refunded or disputed: the currency Tessera
 * booked in), unsigned, in Tessera's minor units; `fee` is what the acquirer kept of it, in the
 * currency of its balance (`feeCurrency`).
 */
export interface AcquirerBalanceTransaction {
  id: string;
  type: AcquirerTransactionType;
  /** The acquirer's own word for it (Stripe's `type`, or `reporting_category` for an adjustment). */
  acquirerType: string;
  /** The acquirer's id of what moved the balance (Stripe: `ch_…`, `re_…`, `dp_…`/`du_…`). */
  sourceId: string | null;
  /** For a charge, the acquirer's reference of the payment (Stripe's PaymentIntent), which the payment keeps. */
  paymentReference: string | null;
  amount: bigint;
  currency: string;
  fee: bigint;
  feeCurrency: string;
  createdAt: Date;
}

/** A period of the acquirer's balance: from (inclusive) to (exclusive). */
export interface BalancePeriod {
  from: Date;
  to: Date;
}

/** A card acquirer: vaults cards, authorizes and captures payments, completes 3-D Secure. */
export interface CardAcquirer {
  readonly name: string;
  /** Whether keeping a card for later charges needs the acquirer's own customer (Stripe), asked for with `keepFor`. */
  readonly keepsCardsWithCustomers: boolean;
  vault(card: CardDetails): Promise<VaultedCard>;
  /**
   * Keeps a vaulted card for later charges of a customer (Stripe: the Stripe Customer, made on the
   * first save, with the PaymentMethod attached to it). Asking again is harmless.
   */
  saveForCustomer(request: SaveCardRequest): Promise<SavedCard>;
  authorize(request: AuthorizationRequest): Promise<Authorization>;
  /**
   * Finishes a 3-D Secure challenge; approved or declined with `authentication_failed`. With
   * `returned` (the payer came back from the acquirer's page), refuses (BAD_REQUEST) a reference
   * that is not the payment's.
   */
  completeAuthentication(request: AuthorizationRequest, returned?: AuthenticationReturn): Promise<Authorization>;
  /**
   * What the acquirer made of an authorization whose answer was lost, asked without sending it
   * again: its answer, or null when the acquirer never received the request (nothing was charged).
   * SERVICE_UNAVAILABLE when it cannot tell yet.
   */
  find(request: PaymentLookup): Promise<Authorization | null>;
  /** Gives back all or part of a captured payment, once per `refundId` however often asked; the acquirer's id of the refund. */
  refund(request: RefundRequest): Promise<{ reference: string | null }>;
  /**
   * What the acquirer made of a refund whose answer was lost, asked without sending it again: its
   * outcome, or null when the acquirer never received it (nothing was given back).
   * SERVICE_UNAVAILABLE when it cannot tell yet.
   */
  findRefund(request: RefundLookup): Promise<RefundFound | null>;
  /**
   * The acquirer's balance transactions created in the period, every page of them; null for an
   * acquirer that keeps no balance (the sandbox: reconciliation has nothing to compare).
   */
  balanceTransactions(period: BalancePeriod): Promise<AcquirerBalanceTransaction[] | null>;
}
