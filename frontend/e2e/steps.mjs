// Steps several end-to-end tests take the same way: a picture of the page when a test fails,
// a run followed to its end by its state label, an editor page opened.
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
