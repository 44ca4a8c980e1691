// End-to-end: a learner opens the course, opens the first lesson, sees its
// Mermaid diagram drawn and its "Check yourself" answers as click-to-reveal
// <details> (speaker notes only in instructor mode), sees the recorded reference result of
// its experiment, then clicks "Run benchmark"
// and watches the run finish, in real Chromium against the real backend
// (E2E_BASE_URL, default http://localhost:8000).
//
// Uses playwright-core with the system Chromium (no browser download) and
// node:test, so it ends with node's usual test summary.
//
//   npm run e2e                       # backend already running on :8000
//   E2E_BASE_URL=http://127.0.0.1:9000 CHROMIUM_PATH=/usr/bin/chromium npm run e2e
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { ARTIFACTS, BASE_URL, watchedBrowserPerFile } from './chromium.mjs';
import { scrollThroughPage } from './scroll.mjs';
import { waitForRunEnd, withFailureScreenshot } from './steps.mjs';

const RUN_TIMEOUT_MS = Number(process.env.E2E_RUN_TIMEOUT_MS ?? 120_000);

let page;
let consoleErrors;
watchedBrowserPerFile((opened) => ({ page, consoleErrors } = opened));

/** From the course home, opens the course's first lesson (lesson 1: lesson 0 is the beginner's
 *  way in, before it); returns its title and URL. */
async function openFirstLesson() {
  await page.goto(`${BASE_URL}/`, { waitUntil: 'domcontentloaded' });
  assert.match(await page.title(), /C10K Lab/);
  const lessonList = page.getByTestId('lesson-list');
  await lessonList.waitFor({ timeout: 15_000 });

  const firstLesson = lessonList.locator('a[href$="/lessons/01-c10k-problem"]');
  const lessonTitle = ((await firstLesson.textContent()) ?? '').trim();
  await firstLesson.click();
  await page.getByRole('heading', { level: 1, name: lessonTitle }).waitFor({ timeout: 15_000 });
  return { lessonTitle, lessonUrl: page.url() };
}

test('the first lesson draws its diagram and reveals answers on click', { timeout: 90_000 }, async () => {
  await withFailureScreenshot(page, 'lesson-page', checkLessonPage);
});

