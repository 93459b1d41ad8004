/**
 * The opt-in suites against the providers' real sandboxes (docs/live.md): `npm run test:stripe-live`,
 * `test:yellowcard-live` and `test:bridge-live` run scripts/provider-live.js, which checks the
 * provider's credentials (without them it runs nothing, says so in one line and exits 0) and runs
 * this configuration with PROVIDER_LIVE_SUITE set to the provider. The files of a provider's suite
 * are `test/<provider>-live/*.<provider>-live.ts`, so `npm test` never picks them up. They need the
 * internet and the local PostgreSQL, as `npm test` does.
 * @type {import('jest').Config}
 */
const suite = process.env.PROVIDER_LIVE_SUITE;
if (!/^[a-z]+$/.test(suite ?? '')) {
  throw new Error(
    'PROVIDER_LIVE_SUITE must name a provider (stripe, yellowcard, bridge): run npm run test:<provider>-live',
  );
}
module.exports = {
  testEnvironment: 'node',
  roots: [`<rootDir>/test/${suite}-live`],
  testMatch: [`**/*.${suite}-live.ts`],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // A provider's API over the internet: one file at a time, and patience for its round trips.
  maxWorkers: 1,
  testTimeout: 120_000,
};
