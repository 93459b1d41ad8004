import { jaroWinkler } from '@skyra/jaro-winkler';

/**
 * Name matching against the loaded sanctions lists (docs/live.md, Sanctions screening, has these
 * rules in words; test/sanctions-matcher.test.ts has a case for each).
 *
 * Normalisation (`normalizeName`): Unicode NFKD with the combining marks dropped (José → jose,
 * Kozlovskaïa → kozlovskaia), the letters NFKD does not take apart spelt out (ß → ss, Æ → ae,
 * Ø → o, Đ/Ð → d, Ł → l, Œ → oe, Þ → th, ı → i), lower case, every run of anything but letters and
 * digits a single space (punctuation, hyphens, `&`), the particles `al`/`el` joined to the next
 * word (Al-Qaida, Al Qaida and AlQaida agree), and the legal forms of companies dropped (ltd, llc,
 * inc, co, corp, gmbh, …). Word order does not count: names are compared token by token.
 *
 * Scoring (`scoreNames`): each token of the name with fewer tokens is paired with its most similar
 * unpaired token of the other (Jaro–Winkler). A pair agrees when the tokens are equal, or, both of
 * 6 characters or more and beginning with the same letter, their Jaro–Winkler similarity is at
 * least TOKEN_AGREEMENT (0.90). The
 * score is the mean similarity of the pairs; the names match when
 *   1. every token of the shorter name agrees with one of the other,
 *   2. the longer name has at most one token more (a middle name given or left out),
 *   3. at least two tokens agree, unless both names are a single token (HAMAS, KKBC): a first name
 *      alone never matches a listed person, and a listed one-word name only the same one word,
 *   4. and the score is at least MATCH_THRESHOLD (0.92).
 * Tokens with different first letters never agree (a transliteration that changes the first
 * letter, Yusuf/Jusuf, is caught only when the list gives it as an alias, as the lists usually do);
 * this keeps a screening to the listed tokens of its letters. So tokens of 5 characters or fewer must be equal (Ali is not Eli, Ri is not Li, Maria is not
 * Mario); longer ones may differ by a letter or a transliteration (Boutsky/Boutski, Hussein/Husein,
 * Kozlovskaya/Kozlovskaia).
 *
 * Every name of an entry is compared: its primary name and its strong aliases (the lists' weak or
 * low-quality aliases are kept for the operator but never matched: they are short and common by
 * the lists' own account). Jaro–Winkler over tokens, rather than one edit distance over the
 * whole string, keeps a long shared surname from carrying a different given name, and favours
 * agreement at the start of a word, where transliterations of the same name agree most.
 */

/** A pair of tokens of 6 characters or more agrees at this Jaro–Winkler similarity or above. */
export const TOKEN_AGREEMENT = 0.9;
/** Tokens this long or shorter agree only when equal. */
export const SHORT_TOKEN = 5;
/** Two names match at this score (the mean similarity of their paired tokens) or above, the rules above holding. */
export const MATCH_THRESHOLD = 0.92;

const SPELT_OUT: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  œ: 'oe',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
};
const PARTICLES = new Set(['al', 'el']);
const LEGAL_FORMS = new Set([
  'ltd',
  'limited',
  'llc',
  'llp',
  'inc',
  'incorporated',
  'co',
  'corp',
  'corporation',
  'company',
  'gmbh',
  'ag',
  'sa',
  'plc',
  'jsc',
  'pjsc',
  'ojsc',
  'ooo',
  'oao',
  'zao',
  'bv',
  'nv',
  'srl',
  'spa',
  'sarl',
]);

/** A name's tokens as matching compares them (rules above); empty when nothing is left. */
export function nameTokens(name: string): string[] {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæøđðłœþıħ]/g, (letter) => SPELT_OUT[letter])
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  if (folded.length === 0) return [];
  const words = folded.split(' ');
  const tokens: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (PARTICLES.has(words[i]) && i + 1 < words.length) {
      tokens.push(words[i] + words[i + 1]);
      i++;
    } else tokens.push(words[i]);
  }
  const meaningful = tokens.filter((token) => !LEGAL_FORMS.has(token));
  return meaningful.length > 0 ? meaningful : tokens;
}

