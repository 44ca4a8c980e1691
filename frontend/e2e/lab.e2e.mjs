/* global document, window */
// End-to-end: the lab and what a learner keeps, in real Chromium against the real course with
// real runs (E2E_BASE_URL). Change a knob and run; compare two servers; export the result as
// CSV and PNG and read the files back; find it in the history and open its permalink in a
// fresh browser; run a lesson's experiment live and see it drawn over the recorded reference.
import assert from 'node:assert/strict';
import { copyFile, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { ARTIFACTS, BASE_URL, watchedBrowserPerFile } from './chromium.mjs';
import { scrollThroughPage } from './scroll.mjs';
import { waitForRunEnd, withFailureScreenshot } from './steps.mjs';

const RUN_TIMEOUT_MS = Number(process.env.E2E_RUN_TIMEOUT_MS ?? 120_000);
// Short runs: the lab's figures are not the point here, its plumbing is.
const QUICK = 'duration_s=1&warmup_s=0.5&connections=10';

let browser;
let page;
let consoleErrors;
watchedBrowserPerFile((opened) => ({ browser, page, consoleErrors } = opened), {
  acceptDownloads: true,
  // "Share this result" copies its link: the test reads it back from the clipboard.
  permissions: ['clipboard-read', 'clipboard-write'],
});

// The README's pictures (docs/screenshots/) are refreshed on purpose, with E2E_DOCS_SCREENSHOTS=1;
// every run keeps its own in the artifacts.
const DOCS_SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'screenshots');

/** Keeps an artifact's picture in docs/screenshots/ too, when asked to. */
async function keepForDocs(artifact, name) {
  if (process.env.E2E_DOCS_SCREENSHOTS === '1') await copyFile(artifact, join(DOCS_SCREENSHOTS, name));
}

/** Clicks the widget's Run button once it is enabled, and waits for the run or sweep to end. */
async function runToEnd(widget, name, stateTestId = 'run-state') {
  const button = widget.getByRole('button', { name });
  await page.waitForFunction((b) => b && !b.disabled, await button.elementHandle(), { timeout: 20_000 });
  await button.click();
  const seen = await waitForRunEnd(page, widget.getByTestId(stateTestId), { timeoutMs: RUN_TIMEOUT_MS });
  if (seen.at(-1) !== 'done') throw new Error(`the run ended "${seen.at(-1)}"`);
}

/** Clicks a button that downloads a file; returns the file's name and bytes. */
async function download(button) {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  const path = join(ARTIFACTS, file.suggestedFilename());
  await file.saveAs(path);
  return { name: file.suggestedFilename(), bytes: await readFile(path), path };
}

/** Clicks "Share this result" in `scope`; returns the link it copied, read back from the
 *  clipboard and checked against the link it shows. */
async function share(scope) {
  await scope.getByRole('button', { name: 'Share this result' }).click();
  const shown = scope.getByTestId('share-result-link');
  await shown.waitFor({ timeout: 5_000 });
  const copied = await page.evaluate(() => window.navigator.clipboard.readText());
  assert.equal(copied, await shown.getAttribute('href'), 'the link copied is the link shown');
  assert.ok(copied.startsWith(`${BASE_URL}/#/`), `an absolute link to the course: ${copied}`);
  return copied;
}

/**
 * Chooses `value` in `select` and waits until the page's address carries `expected`. A choice the
 * page never saw (the select shows its old value again) is made once more, and said: in CI the
 * choice was twice lost right after the page drew, which a user would see and redo; a choice the
 * page saw that never reaches the address still fails.
 */
async function chooseUntilKept(select, value, expected) {
  for (let attempt = 1; ; attempt += 1) {
    await select.selectOption(value);
    const deadline = Date.now() + 5_000;
    for (;;) {
      const hash = await page.evaluate(() => window.location.hash);
      if (hash.includes(expected)) return;
      const shown = await select.inputValue();
      if (shown !== value && attempt < 3) {
        console.log(`# the choice of ${value} was lost (the select shows ${shown}); choosing again`);
        break;
      }
      if (Date.now() > deadline) {
        throw new Error(`the address lacks ${expected} (the select shows ${shown}; the address is ${hash})`);
      }
      await page.waitForTimeout(100);
    }
  }
}

