// End-to-end: the course in classroom mode (C10K_MODE=classroom), in real Chromium against the
// real backend and runner. The instructor logs in and creates a class; two students join it
// in their own browser contexts (one through the join link's ?code=, one typing the code, and
// first with a name already taken); each presses "Run live" on the first lesson's experiment
// and watches it queue (place and estimated wait) and finish; a browser with no session sees
// the note sending it to the join form instead of the Run button.
//
// Needs an instructor account: `e2e/with-backend.sh PORT classroom` makes one and starts the course.
//
//   frontend/e2e/with-backend.sh 8771 classroom
//   E2E_BASE_URL=http://127.0.0.1:8771 E2E_INSTRUCTOR=Grace E2E_PASSWORD=… npm run e2e:classroom
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { ARTIFACTS, BASE_URL, launchChromium } from './chromium.mjs';
import { scrollThroughPage } from './scroll.mjs';

const RUN_TIMEOUT_MS = Number(process.env.E2E_RUN_TIMEOUT_MS ?? 180_000);
const INSTRUCTOR = process.env.E2E_INSTRUCTOR ?? 'Grace';
const PASSWORD = process.env.E2E_PASSWORD ?? 'e2e-password-123';
const LESSON_URL = `${BASE_URL}/#/lessons/01-c10k-problem`;
const CLASS_NAME = 'Systems programming, e2e';

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
 * Chromium's console; anything else there is an error.
 */
async function newPerson(name, { expectedStatuses = [] } = {}) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    if (expectedStatuses.some((status) => text.includes(`status of ${status}`))) return;
    errors.push(`console.error: ${text}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  pages.set(name, { page, errors });
  return page;
}

/** Keeps a full-page screenshot of each open page when a test went wrong. */
async function withFailureScreenshots(body) {
  try {
    await body();
  } catch (error) {
    for (const [name, { page }] of pages) {
      await page.screenshot({ path: join(ARTIFACTS, `classroom-${name}-failure.png`), fullPage: true }).catch(() => undefined);
    }
    throw error;
  }
}

/** Opens the first lesson and its first experiment widget (loaded when scrolled near). */
async function openLessonWidget(page) {
  await page.goto(LESSON_URL, { waitUntil: 'domcontentloaded' });
  await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 15_000 });
  const widget = page.locator('section.experiment').first();
  // Diagrams wait for the reader the same way: scroll to the widget's own placeholder.
  const placeholder = page.getByTestId('not-yet-loaded').filter({ hasText: 'Benchmark widget' }).first();
  await widget.or(placeholder).first().waitFor({ timeout: 15_000 }); // the lesson's Markdown is drawn
  if ((await placeholder.count()) > 0) await placeholder.scrollIntoViewIfNeeded();
  await widget.waitFor({ timeout: 15_000 });
  await widget.scrollIntoViewIfNeeded();
  // The recorded reference result is on show before anything runs, for everyone.
  await widget.getByTestId('baseline-note').waitFor({ timeout: 15_000 });
  await widget.getByTestId('run-results').waitFor();
  return widget;
}

/** Clicks "Run live" once it is enabled (health checked, catalog loaded). */
async function pressRunLive(page, widget) {
  const button = widget.getByRole('button', { name: 'Run live' });
  try {
    await page.waitForFunction((b) => b && !b.disabled, await button.elementHandle(), { timeout: 20_000 });
  } catch {
    const reason = await widget.getByTestId('run-blocked').textContent().catch(() => null);
    throw new Error(`"Run live" stayed disabled: ${reason ?? 'no reason shown'}`);
  }
  await button.click();
}

/** Polls a widget's state label until its run ends; returns every label seen, in order.
 *  `queuedShot`: where to save a picture of the widget the first time it shows a wait. */
async function followRun(page, widget, queuedShot) {
  const label = widget.getByTestId('run-state');
  const seen = [];
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  let shot = false;
  for (;;) {
    const text = ((await label.textContent()) ?? '').trim();
    if (seen.at(-1) !== text) seen.push(text);
    if (queuedShot && !shot && / in the queue, about /.test(text)) {
      shot = true;
      await widget.locator('header').screenshot({ path: queuedShot }).catch(() => undefined);
    }
    if (text === 'done' || text.startsWith('failed') || text === 'cancelled') return seen;
    if (Date.now() > deadline) throw new Error(`no end within ${RUN_TIMEOUT_MS / 1000} s; states: ${seen.join(' → ')}`);
    await page.waitForTimeout(100);
  }
}

async function assertRunDone(widget, seen, who) {
  let logs = '';
  if (seen.at(-1) !== 'done') logs = (await widget.getByTestId('failure-logs').textContent().catch(() => '')) ?? '';
  assert.equal(seen.at(-1), 'done', `${who}'s run ended "${seen.at(-1)}"${logs ? `\n${logs}` : ''}`);
  const points = Number(await widget.getByTestId('qps-chart').getAttribute('data-points'));
  assert.ok(points >= 3, `${who}'s QPS chart has ${points} points, expected ≥ 3`);
  await widget.getByTestId('run-results').waitFor();
}

