// Benchmark (not a test): how much JavaScript a browser downloads when it opens each lesson,
// and the course's other pages: home, the lab, the history and a run's permalink.
//
// Starts the backend's API alone on a spare port with a throwaway store (no runner, no Docker:
// a page load needs neither), opens every lesson in real Chromium (Debian's /usr/bin/chromium
// through playwright-core, as the e2e tests do), each in a fresh browser context so nothing is
// cached, and waits until the network is idle. Every JavaScript URL the page fetched is then
// asked for again three times, with `Accept-Encoding: gzip`, `br` and `identity`, and the body
// bytes the backend sends are counted: that is what a browser pays on a cold first load, per
// encoding. What Chromium itself received (with its own Accept-Encoding) is reported too, as a
// check that the figures are what a browser gets.
//
// Writes results/frontend.md and prints one JSON object on its last stdout line:
// {"lessons": [{"slug", "scripts", "gzip_js_bytes", "br_js_bytes", "raw_js_bytes", ...}],
//  "pages": [same, for home, lab, history, permalink], "max_gzip_js_bytes": N}
//
//   make bench-frontend        (builds the frontend and the venv first)
//   node frontend/bench/first-load.mjs   [CHROMIUM_PATH=/path/to/chrome]
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { chromium } from 'playwright-core';

import { CHROMIUM_ARGS, CHROMIUM_PATH, ROOT, sparePort, startCourse, VIEWPORT } from './course.mjs';

const RESULTS = join(ROOT, 'results', 'frontend.md');
/** The budget: a lesson's first load, gzipped JavaScript, in bytes (300 kB, as Vite counts kB). */
const BUDGET_GZIP_BYTES = 300_000;
const PAGE_TIMEOUT_MS = 60_000;
const ENCODINGS = ['gzip', 'br', 'identity'];

/**
 * The body bytes the backend sends for `url` when asked with this Accept-Encoding, counted
 * as they come off the wire (node:http does not decompress), and the encoding it chose.
 */
function bodyBytes(url, encoding) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'accept-encoding': encoding } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => {
        bytes += chunk.length;
      });
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`GET ${url}: ${response.statusCode}`));
        else resolve({ bytes, encoding: response.headers['content-encoding'] ?? 'identity' });
      });
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sizesByUrl = new Map();

/** {gzip, br, identity} byte counts of one script, asked for once however many lessons load it. */
function scriptSizes(url) {
  if (!sizesByUrl.has(url)) {
    sizesByUrl.set(
      url,
      Promise.all(ENCODINGS.map((encoding) => bodyBytes(url, encoding))).then((answers) =>
        Object.fromEntries(ENCODINGS.map((encoding, i) => [encoding, answers[i]])),
      ),
    );
  }
  return sizesByUrl.get(url);
}

/**
 * Opens one page in a fresh context and lists the JavaScript it fetched until the network went
 * idle. `ready` waits for what shows the page really rendered, or the figures would measure an
 * error page.
 */
async function loadPage(browser, base, path, ready) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const scripts = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    if (type.includes('javascript')) scripts.push(response);
  });
  try {
    await page.goto(`${base}${path}`, { waitUntil: 'networkidle', timeout: PAGE_TIMEOUT_MS });
    await ready(page);
    await page.waitForLoadState('networkidle', { timeout: PAGE_TIMEOUT_MS });
    const seen = await Promise.all(
      scripts.map(async (response) => ({
        url: response.url(),
        browserBytes: (await response.request().sizes()).responseBodySize,
        browserEncoding: response.headers()['content-encoding'] ?? 'identity',
      })),
    );
    return seen;
  } finally {
    await context.close();
  }
}

const visible = (locator) => locator.waitFor({ timeout: PAGE_TIMEOUT_MS });

function lessonPage(lesson) {
  return {
    slug: lesson.slug,
    path: `/#/lessons/${lesson.slug}`,
    ready: (page) => visible(page.getByRole('heading', { level: 1, name: lesson.title })),
  };
}

