/**
 * Headless Chromium for the page tests: Debian's `chromium` at /usr/bin/chromium. When it is
 * absent and the test runs as root with apt-get, it is installed once (`apt-get install -y
 * chromium`); otherwise the caller skips with the reason returned here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PATH = '/usr/bin/chromium';

/** Flags for a sandbox-less, quiet headless run. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];

/** The executable path, or `{ skip }` with the reason it cannot be had. */
export function findChromium(): { path: string } | { skip: string } {
  if (existsSync(PATH)) return { path: PATH };
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    return { skip: `${PATH} is absent and cannot be installed here (needs root and apt-get: apt-get install chromium)` };
  }
  try {
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'ignore', timeout: 600_000 });
  } catch (err) {
    return { skip: `apt-get install chromium failed: ${(err as Error).message}` };
  }
  return existsSync(PATH) ? { path: PATH } : { skip: `apt-get install chromium did not provide ${PATH}` };
}