const LANGUAGE_KEY = 'c10klab.language';

/** The lab's Run button, and the reason its aria-describedby gives for it being disabled. */
async function runButtonState() {
  const run = page.getByTestId('run-button');
  await run.waitFor({ timeout: 15_000 });
  const reason = await run.evaluate((b) => {
    const ids = (b.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    return ids.map((id) => b.ownerDocument.getElementById(id)?.textContent ?? '').join(' ');
  });
  return { run, disabled: await run.isDisabled(), reason };
}

/** Types connections + idle connections past the host's total and reads what the form says. */
async function overTheTotal(idleLabel) {
  await page.goto(`${BASE_URL}/#/lab?servers=c-epoll&connections=10000`, { waitUntil: 'domcontentloaded' });
  // Only the hash changed: the page is loaded again so that it reads the language set.
  await page.reload({ waitUntil: 'domcontentloaded' });
  // The field by its label in the reader's language.
  const input = page.getByRole('spinbutton', { name: idleLabel, exact: true });
  await input.fill('9500');
  const beside = page.getByTestId('lab-fields').getByTestId('lab-field-problem');
  await beside.waitFor({ timeout: 5_000 });
  return { beside: (await beside.textContent()) ?? '', invalid: await input.getAttribute('aria-invalid'), ...(await runButtonState()) };
}

test('the lab checks limits before Run, says why Run waits, and keeps Run reachable', { timeout: 90_000 }, async () => {
  await withFailureScreenshot(page, 'lab-form', async () => {
    // A fresh lab: Run is there from the start, disabled with its reason, and nothing is red.
    await page.goto(`${BASE_URL}/#/lab`, { waitUntil: 'domcontentloaded' });
    const fresh = await runButtonState();
    assert.ok(fresh.disabled, 'Run waits for a server');
    assert.equal(fresh.reason, 'Tick a server to run');
    assert.equal(await page.locator('[aria-invalid="true"], [data-testid="lab-field-problem"]').count(), 0, 'nothing red before any input');

    // Centred at 1366 px, as every other page is.
    const box = await page.locator('.lab').boundingBox();
    const width = await page.evaluate(() => document.documentElement.clientWidth);
    assert.ok(Math.abs(box.x - (width - box.x - box.width)) <= 2, `the lab is centred (${box.x} px left, ${width - box.x - box.width} px right)`);

    // Connections + idle connections past the host's total: said beside the field, in words, before Run.
    const en = await overTheTotal('Idle connections');
    assert.equal(en.beside, 'Connections plus Idle connections may be at most 19000 connections here (now 19500)');
    assert.equal(en.invalid, 'true');
    assert.ok(en.disabled, 'Run is disabled');
    assert.equal(en.reason, en.beside, 'Run says why');

    await page.evaluate((key) => window.localStorage.setItem(key, 'zh'), LANGUAGE_KEY);
    try {
      const zh = await overTheTotal('空闲连接数');
      assert.equal(zh.beside, '连接数 与 空闲连接数 之和在此最多为 19000 个连接（现为 19500）');
      assert.ok(zh.disabled, 'Run is disabled in Chinese too');
      assert.equal(zh.reason, zh.beside);
      await page.goto(`${BASE_URL}/#/lab`, { waitUntil: 'domcontentloaded' });
      assert.equal((await runButtonState()).reason, '勾选一个服务器即可运行');
    } finally {
      await page.evaluate((key) => window.localStorage.setItem(key, 'en'), LANGUAGE_KEY);
      await page.reload({ waitUntil: 'domcontentloaded' });
    }

    // On a phone, with two servers' knobs, Run stays on screen: at the top and scrolled to the end.
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${BASE_URL}/#/lab?servers=c-epoll,c-io-uring`, { waitUntil: 'domcontentloaded' });
      const run = (await runButtonState()).run;
      for (const where of ['top', 'end']) {
        if (where === 'end') await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const at = await run.boundingBox();
        assert.ok(at && at.y >= 0 && at.y + at.height <= 844, `Run is on screen at the page's ${where} (y ${at?.y})`);
      }
      await page.screenshot({ path: join(ARTIFACTS, 'lab-phone.png') });
    } finally {
      await page.setViewportSize({ width: 1366, height: 900 });
    }
  });
});