/** The pages besides the lessons. The permalink's run was queued with no runner: it waits, but
 *  the page loads all it would for a finished one (a queued run has its charts up, so their code
 *  loads too). The lab's and the history's charts, and their code, wait for a run or a comparison. */
function otherPages(runId) {
  return [
    { slug: 'home', path: '/#/', ready: (page) => visible(page.getByTestId('lesson-list')) },
    { slug: 'lab', path: '/#/lab?servers=c-epoll,c-poll', ready: (page) => visible(page.getByTestId('lab-plan')) },
    { slug: 'history', path: '/#/history', ready: (page) => visible(page.getByRole('heading', { level: 1, name: 'Your history' })) },
    { slug: 'permalink', path: `/#/runs/${runId}`, ready: (page) => visible(page.getByTestId('run-permalink')) },
  ];
}

function sum(items, pick) {
  return items.reduce((total, item) => total + pick(item), 0);
}

async function measurePage(browser, base, { slug, path, ready }) {
  const seen = await loadPage(browser, base, path, ready);
  const unique = [...new Map(seen.map((script) => [script.url, script])).values()];
  const scripts = await Promise.all(
    unique.map(async (script) => ({ ...script, sizes: await scriptSizes(script.url) })),
  );
  return {
    slug,
    scripts: scripts.length,
    gzip_js_bytes: sum(scripts, (s) => s.sizes.gzip.bytes),
    br_js_bytes: sum(scripts, (s) => s.sizes.br.bytes),
    raw_js_bytes: sum(scripts, (s) => s.sizes.identity.bytes),
    browser_js_bytes: sum(scripts, (s) => s.browserBytes),
    browser_encodings: [...new Set(scripts.map((s) => s.browserEncoding))].sort(),
    // Not in the JSON line; the report lists the heaviest lesson's files.
    files: scripts
      .map((s) => ({ path: new URL(s.url).pathname, gzip: s.sizes.gzip.bytes, br: s.sizes.br.bytes, raw: s.sizes.identity.bytes }))
      .sort((a, b) => b.gzip - a.gzip),
  };
}

/** A lesson's figures for the JSON line (everything but its file list). */
function figures(lesson) {
  const { slug, scripts, gzip_js_bytes, br_js_bytes, raw_js_bytes, browser_js_bytes, browser_encodings } = lesson;
  return { slug, scripts, gzip_js_bytes, br_js_bytes, raw_js_bytes, browser_js_bytes, browser_encodings };
}

const kB = (bytes) => `${(bytes / 1000).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} kB`;

/** The table of one lesson's scripts, largest first. */
function filesTable(lesson) {
  const mermaid = lesson.files.some((f) => /mermaid/i.test(f.path));
  return [
    '',
    `## What ${lesson.slug} loads${mermaid ? ' (Mermaid among it: a diagram is on its first screen)' : ''}`,
    '',
    '| file | gzip | br | raw |',
    '|---|---:|---:|---:|',
    ...lesson.files.map((f) => `| \`${f.path}\` | ${kB(f.gzip)} | ${kB(f.br)} | ${kB(f.raw)} |`),
  ];
}

function pageRow(l) {
  return (
    `| ${l.slug} | ${l.scripts} | ${kB(l.gzip_js_bytes)} | ${kB(l.br_js_bytes)} | ${kB(l.raw_js_bytes)} | ` +
    `${kB(l.browser_js_bytes)} (${l.browser_encodings.join(', ')}) |`
  );
}

