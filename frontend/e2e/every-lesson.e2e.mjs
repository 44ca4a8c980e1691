/* global window, document */
// End-to-end: every lesson of the course opens in real Chromium without a console error,
// and every widget in it rendered: each ```experiment block became a Run widget (not an
// error box), each ```mermaid block an SVG diagram, each ```source block the code it names.
// The counts come from the lesson's own Markdown (GET /api/lessons/{slug}), so a widget that
// silently failed to appear is caught too. Every lesson is opened in each language of the
// interface: in Chinese it is the Chinese text where the lesson has one (else the English, which
// the page then says), around an interface in Chinese; and a term of Chinese prose links to its
// entry in the Chinese glossary.
//
//   npm run e2e   (with a backend on E2E_BASE_URL, default http://localhost:8000)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

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

const LOCALES = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'locales');
const LANGUAGES = ['en', 'zh'];
const HTML_LANG = { en: 'en', zh: 'zh-Hans' };
// Where the interface keeps the reader's choice (src/lib/i18n.ts).
const LANGUAGE_STORAGE_KEY = 'c10klab.language';

function strings(language, namespace) {
  return JSON.parse(readFileSync(join(LOCALES, language, `${namespace}.json`), 'utf8'));
}

/** The interface's `language` wording of an English string of `namespace`: found by its key. */
function say(language, namespace, english) {
  const find = (tree, path) => {
    for (const [key, value] of Object.entries(tree)) {
      if (value === english) return [...path, key];
      if (typeof value === 'object') {
        const found = find(value, [...path, key]);
        if (found) return found;
      }
    }
    return null;
  };
  const path = find(strings('en', namespace), []);
  assert.ok(path, `"${english}" is an English string of ${namespace}`);
  return path.reduce((tree, key) => tree[key], strings(language, namespace));
}

async function checkLesson(summary, language) {
  const lesson = await api(`/lessons/${summary.slug}?lang=${language}`);
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, language]);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  try {
    await page.goto(`${BASE_URL}/#/lessons/${summary.slug}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { level: 1, name: lesson.title }).waitFor({ timeout: RENDER_TIMEOUT_MS });
    const body = page.getByTestId('lesson');
    assert.equal(await page.evaluate(() => document.documentElement.lang), HTML_LANG[language]);
    // The header speaks the language too (a lesson may link the glossary as well: the first is the header's).
    await page.getByRole('link', { name: say(language, 'common', 'Glossary'), exact: true }).first().waitFor();
    // A lesson without this language's text says it shows the English.
    assert.equal(await body.getByTestId('lesson-untranslated').count(), lesson.language === language ? 0 : 1);
    // Diagrams and widgets load as they come into view: a reader would scroll through.
    await scrollThroughPage(page);

    const experiments = fences(lesson.markdown, 'experiment');
    assert.ok(experiments >= 1, 'every lesson has an experiment');
    await waitForCount(body.locator('section.experiment'), experiments, 'experiment widgets');
    assert.equal(await body.getByTestId('experiment-error').count(), 0, 'no experiment block failed to parse');
    // Every block was recorded (the content checker insists): each shows its reference result
    // at once, drawn, with its Run button beside it, which the note quotes by the very words
    // the button says (one label before a run and after it).
    const recorded = say(language, 'bench', 'reference result');
    await waitForCount(
      body.locator(`section.experiment:has(.run-state:text-is("${recorded}")):has(canvas)`),
      experiments,
      'widgets showing their recorded result',
    );
    const quoted = await body.locator('section.experiment').evaluateAll((widgets) =>
      widgets.map((w) => [w.querySelector('[data-testid="baseline-note"] strong')?.textContent, w.querySelector('[data-testid="run-button"]')?.textContent]),
    );
    for (const [note, button] of quoted) assert.ok(note && note === button, `the note quotes "${note}", the button says "${button}"`);
    // A series that counted system calls shows each point's calls per request in a column of
    // their own, flagged point or not.
    const countedSeries = [...lesson.markdown.matchAll(/```experiment\n([\s\S]*?)```/g)].filter(
      ([, block]) => /^servers:/m.test(block) && /^profile: syscalls$/m.test(block),
    );
    if (countedSeries.length > 0) {
      const calls = await body.getByTestId('calls-per-request').allTextContents();
      assert.ok(calls.length > 0 && calls.every((c) => /^\d+(\.\d+)?$/.test(c)), `calls per request shown: ${calls.join(', ')}`);
    }

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
    await page.screenshot({ path: join(ARTIFACTS, `lesson-${summary.slug}-${language}-failure.png`), fullPage: true }).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
}

// A page spends most of its check scrolled still, waiting for what comes into view to load:
// several pages, each in a browser context of its own, share the wait.
const PAGES_AT_ONCE = 4;

test('every lesson renders every widget without a console error, in each language', { timeout: 1_200_000, concurrency: PAGES_AT_ONCE }, async (t) => {
  const lessons = await api('/lessons');
  assert.ok(lessons.length >= 1, 'the course has lessons');
  const pages = LANGUAGES.flatMap((language) => lessons.map((summary) => ({ summary, language })));
  await Promise.all(
    pages.map(({ summary, language }) =>
      t.test(`${summary.slug} (${language})`, { timeout: 120_000 }, () => checkLesson(summary, language)),
    ),
  );
});

test('in Chinese, a term in a lesson previews its Chinese glossary entry in place, and links to it, marked', { timeout: 120_000 }, async () => {
  const glossary = await api('/glossary?lang=zh');
  assert.equal(glossary.language, 'zh', 'the glossary has its Chinese text');
  const term = glossary.terms.find((heading) => heading.startsWith('就绪队列'));
  assert.ok(term, 'the Chinese glossary names the ready list 就绪队列');
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, 'zh']);
  const page = await context.newPage();
  try {
    await page.goto(`${BASE_URL}/#/lessons/05-epoll`, { waitUntil: 'domcontentloaded' });
    // The Chinese prose has no spaces around the term, and is linked all the same.
    const link = page.getByTestId('lesson').locator('a.glossary-link', { hasText: /^就绪队列$/ }).first();
    await link.waitFor({ timeout: RENDER_TIMEOUT_MS });
    // Resting the pointer on it shows the entry beside the lesson: no need to leave it.
    await link.hover();
    const preview = page.getByRole('tooltip');
    await preview.waitFor({ timeout: 5_000 });
    const said = (await preview.textContent()) ?? '';
    assert.ok(said.startsWith(term), `the preview names the term: ${said}`);
    assert.match(said, /在术语表中打开/);
    assert.equal(await link.getAttribute('aria-describedby'), await preview.getAttribute('id'));
    await link.click();
    const entry = page.getByRole('heading', { level: 3, name: term, exact: true });
    await entry.waitFor({ timeout: RENDER_TIMEOUT_MS });
    assert.equal(await entry.getAttribute('id'), '就绪队列-ready-list');
    // The entry the link led to is marked, and it alone.
    await page.waitForFunction((heading) => heading.hasAttribute('data-hash-target'), await entry.elementHandle(), { timeout: 5_000 });
    assert.equal(await page.locator('[data-hash-target]').count(), 1, 'one entry is marked');
    // Scrolled to it: at the top of the window (a sub-pixel above it counts).
    await page.waitForFunction((heading) => {
      const box = heading.getBoundingClientRect();
      return box.top > -2 && box.top < window.innerHeight / 2;
    }, await entry.elementHandle(), { timeout: RENDER_TIMEOUT_MS });
  } catch (error) {
    await page.screenshot({ path: join(ARTIFACTS, 'glossary-link-zh-failure.png'), fullPage: true }).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
});

