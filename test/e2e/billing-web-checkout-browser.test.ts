/**
 * The web checkout path in a real browser (headless Chromium driven by playwright-core):
 * the app asks for a one-time link, the browser follows it, continues as the account's email,
 * pays on the simulated checkout and lands on /app/subscribe/done with the plan active.
 * Skipped, saying why, only where Chromium cannot be had.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { signIn, startTestServer, type TestServer } from '../helpers/server.js';
import { call } from '../helpers/phone.js';

describe('web checkout in headless Chromium', () => {
  let skip = '';
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    const got = await launchChromium();
    if ('skip' in got) {
      skip = got.skip;
      console.log(`browser test skipped: ${skip}`);
      return;
    }
    browser = got.browser;
    server = await startTestServer();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('link → continue as <email> → simulated checkout → pay → done with the plan active', async (t) => {
    if (skip) return t.skip(skip);
    const { token, email } = await signIn(server);
    const r = await call(server, 'POST', '/billing/web-checkout', {
      token,
      body: { plan: 'traveler_yearly' },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const page = await browser.newPage();
    await page.goto(r.body.url);
    const button = page.locator('#continue');
    assert.equal((await button.textContent())?.trim(), `Continue as ${email}`);
    await Promise.all([page.waitForURL(/\/dev\/payments\/checkout\//), button.click()]);
    assert.match((await page.textContent('body')) ?? '', /Traveler \(yearly\)/);
    await Promise.all([page.waitForURL(/\/app\/subscribe\/done$/), page.click('#pay')]);
    assert.equal(await page.textContent('#status'), 'active');
    assert.match(
      (await page.textContent('#message')) ?? '',
      new RegExp(email.replace(/[.+]/g, '\\$&')),
    );
    const cookies = await page.context().cookies();
    assert.ok(
      cookies.some((c) => c.name === 'sessionid' && c.httpOnly),
      'the browser is signed in',
    );
    const me = await call(server, 'GET', '/me', { token });
    assert.deepEqual(
      [me.body.plan.code, me.body.plan.status, me.body.plan.source],
      ['traveler_yearly', 'active', 'web'],
    );
    // The link worked once.
    await page.goto(r.body.url);
    assert.match((await page.textContent('h1')) ?? '', /already used/);
  });
});
