/**
 * The web app in headless Chromium: key 9 on a call (calls off, number blocked, both
 * explained; resume with consent), a call in N minutes, settings with a field error shown at
 * its field and the zone search, API keys (shown once, revoked), export, and account deletion
 * by emailed code.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import {
  addNumberThroughPage,
  apiFromPage,
  clockTo,
  goHash,
  outboxCode,
  scriptPhone,
  signInThroughPage,
} from '../helpers/web.js';

const ZONE = 'Europe/London';
const E164 = '+12015550179';

describe('web app: calls off by key 9, settings, API keys, export and deletion', () => {
  let skip = '';
  let browser: Browser | undefined;
  let page: Page;
  let server: TestServer;
  const email = `web-${randomUUID()}@example.com`;

  before(async () => {
    const got = await launchChromium();
    if ('skip' in got) {
      skip = got.skip;
      console.log(`browser tests skipped: ${skip}`);
      return;
    }
    browser = got.browser;
    server = await startTestServer({ env: PHONE_TEST_ENV });
    const context = await browser.newContext({
      timezoneId: ZONE,
      locale: 'en-GB',
      viewport: { width: 390, height: 844 },
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('dialog', (d) => void d.accept());
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const now = async () =>
    ((await (await fetch(`${server.url}/dev/clock`)).json()) as { now: string }).now;

  it('explains calls turned off by key 9 and the blocked number, and turns calls on with consent', async (t) => {
    if (skip) return t.skip(skip);
    await signInThroughPage(page, server, email);
    await addNumberThroughPage(page, server, E164);
    await scriptPhone(server, E164, ['stop'], 1);
    await page
      .locator(`article[data-number="${E164}"]`)
      .getByRole('button', { name: 'Test call' })
      .click();
    await page.getByRole('heading', { name: 'Test call' }).waitFor();
    await clockTo(server, new Date(Date.parse(await now()) + 30_000).toISOString());
    await page.locator('#attempt-status[data-status="stopped"]').waitFor({ timeout: 6_000 });

    await page.getByRole('link', { name: 'Numbers' }).click();
    const card = page.locator(`article[data-number="${E164}"]`);
    await card.getByText('Someone pressed 9').waitFor();
    // No code was sent to it yet: no field claims one was.
    await card.getByRole('button', { name: 'Send a code' }).waitFor();
    assert.equal(await card.getByLabel('Code we sent to this number').isVisible(), false);

    await page.getByRole('link', { name: 'Home' }).click();
    await page.getByRole('heading', { name: 'Your wake-up calls are off' }).waitFor();
    await page.getByRole('button', { name: 'Turn calls back on' }).click();
    await page
      .locator('[role=alert][data-code="confirmation_required"]')
      .filter({ hasText: 'Please confirm' })
      .waitFor();
    await page.getByLabel('I agree to receive automated wake-up calls again.').check();
    await page.getByRole('button', { name: 'Turn calls back on' }).click();
    await page
      .getByRole('heading', { name: 'Your wake-up calls are off' })
      .waitFor({ state: 'detached' });
    assert.equal((await apiFromPage(page, '/me')).calls_revoked_at, null);

    // Verifying again lifts the key-9 block.
    await page.getByRole('link', { name: 'Numbers' }).click();
    await card.getByRole('button', { name: 'Send a code' }).click();
    await page.getByText('A new code is on its way.').waitFor();
    await card
      .getByLabel('Code we sent to this number')
      .fill(await outboxCode(server, E164, 'sms'));
    await card.getByRole('button', { name: 'Verify' }).click();
    await card.locator('.badge', { hasText: /^Verified$/ }).waitFor();
    assert.equal((await apiFromPage(page, '/phone-numbers')).items[0].blocked, false);
  });

  it('sets a call in N minutes with its preview', async (t) => {
    if (skip) return t.skip(skip);
    await goHash(page, '#/calls/new');
    await page.getByLabel('In a few minutes').check();
    await page.getByLabel('Minutes from now').fill('5000');
    // The preview's refusal is shown once, at its field.
    await page
      .locator('.field-error[data-code="in_minutes_out_of_range"]')
      .filter({ hasText: 'from 1 to 1440' })
      .waitFor();
    await page.getByLabel('Minutes from now').fill('15');
    await page.locator('#preview-sentence').waitFor();
    await page.getByRole('button', { name: 'Set the call' }).click();
    await page.getByRole('heading', { name: 'Wake-up calls' }).waitFor();
    const s = (await apiFromPage(page, '/schedules')).items[0];
    assert.equal(s.next_occurrence.in_seconds, 900);
  });

  it('saves settings, showing a problem at its field, with the zone search', async (t) => {
    if (skip) return t.skip(skip);
    await page.getByRole('link', { name: 'Settings' }).click();
    const greeting = page.getByLabel('Name the call greets you with (optional)');
    await greeting.fill('see example.com');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page
      .locator('[role=alert][data-code="message_disallowed_content"]')
      .filter({ hasText: 'simple punctuation' })
      .waitFor();
    assert.equal(await greeting.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate('document.activeElement.name'), 'greeting_name');

    await greeting.fill('Sam');
    const zone = page.getByRole('combobox', { name: 'Home time zone' });
    await zone.fill('Tokyo');
    await page.getByRole('option').filter({ hasText: 'Asia/Tokyo' }).first().click();
    await page.getByLabel('Male', { exact: true }).check();
    await page.getByLabel('12-hour (7:00 AM)').check();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    const me = await apiFromPage(page, '/me');
    assert.deepEqual(
      [me.greeting_name, me.home_timezone, me.voice, me.time_format],
      ['Sam', 'Asia/Tokyo', 'male', '12h'],
    );
  });

  it('creates an API key shown once, revokes it, exports, and deletes the account by emailed code', async (t) => {
    if (skip) return t.skip(skip);
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('Name', { exact: true }).fill('home automation');
    await page.getByLabel('Export (needs read)').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#new-key').innerText();
    const keys = (await apiFromPage(page, '/api-keys')).items;
    assert.ok(key.startsWith(keys[0].prefix));
    assert.deepEqual(keys[0].scopes.sort(), ['export', 'read', 'write']);
    await page.getByRole('button', { name: 'I copied it' }).click();
    await page.locator('#new-key').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Key revoked.').waitFor();
    assert.equal((await apiFromPage(page, '/api-keys')).items.length, 0);

    const href = await page.getByRole('link', { name: 'Download my data' }).getAttribute('href');
    const exported = await apiFromPage(page, href!.replace('/api/v1', ''));
    assert.ok(JSON.stringify(exported).includes(E164));

    await page.getByRole('button', { name: 'Email me a deletion code' }).click();
    await page.getByLabel('Code from the email').waitFor();
    await page.getByLabel('Code from the email').fill(await outboxCode(server, email, 'email'));
    await page.getByLabel('Type DELETE to confirm').fill('DELETE');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('heading', { name: 'Your account was deleted' }).waitFor();
    await page.getByRole('link', { name: 'Back to the start' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });
});
