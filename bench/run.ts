/**
 * npm run bench: figures printed, not asserted, each next to a baseline measured in the same run.
 * BENCH_ONLY=webhooks|payments|payouts|schedules|dashboard|volume|dashboard-ui|subscriptions|scale|sanctions|footprint runs one section.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { openRuntime } from '../src/runtime';
import { benchDashboard } from './dashboard';
import { benchDashboardUi } from './dashboard-ui';
import { benchFootprint } from './footprint';
import { benchPayments } from './payments';
import { benchPayouts } from './payouts';
import { benchScale } from './scale';
import { benchSanctions } from './sanctions';
import { benchSchedules } from './schedules';
import { benchVolume } from './volume';
import { SUBSCRIPTION_CAPS, benchSubscriptions } from './subscriptions';
import { freePort } from './util';
import { WEBHOOK_CONCURRENCY, benchWebhooks } from './webhooks';

/** The sections that share this process's runtime (and its embedded PostgreSQL). */
const IN_PROCESS = [
  'webhooks',
  'payments',
  'payouts',
  'schedules',
  'dashboard',
  'volume',
  'dashboard-ui',
  'subscriptions',
  'scale',
];

async function main() {
  const only = process.env.BENCH_ONLY;
  if (!only || IN_PROCESS.includes(only)) await benchInProcess(only);
  // In memory: the live screening matcher, no database.
  if (!only || only === 'sanctions') benchSanctions();
  // Last, once the runtime above has stopped: it spawns and measures whole servers of its own.
  if (!only || only === 'footprint') await benchFootprint();
}

async function benchInProcess(only: string | undefined) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bench-'));
  fs.chmodSync(dataDir, 0o777);
  const runtime = await openRuntime(
    {
      ...loadConfig(),
      dataDir,
      embeddedPgPort: await freePort(),
      logLevel: 'silent',
      workerConcurrency: WEBHOOK_CONCURRENCY,
      workerPollIntervalMs: 100,
      rateLimitMax: 1_000_000_000,
      masterKey: 'bench',
      jwtSecret: 'bench',
      ...SUBSCRIPTION_CAPS,
    },
    { throwaway: true },
  );
  try {
    if (!only || only === 'webhooks') await benchWebhooks(runtime);
    if (!only || only === 'payments') await benchPayments(runtime);
    if (!only || only === 'payouts') await benchPayouts(runtime);
    if (!only || only === 'schedules') await benchSchedules(runtime);
    if (!only || only === 'dashboard') await benchDashboard(runtime);
    if (!only || only === 'subscriptions') await benchSubscriptions(runtime);
    if (!only || only === 'scale') await benchScale(runtime);
    // Last: its 10,000 payments are another business's, but the sections above measure a quieter table.
    if (!only || only === 'volume') await benchVolume(runtime);
    // The screens in Chromium over a business of their own with 10,000 payments.
    if (!only || only === 'dashboard-ui') await benchDashboardUi(runtime);
  } finally {
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
