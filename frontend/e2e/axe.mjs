/* global window */
// axe-core, the accessibility engine, run inside a page: the page's context must bypass the
// course's Content-Security-Policy (axe is added as a script the page did not ship).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE_SOURCE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Every axe violation on the page as it stands, one line each ("rule (impact): help — targets");
 *  `within`: a CSS selector, to check only that part of the page. */
export async function axeViolations(page, within = null) {
  const loaded = await page.evaluate(() => typeof window.axe !== 'undefined');
  if (!loaded) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async (selector) => {
    const result = await window.axe.run(selector ?? window.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  }, within);
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.targets.join(', ')}`);
}

/** Runs `body(context)` in a fresh browser context in colour `scheme` that lets axe past the
 *  course's CSP; closes the context after. */
export async function inAxeContext(browser, scheme, body) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme, bypassCSP: true });
  try {
    return await body(context);
  } finally {
    await context.close();
  }
}
