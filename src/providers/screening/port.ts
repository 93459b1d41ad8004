/** What a screening is for: a recipient's create, or a payout schedule's (create or update) recipients. */
export type ScreenedRequest = 'recipient' | 'payout_schedule';

/** Who is being paid, as a sanctions list knows them. */
export interface ScreeningSubject {
  names: string[];
  country: string | null;
  /** The business the recipient is screened for: recorded with a match, for the operator (never shown to the merchant). */
  businessId?: string | null;
  /** The request screened, which a match refuses: recorded with the match, for the operator. */
  request: ScreenedRequest;
}

export type ScreeningResult = { match: false } | { match: true; list: string };

/** Sanctions screening of payout recipients (dashboard creates, scheduled payouts' recipients). */
export interface SanctionsScreening {
  readonly name: string;
  screen(subject: ScreeningSubject): Promise<ScreeningResult>;
}
