/* global window */
// End-to-end: exercises assigned to a class and its gradebook, in real Chromium against the real
// course in classroom mode, with real builds and check runs (`make test-compose` runs it on the
// hosting stack: backend/tests/compose/test_compose_stack.py). The instructor logs in, creates a
// class and assigns two exercises on its page, one with a due time; a student joins and finds
// both on the course home, not tried; passes one (a solution loaded from its page) and fails the
// other (the starter as it is); the home page then says so; the instructor's gradebook shows
// passed and failed, one attempt each, and opens the failed answer's page: its source and its
// failed verdict, read-only. axe checks the Exercises section and the student's list. Screenshots
// of the gradebook and the student's list are kept in e2e/artifacts.
//
//   frontend/e2e/with-backend.sh 8771 classroom e2e:gradebook
//   E2E_BASE_URL=http://127.0.0.1:8771 E2E_INSTRUCTOR=Grace E2E_PASSWORD=… npm run e2e:gradebook
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { axeViolations } from './axe.mjs';
import { ARTIFACTS, BASE_URL } from './chromium.mjs';
import { classroomBrowser, createClass, joinAs, logInAsInstructor, openClass, waitFor } from './people.mjs';
import { checkMyAnswer, loadASolution } from './steps.mjs';

// Each check run builds, checks both protocols and measures (~15 s here); a queue may hold it.
const RUN_TIMEOUT_MS = Number(process.env.E2E_RUN_TIMEOUT_MS ?? 180_000);
const INSTRUCTOR = process.env.E2E_INSTRUCTOR ?? 'Grace';
const PASSWORD = process.env.E2E_PASSWORD ?? 'e2e-password-123';
// A store the test ran on before may hold a class of the same name: this one is new.
const CLASS_NAME = `Gradebook e2e ${Date.now().toString(36)}`;
/** Passed with a solution loaded from its page. */
const PASSED = { slug: 'select-value-result', title: 'select() rewrites its arguments' };
/** Failed with the starter as it is; assigned with a due time. */
const FAILED = { slug: 'et-drain', title: 'Edge-triggered epoll: read until EAGAIN', starterLine: 'one read per event' };
/** The gradebook refreshes every 10 s; a check run may finish just after one. */
const GRADEBOOK_WAIT_MS = 45_000;

const { newPerson, withFailureScreenshots, assertNoConsoleErrors } = classroomBrowser();

/** A datetime-local value (the browser's wall clock) `hours` from now. */
function inputValueIn(hours) {
  const at = new Date(Date.now() + hours * 3600_000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** Assigns `slug` with the class page's form, optionally due at a datetime-local `due`. */
async function assign(section, slug, due = null) {
  const form = section.getByRole('form', { name: 'Assign an exercise' });
  await form.getByLabel('Exercise').selectOption(slug);
  if (due) await form.getByLabel('Due (optional)').fill(due);
  await form.getByRole('button', { name: 'Assign' }).click();
  await section.locator(`[data-testid="assignment"][data-exercise="${slug}"]`).waitFor({ timeout: 10_000 });
}

/** The student's assigned exercise `slug` on the course home. */
function assignedItem(page, slug) {
  return page.locator(`[data-testid="assigned-exercise"][data-exercise="${slug}"]`);
}

/** Opens exercise `title` from the student's list on the home page; waits for its editor. */
async function openAssigned(page, title) {
  await page.goto(`${BASE_URL}/#/`, { waitUntil: 'domcontentloaded' });
  const list = page.getByRole('region', { name: 'Your assigned exercises' });
  await list.getByRole('link', { name: title }).click();
  await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 15_000 });
  await page.getByRole('textbox', { name: /^Your answer: / }).waitFor({ timeout: 15_000 });
}

/** Scrolls an answer's changes (CodeMirror draws only the lines in view) until `text` shows. */
async function sourceShows(diff, text) {
  await diff.scrollIntoViewIfNeeded();
  const scroller = diff.locator('.cm-scroller').first();
  await waitFor(
    async () => {
      if (((await diff.textContent()) ?? '').includes(text)) return true;
      await scroller.evaluate((el) => {
        el.scrollTop += el.clientHeight / 2;
      });
      return false;
    },
    15_000,
    `the answer's source shows "${text}"`,
  );
}

test('exercises assigned, one passed and one failed, both in the gradebook', { timeout: 2 * RUN_TIMEOUT_MS + 180_000 }, async () => {
  await withFailureScreenshots('gradebook', gradebook);
});

