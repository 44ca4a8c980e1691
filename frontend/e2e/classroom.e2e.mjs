/* global window, document, requestAnimationFrame */
// End-to-end: a class taught live, in real Chromium against the real course in classroom mode
// (`make test-compose` runs it on the hosting stack, docker-compose.yml, the stack its other
// tests use: backend/tests/compose/test_compose_stack.py). Four people at once, each
// in a browser context of their own: the instructor logs in on the host (at 127.0.0.1),
// creates a class and opens its page (join code, link and QR code): the link is on the host's
// network address, and one student opens it from a network namespace of their own (a room's
// network, e2e/room.mjs, from which the host's loopback is out of reach). Three students join
// (one through the link's ?code=, one first with a name already taken in another case), each
// shown their personal code; all three run the first lesson's experiment at once and the
// class's queue takes them in turn; the instructor presents the experiment and runs it, and
// every student's follow panel draws it live on whatever page they are on (one reloads and
// picks it up); the class board names all three beside the reference. A student comes back on
// a second device with their personal code; one is removed, told so, refused under their name,
// let back in and comes back. The instructor ends the class: a late join is refused with the
// reason, and a student keeps read-only access to their results. A browser with no session
// sees the way to join instead of Run. Screenshots are kept in e2e/artifacts.
//
//   frontend/e2e/with-backend.sh 8771 classroom   (the course as make up runs it, in classroom mode)
//   E2E_BASE_URL=http://127.0.0.1:8771 E2E_INSTRUCTOR=Grace E2E_PASSWORD=… npm run e2e:classroom
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { ARTIFACTS, BASE_URL } from './chromium.mjs';
import {
  classroomBrowser,
  createClass,
  joinAs,
  logInAsInstructor,
  openClass,
  waitFor,
  waitForCount,
  waitForText,
} from './people.mjs';
import { waitForRunEnd } from './steps.mjs';

const RUN_TIMEOUT_MS = Number(process.env.E2E_RUN_TIMEOUT_MS ?? 180_000);
const INSTRUCTOR = process.env.E2E_INSTRUCTOR ?? 'Grace';
const PASSWORD = process.env.E2E_PASSWORD ?? 'e2e-password-123';
const LESSON_PATH = '/#/lessons/01-c10k-problem';
const CLASS_NAME = 'Systems programming, e2e';

const { newPerson, withFailureScreenshots, assertNoConsoleErrors } = classroomBrowser({ room: true });

/** Opens the first lesson and its first experiment widget (loaded when scrolled near), on the
 *  course at `base` (the address the person reaches it by). `fresh`: nobody here ran it yet,
 *  so the widget shows the recorded reference. */
async function openLessonWidget(page, base = BASE_URL, { fresh = true } = {}) {
  await page.goto(`${base}${LESSON_PATH}`, { waitUntil: 'domcontentloaded' });
  await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 15_000 });
  const widget = page.locator('.prose section.experiment').first(); // not the follow panel's
  // Diagrams wait for the reader the same way: scroll to the widget's own placeholder.
  const placeholder = page.getByTestId('not-yet-loaded').filter({ hasText: 'Benchmark widget' }).first();
  await widget.or(placeholder).first().waitFor({ timeout: 15_000 }); // the lesson's Markdown is drawn
  if ((await placeholder.count()) > 0) await placeholder.scrollIntoViewIfNeeded();
  await widget.waitFor({ timeout: 15_000 });
  await widget.scrollIntoViewIfNeeded();
  if (!fresh) return widget;
  // The recorded reference result is on show before anything runs, for everyone.
  await widget.getByTestId('baseline-note').waitFor({ timeout: 15_000 });
  await widget.getByTestId('run-results').waitFor();
  return widget;
}

