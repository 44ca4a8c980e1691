// Steps several end-to-end tests take the same way: a picture of the page when a test fails,
// a run followed to its end by its state label, an editor page opened, an exercise's answer
// checked, a solution loaded into its editor.
import { join } from 'node:path';

import { ARTIFACTS, BASE_URL } from './chromium.mjs';

/** Runs `body`; if it throws, keeps a full-page screenshot of `page` (`<name>-failure.png`) of
 *  what the page looked like when the test went wrong, and throws again. */
export async function withFailureScreenshot(page, name, body) {
  try {
    await body();
  } catch (error) {
    await page.screenshot({ path: join(ARTIFACTS, `${name}-failure.png`), fullPage: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * Polls a run's or a sweep's state label (`run-state`, `series-state`) until it says the run
 * ended (done, failed…, cancelled); returns every text it showed, in order. `onState(text)` is
 * awaited with each new text as it is seen.
 */
export async function waitForRunEnd(page, label, { timeoutMs, pollMs = 250, onState } = {}) {
  const seen = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = ((await label.textContent()) ?? '').trim();
    if (seen.at(-1) !== text) {
      seen.push(text);
      await onState?.(text);
    }
    if (text === 'done' || text.startsWith('failed') || text === 'cancelled') return seen;
    if (Date.now() > deadline) {
      throw new Error(`the run did not end within ${timeoutMs / 1000} s; states seen: ${seen.join(' → ')}`);
    }
    await page.waitForTimeout(pollMs);
  }
}

/** Opens `path` (`/#/edit/c-epoll`) and waits for its editor, the textbox named `name`; returns it. */
export async function openEditor(page, path, name) {
  await page.goto(`${BASE_URL}${path}`, { waitUntil: 'domcontentloaded' });
  const editor = page.getByRole('textbox', { name });
  await editor.waitFor({ timeout: 15_000 });
  return editor;
}

/**
 * On an exercise's page: clicks Check my answer and waits for that answer's verdict, a new
 * variant on the verdict's area (not the one before) judged passed or failed. Returns its
 * variant, status, reasons, the measured rows' cells and the check's state label.
 */
export async function checkMyAnswer(page, { timeoutMs }) {
  const area = page.getByTestId('verdict-area');
  const previous = await area.getAttribute('data-variant');
  await page.getByRole('button', { name: 'Check my answer' }).click();
  await page.waitForFunction(
    ([el, before]) =>
      el.dataset.variant &&
      el.dataset.variant !== before &&
      el.querySelector('[data-testid="verdict"][data-status="passed"], [data-testid="verdict"][data-status="failed"]'),
    [await area.elementHandle(), previous],
    { timeout: timeoutMs, polling: 250 },
  );
  const verdict = area.getByTestId('verdict');
  const rows = verdict.locator('[data-testid="verdict-measured"] tbody tr');
  const measured = [];
  for (let i = 0; i < (await rows.count()); i += 1) measured.push(await rows.nth(i).locator('td').allTextContents());
  return {
    variant: await area.getAttribute('data-variant'),
    status: await verdict.getAttribute('data-status'),
    reasons: await verdict.locator('[data-testid="verdict-reasons"] li').allTextContents(),
    measured,
    state: ((await page.getByTestId('check-state').textContent()) ?? '').trim(),
  };
}

/** On an exercise's page: Show a solution, confirmed, shown against the starter, loaded into
 *  the editor (and kept as the draft). */
export async function loadASolution(page) {
  const solution = page.getByTestId('solution');
  await solution.getByRole('button', { name: 'Show a solution' }).click();
  await solution.getByText('See a solution? Try the hints first.').waitFor();
  await solution.getByRole('button', { name: 'Yes, show it' }).click();
  await solution.getByTestId('diff-view').waitFor({ timeout: 15_000 });
  await solution.getByRole('button', { name: 'Load into the editor' }).click();
  await page.getByTestId('draft-status').filter({ hasText: 'draft saved' }).waitFor({ timeout: 5_000 });
}
