// What the classroom's end-to-end tests share: one Chromium per file, and each person in it (an
// instructor, a student, a stranger) a page in a browser context of their own, so a session of
// their own; their console errors collected; pictures of every page when a test goes wrong;
// polling until the page says what it should; an instructor's log-in and a new class.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before } from 'node:test';

import { ARTIFACTS, BASE_URL, launchChromium } from './chromium.mjs';

/**
 * One Chromium for the tests of the file that calls this, launched before its first test and
 * closed after its last, and the people in it. Returns `{ newPerson, withFailureScreenshots,
 * assertNoConsoleErrors }`.
 */
export function classroomBrowser() {
  let browser;
  /** Every open page, by name, with the console errors it logged. */
  const pages = new Map();

  before(async () => {
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
  });

  /**
   * A page in a browser context of its own: its own cookies, so its own session. A refused
   * request the test makes on purpose (`expectedStatuses`) logs "Failed to load resource" in
   * Chromium's console; anything else there is an error. `context`: another tab of someone
   * already here (same cookies, same session). `bypassCSP`: axe will run in it (axe.mjs).
   */
  async function newPerson(name, { expectedStatuses = [], context: shared, bypassCSP = false } = {}) {
    const context =
      shared ?? (await browser.newContext({ viewport: { width: 1366, height: 900 }, deviceScaleFactor: 1, bypassCSP }));
    const page = await context.newPage();
    const errors = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (expectedStatuses.some((status) => text.includes(`status of ${status}`))) return;
      errors.push(`console.error: ${text}`);
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
    // Chromium's console names the status but not the request: name it, so a failure says which.
    page.on('response', (response) => {
      if (response.status() >= 500) errors.push(`${response.status()} from ${response.request().method()} ${response.url()}`);
    });
    pages.set(name, { page, errors });
    return page;
  }

  /** Runs `body`; if it throws, keeps a full-page screenshot of each open page
   *  (`<prefix>-<name>-failure.png`) and throws again. */
  async function withFailureScreenshots(prefix, body) {
    try {
      await body();
    } catch (error) {
      for (const [name, { page }] of pages) {
        await page.screenshot({ path: join(ARTIFACTS, `${prefix}-${name}-failure.png`), fullPage: true }).catch(() => undefined);
      }
      throw error;
    }
  }

  function assertNoConsoleErrors() {
    for (const [name, { errors }] of pages) assert.deepEqual(errors, [], `${name}'s browser console stayed free of errors`);
  }

  return { newPerson, withFailureScreenshots, assertNoConsoleErrors };
}

/** Polls until `check()` holds; fails with `what` (a string, or a function saying it then) after
 *  `timeoutMs`. */
export async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Polls a locator's text until `holds(text)`; the failure quotes what it last said. */
export async function waitForText(locator, holds, what, timeoutMs = 30_000) {
  let last = '';
  await waitFor(
    async () => holds((last = (await locator.textContent().catch(() => '')) ?? '')),
    timeoutMs,
    () => `${what} (text: ${last.slice(0, 300)})`,
  );
}

export async function waitForCount(locator, count, what, timeoutMs = 30_000) {
  await waitFor(async () => (await locator.count()) === count, timeoutMs, `${what} (${count} expected)`);
}

/** The instructor's login form, then their classes' page. */
export async function logInAsInstructor(page, name, password) {
  await page.goto(`${BASE_URL}/#/login`, { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Your classes' }).waitFor({ timeout: 15_000 });
}

/** Creates a class on the classes' page; returns its card, its join code and its join link. */
export async function createClass(page, className) {
  await page.getByLabel('New class').fill(className);
  await page.getByRole('button', { name: 'Create class' }).click();
  const card = page.getByTestId('class-card').filter({ hasText: className }).first();
  await card.waitFor({ timeout: 10_000 });
  const code = ((await card.getByTestId('join-code').textContent()) ?? '').trim();
  const joinLink = (await card.getByTestId('join-link').getAttribute('href')) ?? '';
  return { card, code, joinLink };
}
