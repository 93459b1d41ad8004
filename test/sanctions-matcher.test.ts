import fs from 'node:fs';
import path from 'node:path';
import { generatedNames } from '../bench/sanctions';
import { SanctionsFileError, parseSanctionsFile } from '../src/providers/screening/lists/formats';
import {
  MATCH_THRESHOLD,
  SanctionsIndex,
  nameTokens,
  normalizeName,
  scoreNames,
} from '../src/providers/screening/lists/matcher';

const FIXTURES = path.join(__dirname, 'fixtures', 'sanctions');
const fixture = (file: string) => fs.readFileSync(path.join(FIXTURES, file), 'utf8');

/** Every fixture list's matched names, indexed as live screening indexes them. */
function fixtureIndex(): SanctionsIndex {
  const lists = [
    parseSanctionsFile('ofac', fixture('sdn.xml')),
    parseSanctionsFile('un', fixture('un-consolidated.xml')),
    parseSanctionsFile('eu', fixture('eu-consolidated.xml')),
  ];
  return new SanctionsIndex(
    lists.flatMap(({ list, entries }) =>
      entries.flatMap((entry) =>
        [entry.primaryName, ...entry.aliases].map((name) => ({
          list,
          entryId: entry.entryId,
          primaryName: entry.primaryName,
          name,
          tokens: nameTokens(name),
        })),
      ),
    ),
  );
}