let sharedRun;
let sharedSweep;

test('change a knob in the lab and run it', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
  await withFailureScreenshot(page, 'lab-knob', async () => {
    await page.goto(`${BASE_URL}/#/lab?servers=c-epoll&${QUICK}`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { level: 1, name: 'Lab' }).waitFor({ timeout: 15_000 });
    const knobs = page.getByTestId('lab-knobs-c-epoll');
    await knobs.waitFor();
    // The knob by its label from the catalog, never its raw name.
    assert.equal(await knobs.getByText('trigger', { exact: true }).count(), 0, 'no raw knob name');
    const trigger = knobs.getByRole('combobox').first();
    const chosen = 'et'; // not the catalog's default (lt), so the page's address must carry it
    await chooseUntilKept(trigger, chosen, `knob.c-epoll.trigger=${chosen}`);

    const widget = page.locator('section.experiment');
    await runToEnd(widget, 'Run benchmark');
    await widget.getByTestId('run-results').waitFor();
    const history = await (await page.request.get(`${BASE_URL}/api/history`)).json();
    const entry = history.find((e) => e.kind === 'run');
    assert.ok(entry, 'the run is in the history');
    assert.deepEqual(entry.knobs, { trigger: chosen }, 'the run was sent with the knob');
    // The result's own link, not the lab's: its permalink.
    sharedRun = await share(widget);
    assert.equal(sharedRun, `${BASE_URL}/#/runs/${entry.id}`);

    // Exports: the table as CSV (columns named by server id) headed by what it is, and the chart
    // as a PNG and an SVG that say it too.
    const csv = await download(widget.getByTestId('export-csv').first());
    const text = csv.bytes.toString('utf8');
    assert.match(csv.name, /\.csv$/);
    const lines = text.split(/\r?\n/);
    const header = lines.find((line) => !line.startsWith('#'));
    assert.match(header, /c-epoll/, `the CSV's header names the server: ${text.slice(0, 400)}`);
    assert.ok(lines.filter((line) => line && !line.startsWith('#')).length >= 3, 'the CSV has rows');
    for (const fact of [/^# Connections: 10$/m, /^# Readiness trigger: et$/m, /^# CPU: /m, /^# Kernel: Linux /m, /^# Measured: .*\(\d{4}-\d\d-\d\dT/m, new RegExp(`^# ${sharedRun.replace(/[?.]/g, '\\$&')}$`, 'm')]) {
      assert.match(text, fact, `the CSV says ${fact}: ${text.slice(0, 600)}`);
    }
    const png = await download(widget.getByTestId('qps-chart').getByTestId('export-png'));
    assert.equal(png.bytes.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG file');
    const width = png.bytes.readUInt32BE(16);
    const height = png.bytes.readUInt32BE(20);
    // 1200 CSS px at 2 device px each, whatever the page's own density (1 here).
    assert.equal(width, 2400, `the PNG is drawn 1200 px wide at 2× (${width}×${height})`);
    assert.ok(height > 2 * 560 + 200, `the PNG has room for the chart and the words under it (${width}×${height})`);
    await keepForDocs(png.path, 'exported-chart.png');
    const svg = (await download(widget.getByTestId('qps-chart').getByTestId('export-svg'))).bytes.toString('utf8');
    for (const fact of ['Throughput (QPS)', 'c-epoll', 'Connections: 10', 'Readiness trigger: et', 'Duration: 1 s', 'Legend: ', 'CPU: ', 'Kernel: Linux ', 'Measured: ', sharedRun]) {
      assert.ok(svg.includes(fact), `the SVG says "${fact}"`);
    }
    assert.match(svg, /<image [^>]*href="data:image\/png;base64,/, 'the SVG holds the chart');
    await page.screenshot({ path: join(ARTIFACTS, 'lab-run.png'), fullPage: true });

  });
});

test('compare two servers in the lab', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
  await withFailureScreenshot(page, 'lab-compare', async () => {
    // A warm-up of 2 s: long enough to see the running point drawn while it warms up.
    await page.goto(`${BASE_URL}/#/lab?servers=c-epoll,c-poll&duration_s=1&warmup_s=2&connections=10`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('lab-plan').waitFor({ timeout: 15_000 });
    assert.match((await page.getByTestId('lab-plan').textContent()) ?? '', /2 runs, one sweep/);
    const widget = page.locator('section.experiment');
    const chart = widget.getByTestId('series-qps-chart');
    const run = widget.getByRole('button', { name: 'Run 2 benchmarks' });
    await page.waitForFunction((b) => b && !b.disabled, await run.elementHandle(), { timeout: 20_000 });
    await run.click();
    // The series is followed live: its state names the point now measured and what it is
    // doing, and the running point is on the chart before any point has landed.
    let drawnLive = null;
    const seen = await waitForRunEnd(page, widget.getByTestId('series-state'), {
      timeoutMs: RUN_TIMEOUT_MS,
      pollMs: 100,
      onState: async () => {
        if (drawnLive !== null || !(await chart.getAttribute('data-series'))?.includes(' now (')) return;
        drawnLive = await chart.getAttribute('data-series');
        await widget.screenshot({ path: join(ARTIFACTS, 'live-series.png') });
        await keepForDocs(join(ARTIFACTS, 'live-series.png'), 'live-series.png');
      },
    });
    assert.equal(seen.at(-1), 'done', `the series ended: ${seen.join(' → ')}`);
    // A comparison in the lab shares its series' permalink (opened in a fresh browser below).
    sharedSweep = await share(widget);
    assert.match(sharedSweep, /#\/sweeps\/[0-9a-f]+$/, 'a comparison in the lab shares its series');
    assert.ok(seen.some((s) => /· now c-(epoll|poll): (warming up|measuring)/.test(s)), `the state follows the point: ${seen.join(' → ')}`);
    assert.ok(drawnLive !== null, `the running point was drawn while it warmed up (states: ${seen.join(' → ')})`);
    await page.waitForFunction((el) => Number(el.dataset.points) === 2, await chart.elementHandle(), { timeout: 10_000 });
    const csv = await download(widget.getByTestId('export-csv').first());
    const header = csv.bytes.toString('utf8').split(/\r?\n/).find((line) => !line.startsWith('#'));
    assert.match(header, /c-epoll/);
    assert.match(header, /c-poll/);
  });
});

test('the history keeps them, and a permalink opens in a fresh browser', { timeout: 60_000 }, async () => {
  await withFailureScreenshot(page, 'history', async () => {
    await page.goto(`${BASE_URL}/#/history`, { waitUntil: 'domcontentloaded' });
    const rows = page.getByTestId('history-entry');
    await rows.first().waitFor({ timeout: 15_000 });
    assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.dataset.kind)), ['sweep', 'run'], 'newest first');
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(1).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Compare 2 selected' }).click();
    const table = page.getByTestId('compare-table');
    await table.waitFor({ timeout: 15_000 });
    assert.equal(await table.locator('tbody tr').count(), 3, 'the run and the sweep’s two points');
    const comparison = await share(page.getByTestId('compare'));
    assert.match(comparison, /#\/compare\?results=sweep:[0-9a-f]+,run:[0-9a-f]+$/, 'the comparison’s own address, in order');

    // Fresh browsers (no history, no storage) see each shared result, not a setup to run.
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const other = await fresh.newPage();
      await other.goto(sharedRun, { waitUntil: 'domcontentloaded' });
      await other.getByTestId('run-results').waitFor({ timeout: 15_000 });
      const qps = other.getByTestId('qps-chart');
      await other.waitForFunction((el) => Number(el.dataset.points) >= 1, await qps.elementHandle(), { timeout: 10_000 });
      assert.match((await other.locator('body').textContent()) ?? '', /c-epoll/);
      assert.ok((await other.getByTestId('provenance').count()) > 0, 'the provenance is shown');
      await other.screenshot({ path: join(ARTIFACTS, 'shared-result.png'), fullPage: true });
      await keepForDocs(join(ARTIFACTS, 'shared-result.png'), 'shared-result.png');

      await other.goto(sharedSweep, { waitUntil: 'domcontentloaded' });
      const series = other.getByTestId('series-qps-chart');
      await series.waitFor({ timeout: 15_000 });
      await other.waitForFunction((el) => Number(el.dataset.points) === 2, await series.elementHandle(), { timeout: 10_000 });

      await other.goto(comparison, { waitUntil: 'domcontentloaded' });
      const shared = other.getByTestId('compare-table');
      await shared.waitFor({ timeout: 15_000 });
      assert.equal(await shared.locator('tbody tr').count(), 3, 'the comparison, drawn from the stored runs');
      await other.screenshot({ path: join(ARTIFACTS, 'shared-comparison.png'), fullPage: true });
      await keepForDocs(join(ARTIFACTS, 'shared-comparison.png'), 'shared-comparison.png');

      // A link to nothing says so in words, never a blank page.
      await other.goto(`${BASE_URL}/#/runs/0123456789abcdef0123456789abcdef`, { waitUntil: 'domcontentloaded' });
      const problem = other.getByTestId('permalink-problem');
      await problem.waitFor({ timeout: 15_000 });
      assert.equal(await problem.getAttribute('data-status'), '404');
      assert.match((await problem.textContent()) ?? '', /No run 0123456789abcdef/);
      await other.goto(`${BASE_URL}/#/compare?results=run:0123456789abcdef0123456789abcdef`, { waitUntil: 'domcontentloaded' });
      await other.locator('[data-testid="permalink-problem"][data-status="404"]').waitFor({ timeout: 15_000 });
    } finally {
      await fresh.close();
    }

    // In Chinese, on a phone: the control says so and its link stays on the screen.
    const chinese = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'zh-CN' });
    try {
      const phone = await chinese.newPage();
      await phone.goto(sharedRun, { waitUntil: 'domcontentloaded' });
      await phone.getByTestId('run-results').waitFor({ timeout: 15_000 });
      await phone.getByRole('button', { name: '分享此结果' }).click();
      const link = phone.getByTestId('share-result-link');
      await link.waitFor({ timeout: 5_000 });
      const box = await link.boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `the link wraps within the phone's width (${JSON.stringify(box)})`);
    } finally {
      await chinese.close();
    }
  });
});

