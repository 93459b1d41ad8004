/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json', diagnostics: false }],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // A backstop for a test that hangs, not a budget: tests wait for state with deadlines of their
  // own (test/support/wait.ts, 30 s), so on a busy machine a slow test finishes instead of being
  // cut off. The heavy ones (fuzz, CLI and process spawns) carry their own limits, sized by count.
  testTimeout: 120000,
  // Two test files at a time: each runs a server, its own database and sometimes child processes;
  // more would only contend for the same two cores (and on a shared machine, for less).
  maxWorkers: 2,
};
