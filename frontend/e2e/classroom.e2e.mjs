// End-to-end: a class taught live, in real Chromium against the real course in classroom mode
// (`make test-compose` runs it on the hosting stack, docker-compose.yml, the stack its other
// tests use: backend/tests/compose/test_compose_stack.py). Four people at once, each
// in a browser context of their own: the instructor logs in, creates a class and opens its page
// (join code, link and QR code); three students join (one through the link's ?code=, one first
// with a name already taken); all three run the first lesson's experiment at once and the
// class's queue takes them in turn; the instructor presents the experiment and runs it, and
// every student's follow panel draws it live on whatever page they are on (one reloads and
// picks it up); the class board names all three beside the reference; the instructor ends the
// class and a late join is refused with the reason. A browser with no session sees the way to
// join instead of Run. Screenshots of the instructor's page and a student's follow panel are
// kept in e2e/artifacts.
//
//   frontend/e2e/with-backend.sh 8771 classroom   (the course as make up runs it, in classroom mode)
//   E2E_BASE_URL=http://127.0.0.1:8771 E2E_INSTRUCTOR=Grace E2E_PASSWORD=… npm run e2e:classroom
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { ARTIFACTS, BASE_URL } from './chromium.mjs';
import { classroomBrowser, createClass, logInAsInstructor, waitFor, waitForCount, waitForText } from './people.mjs';
import { waitForRunEnd } from './steps.mjs';

const RUN_TIMEOUT_MS = Number(process.env.E2E_RUN_TIMEOUT_MS ?? 180_000);
const INSTRUCTOR = process.env.E2E_INSTRUCTOR ?? 'Grace';
const PASSWORD = process.env.E2E_PASSWORD ?? 'e2e-password-123';
const LESSON_URL = `${BASE_URL}/#/lessons/01-c10k-problem`;
const CLASS_NAME = 'Systems programming, e2e';

const { newPerson, withFailureScreenshots, assertNoConsoleErrors } = classroomBrowser();

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
  let shot = false;
  return waitForRunEnd(page, widget.getByTestId('run-state'), {
    timeoutMs: RUN_TIMEOUT_MS,
    pollMs: 100,
    onState: async (text) => {
      if (!queuedShot || shot || !/ in the queue, about /.test(text)) return;
      shot = true;
      await widget.locator('header').screenshot({ path: queuedShot }).catch(() => undefined);
    },
  });
}

async function assertRunDone(widget, seen, who) {
  let logs = '';
  if (seen.at(-1) !== 'done') logs = (await widget.getByTestId('failure-logs').textContent().catch(() => '')) ?? '';
  assert.equal(seen.at(-1), 'done', `${who}'s run ended "${seen.at(-1)}"${logs ? `\n${logs}` : ''}`);
  const points = Number(await widget.getByTestId('qps-chart').getAttribute('data-points'));
  assert.ok(points >= 3, `${who}'s QPS chart has ${points} points, expected ≥ 3`);
  await widget.getByTestId('run-results').waitFor();
}

test('a class taught live: join, run, queue, present, board, end', { timeout: 2 * RUN_TIMEOUT_MS + 180_000 }, async () => {
  await withFailureScreenshots('classroom', classroom);
});