/** Changes an assigned exercise's due time in the class's list (`value`: the picker's text;
 *  null: "No due time") and waits until the list has been read again. */
async function changeDue(section, title, value) {
  await section.getByRole('button', { name: `Change due time of ${title}` }).click();
  const editor = section.getByTestId('due-editor');
  if (value === null) {
    await editor.getByRole('button', { name: `No due time for ${title}` }).click();
  } else {
    await editor.getByLabel('New due time').fill(value);
    await editor.getByRole('button', { name: `Save the due time of ${title}` }).click();
  }
  await editor.waitFor({ state: 'detached', timeout: 15_000 });
}

async function gradebook() {
  const started = Date.now();

  // ── The instructor creates a class and assigns two exercises, one with a due time ──────────
  const instructor = await newPerson('instructor', { bypassCSP: true });
  await logInAsInstructor(instructor, INSTRUCTOR, PASSWORD);
  const { card, code } = await createClass(instructor, CLASS_NAME);
  await openClass(instructor, card);
  const section = instructor.getByRole('region', { name: 'Exercises' });
  await section.getByTestId('assignments-empty').waitFor({ timeout: 15_000 });
  await assign(section, PASSED.slug);
  await assign(section, FAILED.slug, inputValueIn(24));
  const assigned = section.getByTestId('assignment');
  assert.deepEqual(await assigned.getByRole('link').allTextContents(), [PASSED.title, FAILED.title]);
  assert.equal(
    await assigned.getByRole('link', { name: FAILED.title }).getAttribute('href'),
    `#/exercises/${FAILED.slug}`,
  );
  const dues = await section.getByTestId('assignment-due').allTextContents();
  assert.equal(dues[0], 'no due time');
  assert.match(dues[1], /^due \d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/, 'the due time, in the reader’s time zone');
  // The first gets a due time too, from the list; the second's is taken off.
  await changeDue(section, PASSED.title, inputValueIn(48));
  await changeDue(section, FAILED.title, null);
  assert.match((await section.getByTestId('assignment-due').allTextContents())[0], /^due /);
  assert.equal((await section.getByTestId('assignment-due').allTextContents())[1], 'no due time');
  await changeDue(section, FAILED.title, inputValueIn(24));
  // Nobody has joined: nothing to grade yet.
  await section.getByTestId('gradebook-empty').waitFor();

  // ── A student joins and finds both on the course home, not tried ─────────────────────────
  const ada = await newPerson('ada', { bypassCSP: true });
  await ada.goto(`${BASE_URL}/#/join?code=${code}`, { waitUntil: 'domcontentloaded' });
  await joinAs(ada, 'Ada');
  const list = ada.getByRole('region', { name: 'Your assigned exercises' });
  await list.waitFor({ timeout: 15_000 });
  assert.deepEqual(await list.getByTestId('assigned-exercise').getByRole('link').allTextContents(), [PASSED.title, FAILED.title]);
  for (const { slug } of [PASSED, FAILED]) {
    assert.equal(await assignedItem(ada, slug).getAttribute('data-status'), 'none');
  }
  assert.match((await assignedItem(ada, FAILED.slug).getByTestId('assigned-due').textContent()) ?? '', /^due /);
  assert.deepEqual(await axeViolations(ada, '[data-testid="assigned-exercises"]'), [], "axe on the student's list");

  // ── She passes one with a solution loaded from its page ──────────────────────────────────
  await openAssigned(ada, PASSED.title);
  await loadASolution(ada);
  const passed = await checkMyAnswer(ada, { timeoutMs: RUN_TIMEOUT_MS });
  assert.equal(passed.status, 'passed', `the solution was judged ${passed.status}: ${JSON.stringify(passed)}`);

  // ── and fails the other with its starter as it is ────────────────────────────────────────
  await openAssigned(ada, FAILED.title);
  assert.match((await ada.getByTestId('draft-status').textContent()) ?? '', /the starter, unchanged/);
  const failed = await checkMyAnswer(ada, { timeoutMs: RUN_TIMEOUT_MS });
  assert.equal(failed.status, 'failed', `the starter was judged ${failed.status}: ${JSON.stringify(failed)}`);
  console.log(`# answers: ${PASSED.slug} ${passed.variant} passed, ${FAILED.slug} ${failed.variant} failed`);

  // ── Her home page says so ────────────────────────────────────────────────────────────────
  await ada.goto(`${BASE_URL}/#/`, { waitUntil: 'domcontentloaded' });
  await list.waitFor({ timeout: 15_000 });
  // (It shows what it knew at once, and asks again: the answers were sent from other pages.)
  await assignedItem(ada, FAILED.slug).and(ada.locator('[data-status="failed"]')).waitFor({ timeout: 15_000 });
  assert.equal(await assignedItem(ada, PASSED.slug).getAttribute('data-status'), 'passed');
  assert.match((await assignedItem(ada, PASSED.slug).textContent()) ?? '', /✓ passed · 1 attempt/);
  assert.match((await assignedItem(ada, FAILED.slug).textContent()) ?? '', /✗ failed · 1 attempt/);
  assert.equal(((await list.getByTestId('assigned-count').textContent()) ?? '').trim(), '1 of 2 passed');
  await list.screenshot({ path: join(ARTIFACTS, 'gradebook-student-home.png') });

  // ── The instructor's gradebook: passed and failed, one attempt each ──────────────────────
  await instructor.bringToFront();
  const row = section.getByTestId('gradebook-row').filter({ has: instructor.getByRole('rowheader', { name: 'Ada' }) });
  await row.waitFor({ timeout: GRADEBOOK_WAIT_MS });
  const cell = (slug) => row.locator(`[data-testid="grade-cell"][data-exercise="${slug}"]`);
  await cell(PASSED.slug).and(instructor.locator('[data-status="passed"]')).waitFor({ timeout: GRADEBOOK_WAIT_MS });
  await cell(FAILED.slug).and(instructor.locator('[data-status="failed"]')).waitFor({ timeout: GRADEBOOK_WAIT_MS });
  for (const [slug, word] of [
    [PASSED.slug, '✓ passed'],
    [FAILED.slug, '✗ failed'],
  ]) {
    assert.equal(((await cell(slug).getByTestId('grade-status').textContent()) ?? '').trim(), word);
    assert.equal(((await cell(slug).getByTestId('grade-attempts').textContent()) ?? '').trim(), '1 attempt');
  }
  assert.equal(((await row.getByTestId('gradebook-passed').textContent()) ?? '').trim(), '1 / 2');
  // The CSV, as the link downloads it with the instructor's session: a row per student and exercise.
  const href = (await section.getByTestId('gradebook-export-csv').getAttribute('href')) ?? '';
  assert.match(href, /^\/api\/classes\/[^/]+\/gradebook\.csv$/);
  const csv = await (await instructor.context().request.get(`${BASE_URL}${href}`)).text();
  const rows = csv.trim().split(/\r?\n/);
  assert.equal(rows[0], 'student,exercise,title,due_at,status,attempts,passed_at,late,last_attempt_at,failed');
  assert.ok(rows.some((r) => r.startsWith(`Ada,${PASSED.slug},`) && r.includes(',passed,1,')), `a passed row: ${csv}`);
  assert.ok(rows.some((r) => r.startsWith(`Ada,${FAILED.slug},`) && r.includes(',failed,1,')), `a failed row: ${csv}`);
  await section.scrollIntoViewIfNeeded();
  await section.screenshot({ path: join(ARTIFACTS, 'gradebook.png') });
  assert.deepEqual(
    await axeViolations(instructor, 'section[aria-labelledby="class-exercises"]'),
    [],
    "axe on the class page's Exercises section",
  );

  // ── It opens the failed answer: its source and its failed verdict, read-only ──────────────
  const newest = cell(FAILED.slug).getByRole('link', { name: `Ada’s newest answer to ${FAILED.title}` });
  assert.equal(await newest.getAttribute('href'), `#/variants/${failed.variant}`);
  await newest.click();
  await instructor.waitForFunction((id) => window.location.hash === `#/variants/${id}`, failed.variant, { timeout: 5_000 });
  const answer = instructor.getByTestId('variant-page');
  await answer.waitFor({ timeout: 15_000 });
  const exercise = answer.getByTestId('variant-exercise');
  await exercise.getByRole('link', { name: FAILED.title }).waitFor({ timeout: 15_000 });
  assert.equal(await exercise.getByTestId('verdict').getAttribute('data-status'), 'failed');
  assert.ok((await exercise.getByTestId('verdict-reasons').locator('li').count()) > 0, 'the verdict says why it failed');
  await sourceShows(answer.getByTestId('diff-view'), FAILED.starterLine);
  assert.equal(await answer.getByRole('button', { name: 'Check my answer' }).count(), 0, 'nothing to answer on it');
  await instructor.screenshot({ path: join(ARTIFACTS, 'gradebook-failed-answer.png'), fullPage: true });

  assertNoConsoleErrors();
  console.log(`# gradebook scenario took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