async function checkLessonPage() {
  const { lessonUrl } = await openFirstLesson();
  const lesson = page.getByTestId('lesson');
  await lesson.locator('header.lesson__header').screenshot({ path: join(ARTIFACTS, 'lesson-header.png') });

  // The ```mermaid block is drawn as an SVG diagram, not shown as code, once it is in view.
  await lesson.getByTestId('mermaid-diagram').first().scrollIntoViewIfNeeded();
  const diagram = lesson.locator('[data-testid="mermaid-diagram"][data-rendered="true"]').first();
  await diagram.locator('svg').first().waitFor({ timeout: 30_000 });
  const box = await diagram.locator('svg').first().boundingBox();
  assert.ok(box && box.width > 150 && box.height > 150, `the diagram's SVG is drawn (${JSON.stringify(box)})`);
  assert.equal(await lesson.getByTestId('mermaid-error').count(), 0, 'no diagram failed to parse');
  assert.equal(await lesson.locator('code.language-mermaid').count(), 0, 'no Mermaid source shown as code');
  assert.match((await diagram.textContent()) ?? '', /epoll_wait/, 'the diagram has its labels');
  await diagram.scrollIntoViewIfNeeded();
  await diagram.screenshot({ path: join(ARTIFACTS, 'lesson-diagram.png') });

  // Raw HTML is rendered, not shown as text.
  const pageText = await page.locator('body').evaluate((body) => body.textContent ?? '');
  assert.ok(!pageText.includes('<details'), 'no literal "<details" in the page text');
  assert.ok(!pageText.includes('<summary'), 'no literal "<summary" in the page text');

  // A "Check yourself" answer opens on click, and its Markdown is rendered.
  const answer = lesson.locator('details.disclosure:not(.speaker-notes)').first();
  await answer.waitFor();
  assert.equal(await answer.evaluate((el) => el.open), false, 'answers start closed');
  const answerBody = answer.locator(':scope > :not(summary)').first();
  assert.equal(await answerBody.isVisible(), false, 'a closed answer hides its text');
  await answer.locator('summary').click();
  await page.waitForFunction((el) => el.open, await answer.elementHandle(), { timeout: 5_000 });
  assert.ok(await answerBody.isVisible(), 'the opened answer shows its text');
  assert.ok((await answer.locator('p').count()) > 0, 'the answer is Markdown rendered to paragraphs');
  const checkYourself = page.getByRole('heading', { level: 2, name: 'Check yourself' });
  await checkYourself.scrollIntoViewIfNeeded();

  // Speaker notes: absent for a learner on their own, and no switch for them either.
  const notes = lesson.getByTestId('speaker-notes');
  const toggle = page.getByRole('switch', { name: 'Instructor mode' });
  assert.equal(await notes.count(), 0, 'speaker notes are hidden from learners');
  assert.equal(await toggle.count(), 0, 'a learner on their own sees no instructor switch');

  // An instructor previewing the notes asks with ?instructor=1; the switch puts them away.
  await page.goto(`${lessonUrl}?instructor=1`, { waitUntil: 'domcontentloaded' });
  await notes.waitFor({ timeout: 15_000 });
  assert.equal(await toggle.isChecked(), true, 'the switch follows ?instructor=1');
  await notes.locator('summary').click();
  await page.waitForFunction((el) => el.open, await notes.elementHandle(), { timeout: 5_000 });
  assert.match((await notes.textContent()) ?? '', /Speaker notes/);
  await scrollThroughPage(page); // every diagram and widget drawn for the full-page picture
  await page.screenshot({ path: join(ARTIFACTS, 'lesson-page.png'), fullPage: true });
  // Switched off, the notes go and the switch with them (uncheck() would wait on a gone box).
  await toggle.click();
  await notes.waitFor({ state: 'detached', timeout: 5_000 });
  await toggle.waitFor({ state: 'detached', timeout: 5_000 });

  assert.deepEqual(consoleErrors, [], 'the browser console stayed free of errors');
}

test('run a benchmark from the first lesson', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
  await withFailureScreenshot(page, 'run-benchmark', runBenchmarkFromFirstLesson);
});

async function runBenchmarkFromFirstLesson() {
  const { lessonTitle } = await openFirstLesson();

  // Its first experiment widget, which mounts when it comes into view.
  await page.getByTestId('not-yet-loaded').first().scrollIntoViewIfNeeded();
  const widget = page.locator('section.experiment').first();
  await widget.waitFor({ timeout: 15_000 }).catch(() => {
    throw new Error(`the first lesson ("${lessonTitle}") has no experiment widget`);
  });
  // The recorded reference result (content/baselines/) is on show before anything runs.
  await widget.getByTestId('baseline-note').waitFor({ timeout: 15_000 });
  assert.match((await widget.getByTestId('baseline-note').textContent()) ?? '', /recorded \d{4}-\d{2}-\d{2}/);
  await widget.getByTestId('run-results').waitFor();
  const runButton = widget.getByRole('button', { name: 'Run benchmark' });
  try {
    await page.waitForFunction((button) => button && !button.disabled, await runButton.elementHandle(), {
      timeout: 20_000,
    });
  } catch {
    const reason = await widget.getByTestId('run-blocked').textContent().catch(() => null);
    throw new Error(`"Run benchmark" stayed disabled: ${reason ?? 'no reason shown'}`);
  }
  await runButton.click();

  // Follow the run to its end.
  const stateLabel = widget.getByTestId('run-state');
  const seen = await waitForRunEnd(page, stateLabel, { timeoutMs: RUN_TIMEOUT_MS });
  const finalState = seen.at(-1);
  let failureLogs = '';
  if (finalState !== 'done') {
    failureLogs = (await widget.getByTestId('failure-logs').textContent().catch(() => '')) ?? '';
  }
  console.log(`# states: ${seen.join(' → ')}`);
  assert.equal(finalState, 'done', `the run ended "${finalState}"${failureLogs ? `\n${failureLogs}` : ''}`);

  // The QPS chart plotted the run.
  const qpsChart = widget.getByTestId('qps-chart');
  const points = Number(await qpsChart.getAttribute('data-points'));
  assert.ok(points >= 3, `QPS chart has ${points} points, expected ≥ 3`);
  const canvas = await qpsChart.locator('canvas').boundingBox();
  assert.ok(canvas && canvas.width > 100 && canvas.height > 100, 'QPS chart canvas is drawn');
  await widget.getByTestId('run-results').waitFor();

  // Screenshots for a human to look at.
  await scrollThroughPage(page);
  await widget.scrollIntoViewIfNeeded();
  await widget.screenshot({ path: join(ARTIFACTS, 'run-benchmark.png') });
  await page.screenshot({ path: join(ARTIFACTS, 'run-benchmark-page.png'), fullPage: true });

  assert.deepEqual(consoleErrors, [], 'the browser console stayed free of errors');
}

