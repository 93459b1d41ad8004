import crypto from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ParsedList, SANCTIONS_LISTS, SanctionsListName, parseSanctionsFile } from './formats';
import { IndexedName, NameMatch, SanctionsIndex, nameTokens, normalizeName } from './matcher';
import type { ScreenedRequest } from '../port';
import { SanctionsEntryRow, SanctionsListRow, SanctionsMatchRow } from './sanctions.entities';

/** Rows inserted per statement while loading a list (20k entries: a few dozen statements). */
const INSERT_BATCH = 500;

export interface LoadedList {
  list: string;
  publishedAt: Date | null;
  loadedAt: Date;
  entries: number;
  sha256: string;
  source: string;
}

/** What a screening matched, with the business it was screened for and the request it refuses. */
export interface RecordedMatch extends NameMatch {
  businessId: string | null;
  livemode: boolean;
  request: ScreenedRequest;
}

/**
 * The loaded sanctions lists in the database: the operator's loads (`tessera sanctions load`),
 * what is loaded (`sanctions status`), the matches live screening recorded (`sanctions matches`),
 * and the index live screening matches names with, rebuilt when a list changed.
 */
export class SanctionsLists {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Replaces the entries of `list` with the file's, in one transaction: a file that does not parse
   * (SanctionsFileError) changes nothing, and screening sees the old entries or the new, never a mix.
   */
  async load(list: SanctionsListName, file: Buffer, source: string): Promise<LoadedList> {
    const parsed: ParsedList = parseSanctionsFile(list, file.toString('utf8'));
    const row: LoadedList = {
      list,
      publishedAt: parsed.publishedAt,
      loadedAt: new Date(),
      entries: parsed.entries.length,
      sha256: crypto.createHash('sha256').update(file).digest('hex'),
      source,
    };
    await this.dataSource.transaction(async (em) => {
      // One load of a list at a time: a second waits, then replaces the first's entries whole.
      await em.query(`SELECT pg_advisory_xact_lock(hashtext('sanctions_list:' || $1))`, [list]);
      await em.query(`DELETE FROM sanctions_entries WHERE list = $1`, [list]);
      for (let start = 0; start < parsed.entries.length; start += INSERT_BATCH) {
        const batch = parsed.entries.slice(start, start + INSERT_BATCH);
        await em
          .createQueryBuilder()
          .insert()
          .into(SanctionsEntryRow)
          .values(
            batch.map((entry) => ({
              list,
              entryId: entry.entryId,
              type: entry.type,
              primaryName: entry.primaryName,
              aliases: entry.aliases,
              weakAliases: entry.weakAliases,
              normalizedNames: [entry.primaryName, ...entry.aliases].map(normalizeName),
            })),
          )
          .execute();
      }
      await em.getRepository(SanctionsListRow).upsert(row, ['list']);
    });
    return row;
  }

  /** Every loaded list (ofac, un, eu order). */
  async status(): Promise<LoadedList[]> {
    const rows = await this.dataSource.getRepository(SanctionsListRow).find();
    return SANCTIONS_LISTS.flatMap((list) => rows.filter((row) => row.list === list));
  }

  /** The most recent matches, newest first. */
  async matches(limit: number): Promise<SanctionsMatchRow[]> {
    return this.dataSource.getRepository(SanctionsMatchRow).find({ order: { createdAt: 'DESC' }, take: limit });
  }

  async record(matches: RecordedMatch[]): Promise<void> {
    if (matches.length === 0) return;
    await this.dataSource.getRepository(SanctionsMatchRow).insert(
      matches.map((match) => ({
        list: match.list,
        entryId: match.entryId,
        entryName: match.primaryName,
        matchedName: match.matchedName,
        screenedName: match.screenedName,
        score: match.score,
        businessId: match.businessId,
        livemode: match.livemode,
        request: match.request,
      })),
    );
  }

  /** What identifies the loaded lists' content: the lists and their files' hashes ('' when none is loaded). */
  async version(): Promise<string> {
    return versionOf(await this.dataSource.query(VERSION_SQL));
  }

  /** The index of every loaded entry's matched names, and the version it was read at (in one snapshot). */
  async index(): Promise<{ version: string; index: SanctionsIndex }> {
    return this.dataSource.transaction('REPEATABLE READ', async (em) => {
      const version = versionOf(await em.query(VERSION_SQL));
      const entries: Array<{ list: string; entry_id: string; primary_name: string; aliases: string[] }> =
        await em.query(`SELECT list, entry_id, primary_name, aliases FROM sanctions_entries`);
      const names: IndexedName[] = entries.flatMap((entry) =>
        [entry.primary_name, ...entry.aliases].map((name) => ({
          list: entry.list,
          entryId: entry.entry_id,
          primaryName: entry.primary_name,
          name,
          tokens: nameTokens(name),
        })),
      );
      return { version, index: new SanctionsIndex(names) };
    });
  }
}

const VERSION_SQL = `SELECT list, sha256, loaded_at FROM sanctions_lists ORDER BY list`;
const versionOf = (rows: Array<{ list: string; sha256: string; loaded_at: Date }>) =>
  rows.map((row) => `${row.list}:${row.sha256}:${new Date(row.loaded_at).getTime()}`).join(',');
