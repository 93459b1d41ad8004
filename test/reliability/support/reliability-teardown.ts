import fs from 'node:fs';
import path from 'node:path';
import stopPostgres from '../../support/global-teardown';
import { ROOT } from '../../support/process';
import { Figures, combine, summaryBlock } from './figures';

/**
 * Prints the figures of each file and of the whole run, and writes them to RELIABILITY_REPORT
 * (default reliability-report.json in the project folder) for docs/reliability.md to quote.
 */
export default async function reliabilityTeardown() {
  const dir = process.env.RELIABILITY_RESULTS_DIR;
  try {
    if (!dir) return;
    const files: Figures[] = fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')));
    if (files.length === 0) return;
    const combined = combine(files);
    const blocks = [
      ...files.map((figures) => summaryBlock(figures.file, figures)),
      summaryBlock('all files', combined),
    ];
    console.log(`\n[reliability] figures of this run\n${blocks.join('\n')}\n`);
    const report = process.env.RELIABILITY_REPORT || path.join(ROOT, 'reliability-report.json');
    fs.writeFileSync(
      report,
      `${JSON.stringify({ finishedAt: new Date().toISOString(), node: process.version, combined, files }, null, 2)}\n`,
    );
    console.log(`[reliability] figures written to ${report}`);
  } finally {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await stopPostgres();
  }
}