test("lesson 7's profiled pair shows where each server's time went, and the difference, before and after a live run", { timeout: RUN_TIMEOUT_MS + 90_000 }, async () => {
  await withFailureScreenshot(page, 'lesson-profile', async () => {
    await page.goto(`${BASE_URL}/#/lessons/07-io-uring`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 15_000 });
    const title = 'Where the time goes, epoll vs io_uring';
    // Widgets mount as they come near the viewport: scroll until this one has.
    const widget = page.locator('section.experiment', { has: page.locator('.experiment__title', { hasText: title }) });
    const waiting = page.getByTestId('not-yet-loaded');
    for (let i = 0; i < 60 && (await widget.count()) === 0 && (await waiting.count()) > 0; i += 1) {
      // A placeholder may mount into its widget (and leave the page) while being scrolled to.
      await waiting.first().scrollIntoViewIfNeeded().catch(() => undefined);
      await page.waitForTimeout(100);
    }
    await widget.scrollIntoViewIfNeeded();
    const comparison = widget.getByTestId('profile-comparison');
    const seeBoth = async (when) => {
      await comparison.getByTestId('flame-graph').locator('g.frame').first().waitFor({ timeout: 30_000 });
      const shares = await comparison.getByTestId('profile-shares').allTextContents();
      assert.equal(shares.length, 2, `${when}: both servers' shares`);
      for (const text of shares) assert.match(text, /network softirq \(kernel\) [1-9]/, `${when}: the softirq share is there: ${text}`);
      const names = await comparison.getByTestId('flame-graph').locator('g.frame').evaluateAll((frames) => frames.map((g) => g.getAttribute('name')));
      assert.ok(names.includes('__do_sys_io_uring_enter') && names.some((n) => /^tcp_/.test(n)), `${when}: the difference holds io_uring_enter and TCP: ${names.slice(0, 20).join(', ')}`);
    };
    // The recording, before any click.
    await seeBoth('recorded');
    const started = Date.now();
    await widget.getByRole('button', { name: /^Run 2 benchmarks/ }).click();
    const seen = await waitForRunEnd(page, widget.getByTestId('series-state'), { timeoutMs: RUN_TIMEOUT_MS });
    assert.equal(seen.at(-1), 'done', `the series ended: ${seen.join(' → ')}`);
    await seeBoth('live');
    console.log(`# the live pair's profiles drawn ${((Date.now() - started) / 1000).toFixed(1)} s after Run (two runs of 1 s warm-up + 3 s each)`);
    await comparison.screenshot({ path: join(ARTIFACTS, 'lesson-profile-difference.png') });
  });
});
