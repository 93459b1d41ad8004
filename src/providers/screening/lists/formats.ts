import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { SanctionsListName } from './names';

/**
 * The official published files of the sanctions lists Tessera screens live recipients against
 * (docs/live.md, Sanctions screening), read into one shape. One format per list, each the list's
 * own XML publication:
 *
 * - `ofac`: the U.S. Treasury OFAC SDN list as `SDN.XML` (root `sdnList`, its date in
 *   `publshInformation/Publish_Date` as MM/DD/YYYY — OFAC's own spelling; each `sdnEntry` with its
 *   `uid`, `sdnType`, `firstName`/`lastName` and the aliases in `akaList/aka`, each with a
 *   `category` of `strong` or `weak`). The XML carries the aliases in the same file, where the CSV
 *   publication needs sdn.csv and alt.csv joined by `ent_num`: one file, one hash, one date.
 * - `un`: the UN Security Council consolidated list (root `CONSOLIDATED_LIST` with its
 *   `dateGenerated` attribute; `INDIVIDUALS/INDIVIDUAL` with FIRST_NAME … FOURTH_NAME and
 *   `INDIVIDUAL_ALIAS` (QUALITY, ALIAS_NAME); `ENTITIES/ENTITY` with FIRST_NAME and `ENTITY_ALIAS`).
 * - `eu`: the EU consolidated financial sanctions list, the full XML export (root `export` with
 *   `generationDate`; each `sanctionEntity` with its `logicalId`, `subjectType` code `person` or
 *   `enterprise`, and its names in `nameAlias` (`wholeName`, or `firstName`/`middleName`/`lastName`)).
 *
 * Parsing is all or nothing: a file that is not well-formed XML, or not the list's format, or has
 * no entry, or an entry without an id or a name, is refused whole (`SanctionsFileError`), so a
 * failed load changes nothing.
 */

export { OFFICIAL_URLS, SANCTIONS_LISTS } from './names';
export type { SanctionsListName } from './names';

export type SanctionsEntryType = 'individual' | 'entity';

export interface ParsedEntry {
  /** The list's own id of the entry (OFAC uid, UN reference number, EU logicalId). */
  entryId: string;
  type: SanctionsEntryType;
  primaryName: string;
  /** The other names the list gives, strong ones (matched) first. */
  aliases: string[];
  /** Aliases the list itself calls weak or low quality: kept for the operator, not matched (docs/live.md). */
  weakAliases: string[];
}

export interface ParsedList {
  list: SanctionsListName;
  /** The file's own publication or generation date; null when it gives none that reads. */
  publishedAt: Date | null;
  entries: ParsedEntry[];
}

/** A file that is not the list's published format: nothing is loaded from it. */
export class SanctionsFileError extends Error {}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // XML's own entities (&amp; …) are decoded; the published files declare none of their own.
  processEntities: true,
  isArray: (name) =>
    [
      'sdnEntry',
      'aka',
      'INDIVIDUAL',
      'ENTITY',
      'INDIVIDUAL_ALIAS',
      'ENTITY_ALIAS',
      'sanctionEntity',
      'nameAlias',
    ].includes(name),
});

type Node = Record<string, unknown>;

const text = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string' || typeof value === 'number') return String(value).replace(/\s+/g, ' ').trim();
  if (typeof value === 'object' && '#text' in (value as Node)) return text((value as Node)['#text']);
  return '';
};
const nodes = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : []);
const joined = (...parts: unknown[]) =>
  parts
    .map(text)
    .filter((part) => part.length > 0)
    .join(' ');