function assertNoConsoleErrors() {
  for (const [name, { errors }] of pages) assert.deepEqual(errors, [], `${name}'s browser console stayed free of errors`);
}

test('a class: the instructor opens it, two students join and run, a stranger may not', { timeout: RUN_TIMEOUT_MS + 120_000 }, async () => {
  await withFailureScreenshots(classroom);
});

async function classroom() {
  const started = Date.now();

  // ── The instructor logs in and creates a class ──────────────────────────────────────────
  const instructor = await newPerson('instructor');
  await instructor.goto(`${BASE_URL}/#/login`, { waitUntil: 'domcontentloaded' });
  await instructor.getByLabel('Name', { exact: true }).fill(INSTRUCTOR);
  await instructor.getByLabel('Password').fill(PASSWORD);
  await instructor.getByRole('button', { name: 'Log in' }).click();
  await instructor.getByRole('heading', { level: 1, name: 'Your classes' }).waitFor({ timeout: 15_000 });
  assert.match(instructor.url(), /#\/classes$/);
  assert.equal((await instructor.getByTestId('account-name').textContent())?.trim(), `${INSTRUCTOR} (instructor)`);

  await instructor.getByLabel('New class').fill(CLASS_NAME);
  await instructor.getByRole('button', { name: 'Create class' }).click();
  const card = instructor.getByTestId('class-card').filter({ hasText: CLASS_NAME }).first();
  await card.waitFor({ timeout: 10_000 });
  const code = ((await card.getByTestId('join-code').textContent()) ?? '').trim();
  assert.match(code, /^[A-Z2-9]{4}-[A-Z2-9]{4}$/, `a join code like K7QX-M4TP (got "${code}")`);
  const joinLink = (await card.getByTestId('join-link').getAttribute('href')) ?? '';
  assert.equal(joinLink, `${BASE_URL}/#/join?code=${code}`);
  assert.match((await card.getByTestId('class-students').textContent()) ?? '', /^0 students$/);
  console.log(`# class "${CLASS_NAME}" created with code ${code}`);

  // ── Student 1 joins through the link, which carries the code ─────────────────────────────
  const ada = await newPerson('ada');
  await ada.goto(joinLink, { waitUntil: 'domcontentloaded' });
  assert.equal(await ada.getByLabel('Join code').inputValue(), code, 'the link pre-fills the code');
  await ada.getByLabel('Your name').fill('Ada');
  await ada.getByRole('button', { name: 'Join' }).click();
  await ada.getByTestId('lesson-list').waitFor({ timeout: 15_000 }); // the course home
  assert.equal((await ada.getByTestId('account-name').textContent())?.trim(), `Ada · ${CLASS_NAME}`);

  // ── Student 2 types the code, first with a name already taken ───────────────────────────
  const linus = await newPerson('linus', { expectedStatuses: [422] });
  await linus.goto(`${BASE_URL}/#/join`, { waitUntil: 'domcontentloaded' });
  await linus.getByLabel('Join code').fill(code.toLowerCase());
  await linus.getByLabel('Your name').fill('Ada');
  await linus.getByRole('button', { name: 'Join' }).click();
  const refusal = linus.getByTestId('form-error');
  await refusal.waitFor({ timeout: 10_000 });
  assert.match((await refusal.textContent()) ?? '', /already joined as 'Ada'/);
  assert.match(linus.url(), /#\/join$/, 'a refused join stays on the form');
  await linus.screenshot({ path: join(ARTIFACTS, 'classroom-join-taken.png') });
  await linus.getByLabel('Your name').fill('Linus');
  await linus.getByRole('button', { name: 'Join' }).click();
  await linus.getByTestId('lesson-list').waitFor({ timeout: 15_000 });
  assert.equal((await linus.getByTestId('account-name').textContent())?.trim(), `Linus · ${CLASS_NAME}`);

  // ── Both run the first lesson's experiment at once: one waits for the other ─────────────
  const adaWidget = await openLessonWidget(ada);
  const linusWidget = await openLessonWidget(linus);
  await pressRunLive(ada, adaWidget);
  await pressRunLive(linus, linusWidget);
  const runsStarted = Date.now();
  const [adaSeen, linusSeen] = await Promise.all([followRun(ada, adaWidget), followRun(linus, linusWidget, join(ARTIFACTS, 'classroom-queued.png'))]);
  console.log(`# Ada's run: ${adaSeen.join(' → ')}`);
  console.log(`# Linus's run: ${linusSeen.join(' → ')}`);
  console.log(`# both runs took ${((Date.now() - runsStarted) / 1000).toFixed(1)} s`);
  await assertRunDone(adaWidget, adaSeen, 'Ada');
  await assertRunDone(linusWidget, linusSeen, 'Linus');
  // The second run waited for the first, its place and the estimated wait on show.
  assert.ok(
    linusSeen.some((s) => /^\d+(st|nd|rd|th) in the queue, about \d+ (s|min)$/.test(s)),
    `Linus's run showed its place in the queue and its wait (states: ${linusSeen.join(' → ')})`,
  );
  await adaWidget.screenshot({ path: join(ARTIFACTS, 'classroom-student-widget.png') });
  await scrollThroughPage(ada); // every diagram drawn for the full-page picture
  await ada.screenshot({ path: join(ARTIFACTS, 'classroom-student-lesson.png'), fullPage: true });

  // ── A browser with no session sees the way to join instead of Run ───────────────────────
  const stranger = await newPerson('stranger');
  const strangerWidget = await openLessonWidget(stranger);
  const gate = strangerWidget.getByTestId('run-gate');
  await gate.waitFor({ timeout: 10_000 });
  const gateLink = gate.getByRole('link', { name: 'Join your class to run benchmarks' });
  assert.equal(await gateLink.getAttribute('href'), '#/join');
  assert.equal(await strangerWidget.getByRole('button', { name: /Run/ }).count(), 0, 'no Run button without a session');
  const strangerNav = stranger.getByTestId('account-nav');
  await strangerNav.getByRole('link', { name: 'Join a class' }).waitFor();
  await strangerNav.getByRole('link', { name: 'Instructor login' }).waitFor();
  await strangerWidget.screenshot({ path: join(ARTIFACTS, 'classroom-join-note.png') });
  await gateLink.click();
  await stranger.getByRole('heading', { level: 1, name: 'Join a class' }).waitFor({ timeout: 10_000 });

  // ── Back on the projector: two students ─────────────────────────────────────────────────
  await instructor.reload({ waitUntil: 'domcontentloaded' });
  await card.waitFor({ timeout: 10_000 });
  assert.match((await card.getByTestId('class-students').textContent()) ?? '', /^2 students$/);
  await instructor.screenshot({ path: join(ARTIFACTS, 'classroom-classes.png'), fullPage: true });

  // ── A student may not see the instructor's classes; logging out ends the session ────────
  await ada.goto(`${BASE_URL}/#/classes`, { waitUntil: 'domcontentloaded' });
  await ada.getByTestId('classes-not-instructor').waitFor({ timeout: 10_000 });
  await ada.getByRole('button', { name: 'Log out' }).click();
  await ada.getByTestId('account-nav').getByRole('link', { name: 'Join a class' }).waitFor({ timeout: 10_000 });

  assertNoConsoleErrors();
  console.log(`# classroom scenario took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