function report(lessons, pages, maxGzip) {
  const heaviest = lessons.find((lesson) => lesson.gzip_js_bytes === maxGzip);
  const lightest = lessons.reduce((a, b) => (b.gzip_js_bytes < a.gzip_js_bytes ? b : a), lessons[0]);
  const within = maxGzip <= BUDGET_GZIP_BYTES;
  const withinCount = lessons.filter((lesson) => lesson.gzip_js_bytes <= BUDGET_GZIP_BYTES).length;
  const lines = [
    '# Frontend first load, measured',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`make bench-frontend\` ` +
      `(\`frontend/bench/first-load.mjs\`): each lesson opened at \`/#/lessons/<slug>\` in headless Chromium ` +
      `(${VIEWPORT.width}×${VIEWPORT.height}, fresh context, nothing cached) against the backend serving ` +
      '`frontend/dist`, until the network was idle. For every JavaScript file the page fetched, the body ' +
      'bytes the backend sends when asked with `Accept-Encoding: gzip`, `br` and `identity` (raw). ' +
      'kB = 1,000 bytes; headers not counted.',
    '',
    `**Heaviest lesson: ${heaviest?.slug ?? '–'}, ${kB(maxGzip)} of gzipped JavaScript — ` +
      `${within ? 'within' : 'over'} the ${kB(BUDGET_GZIP_BYTES)} budget.** ` +
      `${withinCount} of ${lessons.length} lessons are within it.`,
    '',
    '| lesson | scripts | gzip | br | raw | Chromium received |',
    '|---|---:|---:|---:|---:|---:|',
    ...lessons.map(pageRow),
    `| **max** | | **${kB(maxGzip)}** | ${kB(Math.max(...lessons.map((l) => l.br_js_bytes)))} | ` +
      `${kB(Math.max(...lessons.map((l) => l.raw_js_bytes)))} | |`,
    '',
    '"Chromium received" is the encoded body size Chromium itself reports for the same files, with the ' +
      'encoding it was sent.',
  ];
  const pagesOver = pages.filter((p) => p.gzip_js_bytes > BUDGET_GZIP_BYTES).map((p) => p.slug);
  lines.push(
    '',
    '## The other pages',
    '',
    `Opened the same way: the home page, the lab (\`/#/lab?servers=c-epoll,c-poll\`), the history, and a run's ` +
      `permalink. ${pagesOver.length ? `Over the budget: ${pagesOver.join(', ')}.` : 'All within the budget.'}`,
    '',
    '| page | scripts | gzip | br | raw | Chromium received |',
    '|---|---:|---:|---:|---:|---:|',
    ...pages.map(pageRow),
  );
  if (lightest && lightest !== heaviest) lines.push(...filesTable(lightest));
  if (heaviest) lines.push(...filesTable(heaviest));
  return `${lines.join('\n')}\n`;
}

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'c10klab-bench-frontend-'));
  const port = await sparePort();
  let server;
  let browser;
  let failed = false;
  try {
    server = await startCourse('api', port, work);
    const { base } = server;
    const index = await fetch(`${base}/`).then((response) => response.text());
    if (!index.includes('<script')) throw new Error('the backend serves no built frontend: run `make frontend` first');
    const summaries = await fetch(`${base}/api/lessons`).then((response) => response.json());
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const run = await fetch(`${base}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ server: 'c-epoll', duration_s: 1 }),
    }).then((response) => response.json());
    const measured = async (spec) => {
      const weight = await measurePage(browser, base, spec);
      console.log(`${weight.slug}: ${weight.scripts} scripts, gzip ${kB(weight.gzip_js_bytes)}, br ${kB(weight.br_js_bytes)}, raw ${kB(weight.raw_js_bytes)}`);
      return weight;
    };
    const lessons = [];
    for (const summary of summaries) lessons.push(await measured(lessonPage(summary)));
    const pages = [];
    for (const spec of otherPages(run.id)) pages.push(await measured(spec));
    const maxGzip = Math.max(...lessons.map((lesson) => lesson.gzip_js_bytes));
    await writeFile(RESULTS, report(lessons, pages, maxGzip));
    console.log(`wrote ${relative(process.cwd(), RESULTS)}`);
    console.log(JSON.stringify({ lessons: lessons.map(figures), pages: pages.map(figures), max_gzip_js_bytes: maxGzip }));
  } catch (error) {
    failed = true;
    if (server) console.error(`(the API's log is kept: ${join(work, 'course.log')})`);
    throw error;
  } finally {
    await browser?.close();
    await server?.stop();
    if (!failed) await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