async function classroom() {
  const started = Date.now();

  // ── The instructor logs in and creates a class ──────────────────────────────────────────
  const instructor = await newPerson('instructor');
  await logInAsInstructor(instructor, INSTRUCTOR, PASSWORD);
  assert.match(instructor.url(), /#\/classes$/);
  assert.equal((await instructor.getByTestId('account-name').textContent())?.trim(), `${INSTRUCTOR} (instructor)`);

  const { card, code, joinLink } = await createClass(instructor, CLASS_NAME);
  assert.match(code, /^[A-Z2-9]{5}-[A-Z2-9]{5}$/, `a join code like K7QXM-4TPRW (got "${code}")`);
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

  // ── A third student; the instructor opens the class page on the projector ───────────────
  const cy = await newPerson('cy');
  await cy.goto(`${BASE_URL}/#/join`, { waitUntil: 'domcontentloaded' });
  await cy.getByLabel('Join code').fill(code);
  await cy.getByLabel('Your name').fill('Cy');
  await cy.getByRole('button', { name: 'Join' }).click();
  await cy.getByTestId('lesson-list').waitFor({ timeout: 15_000 });

  await card.getByRole('link', { name: 'Open class' }).click();
  await instructor.getByTestId('class-page').waitFor({ timeout: 15_000 });
  assert.equal(((await instructor.getByTestId('join-code').textContent()) ?? '').trim(), code);
  const qr = instructor.getByTestId('join-qr');
  await qr.waitFor({ timeout: 10_000 });
  const qrBox = await qr.boundingBox();
  assert.ok(qrBox && qrBox.width >= 200, `a QR code large enough for a projector (${qrBox?.width} px wide)`);
  const roster = instructor.getByTestId('roster-row');
  await waitForCount(roster, 3, 'three students on the roster');
  // Every student's page holds the class stream open: all three are online.
  await waitForText(instructor.getByTestId('roster-count'), (t) => /^3 of 3 online/.test(t.trim()), 'three online');

  // ── All three run the first lesson's experiment at once: the queue takes them in turn ──
  const students = [
    { name: 'Ada', page: ada },
    { name: 'Linus', page: linus },
    { name: 'Cy', page: cy },
  ];
  for (const student of students) student.widget = await openLessonWidget(student.page);
  for (const student of students) await pressRunLive(student.page, student.widget);
  const runsStarted = Date.now();
  const queue = instructor.getByTestId('queue');
  await waitForText(queue, (t) => ['Ada', 'Linus', 'Cy'].every((n) => t.includes(n)), "the class's queue lists the three runs");
  const seen = await Promise.all(
    students.map((s, i) => followRun(s.page, s.widget, i === 2 ? join(ARTIFACTS, 'classroom-queued.png') : undefined)),
  );
  console.log(`# the three runs took ${((Date.now() - runsStarted) / 1000).toFixed(1)} s`);
  for (const [i, student] of students.entries()) {
    console.log(`# ${student.name}'s run: ${seen[i].join(' → ')}`);
    await assertRunDone(student.widget, seen[i], student.name);
  }
  // Someone waited behind the others, told their place and the wait.
  assert.ok(
    seen.some((states) => states.some((s) => /^Waiting: number \d+ in the queue, about \d+ (s|min)$/.test(s))),
    `a run showed its place in the queue and its wait (states: ${seen.map((x) => x.join(' → ')).join(' | ')})`,
  );
  await waitForText(queue, (t) => (t.match(/done/g) ?? []).length >= 3, 'three runs done in the queue');

  // ── The instructor presents the experiment and runs it: every student follows live ─────
  const teacherLesson = await newPerson('instructor-lesson', { context: instructor.context() });
  const teacherWidget = await openLessonWidget(teacherLesson);
  await teacherWidget.getByRole('button', { name: 'Present' }).click();
  await teacherWidget.getByTestId('presenting').waitFor({ timeout: 10_000 });
  for (const { page } of students) await page.goto(`${BASE_URL}/#/`, { waitUntil: 'domcontentloaded' });
  for (const student of students) {
    student.panel = student.page.getByTestId('follow-panel');
    await student.panel.waitFor({ timeout: 15_000 });
    await waitForText(student.page.getByTestId('follow-title'), (t) => t.length > 0, `${student.name}'s panel names it`);
  }
  await pressRunLive(teacherLesson, teacherWidget);
  // The panels fill as the instructor's run measures, on whatever page each student is.
  for (const student of students) {
    const chart = student.panel.getByTestId('qps-chart');
    await chart.waitFor({ timeout: RUN_TIMEOUT_MS });
    await waitFor(
      async () => Number(await chart.getAttribute('data-points')) >= 1,
      RUN_TIMEOUT_MS,
      `${student.name}'s follow panel draws the presented run's points`,
    );
  }
  await students[0].panel.screenshot({ path: join(ARTIFACTS, 'classroom-follow-panel-live.png') });
  const teacherSeen = await followRun(teacherLesson, teacherWidget);
  await assertRunDone(teacherWidget, teacherSeen, 'the instructor');
  for (const student of students) {
    await waitForText(student.panel.getByTestId('run-state'), (t) => t.trim() === 'done', `${student.name}'s panel shows the run done`);
  }
  await students[1].page.screenshot({ path: join(ARTIFACTS, 'classroom-student-follow-panel.png') });
  // A student who reloads picks the presentation up where it is.
  await cy.reload({ waitUntil: 'domcontentloaded' });
  await cy.getByTestId('follow-panel').getByTestId('run-state').waitFor({ timeout: 15_000 });

  // ── The class board: three named points beside the reference ────────────────────────────
  await instructor.bringToFront();
  const board = instructor.getByTestId('class-board');
  await board.scrollIntoViewIfNeeded();
  const experiment = board.getByTestId('board-experiment').first();
  await waitForText(experiment, (t) => ['Ada', 'Linus', 'Cy'].every((n) => t.includes(n)), 'the board names all three');
  await waitForCount(experiment.getByTestId('board-row'), 3, "three students' rows on the board");
  await experiment.getByTestId('board-reference-row').waitFor();
  await instructor.screenshot({ path: join(ARTIFACTS, 'classroom-instructor-class-page.png'), fullPage: true });

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

  // ── A student may not see the instructor's classes; logging out ends the session ────────
  await ada.goto(`${BASE_URL}/#/classes`, { waitUntil: 'domcontentloaded' });
  await ada.getByTestId('classes-not-instructor').waitFor({ timeout: 10_000 });
  await ada.getByRole('button', { name: 'Log out' }).click();
  await ada.getByTestId('account-nav').getByRole('link', { name: 'Join a class' }).waitFor({ timeout: 10_000 });

  // ── The instructor ends the class: its code admits nobody, with a reason ────────────────
  instructor.once('dialog', (dialog) => void dialog.accept());
  await instructor.getByRole('button', { name: 'End class' }).click();
  await waitForText(instructor.getByTestId('class-header'), (t) => /ended/i.test(t), 'the class page says it ended');
  const late = await newPerson('late', { expectedStatuses: [410] });
  await late.goto(joinLink, { waitUntil: 'domcontentloaded' });
  await late.getByLabel('Your name').fill('Dee');
  await late.getByRole('button', { name: 'Join' }).click();
  const ended = late.getByTestId('form-error');
  await ended.waitFor({ timeout: 10_000 });
  assert.match((await ended.textContent()) ?? '', /has ended; its code no longer admits anyone/);

  assertNoConsoleErrors();
  console.log(`# classroom scenario took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
