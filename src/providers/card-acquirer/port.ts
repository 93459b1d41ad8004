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

export type Authorization =
  | { outcome: 'approved' }
  | { outcome: 'declined'; reason: DeclineReason; message: string }
  | { outcome: 'authentication_required'; version: '1' | '2' };

export interface AuthorizationRequest {
  paymentId: string;
  amount: bigint;
  currency: string;
  card: VaultedCard;
}

/** A card acquirer: vaults cards, authorizes and captures payments, completes 3-D Secure. */
export interface CardAcquirer {
  readonly name: string;
  vault(card: CardDetails): Promise<VaultedCard>;
  authorize(request: AuthorizationRequest): Promise<Authorization>;
  /** Finishes a 3-D Secure challenge; approved or declined with `authentication_failed`. */
  completeAuthentication(request: AuthorizationRequest): Promise<Authorization>;
}
