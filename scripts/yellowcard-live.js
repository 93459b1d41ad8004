#!/usr/bin/env node
// `npm run test:yellowcard-live`: the opt-in suite against Yellow Card's sandbox (jest.yellowcard-live.config.js,
// docs/live.md). Without YELLOWCARD_SANDBOX_API_KEY and YELLOWCARD_SANDBOX_API_SECRET it runs nothing, says so in
// one line and exits 0. YELLOWCARD_SANDBOX_API_BASE overrides the sandbox's address.
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

if (!process.env.YELLOWCARD_SANDBOX_API_KEY || !process.env.YELLOWCARD_SANDBOX_API_SECRET) {
  console.log(
    'YELLOWCARD_SANDBOX_API_KEY and YELLOWCARD_SANDBOX_API_SECRET are not set: the Yellow Card sandbox suite did not run',
  );
  process.exit(0);
}
const base = process.env.YELLOWCARD_SANDBOX_API_BASE || 'https://sandbox.api.yellowcard.io/business';
if (!/sandbox/i.test(base)) {
  console.error('YELLOWCARD_SANDBOX_API_BASE must be a Yellow Card sandbox address: this suite never uses production');
  process.exit(1);
}
const jest = require.resolve('jest/bin/jest', { paths: [path.resolve(__dirname, '..')] });
const run = spawnSync(process.execPath, [jest, '-c', 'jest.yellowcard-live.config.js', ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: path.resolve(__dirname, '..'),
});
process.exit(run.status ?? 1);
