import { performance } from 'node:perf_hooks';
import { IndexedName, SanctionsIndex, nameTokens } from '../src/providers/screening/lists/matcher';

/** Listed entries of the benchmark (the OFAC SDN list has about 18,000, the EU's and the UN's fewer). */
const ENTRIES = 20_000;
/** How long each side is measured. */
const MEASURE_MS = 3_000;

/**
 * Deterministic made-up names, `count` entries of 2 to 4 tokens with an alias each (also
 * test/sanctions-matcher.test.ts's list for "the index finds what a scan finds").
 */
export function generatedNames(count: number): IndexedName[] {
  // Syllables of many languages' names, so the tokens vary as listed names do.
  const syllables = (
    'ka ro mi ta sel van dor li bu zen ar os el nik ha ju ab du la ra him mo ham med ser gei ko vich ' +
    'pe tr ov al ex an der yu ri fer nan dez go mez xi ang wei zhou kim park lee ngu yen tran fa ti ' +
    'ma ol u wa se gun chi bo ke qu in ta na sh ir zad eh po lo sk ya ev ic ja ne ck wo lf'
  ).split(' ');
  let seed = 42;
  // xorshift32: every bit varies (a plain LCG's low bits cycle, and the names with them).
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % 1_000_003;
  };
  const word = () =>
    Array.from({ length: 2 + (next() % 3) }, () => syllables[next() % syllables.length]).join('') +
    syllables[next() % syllables.length];
  const names: IndexedName[] = [];
  for (let i = 0; i < count; i++) {
    const primary = Array.from({ length: 2 + (next() % 3) }, word).join(' ');
    const alias = Array.from({ length: 2 + (next() % 2) }, word).join(' ');
    for (const name of [primary, alias])
      names.push({ list: 'ofac', entryId: String(i), primaryName: primary, name, tokens: nameTokens(name) });
  }
  return names;
}

/** Screenings per second over `index`, each of two names (a recipient's label and account name), for MEASURE_MS. */
function rate(screen: (names: string[]) => unknown, probes: string[][]): number {
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < MEASURE_MS) {
    screen(probes[done % probes.length]);
    done++;
  }
  return done / ((performance.now() - start) / 1000);
}

/** Live screening's matcher: the token index against a scan of every listed name, over the same 20,000 entries. */
export function benchSanctions(): void {
  const names = generatedNames(ENTRIES);
  const built = performance.now();
  const index = new SanctionsIndex(names);
  const buildMs = performance.now() - built;
  const probes = names
    .filter((_, i) => i % 401 === 0)
    .map((name, i) => [i % 2 === 0 ? name.name : 'Ada Obi', 'Supplier Ltd']);
  const indexed = rate((screened) => index.match(screened), probes);
  const scanned = rate((screened) => index.scan(screened), probes);
  console.log(
    `[bench] sanctions: ${ENTRIES} entries (${names.length} names), index built in ${buildMs.toFixed(0)} ms; ` +
      `${indexed.toFixed(0)} screenings/s indexed vs ${scanned.toFixed(1)}/s scanning every name (x${(indexed / scanned).toFixed(0)})`,
  );
}
