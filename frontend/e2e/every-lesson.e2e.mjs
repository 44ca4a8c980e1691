// End-to-end: every lesson of the course opens in real Chromium without a console error,
// and every widget in it rendered: each ```experiment block became a Run widget (not an
// error box), each ```mermaid block an SVG diagram, each ```source block the code it names.
// The counts come from the lesson's own Markdown (GET /api/lessons/{slug}), so a widget that
// silently failed to appear is caught too.
//
//   npm run e2e   (with a backend on E2E_BASE_URL, default http://localhost:8000)
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { ARTIFACTS, BASE_URL, launchChromium } from './chromium.mjs';
import { scrollThroughPage } from './scroll.mjs';

const RENDER_TIMEOUT_MS = 30_000;
let browser;

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

async function api(path) {
  const response = await fetch(`${BASE_URL}/api${path}`);
  assert.equal(response.status, 200, `GET /api${path}`);
  return response.json();
}

/** How many fenced blocks of `language` the lesson's Markdown has. */
function fences(markdown, language) {
  return (markdown.match(new RegExp(`^\`\`\`${language}[ \\t]*$`, 'gm')) ?? []).length;
}

/** Waits until `locator` matches exactly `count` elements. */
async function waitForCount(locator, count, what) {
  const deadline = Date.now() + RENDER_TIMEOUT_MS;
  for (;;) {
    const found = await locator.count();
    if (found === count) return;
    if (Date.now() > deadline) throw new Error(`${what}: expected ${count}, found ${found}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function checkLesson(summary) {
  const lesson = await api(`/lessons/${summary.slug}`);
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  try {
    await page.goto(`${BASE_URL}/#/lessons/${summary.slug}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { level: 1, name: lesson.title }).waitFor({ timeout: RENDER_TIMEOUT_MS });
    const body = page.getByTestId('lesson');
    // Diagrams and widgets load as they come into view: a reader would scroll through.
    await scrollThroughPage(page);

    const experiments = fences(lesson.markdown, 'experiment');
    assert.ok(experiments >= 1, 'every lesson has an experiment');
    await waitForCount(body.locator('section.experiment'), experiments, 'experiment widgets');
    assert.equal(await body.getByTestId('experiment-error').count(), 0, 'no experiment block failed to parse');
    // Every block was recorded (the content checker insists): each shows its reference result
    // at once, drawn, with "Run live" beside it.
    await waitForCount(
      body.locator('section.experiment:has(.run-state:text-is("reference result")):has(canvas)'),
      experiments,
      'widgets showing their recorded result',
    );
    await waitForCount(body.getByRole('button', { name: 'Run live' }), experiments, 'Run live buttons');

    const diagrams = fences(lesson.markdown, 'mermaid');
    // A drawn diagram is its container marked rendered, holding the SVG (which may nest more).
    await waitForCount(
      body.locator('[data-testid="mermaid-diagram"][data-rendered="true"]:has(svg)'),
      diagrams,
      'drawn Mermaid diagrams',
    );
    assert.equal(await body.getByTestId('mermaid-error').count(), 0, 'no Mermaid diagram failed');

    const sources = fences(lesson.markdown, 'source');
    assert.ok(sources >= 1, 'every lesson shows real code');
    await waitForCount(body.locator('[data-testid="source-block"]:has(pre code)'), sources, 'source blocks with code');
    assert.equal(await body.locator('[data-testid="source-block"] [role="alert"]').count(), 0, 'no source failed');

    const text = await body.evaluate((el) => el.textContent ?? '');
    assert.ok(!text.includes('<details'), 'raw HTML is rendered, not shown');
    assert.deepEqual(errors, [], 'no console errors');
  } catch (error) {
    await page.screenshot({ path: join(ARTIFACTS, `lesson-${summary.slug}-failure.png`), fullPage: true }).catch(() => undefined);
    throw error;
  } finally {
    await page.close();
  }
}

test('every lesson renders every widget without a console error', { timeout: 600_000 }, async (t) => {
  const lessons = await api('/lessons');
  assert.ok(lessons.length >= 1, 'the course has lessons');
  for (const summary of lessons) {
    await t.test(summary.slug, { timeout: 120_000 }, () => checkLesson(summary));
  }
});