describe('sanctions lists: the official files', () => {
  test('OFAC SDN.XML: its publication date, individuals and entities, strong aliases matched and weak ones kept apart', () => {
    const parsed = parseSanctionsFile('ofac', fixture('sdn.xml'));
    expect(parsed.publishedAt?.toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(parsed.entries).toHaveLength(5);
    expect(parsed.entries.find((entry) => entry.entryId === '7001')).toEqual({
      entryId: '7001',
      type: 'individual',
      primaryName: 'Viktor Anatolyevich BOUTSKY',
      aliases: ['Viktor BOUTSKI', 'Vadim MARKOVSKY'],
      weakAliases: ['VIKTOR B'],
    });
    expect(parsed.entries.find((entry) => entry.entryId === '15037')).toMatchObject({
      type: 'entity',
      primaryName: 'GOLDEN CRESCENT TRADING & SHIPPING CO. LTD.',
      aliases: ['HILAL AL-DHAHABI SHIPPING'],
    });
    expect(parsed.entries.find((entry) => entry.entryId === '9120')?.primaryName).toBe('José Ramón NÚÑEZ CASTAÑEDA');
  });

  test('UN consolidated list: dateGenerated, names from FIRST_NAME to FOURTH_NAME, aliases by quality, entities', () => {
    const parsed = parseSanctionsFile('un', fixture('un-consolidated.xml'));
    expect(parsed.publishedAt?.toISOString()).toBe('2026-11-21T10:00:04.315Z');
    expect(parsed.entries.map((entry) => [entry.entryId, entry.type, entry.primaryName])).toEqual([
      ['KPi.033', 'individual', 'RI WON HO'],
      ['QDi.044', 'individual', 'ABDUL RAHMAN YASIN'],
      ['LYi.029', 'individual', 'Ñusta Ðorđević Ålesund'],
      ['KPe.025', 'entity', 'KOREA KWANGSON BANKING CORP.'],
    ]);
    const yasin = parsed.entries[1];
    expect(yasin.aliases).toEqual(['Abdul Rahman Said Yasin', 'Aboud Yasin']);
    expect(yasin.weakAliases).toEqual(['Abboud']);
    // An empty INDIVIDUAL_ALIAS (as the UN publishes for entries without one) is no alias.
    expect(parsed.entries[0].aliases).toEqual([]);
    expect(parsed.entries[3].aliases).toEqual(['KKBC', 'Kwangson Bank']);
  });

  test('EU consolidated export: generationDate, persons and enterprises, every nameAlias (strong="false" kept apart)', () => {
    const parsed = parseSanctionsFile('eu', fixture('eu-consolidated.xml'));
    expect(parsed.publishedAt?.toISOString()).toBe('2026-11-22T16:49:55.917Z');
    expect(parsed.entries).toEqual([
      {
        entryId: '13',
        type: 'individual',
        primaryName: 'Saddam Hussein Al-Tikriti',
        aliases: [],
        weakAliases: ['Abu Ali'],
      },
      {
        entryId: '128430',
        type: 'individual',
        primaryName: 'Tatiana Sergeyevna Kozlovskaïa',
        aliases: ['Татьяна Сергеевна Козловская'],
        weakAliases: [],
      },
      {
        entryId: '157212',
        type: 'entity',
        primaryName: 'Übersee Maschinenbau GmbH',
        aliases: ['Uebersee Maschinenbau'],
        weakAliases: [],
      },
    ]);
  });

  test.each([
    ['ofac', 'un-consolidated.xml', /not an OFAC SDN.XML file/],
    ['un', 'eu-consolidated.xml', /not a UN consolidated list file/],
    ['eu', 'sdn.xml', /not an EU consolidated list export/],
  ] as const)('the %s list refuses another list’s file (%s)', (list, file, message) => {
    expect(() => parseSanctionsFile(list, fixture(file))).toThrow(message);
  });

  test('a truncated file, an empty list, an entry without id or name, or one id twice is refused whole', () => {
    const sdn = fixture('sdn.xml');
    expect(() => parseSanctionsFile('ofac', sdn.slice(0, sdn.length / 2))).toThrow(/not well-formed XML/);
    expect(() => parseSanctionsFile('ofac', '<sdnList><publshInformation/></sdnList>')).toThrow(/no entry found/);
    expect(() => parseSanctionsFile('ofac', sdn.replace('<uid>36</uid>', ''))).toThrow(/has no id/);
    expect(() => parseSanctionsFile('ofac', sdn.replace('<lastName>AEROCARIBBEAN AIRLINES</lastName>', ''))).toThrow(
      /entry 36 has no name/,
    );
    expect(() => parseSanctionsFile('ofac', sdn.replace('<uid>7001</uid>', '<uid>36</uid>'))).toThrow(/appears twice/);
    expect(() => parseSanctionsFile('ofac', 'not xml at all')).toThrow(SanctionsFileError);
  });
});

describe('sanctions lists: normalisation and matching', () => {
  test('normalisation: case, diacritics (NFKD and the letters it keeps whole), punctuation, particles, legal forms, order', () => {
    expect(normalizeName('José Ramón NÚÑEZ CASTAÑEDA')).toBe('castaneda jose nunez ramon');
    expect(normalizeName('Ñusta Ðorđević Ålesund')).toBe('alesund dordevic nusta');
    expect(normalizeName('Straße Øresund Łódź')).toBe('lodz oresund strasse');
    expect(normalizeName('GOLDEN CRESCENT TRADING & SHIPPING CO. LTD.')).toBe('crescent golden shipping trading');
    expect(nameTokens('Saddam Hussein Al-Tikriti')).toEqual(['saddam', 'hussein', 'altikriti']);
    expect(nameTokens('Al Qaida')).toEqual(nameTokens('AL-QAIDA'));
    expect(nameTokens('  ...  ')).toEqual([]);
  });

  const index = fixtureIndex();
  const matched = (name: string) => index.match([name]).map((match) => `${match.list}:${match.entryId}`);

  test.each([
    ['exact', 'Viktor Anatolyevich Boutsky', 'ofac:7001'],
    ['reordered', 'BOUTSKY, Viktor Anatolyevich', 'ofac:7001'],
    ['a middle name left out', 'Viktor Boutsky', 'ofac:7001'],
    ['an alias', 'Vadim Markovsky', 'ofac:7001'],
    ['an alias, transliterated', 'Victor Boutski', 'ofac:7001'],
    ['without diacritics', 'Jose Ramon Nunez Castaneda', 'ofac:9120'],
    ['in another case and order', 'castañeda núñez josé ramón', 'ofac:9120'],
    ['an entity without its legal form', 'Golden Crescent Trading & Shipping', 'ofac:15037'],
    ['an entity by its alias', 'Hilal Al Dhahabi Shipping', 'ofac:15037'],
    ['a UN alias', 'Abdul Rahman Said Yasin', 'un:QDi.044'],
    ['short names, exactly', 'Ri Won Ho', 'un:KPi.033'],
    ['a UN name without its letters', 'Nusta Dordevic Alesund', 'un:LYi.029'],
    ['a UN alias of one word', 'KKBC', 'un:KPe.025'],
    ['an EU name, one letter off in a long token', 'Saddam Husein Al Tikriti', 'eu:13'],
    ['an EU name, transliterated', 'Tatiana Kozlovskaya', 'eu:128430'],
    ['an EU name in its original script', 'Козловская Татьяна Сергеевна', 'eu:128430'],
    ['an EU enterprise, umlaut folded', 'Ubersee Maschinenbau', 'eu:157212'],
  ])('matches: %s (%s)', (_case, name, entry) => {
    expect(matched(name)).toEqual([entry]);
    expect(index.match([name])[0].score).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
  });

  test.each([
    ['a common first name alone', 'Mohammed'],
    ['a listed first name alone', 'Viktor'],
    ['two of four tokens (more than one missing)', 'Mohammed Ali'],
    ['a one-letter difference in a short token', 'Li Won Ho'],
    ['a one-letter difference in a short first name', 'Eli Hassan Al-Rashidi Mohammed'],
    ['the surname alone', 'Boutsky'],
    ['a weak alias (kept, never matched)', 'Abboud'],
    ['an EU weak alias', 'Abu Ali'],
    ['a different person sharing a surname', 'Maria Castaneda'],
    ['an ordinary name', 'Ada Obi'],
    ['a company sharing a word', 'Golden Harvest Foods Ltd'],
  ])('does not match: %s (%s)', (_case, name) => {
    expect(matched(name)).toEqual([]);
  });

  test('scoring rules: one extra token at most, short tokens equal, single tokens only against single tokens', () => {
    expect(scoreNames(['ada', 'obi', 'chioma'], ['ada', 'obi'])).toBe(1);
    expect(scoreNames(['ada', 'obi', 'chioma', 'eze'], ['ada', 'obi'])).toBeNull();
    expect(scoreNames(['maria', 'gonzalez'], ['mario', 'gonzales'])).toBeNull();
    expect(scoreNames(['mohammed'], ['mohammed', 'ali'])).toBeNull();
    expect(scoreNames(['hamas'], ['hamas'])).toBe(1);
    expect(scoreNames([], ['hamas'])).toBeNull();
  });

  test('the token index finds exactly what a scan of every name finds (2,000 generated entries; npm run bench: 20,000)', () => {
    const big = generatedNames(2_000);
    const generated = new SanctionsIndex(big);
    const probes = [
      ...big.filter((_, i) => i % 211 === 0).map((name) => name.name),
      ...big.filter((_, i) => i % 307 === 0).map((name) => name.name.replace(/a/g, 'e')),
      ...big.filter((_, i) => i % 401 === 0).map((name) => name.name.split(' ').reverse().join(' ')),
      'Mohammed',
      'Ada Obi',
    ];
    let found = 0;
    for (const probe of probes) {
      const indexed = generated.match([probe]);
      expect(indexed).toEqual(generated.scan([probe]));
      found += indexed.length;
    }
    expect(found).toBeGreaterThan(10);
  });
});
