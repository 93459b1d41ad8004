#!/usr/bin/env node
// `npm run test:<provider>-live` (`node scripts/provider-live.js <provider> [jest args]`): the opt-in
// suite against a provider's real sandbox (jest.provider-live.config.js, docs/live.md). Without the
// provider's sandbox credentials it runs nothing, says so in one line and exits 0; credentials that
// could reach the provider's production are refused (exit 1): these suites never touch live money.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const env = process.env;

/**
 * Each provider's gate: `skip` (the line said when its credentials are missing), `refuse` (why they
 * may not be used, or null) and the extra jest arguments its settings ask for.
 */
const SUITES = {
  stripe: () => {
    const key = env.STRIPE_TEST_SECRET_KEY;
    if (!key) return { skip: 'STRIPE_TEST_SECRET_KEY is not set: the live Stripe suite did not run' };
    if (!key.startsWith('sk_test_') && !key.startsWith('rk_test_')) {
      return {
        refuse: 'STRIPE_TEST_SECRET_KEY must be a test-mode secret key (sk_test_…): this suite never uses a live key',
      };
    }
    // The flows through Tessera's REST face send raw card numbers, which a Stripe account accepts
    // only with raw card data enabled; the acquirer's flows use Stripe's test PaymentMethods.
    if (env.STRIPE_TEST_RAW_CARD_DATA === 'true') return { args: [] };
    return {
      args: ['--testPathIgnorePatterns', 'server\\.stripe-live\\.ts$'],
      note: 'STRIPE_TEST_RAW_CARD_DATA is not true: the flows through the REST face (raw card numbers) did not run, the acquirer flows did',
    };
  },
  yellowcard: () => {
    if (!env.YELLOWCARD_SANDBOX_API_KEY || !env.YELLOWCARD_SANDBOX_API_SECRET) {
      return {
        skip: 'YELLOWCARD_SANDBOX_API_KEY and YELLOWCARD_SANDBOX_API_SECRET are not set: the Yellow Card sandbox suite did not run',
      };
    }
    const base = env.YELLOWCARD_SANDBOX_API_BASE || 'https://sandbox.api.yellowcard.io/business';
    if (!/sandbox/i.test(base)) {
      return {
        refuse: 'YELLOWCARD_SANDBOX_API_BASE must be a Yellow Card sandbox address: this suite never uses production',
      };
    }
    return { args: [] };
  },
  // BRIDGE_SANDBOX_API_BASE overrides where the sandbox is (https://api.sandbox.bridge.xyz by default).
  bridge: () =>
    env.BRIDGE_SANDBOX_API_KEY
      ? { args: [] }
      : { skip: 'BRIDGE_SANDBOX_API_KEY is not set: the live Bridge suite did not run' },
};

const [provider, ...jestArgs] = process.argv.slice(2);
const gate = SUITES[provider];
if (!gate) {
  console.error(`usage: node scripts/provider-live.js ${Object.keys(SUITES).join('|')} [jest arguments]`);
  process.exit(1);
}
const decision = gate();
if (decision.skip) {
  console.log(decision.skip);
  process.exit(0);
}
if (decision.refuse) {
  console.error(decision.refuse);
  process.exit(1);
}
if (decision.note) console.log(decision.note);
const root = path.resolve(__dirname, '..');
const jest = require.resolve('jest/bin/jest', { paths: [root] });
const run = spawnSync(process.execPath, [jest, '-c', 'jest.provider-live.config.js', ...decision.args, ...jestArgs], {
  stdio: 'inherit',
  cwd: root,
  env: { ...env, PROVIDER_LIVE_SUITE: provider },
});
process.exit(run.status ?? 1);
