import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import startPostgres from '../../support/global-setup';

/** The suite's global setup: the run's PostgreSQL (test/support/global-setup.ts) and a directory for each file's figures. */
export default async function reliabilitySetup() {
  await startPostgres();
  process.env.RELIABILITY_RESULTS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-reliability-results-'));
}
