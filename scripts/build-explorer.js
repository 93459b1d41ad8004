#!/usr/bin/env node
/**
 * Bundles the GraphQL explorer (src/explorer/explorer.tsx: GraphiQL and React from npm) with esbuild
 * into dist/explorer/: one script and one style sheet with content hashes in their names (served
 * with a year's caching), each also precompressed (.br, .gz), and manifest.json naming them, which
 * the server reads (src/graphql/explorer.ts). Needs no network.
 *
 * Does nothing, fast, when the manifest is newer than every input (the entry's folder, this
 * script, package-lock.json): `npm run build` and the start launcher call it on every run.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const ROOT = path.resolve(__dirname, '..');
const SOURCE = path.join(ROOT, 'src', 'explorer');
const OUT = path.join(ROOT, 'dist', 'explorer');
const MANIFEST = path.join(OUT, 'manifest.json');
const INPUTS = [SOURCE, __filename, path.join(ROOT, 'package-lock.json')];

// Progress goes to stderr, as the launcher's lines do, so a CLI command's JSON on stdout stays clean.
const say = (line) => process.stderr.write(`[tessera] ${line}\n`);

/** The newest modification time under `target` (a file, or a folder walked whole). */
function newestMtime(target) {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return fs
    .readdirSync(target)
    .reduce((newest, name) => Math.max(newest, newestMtime(path.join(target, name))), stat.mtimeMs);
}

function isCurrent() {
  const built = fs.statSync(MANIFEST, { throwIfNoEntry: false });
  return built !== undefined && INPUTS.every((input) => newestMtime(input) < built.mtimeMs);
}

function loadEsbuild() {
  try {
    return require('esbuild');
  } catch {
    return null;
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

async function build() {
  const esbuild = loadEsbuild();
  if (!esbuild) {
    say(
      'The GraphQL explorer is not built: esbuild, GraphiQL and React are dev dependencies (install with `npm ci`, not `--omit=dev`). /graphql answers API clients as usual.',
    );
    return;
  }
  say('Building the GraphQL explorer (GraphiQL, once per dependency change)…');
  const staging = `${OUT}.${process.pid}.tmp`;
  fs.rmSync(staging, { recursive: true, force: true });
  const result = await esbuild.build({
    entryPoints: { explorer: path.join(SOURCE, 'explorer.tsx') },
    tsconfig: path.join(SOURCE, 'tsconfig.json'),
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    // Production builds of React and of graphql-js (whose check for duplicate copies of itself
    // runs unless `globalThis.process && process.env.NODE_ENV === 'production'`).
    define: { 'process.env.NODE_ENV': '"production"', 'globalThis.process': 'true' },
    loader: { '.woff': 'dataurl', '.woff2': 'dataurl', '.svg': 'dataurl' },
    entryNames: '[name]-[hash]',
    outdir: staging,
    legalComments: 'eof',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((output) => path.basename(output));
  const manifest = {
    script: outputs.find((name) => name.endsWith('.js')),
    style: outputs.find((name) => name.endsWith('.css')),
  };
  if (!manifest.script || !manifest.style)
    throw new Error(`esbuild wrote ${outputs.join(', ')}: expected one .js and one .css`);
  for (const name of [manifest.script, manifest.style]) precompress(path.join(staging, name));
  // Written last in the staging folder, which then replaces the old output whole: a manifest never names a missing file.
  fs.writeFileSync(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.renameSync(staging, OUT);
  const kb = (name) => `${Math.round(fs.statSync(path.join(OUT, name)).size / 1024)} kB`;
  say(
    `GraphQL explorer built: ${manifest.script} ${kb(manifest.script)} (brotli ${kb(`${manifest.script}.br`)}), ${manifest.style} ${kb(manifest.style)}`,
  );
}

if (!isCurrent()) {
  build().catch((error) => {
    say(`The GraphQL explorer failed to build: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
