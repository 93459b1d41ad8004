import crypto from 'node:crypto';
import { CardDetails, brandOf } from '../../domain/shared/card';
import {
  Authorization,
  AuthorizationRequest,
  CardAcquirer,
  PaymentLookup,
  RefundFound,
  SaveCardRequest,
  SavedCard,
  VaultedCard,
} from './port';

type SandboxBehaviour =
  'success' | 'declined' | 'three_ds_success' | 'three_ds_failure' | 'insufficient_funds' | 'three_ds2';

/** The sandbox card numbers of the interface document (docs/sandbox.md); any other valid number succeeds. */
export const SANDBOX_CARDS: Readonly<Record<string, SandboxBehaviour>> = Object.freeze({
  '4242424242424242': 'success',
  '4000000000000002': 'declined',
  '4000002500003155': 'three_ds_success',
  '4000008260003178': 'three_ds_failure',
  '4000000000009995': 'insufficient_funds',
  '4000000000003220': 'three_ds2',
});

/** Issuing countries by BIN prefix in the sandbox (for fraud rules by card country); otherwise US. */
export const SANDBOX_BIN_COUNTRIES: ReadonlyArray<[prefix: string, country: string]> = [
  ['400000826', 'GB'],
  ['400000124', 'CA'],
  ['400000076', 'BR'],
  ['400000566', 'NG'],
  ['400000404', 'KE'],
];

const BEHAVIOURS: ReadonlySet<string> = new Set(Object.values(SANDBOX_CARDS).concat('success'));

/**
 * The sandbox acquirer: no network, no money. Outcomes follow the documented card numbers; the
 * reference it hands back encodes only the outcome (`sbx_<behaviour>_<random>`), so a saved card
 * behaves the same on every later charge. It keeps no payments, so it gives no payment reference:
 * refunds of its payments are booked in the ledger alone, and its `refund` is a no-op success.
 */
export class SandboxCardAcquirer implements CardAcquirer {
  readonly name = 'sandbox';
  readonly keepsCardsWithCustomers = false;
  private readonly fingerprintKey: Buffer;

  constructor(secret: string) {
    this.fingerprintKey = crypto.createHash('sha256').update(`card-fingerprint:${secret}`).digest();
  }

  async vault(card: CardDetails): Promise<VaultedCard> {
    const behaviour = SANDBOX_CARDS[card.number] ?? 'success';
    return {
      providerRef: `sbx_${behaviour}_${crypto.randomBytes(9).toString('base64url')}`,
      brand: brandOf(card.number),
      last4: card.number.slice(-4),
      bin: card.number.slice(0, 6),
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
      fingerprint: crypto
        .createHmac('sha256', this.fingerprintKey)
        .update(card.number)
        .digest('base64url')
        .slice(0, 22),
      country: SANDBOX_BIN_COUNTRIES.find(([prefix]) => card.number.startsWith(prefix))?.[1] ?? 'US',
    };
  }

  /** The sandbox has no customers: its references already behave the same on every charge. */
  async saveForCustomer({ card }: SaveCardRequest): Promise<SavedCard> {
    return { customerRef: null, card };
  }

  async authorize({ card }: AuthorizationRequest): Promise<Authorization> {
    switch (behaviourOf(card)) {
      case 'declined':
        return { outcome: 'declined', reason: 'card_declined', message: 'The card was declined' };
      case 'insufficient_funds':
        return { outcome: 'declined', reason: 'insufficient_funds', message: 'The card has insufficient funds' };
      case 'three_ds_success':
      case 'three_ds_failure':
        return { outcome: 'authentication_required', version: '1' };
      case 'three_ds2':
        return { outcome: 'authentication_required', version: '2' };
      default:
        return { outcome: 'approved' };
    }
  }

  async completeAuthentication({ card }: AuthorizationRequest): Promise<Authorization> {
    return behaviourOf(card) === 'three_ds_failure'
      ? { outcome: 'declined', reason: 'authentication_failed', message: '3-D Secure authentication failed' }
      : { outcome: 'approved' };
  }

  /** The sandbox saw every request it was sent: its answer is the card's deterministic outcome. */
  async find(request: PaymentLookup): Promise<Authorization> {
    return this.authorize(request);
  }

  async refund(): Promise<{ reference: null }> {
    return { reference: null };
  }

  /** The sandbox books its refunds in the transaction that makes them: none is ever left to ask about. */
  async findRefund(): Promise<RefundFound | null> {
    throw new Error('The sandbox leaves no refund waiting for its answer');
  }

  /** The sandbox moves no money and keeps no balance: reconciliation has nothing to compare. */
  async balanceTransactions(): Promise<null> {
    return null;
  }
}

function behaviourOf(card: VaultedCard): SandboxBehaviour {
  const behaviour = /^sbx_([a-z0-9_]+?)_[A-Za-z0-9_-]{12}$/.exec(card.providerRef)?.[1];
  return behaviour && BEHAVIOURS.has(behaviour) ? (behaviour as SandboxBehaviour) : 'declined';
}
