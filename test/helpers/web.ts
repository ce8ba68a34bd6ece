/**
 * Steps the browser tests share: signing in and adding a verified number through the pages,
 * reading codes from the dev outbox, moving the virtual clock, and screenshots.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { startTestServer } from './server.js';
import type { TestServer } from './server.js';

/** Screenshots of a test run (gitignored). */
export const SCREENSHOTS = join(process.cwd(), '.screenshots');

/** The newest code sent to `to` on `channel`, waiting briefly for it to arrive. */
export async function outboxCode(
  server: TestServer,
  to: string,
  channel: 'email' | 'sms',
  after = '',
): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const r = await fetch(
      `${server.url}/dev/outbox?to=${encodeURIComponent(to)}&channel=${channel}`,
    );
    const { items } = (await r.json()) as { items: Array<{ code: string | null; id: string }> };
    const item = items[0];
    if (item?.code && item.id !== after) return item.code;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`no ${channel} code for ${to} in the outbox`);
}

/** Moves the virtual clock to an instant (ISO) and waits for every due timer to run. */
export async function clockTo(server: TestServer, to: string): Promise<void> {
  const r = await fetch(`${server.url}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to }),
  });
  if (r.status !== 200) throw new Error(`POST /dev/clock answered ${r.status}: ${await r.text()}`);
}

/** Scripts the simulated phone at `e164`. */
export async function scriptPhone(
  server: TestServer,
  e164: string,
  answers: string[],
  ringSeconds: number,
): Promise<void> {
  const r = await fetch(`${server.url}/dev/phones/${encodeURIComponent(e164)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ answers, ring_seconds: ringSeconds }),
  });
  if (r.status !== 204) throw new Error(`PUT /dev/phones answered ${r.status}: ${await r.text()}`);
}

/** GET under /api/v1 from inside the page, with its session cookie. */
export async function apiFromPage(page: Page, path: string): Promise<any> {
  return page.evaluate(async (p) => {
    const r = await fetch(`/api/v1${p}`, { credentials: 'same-origin' });
    return r.json();
  }, path);
}

/** Navigates the app to a hash route (`#/calls`). Code run in the page is given as a string: the tests have no DOM types. */
export async function goHash(page: Page, hash: string): Promise<void> {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
}

/** Signs in through the sign-in page with a fresh address; lands on Home. */
export async function signInThroughPage(
  page: Page,
  server: TestServer,
  email: string,
): Promise<void> {
  await page.goto(`${server.url}/`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('6-digit code').waitFor();
  await page.getByLabel('6-digit code').fill(await outboxCode(server, email, 'email'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor();
}

/** Adds a number on the Numbers page and verifies it with the texted code. */
export async function addNumberThroughPage(
  page: Page,
  server: TestServer,
  e164: string,
): Promise<void> {
  await page.getByRole('link', { name: 'Numbers' }).click();
  await page.getByLabel('Phone number', { exact: true }).fill(e164);
  await page.getByLabel('Label (optional)').fill('Bedside');
  await page.getByRole('button', { name: 'Add and send code' }).click();
  const card = page.locator(`article[data-number="${e164}"]`);
  await card.getByLabel('Code we sent to this number').fill(await outboxCode(server, e164, 'sms'));
  await card.getByRole('button', { name: 'Verify' }).click();
  await card.locator('.badge', { hasText: /^Verified$/ }).waitFor();
}

/** Screenshots of the page at phone (390x844) and desktop (1280x800) widths. */
export async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The toast is transient; keep it out of the pictures.
  await page.evaluate("document.getElementById('toast')?.replaceChildren()");
  for (const [w, hgt, tag] of [
    [390, 844, 'phone'],
    [1280, 800, 'desktop'],
  ] as const) {
    await page.setViewportSize({ width: w, height: hgt });
    await page.waitForTimeout(100);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${tag}.png`), fullPage: true });
  }
}

/** The two widths every page is checked at: a phone and a desktop. */
export const WIDTHS = [390, 1280] as const;

/** Runs `check` at each of {@link WIDTHS} (height 800), ending at the desktop width. */
export async function atBothWidths(
  page: Page,
  check: (width: number) => Promise<void>,
): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await check(width);
  }
}

/**
 * Sends a request under /api/v1 from inside the page, with its session cookie and CSRF token,
 * and a fresh Idempotency-Key; answers the status and the parsed body (null when empty).
 */
export async function apiSend(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  // A string: the tests have no DOM types.
  return page.evaluate(`(async () => {
    const csrf = /(?:^|;\\s*)csrftoken=([^;]+)/.exec(document.cookie)?.[1] ?? '';
    const body = ${JSON.stringify(body === undefined ? null : JSON.stringify(body))};
    const headers = { 'x-csrftoken': decodeURIComponent(csrf), 'idempotency-key': crypto.randomUUID() };
    if (body !== null) headers['content-type'] = 'application/json';
    const r = await fetch(${JSON.stringify('/api/v1' + path)}, { method: ${JSON.stringify(method)}, headers, body: body ?? undefined });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  })()`);
}

/** Moves the virtual clock on by `seconds` and waits for every due timer to run. */
export async function advanceClock(server: TestServer, seconds: number): Promise<void> {
  const r = await fetch(`${server.url}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_seconds: seconds }),
  });
  if (r.status !== 200) throw new Error(`POST /dev/clock answered ${r.status}: ${await r.text()}`);
}

/** What {@link webSession} sets up. */
export interface WebSessionOptions {
  /** Environment of the test server (see startTestServer). */
  env?: Record<string, string>;
  /** The browser's IANA zone. */
  timezoneId: string;
  /** @default 'en-GB' */
  locale?: string;
  /** Accept every confirm() and alert() (pages that ask before deleting). */
  acceptDialogs?: boolean;
}

/** One browser page on one test server, shared by the tests of a describe block. */
export interface WebSession {
  /** Why the browser tests are skipped (no Chromium), or ''. */
  skip: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The test server; a test may replace it (its after hook closes the current one). */
  server: TestServer;
}

/**
 * Registers the describe block's before and after hooks: Chromium (or the reason it is
 * skipped), a test server, and a 1280x800 page in `timezoneId`; the fields are set once
 * `before` has run. Call it at the top of a `describe`.
 * @example
 * const web = webSession({ env: PHONE_TEST_ENV, timezoneId: 'Europe/Paris' });
 * it('…', async (t) => {
 *   if (web.skip) return t.skip(web.skip);
 *   const { page, server } = web;
 * });
 */
export function webSession(options: WebSessionOptions): WebSession {
  const session = { skip: '' } as WebSession;
  before(async () => {
    const got = await launchChromium();
    if ('skip' in got) {
      session.skip = got.skip;
      console.log(`browser tests skipped: ${got.skip}`);
      return;
    }
    session.browser = got.browser;
    session.server = await startTestServer(options.env ? { env: options.env } : {});
    session.context = await got.browser.newContext({
      timezoneId: options.timezoneId,
      locale: options.locale ?? 'en-GB',
      viewport: { width: 1280, height: 800 },
    });
    session.page = await session.context.newPage();
    session.page.setDefaultTimeout(10_000);
    if (options.acceptDialogs) session.page.on('dialog', (d) => void d.accept());
  });
  after(async () => {
    await session.browser?.close();
    await session.server?.close();
  });
  return session;
}

/** Asserts that the page is no wider than `width` (nothing scrolls sideways). */
export async function noSidewaysScroll(page: Page, width: number, what: string): Promise<void> {
  const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
  if (scrollWidth > width) throw new Error(`${what} ${width}: the page is ${scrollWidth} px wide`);
}
