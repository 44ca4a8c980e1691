// What every end-to-end test starts from: the backend's address, and Debian's Chromium driven
// by playwright-core (no browser download), headless, without the background traffic a fresh
// profile makes, with screenshots kept in e2e/artifacts/ (git-ignored).
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://localhost:8000').replace(/\/+$/, '');
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** How every test's Chromium is started (a room's too, e2e/room.mjs, through its own path). */
export function launchOptions() {
  return { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS };
}

/** A launched Chromium, with the artifacts folder made. */
export async function launchChromium() {
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch(launchOptions());
}

/** A page in a fresh context of `browser`, with every console error and uncaught exception it
 *  shows collected in `consoleErrors` (a test ends by asserting there were none). */
export async function watchedPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, deviceScaleFactor: 1, ...options });
  const page = await context.newPage();
  const consoleErrors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  return { context, page, consoleErrors };
}

/**
 * One Chromium and one watched page in it (see watchedPage) for the tests of the file that calls
 * this: launched before its first test, closed after its last. `opened` is called with
 * `{ browser, context, page, consoleErrors }` once they are there.
 */
export function watchedBrowserPerFile(opened, options = {}) {
  let browser;
  before(async () => {
    browser = await launchChromium();
    opened({ browser, ...(await watchedPage(browser, options)) });
  });
  after(async () => {
    await browser?.close();
  });
}
