import fs from 'node:fs';
import path from 'node:path';

/**
 * The checkout (or installed package) Tessera runs from: the folder holding its package.json, found
 * from this file's place (`src/` under ts-node and jest, `dist/src/` when built), never from the
 * current directory, so a command run from elsewhere still finds the project's files.
 */
export const PROJECT_ROOT = path.resolve(
  __dirname,
  '..',
  ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []),
);

/** Tessera's version, from package.json: what `--version`, `/healthz`, the landing page and the OpenAPI documents (`info.x-tessera-version`) show. */
export const TESSERA_VERSION: string = (
  JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
