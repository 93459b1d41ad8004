#!/usr/bin/env node
/**
 * Builds the merchant dashboard (dashboard/, docs/dashboard.md) into dist/dashboard/, which the server
 * serves at /dashboard:
 *   1. GraphQL Code Generator types every operation of the screens from schema.graphql;
 *   2. tsc checks the dashboard against those types (a schema change that breaks a screen fails here);
 *   3. Vite bundles it, split by route, into a staging folder that then replaces dist/dashboard/ whole;
 *   4. each script and style sheet is also written precompressed (.br, .gz), and the bundle's sizes
 *      go to dist/dashboard/bundle-report.json and one line of output (the first load: every file
 *      index.html names, the entry, the chunks it preloads and the style sheets).
 *
 * Does nothing, in milliseconds, when dist/dashboard/.build-stamp holds the content hash of its
 * inputs (dashboard/ without node_modules and generated code, schema.graphql, package-lock.json,
 * this script): `npm start` and `npm run build` call it on every run. `--force` builds anyway.
 * Needs the dev dependencies (`npm ci`); without them it says so and the server answers /dashboard
 * with a page saying it is not built.
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..');
const APP = path.join(ROOT, 'dashboard');
const OUT = path.join(ROOT, 'dist', 'dashboard');
const STAMP = '.build-stamp';
/** Under dashboard/: what is not a source (installed packages, the generated types, editor leftovers). */
const NOT_SOURCES = new Set(['node_modules', path.join('src', 'gql')]);

const say = (line) => process.stderr.write(`[tessera] ${line}\n`);

function filesUnder(root, relative = '') {
  const full = path.join(root, relative);
  const stat = fs.statSync(full, { throwIfNoEntry: false });
  if (!stat) return [];
  if (!stat.isDirectory()) return [relative];
  return fs
    .readdirSync(full)
    .sort()
    .filter((name) => !NOT_SOURCES.has(path.join(relative, name)))
    .flatMap((name) => filesUnder(root, path.join(relative, name)));
}

/** The content hash of the build's inputs: a change to any byte of them makes dist/dashboard/ stale. */
function inputHash() {
  const hash = crypto.createHash('sha256');
  const inputs = [
    ...filesUnder(APP).map((file) => path.join('dashboard', file)),
    'schema.graphql',
    'package-lock.json',
    path.relative(ROOT, __filename),
  ];
  for (const file of inputs) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(fs.readFileSync(path.join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const stampOf = (folder) => {
  try {
    return fs.readFileSync(path.join(folder, STAMP), 'utf8').trim();
  } catch {
    return '';
  }
};

/** The tools' entry scripts, run with this Node (no shell, no .bin links: the same on every platform). */
function tool(pkg, bin) {
  try {
    return path.join(path.dirname(require.resolve(`${pkg}/package.json`, { paths: [APP, ROOT] })), bin);
  } catch {
    return null;
  }
}

function run(name, script, args) {
  // Always React's production build: a NODE_ENV of the caller's (Jest sets `test`) would make Vite
  // bundle the development one, several times slower, under the same build stamp.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync(process.execPath, [script, ...args], { cwd: APP, stdio: ['ignore', 2, 2], env });
  if (result.status !== 0) {
    throw new Error(
      `${name} ${result.signal ? `was stopped by ${result.signal}` : `exited with code ${result.status}`}`,
    );
  }
}

function precompress(file) {
  const content = fs.readFileSync(file);
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
}

/** Sizes of the bundle, per file (bytes and brotli bytes): the entry, each route's chunk, the style sheet. */
function report(folder) {
  const assets = path.join(folder, 'assets');
  const files = fs
    .readdirSync(assets)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => ({
      file: `assets/${name}`,
      bytes: fs.statSync(path.join(assets, name)).size,
      brotliBytes: fs.statSync(path.join(assets, `${name}.br`)).size,
    }))
    .sort((a, b) => b.bytes - a.bytes);
  const page = fs.readFileSync(path.join(folder, 'index.html'), 'utf8');
  const entry = page.match(/assets\/(index-[^"]+\.js)/)?.[1];
  const total = (key, list = files) => list.reduce((sum, file) => sum + file[key], 0);
  // The first load: what the page itself names (the entry, the chunks it preloads, the style sheets).
  const named = new Set([...page.matchAll(/\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]));
  const initial = files.filter((file) => named.has(file.file));
  return {
    builtAt: new Date().toISOString(),
    entry: entry ? `assets/${entry}` : null,
    files,
    totals: {
      bytes: total('bytes'),
      brotliBytes: total('brotliBytes'),
      initialBytes: total('bytes', initial),
      initialBrotliBytes: total('brotliBytes', initial),
    },
  };
}

function build(wanted) {
  const codegen = tool('@graphql-codegen/cli', 'cjs/bin.js');
  const tsc = tool('typescript', 'bin/tsc');
  const vite = tool('vite', 'bin/vite.js');
  if (!codegen || !tsc || !vite) {
    say(
      'The dashboard is not built: Vite, GraphQL Code Generator and the screens’ libraries are dev dependencies (install with `npm ci`, not `--omit=dev`). The API answers as usual.',
    );
    return;
  }
  say('Building the dashboard (types from schema.graphql, type check, bundle; once per change)…');
  const started = Date.now();
  const staging = `${OUT}.${process.pid}.tmp`;
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    run('GraphQL Code Generator', codegen, ['--config', 'codegen.ts']);
    run('the type check (tsc)', tsc, ['-p', 'tsconfig.json', '--noEmit']);
    run('Vite', vite, ['build', '--outDir', staging, '--emptyOutDir', '--logLevel', 'warn']);
    for (const name of fs.readdirSync(path.join(staging, 'assets'))) {
      if (/\.(js|css)$/.test(name)) precompress(path.join(staging, 'assets', name));
    }
    const sizes = report(staging);
    fs.writeFileSync(path.join(staging, 'bundle-report.json'), `${JSON.stringify(sizes, null, 2)}\n`);
    // Written last in the staging folder, which then replaces the old output whole.
    fs.writeFileSync(path.join(staging, STAMP), `${wanted}\n`);
    fs.rmSync(OUT, { recursive: true, force: true });
    fs.renameSync(staging, OUT);
    const kb = (bytes) => `${Math.round(bytes / 1024)} kB`;
    say(
      `Dashboard built in ${Math.round((Date.now() - started) / 1000)} s: first load ${kb(sizes.totals.initialBytes)} ` +
        `(brotli ${kb(sizes.totals.initialBrotliBytes)}), ${sizes.files.length} files, ${kb(sizes.totals.bytes)} in all ` +
        `(brotli ${kb(sizes.totals.brotliBytes)}); per file: dist/dashboard/bundle-report.json`,
    );
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

module.exports = { inputHash, OUT };

if (require.main === module) {
  const wanted = inputHash();
  if (process.argv.includes('--force') || stampOf(OUT) !== wanted) {
    try {
      build(wanted);
    } catch (error) {
      say(`The dashboard failed to build: ${error.message}. Fix what it reported above and build again.`);
      process.exit(1);
    }
  }
}