const unique = (names: string[], except: string[] = []) => {
  const seen = new Set(except.map((name) => name.toLowerCase()));
  return names.filter((name) => {
    const key = name.toLowerCase();
    if (name.length === 0 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

/** Parses `xml` as the official file of `list`; throws SanctionsFileError, naming what is wrong, when it is not one. */
export function parseSanctionsFile(list: SanctionsListName, xml: string): ParsedList {
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new SanctionsFileError(`not well-formed XML (line ${valid.err.line}: ${valid.err.msg.replace(/\s+/g, ' ')})`);
  const document = parser.parse(xml) as Node;
  const parsed = PARSERS[list](document);
  if (parsed.entries.length === 0) throw new SanctionsFileError(`no entry found in the ${list} list's format`);
  const ids = new Set<string>();
  for (const entry of parsed.entries) {
    if (!entry.entryId) throw new SanctionsFileError(`an entry has no id (${entry.primaryName || 'no name either'})`);
    if (!entry.primaryName) throw new SanctionsFileError(`entry ${entry.entryId} has no name`);
    if (ids.has(entry.entryId)) throw new SanctionsFileError(`entry ${entry.entryId} appears twice`);
    ids.add(entry.entryId);
  }
  return parsed;
}

const PARSERS: Record<SanctionsListName, (document: Node) => ParsedList> = {
  ofac(document) {
    const root = document.sdnList as Node | undefined;
    if (!root || typeof root !== 'object') throw new SanctionsFileError('not an OFAC SDN.XML file (no sdnList)');
    const info = (root.publshInformation ?? {}) as Node;
    const entries = nodes(root.sdnEntry).map((entry): ParsedEntry => {
      const primaryName = joined(entry.firstName, entry.lastName);
      const akas = nodes((entry.akaList as Node | undefined)?.aka);
      const names = (weak: boolean) =>
        akas
          .filter((aka) => (text(aka.category).toLowerCase() === 'weak') === weak)
          .map((aka) => joined(aka.firstName, aka.lastName));
      const aliases = unique(names(false), [primaryName]);
      return {
        entryId: text(entry.uid),
        type: text(entry.sdnType).toLowerCase() === 'individual' ? 'individual' : 'entity',
        primaryName,
        aliases,
        weakAliases: unique(names(true), [primaryName, ...aliases]),
      };
    });
    return { list: 'ofac', publishedAt: usDate(text(info.Publish_Date)), entries };
  },

  un(document) {
    const root = document.CONSOLIDATED_LIST as Node | undefined;
    if (!root || typeof root !== 'object')
      throw new SanctionsFileError('not a UN consolidated list file (no CONSOLIDATED_LIST)');
    const aliasesOf = (aliases: Node[], weak: boolean) =>
      aliases
        .filter((alias) => (text(alias.QUALITY).toLowerCase() === 'low') === weak)
        .map((alias) => text(alias.ALIAS_NAME));
    const entryOf = (node: Node, type: SanctionsEntryType, aliases: Node[]): ParsedEntry => {
      const primaryName = joined(node.FIRST_NAME, node.SECOND_NAME, node.THIRD_NAME, node.FOURTH_NAME);
      const strong = unique(aliasesOf(aliases, false), [primaryName]);
      return {
        entryId: text(node.REFERENCE_NUMBER) || text(node.DATAID),
        type,
        primaryName,
        aliases: strong,
        weakAliases: unique(aliasesOf(aliases, true), [primaryName, ...strong]),
      };
    };
    const individuals = nodes((root.INDIVIDUALS as Node | undefined)?.INDIVIDUAL).map((node) =>
      entryOf(node, 'individual', nodes(node.INDIVIDUAL_ALIAS)),
    );
    const entities = nodes((root.ENTITIES as Node | undefined)?.ENTITY).map((node) =>
      entryOf(node, 'entity', nodes(node.ENTITY_ALIAS)),
    );
    const generated = text(root['@dateGenerated']) || text(root.DATE_GENERATED);
    return { list: 'un', publishedAt: isoDate(generated), entries: [...individuals, ...entities] };
  },

  eu(document) {
    const root = document.export as Node | undefined;
    if (!root || typeof root !== 'object')
      throw new SanctionsFileError('not an EU consolidated list export (no export)');
    const entries = nodes(root.sanctionEntity).map((entity): ParsedEntry => {
      const aliases = nodes(entity.nameAlias);
      const nameOf = (alias: Node) =>
        text(alias['@wholeName']) || joined(alias['@firstName'], alias['@middleName'], alias['@lastName']);
      // `strong="false"`: the EU's own mark of a weak alias.
      const names = (weak: boolean) =>
        aliases.filter((alias) => (text(alias['@strong']).toLowerCase() === 'false') === weak).map(nameOf);
      const strong = unique(names(false));
      const code = text((entity.subjectType as Node | undefined)?.['@code']).toLowerCase();
      return {
        entryId: text(entity['@logicalId']),
        type: code === 'person' ? 'individual' : 'entity',
        primaryName: strong[0] ?? '',
        aliases: strong.slice(1),
        weakAliases: unique(names(true), strong),
      };
    });
    return { list: 'eu', publishedAt: isoDate(text(root['@generationDate'])), entries };
  },
};

/** OFAC's MM/DD/YYYY, as midnight UTC. */
function usDate(value: string): Date | null {
  const parts = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!parts) return null;
  const date = new Date(Date.UTC(Number(parts[3]), Number(parts[1]) - 1, Number(parts[2])));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An ISO 8601 date or date-time (the UN's and the EU's). */
function isoDate(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
