/**
 * The opt-in suite against Stripe's real test mode (docs/live.md, "The suite against Stripe's test
 * mode"): `npm run test:stripe-live` (scripts/stripe-live.js), which runs nothing, says so in one
 * line and exits 0 without STRIPE_TEST_SECRET_KEY. Its files end in `.stripe-live.ts`, so `npm test`
 * never picks them up. It needs the internet (api.stripe.com) and the local PostgreSQL, as `npm test` does.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/stripe-live'],
  testMatch: ['**/*.stripe-live.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Stripe's API over the internet: one file at a time, and patience for its round trips.
  maxWorkers: 1,
  testTimeout: 120_000,
};
