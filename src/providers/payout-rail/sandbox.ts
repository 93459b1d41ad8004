import { createHash } from 'node:crypto';
import { PayoutDestination, PayoutRail, PayoutSubmission, RailAcceptance, destinationLast4 } from './port';

/**
 * The sandbox rail's magic values, by the last 4 digits of the recipient's account number or
 * phone (design section 8; docs/sandbox.md): `1111` fails with `account_invalid` after SUBMITTED,
 * `2222` is held for review, `3333` stays CREATED until advanced, `4444` stays SUBMITTED until
 * advanced; anything else settles `settleAfterMs` after SUBMITTED.
 */
export const SANDBOX_PAYOUT_ENDINGS = {
  FAILS: '1111',
  REVIEW: '2222',
  STAYS_CREATED: '3333',
  STAYS_SUBMITTED: '4444',
} as const;

export class SandboxPayoutRail implements PayoutRail {
  readonly name = 'sandbox-payout-rail';

  constructor(private readonly settleAfterMs: number) {}

  holdFor(destination: PayoutDestination): 'none' | 'review' {
    return destinationLast4(destination) === SANDBOX_PAYOUT_ENDINGS.REVIEW ? 'review' : 'none';
  }

  dispatchOf(destination: PayoutDestination): 'auto' | 'manual' {
    return destinationLast4(destination) === SANDBOX_PAYOUT_ENDINGS.STAYS_CREATED ? 'manual' : 'auto';
  }

  async submit(submission: PayoutSubmission): Promise<RailAcceptance> {
    // The same payout id always gets the same reference: a repeated submission is the same payout.
    const providerRef = `sbx_po_${createHash('sha256').update(submission.payoutId).digest('hex').slice(0, 20)}`;
    const ending = destinationLast4(submission.destination);
    if (ending === SANDBOX_PAYOUT_ENDINGS.STAYS_SUBMITTED || ending === SANDBOX_PAYOUT_ENDINGS.STAYS_CREATED)
      return { providerRef, callback: null };
    if (ending === SANDBOX_PAYOUT_ENDINGS.FAILS) {
      return {
        providerRef,
        callback: { outcome: { status: 'FAILED', reason: 'account_invalid' }, afterMs: this.settleAfterMs },
      };
    }
    return { providerRef, callback: { outcome: { status: 'SETTLED' }, afterMs: this.settleAfterMs } };
  }
}