test('on a phone, a first tap on a term shows its entry and a second goes to it', { timeout: 120_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  try {
    await page.goto(`${BASE_URL}/#/lessons/05-epoll`, { waitUntil: 'domcontentloaded' });
    const link = page.getByTestId('lesson').locator('a.glossary-link').first();
    await link.waitFor({ timeout: RENDER_TIMEOUT_MS });
    const term = ((await link.textContent()) ?? '').trim();
    await link.tap();
    const preview = page.getByRole('tooltip');
    await preview.waitFor({ timeout: 5_000 });
    assert.ok(page.url().includes('/lessons/05-epoll'), `the first tap stays in the lesson (${page.url()})`);
    // Within the phone's width.
    const box = await preview.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the preview fits the screen: ${JSON.stringify(box)}`);
    assert.match((await preview.textContent()) ?? '', /Open in the glossary/);
    await link.tap();
    await page.waitForURL(/#\/glossary#/, { timeout: 5_000 });
    await page.locator('[data-hash-target]').first().waitFor({ timeout: RENDER_TIMEOUT_MS });
    assert.equal(await page.locator('[data-hash-target]').count(), 1, `the entry of "${term}" is marked`);
  } catch (error) {
    await page.screenshot({ path: join(ARTIFACTS, 'glossary-tap-failure.png'), fullPage: true }).catch(() => undefined);
    throw error;
  } finally {
    await context.close();
  }
});

test('pages that are not there say so, in the tab title too, in each language', { timeout: 60_000 }, async () => {
  for (const language of LANGUAGES) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.addInitScript(([key, value]) => window.localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, language]);
    const page = await context.newPage();
    try {
      await page.goto(`${BASE_URL}/#/lessons/05-epoll`, { waitUntil: 'domcontentloaded' });
      await page.getByTestId('lesson').waitFor({ timeout: RENDER_TIMEOUT_MS });
      // From a lesson to one that is not there: its own title, not the last page's.
      await page.goto(`${BASE_URL}/#/lessons/99-no-such-lesson`);
      const missing = say(language, 'lessons', 'Lesson not found');
      await page.getByRole('heading', { name: missing }).waitFor({ timeout: RENDER_TIMEOUT_MS });
      assert.ok((await page.title()).startsWith(missing), `the tab says "${missing}": ${await page.title()}`);
      const alert = (await page.getByRole('alert').textContent()) ?? '';
      assert.ok(alert.includes('99-no-such-lesson') && !alert.includes('GET /api'), `worded for a reader: ${alert}`);
      await page.goto(`${BASE_URL}/#/no/such/page`);
      const notFound = say(language, 'common', 'Page not found');
      await page.getByRole('heading', { name: notFound }).waitFor({ timeout: RENDER_TIMEOUT_MS });
      assert.ok((await page.title()).startsWith(notFound), `the tab says "${notFound}": ${await page.title()}`);
    } finally {
      await context.close();
    }
  }
});
