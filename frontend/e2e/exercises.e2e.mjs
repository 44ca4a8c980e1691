/* global document, window */
// End-to-end: an exercise, in real Chromium against the real course with real builds and runs
// (E2E_BASE_URL). Open the exercises, open "Edge-triggered epoll: read until EAGAIN", Check my
// answer with the starter: the run fails it, with a reason; show a solution (confirmed), load
// it into the editor, Check my answer: it passes, every criterion met. Then axe on the
// exercises' list and an exercise's page, light and dark.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { axeViolations, inAxeContext } from './axe.mjs';
import { ARTIFACTS, BASE_URL, watchedBrowserPerFile } from './chromium.mjs';
import { checkMyAnswer, loadASolution, openEditor, withFailureScreenshot } from './steps.mjs';

// Each check run builds, checks both protocols and measures (~15 s here); a queue may hold it.
const RUN_TIMEOUT_MS = Number(process.env.E2E_RUN_TIMEOUT_MS ?? 120_000);
const SLUG = 'et-drain';
const TITLE = 'Edge-triggered epoll: read until EAGAIN';
const FILE = 'servers/c/epoll.c';

let browser;
let page;
let consoleErrors;
watchedBrowserPerFile((opened) => ({ browser, page, consoleErrors } = opened));

/** History names both checks by their exercise and verdict (English, then Chinese), and the
 *  passed answer's "Open in lab" opens a lab that runs that answer: named, ticked, Run enabled. */
async function historyNamesBothChecksAndOpensTheAnswerInALab(starterId, solvedId) {
  const rows = page.getByTestId('history-entry');
  const named = (outcome) => rows.filter({ has: page.getByRole('link', { name: `exercise: ${TITLE} — ${outcome}`, exact: false }) });
  await page.goto(`${BASE_URL}/#/history`, { waitUntil: 'domcontentloaded' });
  const failed = named('failed: ');
  const passed = named('passed');
  await passed.waitFor({ timeout: 15_000 });
  assert.equal(await failed.count(), 1, 'the starter\'s check is named as a failed answer');
  assert.equal(((await passed.getByTestId('history-status').textContent()) ?? '').trim(), 'passed');
  await page.evaluate(() => localStorage.setItem('c10klab.language', 'zh'));
  await page.reload({ waitUntil: 'domcontentloaded' });
  await rows.filter({ hasText: /练习：.+ — 未通过：/ }).first().waitFor({ timeout: 15_000 });
  assert.equal(await rows.filter({ hasText: /练习：.+ — 已通过/ }).count(), 1);
  await page.evaluate(() => localStorage.setItem('c10klab.language', 'en'));
  await page.reload({ waitUntil: 'domcontentloaded' });
  await passed.getByRole('link', { name: 'Open in lab' }).click();
  const answer = page.getByTestId('lab-servers').getByRole('checkbox', { name: new RegExp(`^your answer to ${TITLE} \\(saved `) });
  await answer.waitFor({ timeout: 15_000 });
  assert.ok(await answer.isChecked(), 'the answer is the server the lab runs');
  assert.equal(await answer.getAttribute('value'), `variant:${solvedId}`);
  assert.notEqual(starterId, solvedId);
  const run = page.getByTestId('run-button');
  await page.waitForFunction((el) => !el.disabled, await run.elementHandle(), { timeout: 10_000 });
}

