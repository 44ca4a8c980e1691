// What every end-to-end test starts from: the backend's address, and Debian's Chromium driven
// by playwright-core (no browser download), headless, without the background traffic a fresh
// profile makes, with screenshots kept in e2e/artifacts/ (git-ignored).
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from 'playwright-core';

export const BASE_URL = (process.env.E2E_BASE_URL ?? 'http://localhost:8000').replace(/\/+$/, '');
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), 'artifacts');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** A launched Chromium, with the artifacts folder made. */
export async function launchChromium() {
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}
