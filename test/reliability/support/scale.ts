/**
 * The suite's size, by count (never by time), chosen with RELIABILITY_SCALE:
 * - `ci` (the default): what `.ci/run` runs; the three files fit in about 5 minutes on a busy 2-core machine;
 * - `full`: the size of the probe of issue 26 (thousands of operations, every crash point, three restarts).
 */
export type ScaleName = 'ci' | 'full';

export interface Scale {
  name: ScaleName;
  bank: {
    merchants: number;
    treasuryPartners: number;
    /** End-user wallets per treasury partner. */
    endUsersPerPartner: number;
    operations: number;
    /** Conservation snapshots taken while the operations run (plus one at the end). */
    snapshots: number;
    /** Operations in flight at once. */
    concurrency: number;
  };
  crash: {
    /** Keyed operations sent towards each kill (the first to reach the crash point kills the process; the rest are in flight). */
    operationsPerKill: number;
    /** Every crash point (`full`) or one per path and process kind (`ci`). */
    everyPoint: boolean;
  };
  pgRestart: {
    restarts: number;
    /** Keyed operations sent across each outage (before, during and after it). */
    operationsPerRestart: number;
    concurrency: number;
  };
}

const SCALES: Record<ScaleName, Scale> = {
  ci: {
    name: 'ci',
    bank: { merchants: 4, treasuryPartners: 2, endUsersPerPartner: 2, operations: 300, snapshots: 4, concurrency: 8 },
    crash: { operationsPerKill: 3, everyPoint: false },
    pgRestart: { restarts: 1, operationsPerRestart: 150, concurrency: 8 },
  },
  full: {
    name: 'full',
    bank: {
      merchants: 20,
      treasuryPartners: 6,
      endUsersPerPartner: 3,
      operations: 5000,
      snapshots: 10,
      concurrency: 24,
    },
    crash: { operationsPerKill: 10, everyPoint: true },
    pgRestart: { restarts: 3, operationsPerRestart: 400, concurrency: 16 },
  },
};

export function scaleOf(env: NodeJS.ProcessEnv = process.env): Scale {
  const name = (env.RELIABILITY_SCALE || 'ci') as ScaleName;
  const scale = SCALES[name];
  if (!scale) throw new Error(`RELIABILITY_SCALE must be one of ${Object.keys(SCALES).join(', ')}, not ${name}`);
  return scale;
}
