/**
 * The reliability suite (docs/reliability.md): `npm run test:reliability`, sized by RELIABILITY_SCALE
 * (`ci`, the default, or `full`). Its files end in `.reliability.ts`, so `npm test` never picks them up.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/reliability'],
  testMatch: ['**/*.reliability.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/reliability/support/reliability-setup.ts',
  globalTeardown: '<rootDir>/test/reliability/support/reliability-teardown.ts',
  // One file at a time: each runs three Tessera processes and loads them; two at once on two cores
  // would measure the machine, not the service.
  maxWorkers: 1,
  // A backstop for a hang, not a budget: every wait has its own deadline, and sizes are counts.
  testTimeout: 1_800_000,
};
