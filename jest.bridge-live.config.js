/**
 * The opt-in suite against Bridge's sandbox (docs/live.md, "Bridge"): `npm run test:bridge-live`
 * (scripts/bridge-live.js), which runs nothing, says so in one line and exits 0 without
 * BRIDGE_SANDBOX_API_KEY. Its files end in `.bridge-live.ts`, so `npm test` never picks them up. It
 * needs the internet (api.sandbox.bridge.xyz) and the local PostgreSQL, as `npm test` does.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/bridge-live'],
  testMatch: ['**/*.bridge-live.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Bridge's API over the internet: one file at a time, and patience for its round trips.
  maxWorkers: 1,
  testTimeout: 120_000,
};
