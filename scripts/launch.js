#!/usr/bin/env node
// Runs a built entry point of Tessera, building dist/ first only when its sources changed.
//
//   node scripts/launch.js <entry in dist/> [arguments…]     e.g. node scripts/launch.js src/main.js
//   node scripts/launch.js                                   build only (npm run build)
//
// `npm start`, `npm run worker`, `npm run migrate`, `npm run migration:generate` and bin/tessera.js
// come through here. dist/ is current when the content hash of its sources (SOURCES) equals the one
// written to dist/.build-stamp after the last successful build: a few milliseconds, where running
// tsc to find nothing to do takes 10 s or more. Plain JavaScript with no dependencies: it must run
// before anything is built.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');

/** What the build reads: a change to any of these makes dist/ stale. */
const SOURCES = [
  'src',
  'migrations',
  'scripts',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];

/** The build, in order; each step is a command run in the project's folder. */
const BUILD_STEPS = [
  { name: 'tsc', command: [process.execPath, 'node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'] },
  // The GraphQL explorer's static bundle (GraphiQL); the script skips its work when its output is current.
  { name: 'explorer', command: [process.execPath, 'scripts/build-explorer.js'] },
];

const say = (line) => process.stderr.write(`[tessera] ${line}\n`);

function filesUnder(root, entry) {
  const full = path.join(root, entry);
  let stat;
  try {
    stat = fs.statSync(full);
  } catch {
    return [];
  }
  if (!stat.isDirectory()) return [entry];
  return fs
    .readdirSync(full)
    .sort()
    .flatMap((name) => filesUnder(root, path.join(entry, name)));
}

/** The content hash of the build's sources (names and bytes), or null when there are none (an installed build without its sources). */
function sourceHash(root, sources) {
  const files = sources.flatMap((entry) => filesUnder(root, entry));
  if (!files.some((file) => file.startsWith(`src${path.sep}`))) return null;
  const hash = crypto.createHash('sha256');
  for (const file of files) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const readOr = (file, fallback) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
};

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Holds dist/.build-lock while `work` runs, so two processes started together (the API and a
 * worker) do not compile into dist/ at once; the second waits, then finds dist/ current.
 */
function withBuildLock(dist, work) {
  const lock = path.join(dist, '.build-lock');
  fs.mkdirSync(dist, { recursive: true });
  let waiting = false;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = Number(readOr(lock, '0'));
      if (!alive(holder)) {
        fs.rmSync(lock, { force: true }); // left by a build that was killed
        continue;
      }
      if (!waiting) say(`waiting for the build another process (pid ${holder}) is running…`);
      waiting = true;
      sleep(200);
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

/**
 * Builds dist/ when its sources changed since the last successful build. Returns true when dist/ is
 * current; on a failed step, the step's own output (tsc's errors) has been shown and it returns false.
 */
function ensureBuilt({ root = ROOT, sources = SOURCES, steps = BUILD_STEPS, log = say, entry = null } = {}) {
  const dist = path.join(root, 'dist');
  const stampFile = path.join(dist, '.build-stamp');
  const wanted = sourceHash(root, sources);
  // A dist/ whose files were deleted by hand is not current, whatever its stamp says.
  const current = () =>
    readOr(stampFile, '').trim() === wanted && (entry === null || fs.existsSync(path.join(dist, entry)));
  if (wanted === null || current()) return true;
  return withBuildLock(dist, () => {
    if (current()) return true; // built by the process we waited for
    if (!fs.existsSync(path.join(root, 'node_modules'))) {
      log('the dependencies are not installed: run npm ci first.');
      return false;
    }
    if (!fs.existsSync(path.join(dist, 'src'))) log('building (first start, about a minute)…');
    else if (readOr(stampFile, '').trim() === wanted) {
      // tsc's incremental state believes its output is still there: build everything again.
      fs.rmSync(path.join(dist, '.tsbuildinfo'), { force: true });
      log(`rebuilding: dist/${entry} is missing…`);
    } else log('rebuilding: sources changed since the last build…');
    for (const step of steps) {
      const [command, ...args] = step.command;
      // The build's output goes to stderr: a command's own output on stdout stays its alone.
      const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 2, 2] });
      if (result.status !== 0) {
        const how = result.error
          ? `could not run (${result.error.message})`
          : result.signal
            ? `was stopped by ${result.signal}`
            : `exited with code ${result.status}`;
        log(`the build failed: ${step.name} ${how}. Fix what it reported above and start again.`);
        return false;
      }
    }
    fs.writeFileSync(stampFile, `${wanted}\n`);
    return true;
  });
}

/** Builds when needed, then runs `entry` (a path inside dist/) in this process with `args` as its arguments. */
function launch(entry, args) {
  if (!ensureBuilt({ entry })) process.exit(1);
  const file = path.join(ROOT, 'dist', entry);
  if (!fs.existsSync(file)) {
    say(`dist/${entry} does not exist after the build: is ${entry.replace(/\.js$/, '.ts')} a source of the project?`);
    process.exit(1);
  }
  process.argv = [process.argv[0], file, ...args];
  require(file);
}

module.exports = { ensureBuilt, launch, BUILD_STEPS, SOURCES };

if (require.main === module) {
  const [entry, ...args] = process.argv.slice(2);
  if (entry) launch(entry, args);
  else process.exitCode = ensureBuilt() ? 0 : 1;
}
