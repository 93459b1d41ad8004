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

/**
 * How long a page action, wait or navigation may take before the test gives up: Playwright's own
 * default is 30 s, which a host several times slower than usual, running two test files beside their
 * servers, was seen to reach on a plain page load (CI, 2026-11-28). A deadline, not a timing: a
 * passing run waits only as long as the page needs.
 */
export const BROWSER_PATIENCE_MS = 120_000;

/** Chromium, whose every context (a `newPage` makes one too) waits up to BROWSER_PATIENCE_MS. */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
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
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(BROWSER_PATIENCE_MS);
    return context;
  };
  return browser;
}

/** With TESSERA_DOC_SCREENSHOTS=1 the browser tests refresh the screenshots the docs show (docs/images/). */
export async function docScreenshot(page: Page, name: string): Promise<void> {
  if (!process.env.TESSERA_DOC_SCREENSHOTS) return;
  await page.setViewportSize({ width: 480, height: 720 });
  await page.screenshot({ path: path.join(PROJECT_ROOT, 'docs', 'images', name), fullPage: true });
}
