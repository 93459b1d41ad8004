import { SanctionsScreening, ScreeningResult, ScreeningSubject } from './port';

/** The sandbox's magic value: a name containing the word SANCTIONED, in any case, is a match. */
const SANDBOX_MATCH = /\bsanctioned\b/i;

export class SandboxScreening implements SanctionsScreening {
  readonly name = 'sandbox-screening';

  async screen(subject: ScreeningSubject): Promise<ScreeningResult> {
    return subject.names.some((name) => SANDBOX_MATCH.test(name)) ? { match: true, list: 'SANDBOX' } : { match: false };
  }
}
