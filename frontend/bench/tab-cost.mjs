// Benchmark (not a test): what a learner's own tab costs the run it is drawing. On a solo
// course the browser runs on the machine it measures, so a page that redraws its charts while
// the server is measured takes CPU from the measured cores, and the stability check may call
// the run disturbed because of the learner's own tab (issue 22).
//
// Starts the course (API and runner, default stability limits, no calibration) on a spare port
// with a throwaway store, and Debian's Chromium through playwright-core. Then lesson 1's first
// experiment, in rounds that run each condition once, in an order that turns each round:
//   - "tab, clicked at once": the lesson's page opened, its run button clicked as soon as it
//     can be, the page following the run to its end as a learner would see it;
//   - "tab, settled first": the same, clicked once the page has been open for SETTLE_S (a
//     learner reading before pressing the button);
//   - "no tab": the same request posted to the API while Chromium shows only about:blank.
// For each run: Chromium's CPU (every process of the browser, from /proc, click to result, as a
// share of one core), what the stability check measured others taking of the server's and the
// load generator's cores (the run's `interference`), whether it called the run disturbed, and
// its requests/s.
//
// Writes results/tab.md and prints one JSON object on its last stdout line.
//
//   make bench-tab        (builds the frontend and the venv first; needs Docker and the images)
//   node frontend/bench/tab-cost.mjs [ROUNDS [LABEL]]   [CHROMIUM_PATH=/path/to/chrome]
// With a LABEL it writes results/tab-LABEL.md instead (a measurement of the code before a change);
// NOTE="..." in the environment says in a sentence what the code measured was.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { chromium } from 'playwright-core';

import { CHROMIUM_ARGS, CHROMIUM_PATH, ROOT, sparePort, startCourse, VIEWPORT } from './course.mjs';

const results = (label) => join(ROOT, 'results', label ? `tab-${label}.md` : 'tab.md');
const LESSON = '01-c10k-problem';
const RUN_TIMEOUT_MS = 120_000;
const SETTLE_S = 10;
const CONDITIONS = ['tab, clicked at once', 'tab, settled first', 'no tab'];
/** /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux. */
const TICKS_PER_S = 100;

/** Every process's parent, from /proc. */
async function parents() {
  const found = new Map();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue;
    // after the command's closing parenthesis: state, ppid, ... utime (14th field), stime (15th)
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    found.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
  }
  return found;
}

