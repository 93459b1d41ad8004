/**
 * npm run bench: figures printed, not asserted, each next to a baseline measured in the same run.
 * BENCH_ONLY=webhooks|payments|dashboard runs one section.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { openRuntime } from '../src/runtime';
import { benchDashboard } from './dashboard';
import { benchPayments } from './payments';
import { freePort } from './util';
import { WEBHOOK_CONCURRENCY, benchWebhooks } from './webhooks';

async function main() {
  const only = process.env.BENCH_ONLY;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-'));
  fs.chmodSync(dataDir, 0o777);
  const runtime = await openRuntime({
    ...loadConfig(),
    dataDir,
    embeddedPgPort: await freePort(),
    logLevel: 'silent',
    workerConcurrency: WEBHOOK_CONCURRENCY,
    workerPollIntervalMs: 100,
    rateLimitMax: 1_000_000_000,
    masterKey: 'bench', jwtSecret: 'bench',
  });
  try {
    if (!only || only === 'webhooks') await benchWebhooks(runtime);
    if (!only || only === 'payments') await benchPayments(runtime);
    if (!only || only === 'dashboard') await benchDashboard(runtime);
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
