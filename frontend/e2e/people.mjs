// What the classroom's end-to-end tests share: one Chromium per file, and each person in it (an
// instructor, a student, a stranger) a page in a browser context of their own, so a session of
// their own; their console errors collected; pictures of every page when a test goes wrong;
// polling until the page says what it should; an instructor's log-in and a new class.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before } from 'node:test';

import { ARTIFACTS, BASE_URL, launchChromium } from './chromium.mjs';
import { openRoom } from './room.mjs';

/**
 * One Chromium for the tests of the file that calls this, launched before its first test and
 * closed after its last, and the people in it. `room`: a second Chromium in a network
 * namespace of its own (e2e/room.mjs), for people who reach the course as a classroom does.
 * Returns `{ newPerson, withFailureScreenshots, assertNoConsoleErrors }`.
 */
export function classroomBrowser({ room: withRoom = false } = {}) {
  let browser;
  let room;
  let roomBrowser;
  /** Every open page, by name, with the console errors it logged. */
  const pages = new Map();

  before(async () => {
    // The room first: a browser already running sees the host's new link come up as a network
    // change, and fails what it has in flight (ERR_NETWORK_CHANGED; see room.mjs).
    if (withRoom) {
      room = await openRoom();
      roomBrowser = await room.launch();
    }
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await roomBrowser?.close();
    await room?.close();
  });

  /**
   * A page in a browser context of its own: its own cookies, so its own session. A refused
   * request the test makes on purpose (`expectedStatuses`) logs "Failed to load resource" in
   * Chromium's console; anything else there is an error. `context`: another tab of someone
   * already here (same cookies, same session). `bypassCSP`: axe will run in it (axe.mjs).
   * `inRoom`: in the room's Chromium, on the room's network.
   */
  async function newPerson(name, { expectedStatuses = [], context: shared, bypassCSP = false, inRoom = false } = {}) {
    const opener = inRoom ? roomBrowser : browser;
    if (!opener) throw new Error(`${name}: classroomBrowser({ room: true }) opens the room`);
    const context =
      shared ?? (await opener.newContext({ viewport: { width: 1366, height: 900 }, deviceScaleFactor: 1, bypassCSP }));
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

/** Creates a class on the classes' page; returns its card and its join code. */
export async function createClass(page, className) {
  await page.getByLabel('New class').fill(className);
  await page.getByRole('button', { name: 'Create class' }).click();
  const card = page.getByTestId('class-card').filter({ hasText: className }).first();
  await card.waitFor({ timeout: 10_000 });
  const code = ((await card.getByTestId('join-code').textContent()) ?? '').trim();
  return { card, code };
}

/** Opens a class's page from its card; returns the join link its header shows (the server's,
 *  on the address the room reaches). */
export async function openClass(page, card) {
  await card.getByRole('link', { name: 'Open class' }).click();
  await page.getByTestId('class-page').waitFor({ timeout: 15_000 });
  const link = page.getByTestId('join-link');
  await link.waitFor({ timeout: 10_000 });
  return (await link.getAttribute('href')) ?? '';
}

/** On the join form (code filled in): joins as `name`, reads the personal code shown once, and
 *  goes on to the course's home. Returns the personal code. */
export async function joinAs(page, name) {
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Join' }).click();
  const shown = page.getByTestId('personal-code');
  await shown.waitFor({ timeout: 15_000 });
  const personalCode = ((await shown.textContent()) ?? '').trim();
  assert.match(personalCode, /^[A-Z2-9]{4}-[A-Z2-9]{4}$/, `a personal code like H4KD-P7WQ (got "${personalCode}")`);
  await page.getByRole('button', { name: 'Continue to the course' }).click();
  await page.getByTestId('lesson-list').waitFor({ timeout: 15_000 });
  return personalCode;
}
