/**
 * Issue 38, item 9: dev mode as a developer meets it. A readable outbox page (signed out too);
 * the newest code shown beside the field that needs it, with a button that types it in; a page
 * for an unknown path instead of raw JSON (the API keeps problem+json); a live test call on
 * the virtual clock says to move the clock; the virtual clock keeps its time across a restart;
 * with the system clock, the greyed-out clock buttons say why. At 390 px and 1280 px.
 * Screenshots: .screenshots/dev-*.png.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { startTestServer, testPgDatabase } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import { atBothWidths, screenshots, scriptPhone } from '../helpers/web.js';

const ZONE = 'Europe/Paris';
const E164 = '+12015550173';

describe('web app: dev mode', () => {
  let skip = '';
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let server: TestServer;
  let dir: string;
  let db: string;
  let drop: (() => Promise<void>) | null = null;

  before(async () => {
    const got = await launchChromium();
    if ('skip' in got) {
      skip = got.skip;
      console.log(`browser tests skipped: ${skip}`);
      return;
    }
    browser = got.browser;
    dir = mkdtempSync(join(tmpdir(), 'wakeup-web-dev-'));
    const pg = await testPgDatabase();
    db = pg?.url ?? join(dir, 'wakeup.sqlite');
    drop = pg ? () => pg.drop() : null;
    server = await startTestServer({ env: { ...PHONE_TEST_ENV, WAKEUP_DB: db } });
    context = await browser.newContext({
      timezoneId: ZONE,
      locale: 'en-GB',
      viewport: { width: 1280, height: 800 },
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await drop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const noSidewaysScroll = async (width: number, what: string) =>
    assert.ok(
      (await page.evaluate<number>('document.documentElement.scrollWidth')) <= width,
      `${what} ${width}: no sideways scroll`,
    );

  it('signs in with the code shown beside its field, and reads the outbox page signed out', async (t) => {
    if (skip) return t.skip(skip);
    const email = `dev-${randomUUID()}@example.com`;
    await page.goto(`${server.url}/`);
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const hint = page
      .locator('.dev-code')
      .filter({ hasText: `Dev mode: the newest code sent to ${email} is` });
    await hint.waitFor();
    const code = await hint.locator('.dev-code-value').innerText();
    assert.match(code, /^\d{6}$/);
    await atBothWidths(page, (w) => noSidewaysScroll(w, 'sign-in'));
    await screenshots(page, 'dev-sign-in-code');

    // The outbox, signed out, in a tab of its own (the hint's link opens one): the sign-in
    // email, its code picked out.
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      hint.getByRole('link', { name: 'Outbox' }).click(),
    ]);
    await tab.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();
    const mail = tab.locator('article[data-outbox]').filter({ hasText: email });
    await mail.waitFor();
    assert.match(await mail.innerText(), new RegExp(`Code: ${code}`));
    assert.match(await mail.innerText(), /Your Wake-Up Call sign-in code/);
    for (const width of [390, 1280]) {
      await tab.setViewportSize({ width, height: 800 });
      assert.ok(
        (await tab.evaluate<number>('document.documentElement.scrollWidth')) <= width,
        `outbox ${width}: no sideways scroll`,
      );
    }
    await screenshots(tab, 'dev-outbox');
    await tab.close();

    await page.getByRole('button', { name: 'Use it' }).click();
    assert.equal(await page.getByLabel('6-digit code').inputValue(), code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor();
  });

  it('verifies a number with the code shown beside its field; a live test call says to move the clock', async (t) => {
    if (skip) return t.skip(skip);
    await page.getByRole('link', { name: 'Numbers' }).click();
    await page.getByLabel('Phone number', { exact: true }).fill(E164);
    await page.getByRole('button', { name: 'Add and send code' }).click();
    const card = page.locator(`article[data-number="${E164}"]`);
    await card
      .locator('.dev-code')
      .filter({ hasText: `the newest code sent to ${E164}` })
      .waitFor();
    await atBothWidths(page, (w) => noSidewaysScroll(w, 'numbers'));
    await screenshots(page, 'dev-number-code');
    await card.getByRole('button', { name: 'Use it' }).click();
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.locator('.badge', { hasText: /^Verified$/ }).waitFor();

    await scriptPhone(server, E164, ['confirm'], 5);
    await page
      .locator(`article[data-number="${E164}"]`)
      .getByRole('button', { name: 'Test call' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Test call' }).waitFor();
    const note = page.locator('[data-dev="virtual-clock"]');
    await note.waitFor();
    await atBothWidths(page, async (w) => {
      assert.match(
        await note.innerText(),
        /virtual clock: this call moves on only when the clock does.*\+1 min/,
      );
      await noSidewaysScroll(w, 'test call');
    });
    await screenshots(page, 'dev-live-call');
    // Moved by the dev bar's button, the call ends and the note goes.
    await page.locator('#devbar').getByRole('button', { name: '+1 min' }).click();
    await page.locator('#attempt-status[data-status="confirmed"]').waitFor({ timeout: 8_000 });
    await note.waitFor({ state: 'detached' });
  });

  it('an unknown path is a page with a way back; the API still answers problem+json', async (t) => {
    if (skip) return t.skip(skip);
    const res = await page.goto(`${server.url}/no/such/page`);
    assert.equal(res?.status(), 404);
    await atBothWidths(page, async (w) => {
      await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
      assert.match(await page.locator('main').innerText(), /Nothing is at \/no\/such\/page/);
      await noSidewaysScroll(w, 'not found');
    });
    await screenshots(page, 'dev-not-found');
    await page.getByRole('link', { name: 'Go to the app' }).click();
    await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor();

    const api = await page.goto(`${server.url}/api/v1/no/such/thing`);
    assert.equal(api?.status(), 404);
    assert.match(api?.headers()['content-type'] ?? '', /application\/problem\+json/);
  });

  it('the virtual clock keeps its time across a restart', async (t) => {
    if (skip) return t.skip(skip);
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { level: 1, name: /^Hello/ }).waitFor();
    const clock = async () =>
      (await (await fetch(`${server.url}/dev/clock`)).json()) as { now: string };
    const before = Date.parse((await clock()).now);
    await page.locator('#devbar').getByRole('button', { name: '+1 day' }).click();
    await page.locator('#devbar').getByRole('button', { name: '+1 day' }).click();
    // A click returns before its request has moved the clock: wait for both days.
    let moved = await clock();
    for (let i = 0; i < 200 && Date.parse(moved.now) < before + 2 * 86_400_000; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      moved = await clock();
    }
    await server.close();
    server = await startTestServer({ env: { ...PHONE_TEST_ENV, WAKEUP_DB: db } });
    await page.goto(`${server.url}/`);
    // The service time in the browser's zone, in the app's date format: "Sun 2026-11-29 20:15".
    const shown = new Date(moved.now).toLocaleDateString('en-CA', { timeZone: ZONE });
    await atBothWidths(page, async () => {
      await page.locator('#dev-now').filter({ hasText: shown }).waitFor();
    });
    await screenshots(page, 'dev-clock-resumed');
  });

  it('with the system clock, the greyed-out clock buttons say why', async (t) => {
    if (skip) return t.skip(skip);
    const system = await startTestServer({ env: { WAKEUP_CLOCK: 'system' } });
    try {
      await page.goto(`${system.url}/`);
      const bar = page.locator('#devbar');
      const button = bar.getByRole('button', { name: '+1 min' });
      await button.waitFor();
      assert.equal(await button.isDisabled(), true);
      const why = bar.locator('#dev-clock-why');
      await atBothWidths(page, async (w) => {
        assert.ok(await why.isVisible(), `${w}: the reason is on screen`);
        assert.match(await why.innerText(), /WAKEUP_CLOCK=virtual/);
        assert.equal(await button.getAttribute('aria-describedby'), 'dev-clock-why');
        await noSidewaysScroll(w, 'system clock');
      });
      await screenshots(page, 'dev-system-clock');
    } finally {
      await system.close();
    }
  });
});
