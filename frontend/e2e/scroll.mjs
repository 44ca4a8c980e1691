/* global window, document */
// Lesson pages draw Mermaid diagrams and mount benchmark widgets only when they come into view
// (src/hooks/use-near-viewport.ts), so a test that counts or clicks them scrolls to them first.

/** How long each screen stays in view: longer than the hook's dwell, so its blocks start loading. */
const PAUSE_MS = 400;

/**
 * Scrolls the page from top to bottom most of a screen at a time, pausing on each, until the
 * bottom stays put (the page grows as widgets arrive); then back to the top.
 */
export async function scrollThroughPage(page) {
  for (let step = 0; step < 500; step++) {
    const atBottom = await page.evaluate(() => {
      window.scrollBy(0, Math.round(window.innerHeight * 0.8));
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    });
    await page.waitForTimeout(PAUSE_MS);
    if (atBottom) break;
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}
