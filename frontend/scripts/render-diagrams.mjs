// Draws every ```mermaid block of the lessons and the glossary, in every language, once, here,
// so that learners' browsers never load Mermaid for them: the frontend's own Mermaid
// (node_modules) with its own configuration (src/lib/mermaid.ts), in headless Chromium on a page
// with the site's CSS (Mermaid measures text in a real browser). Each SVG goes to
// content/diagrams/<page>/<key>.svg: <page> is the lesson's slug (or `glossary`), <key> the first
// 12 hex digits of the SHA-256 of the block's text, trimmed (the backend and the content checker
// compute the same); a translation's drawings (content/zh/…) sit beside the English's, told apart
// by their text. SVGs no block uses any more are removed. Chinese labels are measured in a
// Chinese font (Debian's fonts-wqy-microhei, which `make diagrams` installs): without one,
// Chromium would measure the boxes it draws for missing glyphs.
//
// Deterministic: a diagram's render id (every id inside its SVG) is `c10k-diagram-<key>`, so an
// unchanged block gives a byte-identical file.
//
//   make diagrams                         # or, from frontend/: npm run diagrams
//   CHROMIUM_PATH=/path/to/chrome make diagrams
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';
import { runnerImport } from 'vite';

const FRONTEND = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONTENT = join(FRONTEND, '..', 'content');
const OUT = join(CONTENT, 'diagrams');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The same fences the content checker reads (backend/c10klab/content/service.py, FENCE).
const FENCE = /^```([A-Za-z0-9_-]*)[^\n]*\n([\s\S]*?)^```[ \t]*$/gm;

const diagramKey = (text) => createHash('sha256').update(text.trim()).digest('hex').slice(0, 12);

// Where each language's pages are (backend/c10klab/content/service.py, language_dir), and the
// language tag its page is drawn under (so the font fallback picks the script's fonts).
const LANGUAGES = [
  { folder: CONTENT, tag: 'en' },
  { folder: join(CONTENT, 'zh'), tag: 'zh-Hans' },
];

/** The lesson files and the glossary of one language's folder (none where it has none). */
async function pageFiles(folder) {
  const lessons = (await readdir(join(folder, 'lessons')).catch(() => [])).filter((f) => f.endsWith('.md')).sort();
  return [...lessons.map((f) => join(folder, 'lessons', f)), join(folder, 'glossary.md')];
}

/** [{page, name, line, source, key, lang}] for every mermaid block of every lesson and glossary. */
async function mermaidBlocks() {
  const blocks = [];
  for (const { folder, tag } of LANGUAGES) {
    for (const file of await pageFiles(folder)) {
      const markdown = await readFile(file, 'utf8').catch(() => '');
      for (const match of markdown.matchAll(FENCE)) {
        if (match[1] !== 'mermaid') continue;
        const page = file.endsWith('glossary.md') ? 'glossary' : basename(file, '.md');
        const line = markdown.slice(0, match.index).split('\n').length;
        const name = relative(CONTENT, file);
        blocks.push({ page, name, line, source: match[2].trim(), key: diagramKey(match[2]), lang: tag });
      }
    }
  }
  return blocks;
}

/** One diagram's SVG, drawn as the frontend draws it. */
async function draw(tab, config, { name, line, source, key }) {
  return tab.evaluate(
    async ({ config, name, line, source, key }) => {
      /* global mermaid, document, DOMParser, XMLSerializer */
      mermaid.initialize(config);
      let svg;
      try {
        await mermaid.parse(source);
        ({ svg } = await mermaid.render(`c10k-diagram-${key}`, source));
      } catch (error) {
        throw new Error(`${name}:${line}: mermaid block does not draw: ${error?.message ?? error}`);
      }
      // Mermaid gives HTML (`<br>`); a committed .svg file should be XML that opens anywhere.
      const template = document.createElement('template');
      template.innerHTML = svg;
      const xml = new XMLSerializer().serializeToString(template.content.firstElementChild);
      if (new DOMParser().parseFromString(xml, 'image/svg+xml').querySelector('parsererror')) {
        throw new Error(`${name}:${line}: the drawn SVG is not well-formed XML`);
      }
      return xml;
    },
    { config, name, line, source, key },
  );
}

/** SVG text per block. Each is drawn in a page of its own: Mermaid keeps counters (and some
 * sequence-diagram markers) across renders, which would make a file depend on the others. */
async function render(blocks) {
  const { module } = await runnerImport(join(FRONTEND, 'src/lib/mermaid.ts'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const svgs = [];
    for (const block of blocks) {
      const tab = await browser.newPage();
      await tab.setContent(`<!doctype html><html lang="${block.lang}"><body></body></html>`);
      // Mermaid measures some labels (sequence diagrams') in the page's own font: the site's.
      await tab.addStyleTag({ path: join(FRONTEND, 'src/app/styles/global.css') });
      await tab.addScriptTag({ path: join(FRONTEND, 'node_modules/mermaid/dist/mermaid.min.js') });
      svgs.push(await draw(tab, module.mermaidConfig, block));
      await tab.close();
    }
    return svgs;
  } finally {
    await browser.close();
  }
}

async function main() {
  const blocks = await mermaidBlocks();
  const svgs = await render(blocks);
  const wanted = new Map(blocks.map((b, i) => [join(OUT, b.page, `${b.key}.svg`), `${svgs[i]}\n`]));
  let written = 0;
  for (const [path, svg] of wanted) {
    if ((await readFile(path, 'utf8').catch(() => null)) === svg) continue;
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, svg);
    written += 1;
  }
  let removed = 0;
  for (const dir of await readdir(OUT, { withFileTypes: true }).catch(() => [])) {
    if (!dir.isDirectory()) continue;
    const path = join(OUT, dir.name);
    for (const file of await readdir(path)) {
      if (file.endsWith('.svg') && !wanted.has(join(path, file))) {
        await rm(join(path, file));
        removed += 1;
      }
    }
    await rmdir(path).catch(() => undefined); // only when nothing is left in it
  }
  const pages = new Set(blocks.map((b) => b.page)).size;
  console.log(
    `content/diagrams: ${wanted.size} diagram(s) in ${pages} page(s); ` +
      `${written} written, ${wanted.size - written} unchanged, ${removed} removed`,
  );
}

try {
  await main();
} catch (error) {
  // A block that does not draw names its lesson and line; no stack trace needed for that.
  const message = String(error?.message ?? error).replace(/^page\.evaluate: (Error: )?/, '');
  console.error(`make diagrams: ${message.replace(/\n\s+at [\s\S]*$/, '')}`);
  process.exitCode = 1;
}