/** The CPU ticks used so far by `root` and every process below it. */
async function treeTicks(root) {
  const table = await parents();
  const inTree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, { ppid }] of table) {
      if (!inTree.has(pid) && inTree.has(ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  let ticks = 0;
  for (const pid of inTree) ticks += table.get(pid)?.ticks ?? 0;
  return ticks;
}

/** Starts metering the browser's CPU: resolves to a function that gives the share of one core
 *  it used since. */
async function startMeter(pid) {
  const ticks = await treeTicks(pid);
  const started = Date.now();
  return async () => ((await treeTicks(pid)) - ticks) / TICKS_PER_S / ((Date.now() - started) / 1000);
}

async function json(base, path, init) {
  const response = await fetch(`${base}${path}`, init);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function waitForRun(base, id) {
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const run = await json(base, `/api/runs/${id}`);
    if (!['queued', 'running'].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} did not end within ${RUN_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The run posted as the lesson's widget would post it, with only about:blank open; the run,
 *  and the browser's share of a core from the post to the result. */
async function runWithoutTab(base, page, request, browserPid) {
  await page.goto('about:blank');
  const meter = await startMeter(browserPid);
  const { id } = await json(base, '/api/runs', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(request),
  });
  const run = await waitForRun(base, id);
  return { run, share: await meter() };
}

/** The lesson's page open, its run button clicked (after `settleS`), the page drawing the run
 *  until its result; the run, and the browser's share of a core from the click to the result. */
async function runFromTab(base, page, settleS, browserPid) {
  const before = new Set((await json(base, '/api/runs')).map((run) => run.id));
  await page.goto('about:blank'); // a fresh page load each time, as a learner opening the lesson
  await page.goto(`${base}/#/lessons/${LESSON}`, { waitUntil: 'domcontentloaded' });
  // the first experiment widget mounts once it comes into view
  await page.locator('[data-testid="not-yet-loaded"], section.experiment').first().scrollIntoViewIfNeeded();
  const widget = page.locator('section.experiment').first();
  // "Run live" beside the recording, "Run benchmark" once the widget shows a run of yours
  const button = widget.getByRole('button', { name: /^Run (live|benchmark)$/ });
  await page.waitForFunction((element) => element && !element.disabled, await button.elementHandle(), { timeout: 30_000 });
  await page.waitForTimeout(settleS * 1000);
  const meter = await startMeter(browserPid);
  await button.click();
  let id;
  const deadline = Date.now() + 15_000;
  while (!id) {
    id = (await json(base, '/api/runs')).map((run) => run.id).find((runId) => !before.has(runId));
    if (!id && Date.now() > deadline) throw new Error('the page started no run');
    if (!id) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const run = await waitForRun(base, id);
  const share = await meter();
  await widget.getByTestId('run-results').waitFor({ timeout: 15_000 });
  return { run, share };
}

/** One run's figures: the tab's CPU and what the run itself measured. */
function figures(condition, run, cpuShare) {
  const result = run.result ?? {};
  const use = result.interference ?? {};
  return {
    condition,
    run: run.id,
    status: run.status,
    chromium_cpu: cpuShare,
    stable: result.stable ?? null,
    unstable_reason: result.unstable_reason ?? null,
    server_others: use.server?.others ?? null,
    loadgen_others: use.loadgen?.others ?? null,
    steal: use.server?.steal ?? null,
    qps: result.summary?.qps ?? null,
  };
}

const median = (values) => {
  const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const pct = (v) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);
const int = (v) => (v === null ? '—' : Math.round(v).toLocaleString('en'));

function summary(rows, condition) {
  const mine = rows.filter((row) => row.condition === condition);
  return {
    condition,
    runs: mine.length,
    flagged: mine.filter((row) => row.stable === false).length,
    chromium_cpu: median(mine.map((row) => row.chromium_cpu)),
    server_others: median(mine.map((row) => row.server_others)),
    loadgen_others: median(mine.map((row) => row.loadgen_others)),
    qps: median(mine.map((row) => row.qps)),
  };
}

function report(rows, summaries, health, when) {
  const noise = health.runners?.[0];
  return `${[
    '# What a learner\'s own tab costs its run (make bench-tab)',
    '',
    ...(process.env.NOTE ? [process.env.NOTE, ''] : []),
    `${when} UTC; ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} CPUs); Chromium headless ` +
      `(${CHROMIUM_PATH}); the course's default stability limits; server on CPU ${noise?.server_cpus ?? '?'}, ` +
      `load generator on CPU ${noise?.loadgen_cpus ?? '?'}.`,
    '',
    `Lesson 1's first experiment, in rounds that run each condition once, in an order that turns each round: ` +
      'run from the lesson\'s page with the page drawing it, its button clicked as soon as the page allows ' +
      `("clicked at once") or after the page has been open ${SETTLE_S} s ("settled first"), and posted to the API ` +
      'with Chromium showing only about:blank ("no tab"). ' +
      '`Chromium` is every process of the browser from the click (or the post) to the result, as a share of one core; ' +
      '`others` is what the stability check measured processes other than the run\'s own containers taking of ' +
      'the measured core while the run was measured, the browser among them.',
    '',
    '| condition | runs | called disturbed | Chromium (median) | others, server core | others, load generator core | median req/s |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...summaries.map(
      (s) =>
        `| ${s.condition} | ${s.runs} | ${s.flagged} | ${pct(s.chromium_cpu)} | ${pct(s.server_others)} | ${pct(s.loadgen_others)} | ${int(s.qps)} |`,
    ),
    '',
    '## Every run',
    '',
    '| # | condition | Chromium | others, server | others, loadgen | steal | req/s | disturbed? |',
    '|---:|---|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (row, i) =>
        `| ${i + 1} | ${row.condition} | ${pct(row.chromium_cpu)} | ${pct(row.server_others)} | ${pct(row.loadgen_others)} | ` +
        `${pct(row.steal)} | ${int(row.qps)} | ${row.stable === false ? row.unstable_reason?.split(':')[0] : 'no'} |`,
    ),
  ].join('\n')}\n`;
}

async function main() {
  const rounds = Number(process.argv[2] ?? 6);
  const work = await mkdtemp(join(tmpdir(), 'c10klab-bench-tab-'));
  const port = await sparePort();
  let course;
  let server;
  let failed = false;
  try {
    course = await startCourse('up', port, work, { C10K_CALIBRATION_RUNS: '0' });
    const { base } = course;
    const lesson = await json(base, `/api/lessons/${LESSON}`);
    const request = lesson.experiments.find((experiment) => experiment.run)?.run;
    if (!request) throw new Error(`${LESSON} has no run experiment`);
    server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const browser = await chromium.connect(server.wsEndpoint());
    const page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
    const rows = [];
    for (let round = 0; round < rounds; round += 1) {
      const order = CONDITIONS.map((_, i) => CONDITIONS[(i + round) % CONDITIONS.length]);
      for (const condition of order) {
        const pid = server.process().pid;
        const { run, share } =
          condition === 'no tab'
            ? await runWithoutTab(base, page, request, pid)
            : await runFromTab(base, page, condition === 'tab, settled first' ? SETTLE_S : 0, pid);
        const row = figures(condition, run, share);
        console.log(JSON.stringify(row));
        rows.push(row);
      }
    }
    await browser.close();
    const summaries = CONDITIONS.map((condition) => summary(rows, condition));
    const health = await json(base, '/api/health');
    const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const output = results(process.argv[3]);
    await writeFile(output, report(rows, summaries, health, when));
    console.log(`wrote ${relative(process.cwd(), output)}`);
    console.log(JSON.stringify({ summaries }));
  } catch (error) {
    failed = true;
    console.error(`(the course's log is kept: ${join(work, 'course.log')})`);
    throw error;
  } finally {
    await server?.close();
    await course?.stop();
    if (!failed) await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
