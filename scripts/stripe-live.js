#!/usr/bin/env node
// `npm run test:stripe-live`: the opt-in suite against Stripe's real test mode (jest.stripe-live.config.js,
// docs/live.md). Without STRIPE_TEST_SECRET_KEY it runs nothing, says so in one line and exits 0.
// The flows through Tessera's REST face send raw card numbers, which a Stripe account accepts only
// with raw card data enabled: they run when STRIPE_TEST_RAW_CARD_DATA=true, and are left out otherwise
// (also said in one line); the acquirer's flows use Stripe's test PaymentMethods (pm_card_visa, …).
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const key = process.env.STRIPE_TEST_SECRET_KEY;
if (!key) {
  console.log('STRIPE_TEST_SECRET_KEY is not set: the live Stripe suite did not run');
  process.exit(0);
}
if (!key.startsWith('sk_test_') && !key.startsWith('rk_test_')) {
  console.error('STRIPE_TEST_SECRET_KEY must be a test-mode secret key (sk_test_…): this suite never uses a live key');
  process.exit(1);
}
const args = ['-c', 'jest.stripe-live.config.js', ...process.argv.slice(2)];
if (process.env.STRIPE_TEST_RAW_CARD_DATA !== 'true') {
  console.log(
    'STRIPE_TEST_RAW_CARD_DATA is not true: the flows through the REST face (raw card numbers) did not run, the acquirer flows did',
  );
  args.push('--testPathIgnorePatterns', 'server\\.stripe-live\\.ts$');
}
const jest = require.resolve('jest/bin/jest', { paths: [path.resolve(__dirname, '..')] });
const run = spawnSync(process.execPath, [jest, ...args], { stdio: 'inherit', cwd: path.resolve(__dirname, '..') });
process.exit(run.status ?? 1);
