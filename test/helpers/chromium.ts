/**
 * Headless Chromium for the browser tests: Debian's `chromium` at /usr/bin/chromium, driven by
 * playwright-core. When the binary is absent and we are root, it is installed with
 * `apt-get install -y chromium` (waiting while another apt holds the lock); otherwise the
 * caller skips its tests with the reason returned.
 * @example
 * const got = await launchChromium();
 * if ('skip' in got) return t.skip(got.skip);
 * const page = await got.browser.newPage();
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let installTried: string | null = null;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Installs chromium with apt-get; returns null on success or the reason it could not. */
function install(): string | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0)
    return `${CHROMIUM} is absent and this user is not root (install it with: apt-get install -y chromium)`;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let last = '';
  for (let i = 0; i < 30; i++) {
    const run = spawnSync('apt-get', ['install', '-y', '-q', 'chromium'], {
      env,
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (run.status === 0 && existsSync(CHROMIUM)) return null;
    last = `${run.stderr ?? ''}${run.stdout ?? ''}`.trim().split('\n').slice(-3).join(' ');
    if (/Could not get lock|Unable to acquire|is another process using it/i.test(last)) {
      sleep(5000);
      continue;
    }
    if (/Unable to locate package|has no installation candidate/i.test(last) && i === 0) {
      spawnSync('apt-get', ['update', '-q'], { env, encoding: 'utf8', timeout: 600_000 });
      continue;
    }
    break;
  }
  return `apt-get install -y chromium failed: ${last}`;
}

/** Launches the browser, or says why it cannot. */
export async function launchChromium(): Promise<{ browser: Browser } | { skip: string }> {
  if (!existsSync(CHROMIUM)) {
    installTried ??= install() ?? '';
    if (installTried) return { skip: installTried };
  }
  let chromium: typeof import('playwright-core').chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (err) {
    return { skip: `playwright-core is not installed (npm install): ${(err as Error).message}` };
  }
  try {
    execFileSync(CHROMIUM, ['--version'], { stdio: 'ignore', timeout: 30_000 });
  } catch (err) {
    return { skip: `${CHROMIUM} does not run: ${(err as Error).message}` };
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
  return { browser };
}
