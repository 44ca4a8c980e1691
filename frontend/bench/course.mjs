// What the browser benchmarks start from: the course on a spare port with a throwaway store,
// stopped when they end, and the Chromium they drive. `api` serves the pages alone (no runner, no Docker); `up` adds the
// runner, for a benchmark that runs servers.
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const PYTHON = join(ROOT, '.venv', 'bin', 'python');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
// The e2e tests' window: a laptop screen, so "above the fold" means the same thing in both.
export const VIEWPORT = { width: 1366, height: 900 };
const START_TIMEOUT_MS = 60_000;

/** A TCP port nobody listens on right now. */
export function sparePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether the course answers and, with a runner, says it is ready to run. */
async function answers(base, needsRunner) {
  try {
    const response = await fetch(`${base}/api/health`);
    if (!response.ok) return false;
    return !needsRunner || (await response.json()).ready === true;
  } catch {
    return false; // not listening yet
  }
}

/**
 * Starts `python -m c10klab <command>` (`api` or `up`) on `port` with its store and log in
 * `work`, `env` added to its environment, and resolves once it answers (with `up`, once its
 * runner is ready). Returns { base, stop }: `stop()` ends it and waits for it.
 */
export async function startCourse(command, port, work, env = {}) {
  const log = await open(join(work, 'course.log'), 'w');
  const course = spawn(PYTHON, ['-m', 'c10klab', command], {
    cwd: ROOT,
    env: { ...process.env, C10K_PORT: String(port), C10K_DB_PATH: join(work, 'store.sqlite3'), ...env },
    stdio: ['ignore', log.fd, log.fd],
  });
  const exited = new Promise((resolve) => course.once('exit', resolve));
  const stop = async () => {
    if (course.exitCode === null) course.kill('SIGTERM');
    await exited;
    await log.close();
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await answers(base, command === 'up'))) {
    if (course.exitCode !== null) {
      await stop();
      throw new Error(`the course exited early (code ${course.exitCode}); see ${join(work, 'course.log')}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the course was not ready on port ${port} within ${START_TIMEOUT_MS} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { base, stop };
}
