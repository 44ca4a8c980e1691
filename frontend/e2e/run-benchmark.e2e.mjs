// End-to-end: a learner opens the course, opens the first lesson, clicks
// "Run benchmark" and watches the run finish, in real Chromium against the real
// backend (E2E_BASE_URL, default http://localhost:8000).
//
// Uses playwright-core with the system Chromium (no browser download) and
// node:test, so it ends with node's usual test summary.
//
//   npm run e2e                       # backend already running on :8000
//   E2E_BASE_URL=http://127.0.0.1:9000 CHROMIUM_PATH=/usr/bin/chromium npm run e2e
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://localhost:8000').replace(/\/+$/, '');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUN_TIMEOUT_MS = Number(process.env.E2E_RUN_TIMEOUT_MS ?? 120_000);
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');

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

let browser;
let page;
const consoleErrors = [];

before(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, deviceScaleFactor: 1 });
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
});

after(async () => {
  await browser?.close();
});

/** Polls the run-state label until the run ends; returns every label seen, in order. */
async function waitForRunToEnd(stateLabel) {
  const seen = [];
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const text = ((await stateLabel.textContent()) ?? '').trim();
    if (seen.at(-1) !== text) seen.push(text);
    if (text === 'done' || text.startsWith('failed') || text === 'cancelled') return seen;
    if (Date.now() > deadline) {
      throw new Error(`run did not finish within ${RUN_TIMEOUT_MS / 1000} s; states seen: ${seen.join(' → ')}`);
    }
    await page.waitForTimeout(250);
  }
}

test('run a benchmark from the first lesson', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
  try {
    await runBenchmarkFromFirstLesson();
  } catch (error) {
    // Keep what the page looked like when it went wrong.
    await page
      .screenshot({ path: join(ARTIFACTS, 'run-benchmark-failure.png'), fullPage: true })
      .catch(() => undefined);
    throw error;
  }
});

async function runBenchmarkFromFirstLesson() {
  // Course home.
  await page.goto(`${BASE_URL}/`, { waitUntil: 'domcontentloaded' });
  assert.match(await page.title(), /C10K Lab/);
  const lessonList = page.getByTestId('lesson-list');
  await lessonList.waitFor({ timeout: 15_000 });

  // First lesson.
  const firstLesson = lessonList.getByRole('link').first();
  const lessonTitle = ((await firstLesson.textContent()) ?? '').trim();
  await firstLesson.click();
  await page.getByRole('heading', { level: 1, name: lessonTitle }).waitFor({ timeout: 15_000 });

  // Its first experiment widget.
  const widget = page.locator('section.experiment').first();
  await widget.waitFor({ timeout: 15_000 }).catch(() => {
    throw new Error(`the first lesson ("${lessonTitle}") has no experiment widget`);
  });
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
  const seen = await waitForRunToEnd(stateLabel);
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
  await widget.scrollIntoViewIfNeeded();
  await widget.screenshot({ path: join(ARTIFACTS, 'run-benchmark.png') });
  await page.screenshot({ path: join(ARTIFACTS, 'run-benchmark-page.png'), fullPage: true });

  assert.deepEqual(consoleErrors, [], 'the browser console stayed free of errors');
}
