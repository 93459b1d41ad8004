#!/usr/bin/env node
// `npm run test:bridge-live`: the opt-in suite against Bridge's sandbox (jest.bridge-live.config.js,
// docs/live.md, "Bridge"). Without BRIDGE_SANDBOX_API_KEY it runs nothing, says so in one line and exits 0.
// BRIDGE_SANDBOX_API_BASE overrides where the sandbox is (https://api.sandbox.bridge.xyz by default).
'use strict';
const { spawnSync } = require('node:child_process');
const path = require('node:path');

if (!process.env.BRIDGE_SANDBOX_API_KEY) {
  console.log('BRIDGE_SANDBOX_API_KEY is not set: the live Bridge suite did not run');
  process.exit(0);
}
const jest = require.resolve('jest/bin/jest', { paths: [path.resolve(__dirname, '..')] });
const run = spawnSync(process.execPath, [jest, '-c', 'jest.bridge-live.config.js', ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: path.resolve(__dirname, '..'),
});
process.exit(run.status ?? 1);
