/** Who is being paid, as a sanctions list knows them. */
export interface ScreeningSubject {
  names: string[];
  country: string | null;
  /** The business the recipient is screened for: recorded with a match, for the operator (never shown to the merchant). */
  businessId?: string | null;
}

export type ScreeningResult = { match: false } | { match: true; list: string };

/** Sanctions screening of payout recipients (dashboard creates, scheduled payouts' recipients). */
export interface SanctionsScreening {
  readonly name: string;
  screen(subject: ScreeningSubject): Promise<ScreeningResult>;
}
