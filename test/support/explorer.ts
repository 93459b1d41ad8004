import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/** What a browser sends when it opens a page. */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/**
 * Builds the GraphQL explorer's bundle (dist/explorer/) as `npm run build` does: the server serves
 * it from there. Returns at once when it is current; a first build takes a while on a busy machine.
 */
export async function buildExplorer(): Promise<void> {
  await promisify(execFile)(process.execPath, [path.join(__dirname, '..', '..', 'scripts', 'build-explorer.js')], {
    timeout: 300_000,
  });
}
