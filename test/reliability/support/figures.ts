import fs from 'node:fs';
import path from 'node:path';

/** The figures of one file of the suite, printed at the end of the run and written to the report. */
export interface Figures {
  file: string;
  scale: string;
  operations: number;
  snapshots: number;
  kills: number;
  /** Requests sent again after a kill or an outage, with the same Idempotency-Key. */
  retries: number;
  /** Violations by class: every class the file checks is listed, 0 when it held. */
  violations: Record<string, number>;
  /** Other counts worth quoting (answers by status, restarts, …). */
  counts?: Record<string, number>;
  /** The first few violations, described. */
  examples?: string[];
}

/** Violations by class, with a few examples of each. */
export class Violations {
  private readonly counts: Record<string, number> = {};
  readonly examples: string[] = [];

  constructor(classes: string[]) {
    for (const name of classes) this.counts[name] = 0;
  }

  add(name: string, example: string): void {
    if (!(name in this.counts)) throw new Error(`unknown violation class ${name}`);
    this.counts[name] += 1;
    if (this.examples.filter((line) => line.startsWith(`${name}:`)).length < 5)
      this.examples.push(`${name}: ${example}`);
  }

  get byClass(): Record<string, number> {
    return { ...this.counts };
  }

  get total(): number {
    return Object.values(this.counts).reduce((sum, count) => sum + count, 0);
  }
}

/** Writes a file's figures where the suite's global teardown gathers them (reliability-setup.ts). */
export function recordFigures(figures: Figures): void {
  const dir = process.env.RELIABILITY_RESULTS_DIR;
  if (!dir) throw new Error('RELIABILITY_RESULTS_DIR is not set: run the suite with npm run test:reliability');
  fs.writeFileSync(path.join(dir, `${figures.file}.json`), JSON.stringify(figures, null, 2));
}

const pad = (label: string) => `${label}:`.padEnd(14);

/** One summary block, as printed at the end of a run. */
export function summaryBlock(title: string, figures: Omit<Figures, 'file'>): string {
  const violations = Object.entries(figures.violations);
  const total = violations.reduce((sum, [, count]) => sum + count, 0);
  const lines = [
    `── ${title} (RELIABILITY_SCALE=${figures.scale})`,
    `  ${pad('operations')}${figures.operations}`,
    `  ${pad('snapshots')}${figures.snapshots}`,
    `  ${pad('kills')}${figures.kills}`,
    `  ${pad('retries')}${figures.retries}`,
    `  ${pad('violations')}${total}`,
    ...violations.map(([name, count]) => `    ${name.padEnd(50)} ${count}`),
  ];
  if (figures.counts)
    lines.push(...Object.entries(figures.counts).map(([name, count]) => `  ${name.padEnd(52)} ${count}`));
  if (figures.examples?.length) lines.push('  examples:', ...figures.examples.map((line) => `    ${line}`));
  return lines.join('\n');
}

/** The combined figures of several files (violations by class, summed; classes kept apart by file prefix when they clash). */
export function combine(all: Figures[]): Omit<Figures, 'file'> {
  const violations: Record<string, number> = {};
  for (const figures of all) {
    for (const [name, count] of Object.entries(figures.violations)) violations[name] = (violations[name] ?? 0) + count;
  }
  const sum = (pick: (figures: Figures) => number) => all.reduce((total, figures) => total + pick(figures), 0);
  return {
    scale: [...new Set(all.map((figures) => figures.scale))].join(','),
    operations: sum((f) => f.operations),
    snapshots: sum((f) => f.snapshots),
    kills: sum((f) => f.kills),
    retries: sum((f) => f.retries),
    violations,
  };
}
