import { DomainError, ErrorCode } from '../../domain/shared/errors';
import type { SanctionsIndex } from './lists/matcher';
import type { SanctionsLists } from './lists/store';
import type { SanctionsScreening, ScreeningResult, ScreeningSubject } from './port';

/** What a live screening with no list loaded answers (UNPROCESSABLE), as a kind without a provider does. */
export const NO_LIST_LOADED =
  'No sanctions list is loaded for live mode, so live recipients cannot be screened; the operator loads the official lists with `tessera sanctions load`';

/**
 * Live screening against the official lists the operator loaded (docs/live.md, Sanctions
 * screening): the names are matched (src/providers/screening/lists/matcher.ts) against every
 * loaded entry's primary name and strong aliases; a match is recorded for the operator, with the
 * entry, its score, the name screened and the business, and answered as the list's name only.
 *
 * The index is built once per content of the lists, read in one snapshot: each screening asks the
 * database for the lists' versions (one small query) and rebuilds when a load changed them, so a
 * list loaded by the CLI in another process is used from the next screening on.
 */
export class OfficialListsScreening implements SanctionsScreening {
  readonly name = 'official-lists';
  private built: Promise<{ version: string; index: SanctionsIndex }> | null = null;

  constructor(
    private readonly lists: SanctionsLists,
    private readonly livemode = true,
  ) {}

  async screen(subject: ScreeningSubject): Promise<ScreeningResult> {
    const version = await this.lists.version();
    if (version === '') throw new DomainError(ErrorCode.UNPROCESSABLE, NO_LIST_LOADED);
    const { index } = await this.indexAt(version);
    const matches = index.match(subject.names);
    if (matches.length === 0) return { match: false };
    await this.lists.record(
      matches.map((match) => ({
        ...match,
        businessId: subject.businessId ?? null,
        livemode: this.livemode,
        request: subject.request,
      })),
    );
    return { match: true, list: matches[0].list.toUpperCase() };
  }

  /** The index of the lists at `version` or later (a load between the two reads is picked up by the next screening). */
  private async indexAt(version: string): Promise<{ version: string; index: SanctionsIndex }> {
    const current = this.built ? await this.built.catch(() => null) : null;
    if (current && current.version === version) return current;
    const building = this.lists.index();
    this.built = building;
    try {
      return await building;
    } catch (error) {
      if (this.built === building) this.built = null;
      throw error;
    }
  }
}