test('a live run is drawn over the recorded reference', { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
  await withFailureScreenshot(page, 'overlay', async () => {
    await page.goto(`${BASE_URL}/#/lessons/01-c10k-problem`, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('not-yet-loaded').first().scrollIntoViewIfNeeded();
    const widget = page.locator('section.experiment').first();
    await widget.getByTestId('baseline-note').waitFor({ timeout: 15_000 });
    await runToEnd(widget, 'Run benchmark');
    const chart = widget.getByTestId('qps-chart');
    const roles = await chart.getAttribute('data-series');
    assert.ok(roles?.includes('measured · reference') && roles.includes('your run'), `both are drawn (series: ${roles})`);
    // The legend names the reference in a word (a phone's chart clips a longer entry); the
    // table under the charts says when it was recorded.
    assert.ok(!roles.includes('recorded'), `the legend is short (series: ${roles})`);
    const results = widget.getByTestId('run-results');
    assert.match((await results.textContent()) ?? '', /reference \(recorded \d{4}-\d{2}-\d{2}\)/);
    await scrollThroughPage(page);
    await widget.scrollIntoViewIfNeeded();
    await widget.screenshot({ path: join(ARTIFACTS, 'overlay.png') });
    // Run again and cancel: a cancel, not a failure, and the run before it stays on show.
    const figures = await widget.getByTestId('run-results').textContent();
    await widget.getByRole('button', { name: 'Run benchmark' }).click();
    const cancel = widget.getByRole('button', { name: 'Cancel' });
    await cancel.waitFor({ timeout: 10_000 });
    await cancel.click();
    await widget.locator('[data-testid="run-state"][data-phase="cancelled"]').waitFor({ timeout: 15_000 });
    assert.equal(await widget.getByTestId('run-kept').textContent(), 'your previous run is shown');
    assert.equal(await widget.getByTestId('failure-logs').count(), 0, 'no server log for a cancel');
    assert.equal(await widget.getByTestId('run-results').textContent(), figures, 'the previous figures are back');
  });
  assert.deepEqual(consoleErrors, [], 'the browser console stayed free of errors');
});

test("a cpu profile shows where the server's time went, kernel included, and exports it", { timeout: RUN_TIMEOUT_MS + 60_000 }, async () => {
  await withFailureScreenshot(page, 'lab-profile', async () => {
    await page.goto(`${BASE_URL}/#/lab?servers=c-epoll&duration_s=2&warmup_s=0.5&connections=20&profile=cpu`, { waitUntil: 'domcontentloaded' });
    const widget = page.locator('section.experiment');
    await runToEnd(widget, 'Run benchmark');
    const panel = widget.getByTestId('profile-panel');
    await panel.getByRole('heading', { name: "Where the server's CPU time went" }).waitFor({ timeout: 15_000 });
    const shares = await panel.getByTestId('profile-shares').textContent();
    assert.match(shares, /network softirq \(kernel\) \d/, `the shares name softirq: ${shares}`);
    const graph = panel.getByTestId('flame-graph');
    await graph.locator('g.frame').first().waitFor({ timeout: 15_000 });
    const names = await graph.locator('g.frame').evaluateAll((frames) => frames.map((g) => g.getAttribute('name')));
    for (const name of ['c-epoll', 'main', 'epoll_wait']) assert.ok(names.includes(name), `the flame graph has ${name}: ${names.slice(0, 30).join(', ')}`);
    assert.ok(names.some((n) => /^tcp_/.test(n)), 'the kernel TCP frames are drawn');
    assert.ok(!names.some((n) => /^(0x)?[0-9a-f]{8,}$/i.test(n)), 'no address is drawn');
    // Search says how much of the time matches; a click zooms into a frame.
    await panel.getByRole('searchbox', { name: 'Find a function' }).fill('tcp_');
    await page.waitForFunction((el) => /Frames that match: \d/.test(el.textContent ?? ''), await panel.locator('.flame-graph__details').elementHandle());
    const folded = await download(panel.getByRole('button', { name: 'Stacks as folded text' }));
    assert.match(folded.bytes.toString('utf8'), /^c-epoll;.* \d+$/m, 'folded stacks, one per line');
    const svg = await download(panel.getByRole('button', { name: 'Flame graph as SVG' }));
    assert.match(svg.bytes.toString('utf8'), /name="epoll_wait"/, 'the SVG holds the frames');
    await panel.screenshot({ path: join(ARTIFACTS, 'flame-graph.png') });
    await keepForDocs(join(ARTIFACTS, 'flame-graph.png'), 'flame-graph.png');
  });
});
