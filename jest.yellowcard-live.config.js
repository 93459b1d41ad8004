/**
 * The opt-in suite against Yellow Card's sandbox (docs/live.md, "Yellow Card"): `npm run
 * test:yellowcard-live` (scripts/yellowcard-live.js), which runs nothing, says so in one line and
 * exits 0 without YELLOWCARD_SANDBOX_API_KEY and YELLOWCARD_SANDBOX_API_SECRET. Its files end in
 * `.yellowcard-live.ts`, so `npm test` never picks them up. It needs the internet.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/yellowcard-live'],
  testMatch: ['**/*.yellowcard-live.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
  },
  // Yellow Card's sandbox over the internet: one file at a time, and patience for its round trips.
  maxWorkers: 1,
  testTimeout: 120_000,
};
