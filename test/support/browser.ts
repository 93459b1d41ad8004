import fs from 'node:fs';
import path from 'node:path';
import { Browser, Page, chromium } from 'playwright-core';
import { PROJECT_ROOT } from '../../src/project';

/** Headless Chromium for the browser tests (Debian's package: `apt-get install -y chromium`). */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);

/** `test`, or `test.skip` with a warning naming the missing browser and how to install it. */
export function browserTestFor(file: string): jest.It {
  if (hasChromium) return test;
  console.warn(
    `[${file}] ${CHROMIUM} is missing, so its headless-browser tests are skipped. Install it with: apt-get install -y chromium`,
  );
  return test.skip;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** With TESSERA_DOC_SCREENSHOTS=1 the browser tests refresh the screenshots the docs show (docs/images/). */
export async function docScreenshot(page: Page, name: string): Promise<void> {
  if (!process.env.TESSERA_DOC_SCREENSHOTS) return;
  await page.setViewportSize({ width: 480, height: 720 });
  await page.screenshot({ path: path.join(PROJECT_ROOT, 'docs', 'images', name), fullPage: true });
}
