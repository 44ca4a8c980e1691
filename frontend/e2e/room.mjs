// A classroom's network, made on this machine: a network namespace of its own, joined to the
// host by a veth pair, with Chromium started inside it. From there the host's loopback is out
// of reach (127.0.0.1 is the namespace's own), as it is from a student's laptop, so a join link
// built on `localhost` fails here the way it fails in a room, and one built on the host's
// network address works. Needs root (ip netns); every test of the suite runs as root.
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

import { launchOptions } from './chromium.mjs';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function ip(...args) {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * Makes the room: namespace `c10k-room-<pid>`, the host end of its link at 10.<a>.<b>.1/30, the
 * room's end .2 with its default route through the host (so every address of the host is
 * reachable, none of its loopback). Returns `{ name, launch(), close() }`: launch starts
 * Chromium inside the room; close removes the room and its link.
 */
export async function openRoom() {
  const name = `c10k-room-${process.pid}`;
  const hostEnd = `c10kh${process.pid % 100_000}`;
  const roomEnd = `c10kr${process.pid % 100_000}`;
  // A /30 of 10.0.0.0/8 picked from the pid, clear of Docker's 172.16/12 pools.
  const net = `10.${200 + (process.pid % 50)}.${Math.floor(process.pid / 50) % 256}`;
  const work = await mkdtemp(join(tmpdir(), 'c10k-room-'));
  const close = async () => {
    for (const args of [['netns', 'del', name], ['link', 'del', hostEnd]]) {
      try {
        ip(...args);
      } catch {
        // already gone
      }
    }
    await rm(work, { recursive: true, force: true });
  };
  try {
    ip('netns', 'add', name);
    ip('link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', roomEnd);
    // No IPv6 link-local address on the host's end: the kernel would add one a second or two
    // after the link comes up, and a Chromium running by then takes that for a network change
    // and fails what it has in flight (net::ERR_NETWORK_CHANGED).
    ip('link', 'set', hostEnd, 'addrgenmode', 'none');
    ip('link', 'set', roomEnd, 'netns', name);
    ip('addr', 'add', `${net}.1/30`, 'dev', hostEnd);
    ip('link', 'set', hostEnd, 'up');
    ip('netns', 'exec', name, 'ip', 'addr', 'add', `${net}.2/30`, 'dev', roomEnd);
    ip('netns', 'exec', name, 'ip', 'link', 'set', roomEnd, 'up');
    ip('netns', 'exec', name, 'ip', 'link', 'set', 'lo', 'up');
    ip('netns', 'exec', name, 'ip', 'route', 'add', 'default', 'via', `${net}.1`);
  } catch (error) {
    await close();
    throw new Error(`could not make the room's network namespace (root and iproute2 needed): ${error.message}`);
  }
  // Playwright starts the browser it is given and talks to it over a pipe, which crosses into
  // the namespace with it.
  const wrapper = join(work, 'chromium-in-room.sh');
  await writeFile(wrapper, `#!/bin/sh\nexec ip netns exec ${name} ${CHROMIUM_PATH} "$@"\n`);
  await chmod(wrapper, 0o755);
  return {
    name,
    launch: () => chromium.launch({ ...launchOptions(), executablePath: wrapper }),
    close,
  };
}