/** The normalised form of a name: its tokens, sorted, one space apart (how it is stored and shown). */
export const normalizeName = (name: string): string => [...nameTokens(name)].sort().join(' ');

/** Whether two tokens agree (rules above), and how similar they are. */
export function tokenSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length <= SHORT_TOKEN || b.length <= SHORT_TOKEN || a[0] !== b[0]) return 0;
  return jaroWinkler(a, b);
}

/**
 * Whether tokens of these lengths could agree at all. Jaro is at most (2 + short/long) / 3 and
 * Winkler's prefix bonus at most 0.4 of the rest, so a similarity of 0.90 needs the shorter token
 * to be at least half the longer.
 */
export function lengthsMayAgree(a: number, b: number): boolean {
  if (a === b) return true;
  if (a <= SHORT_TOKEN || b <= SHORT_TOKEN) return false;
  return 2 * Math.min(a, b) >= Math.max(a, b);
}

/** The score of two tokenised names, or null when they do not match (rules above). */
export function scoreNames(screened: readonly string[], listed: readonly string[]): number | null {
  if (screened.length === 0 || listed.length === 0) return null;
  const [shorter, longer] = screened.length <= listed.length ? [screened, listed] : [listed, screened];
  if (longer.length - shorter.length > 1) return null;
  if (shorter.length === 1 && longer.length > 1) return null;
  // Greedy pairing, the most similar pairs first: a token pairs once.
  const pairs: Array<{ i: number; j: number; similarity: number }> = [];
  for (let i = 0; i < shorter.length; i++)
    for (let j = 0; j < longer.length; j++) {
      const similarity = tokenSimilarity(shorter[i], longer[j]);
      if (similarity >= TOKEN_AGREEMENT) pairs.push({ i, j, similarity });
    }
  pairs.sort((x, y) => y.similarity - x.similarity);
  const usedShort = new Set<number>();
  const usedLong = new Set<number>();
  let total = 0;
  for (const pair of pairs) {
    if (usedShort.has(pair.i) || usedLong.has(pair.j)) continue;
    usedShort.add(pair.i);
    usedLong.add(pair.j);
    total += pair.similarity;
  }
  if (usedShort.size < shorter.length) return null;
  const score = total / shorter.length;
  return score >= MATCH_THRESHOLD ? score : null;
}

/** One listed name of an entry, as the index keeps it. */
export interface IndexedName {
  list: string;
  entryId: string;
  primaryName: string;
  /** The listed name as the list gives it (the primary name or an alias). */
  name: string;
  tokens: string[];
}

export interface NameMatch {
  list: string;
  entryId: string;
  primaryName: string;
  /** The listed name that matched (the primary name or an alias). */
  matchedName: string;
  /** The screened name that matched it. */
  screenedName: string;
  score: number;
}

/**
 * The loaded lists' names, indexed by token for screening: a screened name is compared only with
 * the listed names sharing a token that may agree with one of its own (found over the distinct
 * tokens of the same first letter and a length that could agree, through a cheap upper bound of
 * the similarity, then the agreement rule itself). Every match needs its tokens to agree, so
 * the index finds exactly what a scan of every name finds (test/sanctions-matcher.test.ts checks
 * it; `npm run bench` compares the two).
 */
export class SanctionsIndex {
  private readonly postings = new Map<string, number[]>();
  /** The distinct listed tokens by first character, then by length. */
  private readonly byStart = new Map<string, Map<number, Array<{ token: string; letters: Uint8Array }>>>();

