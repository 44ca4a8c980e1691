/* global document, getComputedStyle */
// End-to-end: the course for everyone, in real Chromium against the real course. axe-core finds
// no violation on the home page, a lesson, the lab, a permalink and the history, in light and in dark; dark
// mode follows the system and the switch; at 390 px no page scrolls sideways.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { axeViolations, inAxeContext } from './axe.mjs';
import { ARTIFACTS, BASE_URL, launchChromium } from './chromium.mjs';
import { scrollThroughPage } from './scroll.mjs';

const RUN_TIMEOUT_MS = Number(process.env.E2E_RUN_TIMEOUT_MS ?? 120_000);
const LESSON = '05-epoll';

let browser;
let runId;

/** A finished run to open at its permalink, queued through the API. */
async function finishedRun() {
  const context = await browser.newContext();
  try {
    const created = await context.request.post(`${BASE_URL}/api/runs`, {
      data: { server: 'c-epoll', connections: 10, duration_s: 1, warmup_s: 0.5 },
    });
    assert.equal(created.status(), 202, await created.text());
    const { id } = await created.json();
    const deadline = Date.now() + RUN_TIMEOUT_MS;
    for (;;) {
      const run = await (await context.request.get(`${BASE_URL}/api/runs/${id}`)).json();
      if (run.status === 'done') return id;
      assert.ok(!['failed', 'cancelled'].includes(run.status), `the run ended ${run.status}: ${run.error}`);
      assert.ok(Date.now() < deadline, 'the run did not end in time');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await context.close();
  }
}

before(async () => {
  browser = await launchChromium();
  runId = await finishedRun();
});

after(async () => {
  await browser?.close();
});

const PAGES = [
  { name: 'home', path: '/#/', ready: (page) => page.getByTestId('lesson-list').waitFor({ timeout: 15_000 }) },
  { name: 'lesson', path: `/#/lessons/${LESSON}`, ready: (page) => page.getByTestId('lesson').waitFor({ timeout: 15_000 }) },
  { name: 'lab', path: '/#/lab?servers=c-epoll,c-threaded', ready: (page) => page.getByTestId('lab-plan').waitFor({ timeout: 15_000 }) },
  { name: 'permalink', path: () => `/#/runs/${runId}`, ready: (page) => page.getByTestId('run-results').waitFor({ timeout: 15_000 }) },
  { name: 'history', path: '/#/history', ready: (page) => page.getByRole('heading', { level: 1, name: 'Your history' }).waitFor({ timeout: 15_000 }) },
];

async function openPage(context, spec) {
  const page = await context.newPage();
  const path = typeof spec.path === 'function' ? spec.path() : spec.path;
  await page.goto(`${BASE_URL}${path}`, { waitUntil: 'domcontentloaded' });
  await spec.ready(page);
  await scrollThroughPage(page); // diagrams, widgets and charts mount as they come into view
  return page;
}

for (const scheme of ['light', 'dark']) {
  test(`axe finds no violation in ${scheme}`, { timeout: 240_000 }, async () => {
    const found = [];
    await inAxeContext(browser, scheme, async (context) => {
      for (const spec of PAGES) {
        const page = await openPage(context, spec);
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), scheme);
        for (const line of await axeViolations(page)) found.push(`${spec.name}: ${line}`);
        await page.screenshot({ path: join(ARTIFACTS, `axe-${spec.name}-${scheme}.png`) });
        await page.close();
      }
    });
    console.log(`# axe (${scheme}): ${PAGES.length} pages, ${found.length} violations`);
    assert.deepEqual(found, [], `axe violations in ${scheme}`);
  });
}

/** The relative luminance of a CSS rgb() colour, 0 (black) to 1 (white). */
function luminance(rgb) {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
  const linear = (c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

test('dark mode follows the system and the switch, charts included', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'dark' });
  try {
    const page = await openPage(context, PAGES[3]);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.ok(luminance(await background()) < 0.1, `a dark page (${await background()})`);
    const chart = page.getByTestId('qps-chart').locator('canvas');
    await chart.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'dark-permalink.png'), fullPage: true });
    // The switch overrides the system, and the choice is kept across a reload.
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    assert.ok(luminance(await background()) > 0.8, `a light page after the switch (${await background()})`);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.getByTestId('run-results').waitFor({ timeout: 15_000 });
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  } finally {
    await context.close();
  }
});

test('at 390 px no page scrolls sideways', { timeout: 240_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const wide = [];
  try {
    const extra = [
      { name: 'glossary', path: '/#/glossary', ready: (page) => page.getByRole('heading', { level: 1 }).waitFor({ timeout: 15_000 }) },
      { name: 'lesson 07', path: '/#/lessons/07-io-uring', ready: (page) => page.getByTestId('lesson').waitFor({ timeout: 15_000 }) },
    ];
    for (const spec of [...PAGES, ...extra]) {
      const page = await openPage(context, spec);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) wide.push(`${spec.name}: ${width} px`);
      await page.screenshot({ path: join(ARTIFACTS, `phone-${spec.name.replace(' ', '-')}.png`), fullPage: true });
      await page.close();
    }
  } finally {
    await context.close();
  }
  assert.deepEqual(wide, [], 'pages wider than the phone');
});