test(`exercise ${SLUG}: the starter fails with a reason, a solution loaded from the page passes`, { timeout: 2 * RUN_TIMEOUT_MS + 90_000 }, async () => {
  await withFailureScreenshot(page, 'exercises', async () => {
    await page.goto(`${BASE_URL}/#/exercises`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { level: 1, name: 'Exercises' }).waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: TITLE }).click();
    await page.waitForFunction((slug) => window.location.hash === `#/exercises/${slug}`, SLUG, { timeout: 5_000 });
    const editor = page.getByRole('textbox', { name: `Your answer: ${FILE}` });
    await editor.waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    assert.ok((await page.getByTestId('criteria').locator('li').count()) > 0, 'it says how an answer is judged');
    // The editor opens at the function to change, not at the file's header comment.
    await page.waitForFunction(
      () => [...document.querySelectorAll('[data-testid="source-editor"] .cm-line')].some((line) => {
        const box = line.getBoundingClientRect();
        const view = line.closest('.cm-scroller')?.getBoundingClientRect();
        return view && box.top >= view.top && box.bottom <= view.top + view.height / 2 && line.textContent === 'static void handle_readable(struct conn *c)';
      }),
      undefined,
      { timeout: 10_000 },
    );

    // The starter as it is (a draft left by an earlier run of this test goes first).
    const draft = page.getByTestId('draft-status');
    if (!/the starter, unchanged/.test((await draft.textContent()) ?? '')) {
      await page.getByRole('button', { name: 'Reset to starter' }).click();
      await page.getByRole('button', { name: 'Discard changes' }).click();
      await draft.filter({ hasText: 'the starter, unchanged' }).waitFor({ timeout: 5_000 });
    }

    // One hint, then the starter checked: failed, with why.
    await page.getByRole('button', { name: /^Show hint 1 of \d+$/ }).click();
    assert.match((await page.getByTestId('hint').first().textContent()) ?? '', /^Hint 1 of \d+/);
    const starter = await checkMyAnswer(page, { timeoutMs: RUN_TIMEOUT_MS });
    assert.equal(starter.status, 'failed', `the starter was judged ${starter.status} ("${starter.state}")`);
    assert.ok(starter.reasons.length > 0 && starter.reasons.every((r) => r.trim().length > 0), `a reason is given: ${JSON.stringify(starter)}`);
    await page.screenshot({ path: join(ARTIFACTS, 'exercise-failed.png'), fullPage: true });

    // A solution: asked for, confirmed, shown against the starter, loaded into the editor.
    await loadASolution(page);

    const solved = await checkMyAnswer(page, { timeoutMs: RUN_TIMEOUT_MS });
    assert.equal(solved.status, 'passed', `the solution was judged ${solved.status}: ${JSON.stringify(solved)}`);
    assert.notEqual(solved.variant, starter.variant);
    assert.deepEqual(solved.reasons, []);
    assert.ok(solved.measured.length > 0, 'what was measured is shown');
    for (const cells of solved.measured) assert.equal(cells.at(-1), '✓ met', `every criterion met: ${cells.join(' | ')}`);
    assert.match(solved.state, /^measured: every check passed/);

    // Both answers listed, each at its page; the list says the exercise is passed.
    const answers = page.getByTestId('answer-list');
    await answers.locator(`a[href="#/variants/${solved.variant}"]`).waitFor({ timeout: 10_000 });
    assert.ok((await answers.locator(`a[href="#/variants/${starter.variant}"]`).count()) === 1, 'the first answer is listed');
    await page.screenshot({ path: join(ARTIFACTS, 'exercise-passed.png'), fullPage: true });

    await page.goto(`${BASE_URL}/#/exercises`, { waitUntil: 'domcontentloaded' });
    const item = page.getByTestId('exercise-item').filter({ has: page.getByRole('link', { name: TITLE }) });
    await item.locator('[data-testid="exercise-status"]').waitFor({ timeout: 10_000 });
    assert.equal(await item.getAttribute('data-status'), 'passed');

    // The passed answer's own page says which exercise, and its verdict.
    await page.goto(`${BASE_URL}/#/variants/${solved.variant}`, { waitUntil: 'domcontentloaded' });
    const exercise = page.getByTestId('variant-exercise');
    await exercise.getByRole('link', { name: TITLE }).waitFor({ timeout: 15_000 });
    assert.equal(await exercise.getByTestId('verdict').getAttribute('data-status'), 'passed');

    await historyNamesBothChecksAndOpensTheAnswerInALab(starter.variant, solved.variant);

    assert.deepEqual(consoleErrors, [], 'the browser console stayed free of errors');
  });
});

for (const scheme of ['light', 'dark']) {
  test(`axe finds no violation on the exercises' pages in ${scheme}`, { timeout: 60_000 }, async () => {
    await inAxeContext(browser, scheme, async (context) => {
      const other = await context.newPage();
      await other.goto(`${BASE_URL}/#/exercises`, { waitUntil: 'domcontentloaded' });
      await other.getByTestId('exercise-item').first().waitFor({ timeout: 15_000 });
      assert.equal(await other.evaluate(() => document.documentElement.dataset.theme), scheme);
      assert.deepEqual(await axeViolations(other), [], `axe on the exercises' list (${scheme})`);

      await openEditor(other, `/#/exercises/${SLUG}`, `Your answer: ${FILE}`);
      await other.getByRole('button', { name: /^Show hint 1 of \d+$/ }).click();
      const found = await axeViolations(other);
      await other.screenshot({ path: join(ARTIFACTS, `axe-exercise-${scheme}.png`) });
      assert.deepEqual(found, [], `axe on an exercise's page (${scheme})`);
    });
  });
}