  constructor(readonly names: readonly IndexedName[]) {
    names.forEach((name, position) => {
      for (const token of new Set(name.tokens)) {
        let posting = this.postings.get(token);
        if (!posting) {
          posting = [];
          this.postings.set(token, posting);
          const sameStart =
            this.byStart.get(token[0]) ?? new Map<number, Array<{ token: string; letters: Uint8Array }>>();
          this.byStart.set(token[0], sameStart);
          const sameLength = sameStart.get(token.length) ?? [];
          sameLength.push({ token, letters: letterCounts(token) });
          sameStart.set(token.length, sameLength);
        }
        posting.push(position);
      }
    });
  }

  get size(): number {
    return this.names.length;
  }

  /** The best match per entry for any of `screenedNames`, best first; empty when none matches. */
  match(screenedNames: readonly string[]): NameMatch[] {
    return bestPerEntry(
      screenedNames.flatMap((screenedName) => {
        const tokens = nameTokens(screenedName);
        return [...this.candidates(tokens)].flatMap((position) => matchOf(this.names[position], screenedName, tokens));
      }),
    );
  }

  /** The same answer by comparing every listed name (for the tests and the benchmark). */
  scan(screenedNames: readonly string[]): NameMatch[] {
    return bestPerEntry(
      screenedNames.flatMap((screenedName) => {
        const tokens = nameTokens(screenedName);
        return this.names.flatMap((listed) => matchOf(listed, screenedName, tokens));
      }),
    );
  }

  private candidates(tokens: readonly string[]): Set<number> {
    const found = new Set<number>();
    for (const token of new Set(tokens)) {
      const letters = letterCounts(token);
      for (const [length, vocabulary] of this.byStart.get(token[0]) ?? []) {
        if (!lengthsMayAgree(token.length, length)) continue;
        for (const other of vocabulary)
          if (
            other.token === token ||
            (similarityBound(token, letters, other.token, other.letters) >= TOKEN_AGREEMENT &&
              tokenSimilarity(token, other.token) >= TOKEN_AGREEMENT)
          )
            for (const position of this.postings.get(other.token)!) found.add(position);
      }
    }
    return found;
  }
}

/** How many of each character a token has, by character code modulo 32 (a shared bucket only raises the bound below). */
function letterCounts(token: string): Uint8Array {
  const counts = new Uint8Array(32);
  for (let i = 0; i < token.length; i++) counts[token.charCodeAt(i) & 31]++;
  return counts;
}

/**
 * An upper bound of the Jaro–Winkler similarity of two tokens, cheap enough to run over every
 * listed token: Jaro's matching characters are at most the characters both have (counted by
 * bucket), with no transposition, and Winkler's bonus is at most 0.1 per character of the common
 * prefix (up to 4). Below TOKEN_AGREEMENT, the real similarity is too.
 */
function similarityBound(a: string, lettersA: Uint8Array, b: string, lettersB: Uint8Array): number {
  let common = 0;
  for (let i = 0; i < 32; i++) common += Math.min(lettersA[i], lettersB[i]);
  if (common === 0) return 0;
  const jaro = (common / a.length + common / b.length + 1) / 3;
  let prefix = 0;
  while (prefix < 4 && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return jaro + prefix * 0.1 * (1 - jaro);
}

function matchOf(listed: IndexedName, screenedName: string, tokens: readonly string[]): NameMatch[] {
  const score = scoreNames(tokens, listed.tokens);
  return score === null
    ? []
    : [
        {
          list: listed.list,
          entryId: listed.entryId,
          primaryName: listed.primaryName,
          matchedName: listed.name,
          screenedName,
          score,
        },
      ];
}

function bestPerEntry(matches: NameMatch[]): NameMatch[] {
  const best = new Map<string, NameMatch>();
  for (const match of matches) {
    const key = `${match.list}\u0000${match.entryId}`;
    const known = best.get(key);
    // Ties go to the first name in code-point order, so the index and a scan answer alike.
    if (!known || match.score > known.score || (match.score === known.score && match.matchedName < known.matchedName))
      best.set(key, match);
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.entryId.localeCompare(b.entryId));
}
