/** Who is being paid, as a sanctions list knows them. */
export interface ScreeningSubject {
  names: string[];
  country: string | null;
}

export type ScreeningResult = { match: false } | { match: true; list: string };

/** Sanctions screening of payout recipients (dashboard creates, scheduled payouts' recipients). */
export interface SanctionsScreening {
  readonly name: string;
  screen(subject: ScreeningSubject): Promise<ScreeningResult>;
}
