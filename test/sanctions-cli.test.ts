import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, dropTestDatabase } from './support/harness';
import { CLI, exitsZero, lastJsonLine, migrateWithCli } from './support/cli';
import { spawnTs } from './support/process';

const FIXTURES = path.join(__dirname, 'fixtures', 'sanctions');

// Each spawn goes through ts-node (seconds of CPU on a shared machine): deadlines, not timings.
describe('operator CLI: sanctions load, status, matches', () => {
  let databaseUrl: string;
  let dataDir: string;
  const env = () => ({
    DATABASE_URL: databaseUrl,
    TESSERA_DATA_DIR: dataDir,
    TESSERA_MASTER_KEY: 'cli-key',
    JWT_SECRET: 'cli-jwt',
  });
  const run = async (args: string[]) => {
    const spawned = spawnTs(CLI, ['sanctions', ...args], env());
    await exitsZero(spawned);
    return JSON.parse(spawned.output());
  };
  /** A command that must fail: exit 1, one line naming the problem. */
  const refused = async (args: string[]) => {
    const spawned = spawnTs(CLI, ['sanctions', ...args], env());
    expect(await spawned.exited).toBe(1);
    expect(spawned.output().trim().split('\n')).toHaveLength(1);
    return lastJsonLine(spawned).error as string;
  };
  const entries = async () => {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT list, entry_id, primary_name, aliases, normalized_names FROM sanctions_entries ORDER BY list, entry_id`,
      );
      return rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-sanctions-cli-'));
    await migrateWithCli(env());
  }, 180_000);
  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await dropTestDatabase(databaseUrl);
  });

  test('status before any load: every list, none loaded', async () => {
    expect(await run(['status'])).toEqual([
      { list: 'ofac', loaded: false },
      { list: 'un', loaded: false },
      { list: 'eu', loaded: false },
    ]);
  }, 120_000);

  test('load --file reads each official file: its date, its entries with their normalised names, the file’s hash', async () => {
    const ofac = await run(['load', '--list', 'ofac', '--file', path.join(FIXTURES, 'sdn.xml')]);
    expect(ofac).toMatchObject({
      list: 'ofac',
      publishedAt: '2026-11-20T00:00:00.000Z',
      entries: 5,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      source: path.join(FIXTURES, 'sdn.xml'),
    });
    await run(['load', '--list', 'un', '--file', path.join(FIXTURES, 'un-consolidated.xml')]);
    await run(['load', '--list', 'eu', '--file', path.join(FIXTURES, 'eu-consolidated.xml')]);

    const status = await run(['status']);
    expect(
      status.map((row: { list: string; entries: number; loaded: boolean }) => [row.list, row.loaded, row.entries]),
    ).toEqual([
      ['ofac', true, 5],
      ['un', true, 4],
      ['eu', true, 3],
    ]);
    expect(status[2]).toMatchObject({ publishedAt: '2026-11-22T16:49:55.917Z', loadedAt: expect.any(String) });

    const rows = await entries();
    expect(rows).toHaveLength(12);
    expect(rows.find((row) => row.entry_id === '9120')).toMatchObject({
      primary_name: 'José Ramón NÚÑEZ CASTAÑEDA',
      aliases: ['Pepe CASTAÑEDA'],
      normalized_names: ['castaneda jose nunez ramon', 'castaneda pepe'],
    });
  }, 240_000);

  test('bad input is one line and exit 1, and changes nothing: an unknown list, a missing file, a garbled file, another list’s file', async () => {
    const before = await entries();
    const statusBefore = await run(['status']);
    expect(await refused(['load', '--list', 'ofsi', '--file', path.join(FIXTURES, 'sdn.xml')])).toMatch(
      /--list must be one of ofac, un, eu/,
    );
    expect(await refused(['load', '--list', 'ofac', '--file', path.join(dataDir, 'missing.xml')])).toMatch(
      /cannot read .*missing\.xml: ENOENT; nothing was loaded/,
    );
    const garbled = path.join(dataDir, 'garbled.xml');
    const sdn = fs.readFileSync(path.join(FIXTURES, 'sdn.xml'), 'utf8');
    fs.writeFileSync(garbled, sdn.slice(0, Math.floor(sdn.length * 0.6)));
    expect(await refused(['load', '--list', 'ofac', '--file', garbled])).toMatch(
      /is not the ofac list's official XML: not well-formed XML .*; nothing was loaded/,
    );
    expect(await refused(['load', '--list', 'un', '--file', path.join(FIXTURES, 'eu-consolidated.xml')])).toMatch(
      /not a UN consolidated list file/,
    );
    expect(await refused(['matches', '--limit', '0'])).toMatch(/--limit must be a whole number/);
    expect(await entries()).toEqual(before);
    expect(await run(['status'])).toEqual(statusBefore);
  }, 300_000);

  test('loading a list again replaces that list’s entries whole and leaves the others', async () => {
    const smaller = path.join(dataDir, 'sdn-smaller.xml');
    const sdn = fs.readFileSync(path.join(FIXTURES, 'sdn.xml'), 'utf8');
    // The last entry dropped, as a later publication that delisted it.
    fs.writeFileSync(smaller, sdn.replace(/<sdnEntry>\s*<uid>22801<\/uid>[\s\S]*?<\/sdnEntry>/, ''));
    expect(await run(['load', '--list', 'ofac', '--file', smaller])).toMatchObject({ list: 'ofac', entries: 4 });
    const rows = await entries();
    expect(rows.filter((row) => row.list === 'ofac').map((row) => row.entry_id)).toEqual([
      '15037',
      '36',
      '7001',
      '9120',
    ]);
    expect(rows.filter((row) => row.list !== 'ofac')).toHaveLength(7);
  }, 120_000);

  test('matches lists the recorded matches, newest first, for the operator', async () => {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO sanctions_matches (list, entry_id, entry_name, matched_name, screened_name, score, business_id, livemode, created_at)
         VALUES ('un', 'KPi.033', 'RI WON HO', 'RI WON HO', 'Ri Won Ho', 1, NULL, true, now() - interval '1 minute'),
                ('ofac', '7001', 'Viktor Anatolyevich BOUTSKY', 'Viktor BOUTSKI', 'Victor Boutski', 0.95555, gen_random_uuid(), true, now())`,
      );
    } finally {
      await client.end();
    }
    const matches = await run(['matches', '--limit', '5']);
    expect(matches).toEqual([
      expect.objectContaining({ list: 'ofac', entryId: '7001', screenedName: 'Victor Boutski', score: 0.956 }),
      // Recorded without what it refused (as before Tessera kept it): `refused` is null.
      expect.objectContaining({ list: 'un', entryId: 'KPi.033', businessId: null, score: 1, refused: null }),
    ]);
  }, 120_000);
});