/** Clicks "Run benchmark" once it is enabled (health checked, catalog loaded). */
async function pressRun(page, widget) {
  const button = widget.getByRole('button', { name: 'Run benchmark' });
  try {
    await page.waitForFunction((b) => b && !b.disabled, await button.elementHandle(), { timeout: 20_000 });
  } catch {
    const reason = await widget.getByTestId('run-blocked').textContent().catch(() => null);
    throw new Error(`"Run benchmark" stayed disabled: ${reason ?? 'no reason shown'}`);
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

/** On the join page: "Been here before", the class's code and a personal code, then the course. */
async function comeBack(page, code, personalCode) {
  await page.goto(`${BASE_URL}/#/join?code=${code}`, { waitUntil: 'domcontentloaded' });
  await page.getByRole('button', { name: 'Been here before' }).click();
  await page.getByLabel('Your personal code').fill(personalCode);
  await page.getByRole('button', { name: 'Come back' }).click();
  await page.getByTestId('lesson-list').waitFor({ timeout: 15_000 });
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

  const { card, code } = await createClass(instructor, CLASS_NAME);
  assert.match(code, /^[A-Z2-9]{5}-[A-Z2-9]{5}$/, `a join code like K7QXM-4TPRW (got "${code}")`);
  assert.match((await card.getByTestId('class-students').textContent()) ?? '', /^0 students$/);
  console.log(`# class "${CLASS_NAME}" created with code ${code}`);

  // ── The class page on the projector: a join link the room can reach ─────────────────────
  const joinLink = await openClass(instructor, card);
  const classId = instructor.url().split('/classes/')[1];
  const room = new URL(joinLink);
  assert.equal(room.hash, `#/join?code=${code}`);
  assert.ok(!/^(127\.|localhost$|\[::1\]$)/.test(room.hostname), `the link names the host's network address, not ${room.hostname}`);
  // Opened at 127.0.0.1, the page says why the link names another address.
  await instructor.getByTestId('join-link-note').waitFor({ timeout: 10_000 });
  assert.equal(await instructor.getByTestId('join-link-warning').count(), 0, 'no warning: the room can reach it');
  assert.equal(((await instructor.getByTestId('join-code').textContent()) ?? '').trim(), code);
  const qr = instructor.getByTestId('join-qr');
  await qr.waitFor({ timeout: 10_000 });
  assert.match((await qr.getAttribute('alt')) ?? '', new RegExp(`${room.host.replace(/[.[\]]/g, '\\$&')}`), 'the QR code carries that link');
  const qrBox = await qr.boundingBox();
  assert.ok(qrBox && qrBox.width >= 200, `a QR code large enough for a projector (${qrBox?.width} px wide)`);

  // ── Student 1 joins from the room's network through the link, which carries the code ────
  const ada = await newPerson('ada', { inRoom: true });
  // The room is a network apart: the host's loopback, where the instructor's page is, is not there.
  // (A page's goto, not page.request: Playwright's requests leave from this process, not the
  // browser; and a page of its own, whose error page cannot cut into Ada's next navigation.)
  const probe = await ada.context().newPage();
  await assert.rejects(probe.goto(`${BASE_URL}/api/health`, { timeout: 10_000 }), /ERR_CONNECTION_REFUSED|ERR_ADDRESS_UNREACHABLE/);
  await probe.close();
  await ada.goto(joinLink, { waitUntil: 'domcontentloaded' });
  assert.equal(await ada.getByLabel('Join code').inputValue(), code, 'the link pre-fills the code');
  const adaCode = await joinAs(ada, 'Ada');
  assert.equal((await ada.getByTestId('account-name').textContent())?.trim(), `Ada · ${CLASS_NAME}`);

  // ── Student 2 types the code, first with a name already taken in another case ───────────
  const linus = await newPerson('linus', { expectedStatuses: [422] });
  await linus.goto(`${BASE_URL}/#/join`, { waitUntil: 'domcontentloaded' });
  await linus.getByLabel('Join code').fill(code.toLowerCase());
  await linus.getByLabel('Your name').fill('ADA');
  await linus.getByRole('button', { name: 'Join' }).click();
  const refusal = linus.getByTestId('form-error');
  await refusal.waitFor({ timeout: 10_000 });
  assert.match((await refusal.textContent()) ?? '', /already joined as “Ada”, which is “ADA” whatever the case/);
  assert.match(linus.url(), /#\/join$/, 'a refused join stays on the form');
  await linus.screenshot({ path: join(ARTIFACTS, 'classroom-join-taken.png') });
  await joinAs(linus, 'Linus');
  assert.equal((await linus.getByTestId('account-name').textContent())?.trim(), `Linus · ${CLASS_NAME}`);

  // ── A third student ────────────────────────────────────────────────────────────────────
  const cy = await newPerson('cy', { expectedStatuses: [401, 409] });
  await cy.goto(`${BASE_URL}/#/join`, { waitUntil: 'domcontentloaded' });
  await cy.getByLabel('Join code').fill(code);
  const cyCode = await joinAs(cy, 'Cy');

  const roster = instructor.getByTestId('roster-row');
  await waitForCount(roster, 3, 'three students on the roster');
  // Every student's page holds the class stream open: all three are online.
  await waitForText(instructor.getByTestId('roster-count'), (t) => /^3 of 3 online/.test(t.trim()), 'three online');

  // ── All three run the first lesson's experiment at once: the queue takes them in turn ──
  const students = [
    { name: 'Ada', page: ada, base: room.origin },
    { name: 'Linus', page: linus, base: BASE_URL },
    { name: 'Cy', page: cy, base: BASE_URL },
  ];
  for (const student of students) student.widget = await openLessonWidget(student.page, student.base);
  for (const student of students) await pressRun(student.page, student.widget);
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
  for (const { page, base } of students) await page.goto(`${base}/#/`, { waitUntil: 'domcontentloaded' });
  for (const student of students) {
    student.panel = student.page.getByTestId('follow-panel');
    await student.panel.waitFor({ timeout: 15_000 });
    await waitForText(student.page.getByTestId('follow-title'), (t) => t.length > 0, `${student.name}'s panel names it`);
  }
  // The instructor's second screen, in Chinese, names what is presented in Chinese: the stream carries the
  // titles in every language, and each reader reads their own.
  const inChinese = await newPerson('instructor-zh');
  await logInAsInstructor(inChinese, INSTRUCTOR, PASSWORD);
  await inChinese.evaluate(() => localStorage.setItem('c10klab.language', 'zh'));
  await inChinese.goto(`${BASE_URL}/#/classes/${classId}`, { waitUntil: 'domcontentloaded' });
  await inChinese.reload({ waitUntil: 'domcontentloaded' });
  await waitForText(inChinese.getByTestId('presentation-what'), (t) => t.includes('C10K 问题'), 'the presented lesson titled in Chinese');
  assert.ok(!((await inChinese.getByTestId('presentation-what').textContent()) ?? '').includes('The C10K problem'));
  await inChinese.context().close();
  // Presented before its run, the experiment shows its recorded reference: a chart already.
  for (const student of students) {
    await student.panel.getByTestId('presented-reference').getByTestId('qps-chart').waitFor({ timeout: 15_000 });
  }
  // Docked at 1366 px, the panel covers neither the lesson's experiment nor the header's controls.
  await openLessonWidget(linus, BASE_URL, { fresh: false });
  const layout = await linus.evaluate(async () => {
    const box = (selector) => document.querySelector(selector)?.getBoundingClientRect();
    const widget = box('.prose section.experiment');
    // The header's controls, at the top of the page, where the reader finds them.
    window.scrollTo(0, 0);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const panel = box('[data-testid="follow-panel"]');
    const header = box('.site-header');
    const language = document.querySelector('.site-header select');
    const at = language?.getBoundingClientRect();
    const onTop = at ? document.elementFromPoint(at.left + at.width / 2, at.top + at.height / 2) : null;
    const stuck = [...document.querySelectorAll('[data-testid="live-strip"] button')].at(-1);
    const hand = stuck?.getBoundingClientRect();
    const handFree = hand ? document.elementFromPoint(hand.left + hand.width / 2, hand.top + hand.height / 2) === stuck : false;
    return { panelLeft: panel?.left, panelTop: panel?.top, widgetRight: widget?.right, headerBottom: header?.bottom, languageFree: onTop === language, handFree };
  });
  assert.ok(layout.widgetRight <= layout.panelLeft + 1, `the experiment ends (${layout.widgetRight}) before the panel begins (${layout.panelLeft})`);
  assert.ok(layout.panelTop >= layout.headerBottom - 1, `the panel starts (${layout.panelTop}) under the header (${layout.headerBottom})`);
  assert.ok(layout.languageFree, "the header's language switch is not under the panel");
  assert.ok(layout.handFree, "the banner's I'm stuck is not under the panel");
  await linus.screenshot({ path: join(ARTIFACTS, 'classroom-follow-panel-docked.png') });
  await linus.goto(`${BASE_URL}/#/`, { waitUntil: 'domcontentloaded' });
  students[1].panel = linus.getByTestId('follow-panel');
  await students[1].panel.waitFor({ timeout: 15_000 });
  await pressRun(teacherLesson, teacherWidget);
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

  // ── The board on the projector: full screen, who has not run, the spread's count ─────────
  const projector = await newPerson('projector', { context: instructor.context() });
  await projector.goto(`${BASE_URL}/#/classes/${classId}/board`, { waitUntil: 'domcontentloaded' });
  const boardPage = projector.getByTestId('class-board-page');
  await boardPage.getByTestId('board-experiment').first().waitFor({ timeout: 15_000 });
  await projector.getByTestId('board-full-screen').click();
  await waitFor(async () => projector.evaluate(() => document.fullscreenElement?.dataset.testid === 'class-board-page'), 10_000, 'the board goes full screen');
  // Each of the three results is counted or left out, by its own checks: on a host whose
  // measured cores run this browser too, runs are disturbed, and the spread says so.
  await waitForText(
    boardPage.getByTestId('board-spread-row').first(),
    (t) => {
      const [, counted, leftOut] = /(\d+) counted; (\d+) left out/.exec(t) ?? [];
      return Number(counted) + Number(leftOut) === 3;
    },
    'the spread says what it counts and what it leaves out',
  );
  await projector.screenshot({ path: join(ARTIFACTS, 'classroom-projector-board.png') });
  await projector.getByTestId('board-full-screen').click();
  await projector.close();

  // ── Live-class tools: a timer and an announcement on every screen, a raised hand ─────────
  const livePanel = instructor.getByTestId('live-panel');
  await livePanel.scrollIntoViewIfNeeded();
  const timerForm = livePanel.getByRole('form', { name: 'Timer' });
  await timerForm.getByLabel('Minutes').fill('3');
  await timerForm.getByLabel('For (optional)').fill('Exercise');
  await timerForm.getByRole('button', { name: 'Start' }).click();
  const announceForm = livePanel.getByRole('form', { name: 'Announce to the class' });
  await announceForm.getByLabel('Announcement').fill('Look at the p99 column');
  await announceForm.getByRole('button', { name: 'Send' }).click();
  for (const student of students) {
    await waitForText(student.page.getByTestId('class-timer'), (t) => /^Exercise: [23]:\d\d left$/.test(t), `${student.name} sees the timer`);
    await waitForText(student.page.getByTestId('announcement'), (t) => t.includes('Look at the p99 column'), `${student.name} sees the note`);
  }
  // Linus is stuck on the lesson's first experiment: his hand goes up on the roster, with where.
  await openLessonWidget(linus, BASE_URL, { fresh: false });
  const stuckHere = linus.getByRole('button', { name: "I'm stuck here" }).first();
  await stuckHere.scrollIntoViewIfNeeded();
  await stuckHere.click();
  await linus.getByTestId('hand-up').first().waitFor({ timeout: 10_000 });
  const handMark = instructor.getByTestId('hand-mark');
  await waitForText(handMark, (t) => t.includes('stuck on The C10K problem · '), "Linus's hand on the roster", 15_000);
  await waitForText(instructor.getByTestId('roster-count'), (t) => t.includes('1 hand up'), 'one hand counted');
  await instructor.getByTestId('roster').screenshot({ path: join(ARTIFACTS, 'classroom-raised-hand.png') });

  // ── Check yourself in class: answers hidden until the instructor reveals them ───────────
  const question = linus.getByRole('group', { name: 'Question 2 in class' });
  await question.scrollIntoViewIfNeeded();
  const check = linus.locator('h2', { hasText: 'Check yourself' }).locator('xpath=following-sibling::*[1]');
  assert.doesNotMatch((await check.textContent()) ?? '', /FD_SETSIZE/, "the lesson's answer is not in the student's page");
  await question.getByLabel('Your answer').fill('No: it is glibc’s fd_set size');
  await question.getByRole('button', { name: 'Send my answer' }).click();
  await question.getByTestId('answer-sent').waitFor({ timeout: 10_000 });
  const teacherQuestion = teacherLesson.getByRole('group', { name: 'Question 2 in class' });
  await teacherLesson.bringToFront();
  await teacherQuestion.scrollIntoViewIfNeeded();
  await waitForText(teacherQuestion.getByTestId('class-answers'), (t) => t.includes('Linus: No: it is glibc’s fd_set size'), "the instructor sees Linus's answer", 15_000);
  await teacherQuestion.getByRole('button', { name: 'Reveal the answer to the class' }).click();
  await waitForText(check, (t) => /FD_SETSIZE/.test(t), "the revealed answer on Linus's page", 15_000);
  await instructor.bringToFront();
  await handMark.getByRole('button', { name: /^Lower/ }).click();
  await waitForCount(instructor.getByTestId('hand-mark'), 0, 'the hand lowered');
  await livePanel.getByRole('button', { name: 'Stop', exact: true }).click();
  await livePanel.getByText('No timer is running.').waitFor({ timeout: 10_000 });

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

  // ── A student may not see the instructor's classes; signing out ends this browser's session ─
  await ada.goto(`${room.origin}/#/classes`, { waitUntil: 'domcontentloaded' });
  await ada.getByTestId('classes-not-instructor').waitFor({ timeout: 10_000 });
  ada.once('dialog', (dialog) => void dialog.accept()); // "come back with your personal code"
  await ada.getByRole('button', { name: 'Sign out' }).click();
  await ada.getByTestId('account-nav').getByRole('link', { name: 'Join a class' }).waitFor({ timeout: 10_000 });

  // ── Ada comes back on a second device, with the class's code and her personal code ──────
  const adaPhone = await newPerson('ada-phone');
  await comeBack(adaPhone, code, adaCode);
  assert.equal((await adaPhone.getByTestId('account-name').textContent())?.trim(), `Ada · ${CLASS_NAME}`);
  await waitForText(instructor.getByTestId('roster-count'), (t) => /^\d of 3 online/.test(t.trim()), 'still three students');

  // ── Cy is removed: told so, refused under their name, let back in, and comes back ────────
  instructor.once('dialog', (dialog) => void dialog.accept());
  await instructor.getByRole('button', { name: 'Remove Cy' }).click();
  const notice = cy.getByTestId('signed-out-notice');
  await notice.waitFor({ timeout: 20_000 });
  assert.match((await notice.textContent()) ?? '', new RegExp(`The instructor removed you from ${CLASS_NAME}`));
  await cy.screenshot({ path: join(ARTIFACTS, 'classroom-removed-notice.png') });
  await notice.getByRole('button', { name: 'OK' }).click();
  await cy.goto(`${BASE_URL}/#/join?code=${code}`, { waitUntil: 'domcontentloaded' });
  await cy.getByLabel('Your name').fill('cy');
  await cy.getByRole('button', { name: 'Join' }).click();
  await waitForText(cy.getByTestId('form-error'), (t) => /“Cy” was removed from .+ by its instructor; if that is you, ask them to let you back in/.test(t), "Cy's name stays hers");
  await instructor.getByRole('button', { name: 'Let Cy back in' }).click();
  await waitForCount(instructor.getByTestId('roster-row'), 3, 'Cy back on the roster');
  await comeBack(cy, code, cyCode);
  assert.equal((await cy.getByTestId('account-name').textContent())?.trim(), `Cy · ${CLASS_NAME}`);

  // ── The instructor ends the class: its code admits nobody, with a reason ────────────────
  instructor.once('dialog', (dialog) => void dialog.accept());
  await instructor.getByRole('button', { name: 'End class' }).click();
  await waitForText(instructor.getByTestId('class-header'), (t) => /ended/i.test(t), 'the class page says it ended');
  // Said in the reader's language: the API sends the refusal's code, the page words it.
  const late = await newPerson('late', { expectedStatuses: [410] });
  await late.goto(joinLink, { waitUntil: 'domcontentloaded' });
  await late.evaluate(() => localStorage.setItem('c10klab.language', 'zh'));
  await late.reload({ waitUntil: 'domcontentloaded' });
  await late.getByLabel('你的名字').fill('Dee');
  await late.getByRole('button', { name: '加入', exact: true }).click();
  const ended = late.getByTestId('form-error');
  await ended.waitFor({ timeout: 10_000 });
  assert.match((await ended.textContent()) ?? '', new RegExp(`班级“${CLASS_NAME}”已结束；它的加入码不再接受任何人加入`));

  // ── ...and its students keep their results, read-only, for the week it was given ─────────
  const endedNote = adaPhone.getByTestId('class-ended-note');
  await endedNote.waitFor({ timeout: 20_000 });
  assert.match((await endedNote.textContent()) ?? '', /stay readable until .+; nothing new runs/);
  const csv = await adaPhone.request.get(`${BASE_URL}/api/progress/results.csv`);
  assert.equal(csv.status(), 200);
  assert.match(await csv.text(), /^run_id,student,/);
  const readOnlyWidget = await openLessonWidget(adaPhone);
  const readOnlyGate = readOnlyWidget.getByTestId('run-gate');
  await readOnlyGate.waitFor({ timeout: 10_000 });
  assert.match((await readOnlyGate.textContent()) ?? '', /Your class has ended: your results stay readable in History/);
  await adaPhone.screenshot({ path: join(ARTIFACTS, 'classroom-ended-read-only.png') });

  assertNoConsoleErrors();
  console.log(`# classroom scenario took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
