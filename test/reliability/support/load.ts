/** A small seeded random source (mulberry32), so a failing run can be replayed with RELIABILITY_SEED. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const seedOf = (env: NodeJS.ProcessEnv = process.env) =>
  env.RELIABILITY_SEED ? Number(env.RELIABILITY_SEED) : Math.floor(Math.random() * 2 ** 31);

/** Runs `count` tasks with at most `concurrency` at once, calling `between(done)` after each (snapshots hook in there). */
export async function runPool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
  between: (done: number) => Promise<void> = async () => undefined,
): Promise<void> {
  let next = 0;
  let done = 0;
  const lanes = Array.from({ length: Math.min(concurrency, count) }, async () => {
    while (next < count) {
      const index = next;
      next += 1;
      await task(index);
      done += 1;
      await between(done);
    }
  });
  await Promise.all(lanes);
}

/** Counts by label (answers by operation and status). */
export class Tally {
  readonly counts: Record<string, number> = {};
  add(label: string, by = 1): void {
    this.counts[label] = (this.counts[label] ?? 0) + by;
  }
}

/** Minor units as the decimal string REST takes (2-decimal currencies). */
export const major = (minor: number | bigint) => {
  const value = BigInt(minor);
  return `${value / 100n}.${(value % 100n).toString().padStart(2, '0')}`;
};
