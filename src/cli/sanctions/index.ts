import fs from 'node:fs';
import type { Command } from 'commander';
import { OFFICIAL_URLS, SANCTIONS_LISTS, SanctionsListName } from '../../providers/screening/lists/names';
import { print, withDatabase } from '../shared/run';

/** The most matches `sanctions matches` prints at once. */
const MATCHES_LIMIT = 500;
/** How long `sanctions load --url` waits for the list's publisher. */
const DOWNLOAD_TIMEOUT_MS = 120_000;

/**
 * The sanctions lists' operator commands (docs/live.md, Sanctions screening): `sanctions load`
 * (from the official file, or its URL), `sanctions status` and `sanctions matches`. Bad input (an
 * unknown list, a missing or garbled file) is one line and exit 1, and changes nothing.
 */
export function commands(program: Command) {
  const sanctions = program
    .command('sanctions')
    .description('The sanctions lists live recipients are screened against (OFAC SDN, UN, EU): load, status, matches');

  sanctions
    .command('load')
    .requiredOption('--list <list>', `the list: ${SANCTIONS_LISTS.join(', ')}`)
    .option('--file <path>', "the list's official XML file")
    .option('--url <url>', "where to download the official file (the list's official address by default)")
    .description(
      "Load a list from its official published file, replacing that list's entries in one transaction (a file that does not parse changes nothing)",
    )
    .action(async (options: { list: string; file?: string; url?: string }) => {
      const list = listNamed(options.list);
      if (options.file && options.url) throw new Error('give --file or --url, not both');
      const { content, source } = options.file
        ? readFile(options.file)
        : await download(options.url ?? OFFICIAL_URLS[list]);
      const { SanctionsLists } =
        require('../../providers/screening/lists/store') as typeof import('../../providers/screening/lists/store');
      const { SanctionsFileError } =
        require('../../providers/screening/lists/formats') as typeof import('../../providers/screening/lists/formats');
      await withDatabase(async ({ dataSource }) => {
        try {
          print(listView(await new SanctionsLists(dataSource).load(list, content, source)));
        } catch (error) {
          if (error instanceof SanctionsFileError)
            throw new Error(`${source} is not the ${list} list's official XML: ${error.message}; nothing was loaded`);
          throw error;
        }
      });
    });

  sanctions
    .command('status')
    .description('Each list: its file’s date, when it was loaded, how many entries (loaded: false when never loaded)')
    .action(async () => {
      const { SanctionsLists } =
        require('../../providers/screening/lists/store') as typeof import('../../providers/screening/lists/store');
      await withDatabase(async ({ dataSource }) => {
        const loaded = await new SanctionsLists(dataSource).status();
        print(
          SANCTIONS_LISTS.map((list) => {
            const row = loaded.find((candidate) => candidate.list === list);
            return row ? { loaded: true, ...listView(row) } : { list, loaded: false };
          }),
        );
      });
    });

  sanctions
    .command('matches')
    .option('--limit <n>', `how many, 1 to ${MATCHES_LIMIT}`, limitOf, 50)
    .description('The most recent live screenings that matched a listed entry, newest first (never shown to merchants)')
    .action(async (options: { limit: number }) => {
      const { SanctionsLists } =
        require('../../providers/screening/lists/store') as typeof import('../../providers/screening/lists/store');
      await withDatabase(async ({ dataSource }) => {
        const matches = await new SanctionsLists(dataSource).matches(options.limit);
        print(
          matches.map((match) => ({
            at: match.createdAt.toISOString(),
            businessId: match.businessId,
            livemode: match.livemode,
            screenedName: match.screenedName,
            list: match.list,
            entryId: match.entryId,
            entryName: match.entryName,
            matchedName: match.matchedName,
            score: Math.round(match.score * 1000) / 1000,
            // What the match refused: a recipient create or a payout schedule (null: recorded before Tessera kept it).
            refused: match.request,
          })),
        );
      });
    });
}

function listNamed(value: string): SanctionsListName {
  if (!(SANCTIONS_LISTS as readonly string[]).includes(value))
    throw new Error(`--list must be one of ${SANCTIONS_LISTS.join(', ')}, got '${value}'`);
  return value as SanctionsListName;
}

function limitOf(value: string): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MATCHES_LIMIT)
    throw new Error(`--limit must be a whole number from 1 to ${MATCHES_LIMIT}, got '${value}'`);
  return Number(value);
}

function readFile(path: string): { content: Buffer; source: string } {
  try {
    return { content: fs.readFileSync(path), source: path };
  } catch (error) {
    throw new Error(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}; nothing was loaded`,
    );
  }
}

async function download(url: string): Promise<{ content: Buffer; source: string }> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch (error) {
    throw new Error(`cannot download ${url}: ${(error as Error).message}; nothing was loaded`);
  }
  if (!response.ok) throw new Error(`cannot download ${url}: HTTP ${response.status}; nothing was loaded`);
  return { content: Buffer.from(await response.arrayBuffer()), source: url };
}

function listView(row: {
  list: string;
  publishedAt: Date | null;
  loadedAt: Date;
  entries: number;
  sha256: string;
  source: string;
}) {
  return {
    list: row.list,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    loadedAt: row.loadedAt.toISOString(),
    entries: row.entries,
    sha256: row.sha256,
    source: row.source,
  };
}
