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

test('in Chinese, a term in a lesson links to its Chinese glossary entry', { timeout: 120_000 }, async () => {
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
    await link.click();
    const entry = page.getByRole('heading', { level: 3, name: term, exact: true });
    await entry.waitFor({ timeout: RENDER_TIMEOUT_MS });
    assert.equal(await entry.getAttribute('id'), '就绪队列-ready-list');
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
