/**
 * Issue 38, item 4: errors a person can act on. The server's own sentence is shown for a field
 * (in the field's words), once, next to that field; it goes away as soon as the field is
 * changed; an empty field is asked to be filled in ("Enter …"); deleting the account says which
 * word is needed, reports a wrong code at once, and ends on a page of its own, not an alert().
 * At 390 px and 1280 px. Screenshots: .screenshots/errors-*.png.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.js';
import { startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import {
  addNumberThroughPage,
  apiSend,
  atBothWidths,
  goHash,
  outboxCode,
  screenshots,
  signInThroughPage,
} from '../helpers/web.js';

const ZONE = 'Europe/Paris';

describe('web app: errors in words, once, at their field', () => {
  let skip = '';
  let browser: Browser | undefined;
  let page: Page;
  let server: TestServer;
  const dialogs: string[] = [];
  const email = `errors-${randomUUID()}@example.com`;

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
      viewport: { width: 1280, height: 800 },
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.accept();
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** How many visible elements in main show exactly `text` (an error shown once: 1). */
  async function shownTimes(text: string): Promise<number> {
    const all = page.locator('main').getByText(text, { exact: true });
    let n = 0;
    for (let i = 0; i < (await all.count()); i++) if (await all.nth(i).isVisible()) n++;
    return n;
  }

  /** The error shown next to a control (its aria-describedby slot), '' when none. */
  async function errorAt(control: Locator): Promise<string> {
    const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ');
    const slot = ids.find((id) => id.endsWith('-err'));
    return slot ? (await page.locator(`#${slot}`).innerText()).trim() : '';
  }

  it('an empty email asks for one, at its field', async (t) => {
    if (skip) return t.skip(skip);
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Send me a code' }).click();
    const input = page.getByLabel('Email address');
    await page.getByText('Enter the email address.').waitFor();
    await atBothWidths(page, async (width) => {
      assert.equal(await errorAt(input), 'Enter the email address.', `${width}`);
      assert.equal(await shownTimes('Enter the email address.'), 1, `${width}: shown once`);
      assert.equal(await input.getAttribute('aria-invalid'), 'true');
    });
    await screenshots(page, 'errors-empty-email');
    await input.fill('x');
    assert.equal(await errorAt(input), '', 'gone as soon as the field is changed');
    assert.equal(await input.getAttribute('aria-invalid'), null);
  });

  it('a pause until a past date shows the server’s sentence at its field, and it goes when fixed', async (t) => {
    if (skip) return t.skip(skip);
    await signInThroughPage(page, server, email);
    await page.getByRole('button', { name: `Use ${ZONE} (this browser's zone)` }).click();
    await page.locator('li[data-step="timezone"]').getByText('Done').waitFor();
    await addNumberThroughPage(page, server, '+12015550161');
    const made = await apiSend(page, 'POST', '/schedules', {
      kind: 'recurring',
      local_time: '07:00',
      days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri'],
      label: 'Workdays',
      timezone: ZONE,
    });
    assert.equal(made.status, 201);
    // Today in the call's zone (the server's words), not in UTC: they differ for part of a day.
    const today = new Date(
      ((await (await fetch(`${server.url}/dev/clock`)).json()) as { now: string }).now,
    ).toLocaleDateString('en-CA', { timeZone: ZONE });
    await goHash(page, '#/calls');
    const card = page.locator('article[data-schedule]').filter({ hasText: 'Workdays' });
    await card.getByText('Pause for a while').click();
    const until = card.getByLabel('Pause until (inclusive)');
    await until.fill('2020-01-01');
    await card.getByRole('button', { name: 'Pause', exact: true }).click();
    const said = `The last date with no call must be today (${today} in ${ZONE}) or later.`;
    await card.getByText(said).waitFor();
    await atBothWidths(page, async (width) => {
      assert.equal(await errorAt(until), said, `${width}`);
      assert.equal(await shownTimes(said), 1, `${width}: shown once`);
      assert.equal(
        await card.locator('.form-error').innerText(),
        '',
        `${width}: not again at the top`,
      );
    });
    await screenshots(page, 'errors-pause-past-date');
    await until.fill(today);
    assert.equal(await errorAt(until), '', 'gone once the date is changed');
  });

  it('the call form shows a missing date once, next to the date, and drops it once a date is chosen', async (t) => {
    if (skip) return t.skip(skip);
    await goHash(page, '#/calls/new');
    await page.getByRole('heading', { name: 'New wake-up call' }).waitFor();
    const date = page.getByLabel('Date', { exact: true });
    await date.fill('');
    await page.getByLabel('Label', { exact: true }).fill('Dentist');
    await page.getByRole('button', { name: 'Set the call' }).click();
    await page.getByText('Enter the date.').waitFor();
    await atBothWidths(page, async (width) => {
      assert.equal(await errorAt(date), 'Enter the date.', `${width}`);
      assert.equal(
        await shownTimes('Enter the date.'),
        1,
        `${width}: not in the top box nor in the preview`,
      );
      assert.equal(await page.locator('#preview').getByText('Enter the date.').count(), 0);
      assert.equal(await page.locator('form .form-error').first().innerText(), '');
    });
    await screenshots(page, 'errors-call-no-date');
    const now = ((await (await fetch(`${server.url}/dev/clock`)).json()) as { now: string }).now;
    await date.fill(new Date(Date.parse(now) + 10 * 86_400_000).toISOString().slice(0, 10));
    assert.equal(await errorAt(date), '', 'a valid date sits in no red box');
    await page.locator('#preview-sentence').waitFor();
    assert.equal(await shownTimes('Enter the date.'), 0);
  });

  it('deleting the account: which word is needed, a wrong code at once, then a page saying it is done', async (t) => {
    if (skip) return t.skip(skip);
    await goHash(page, '#/account');
    await page.getByRole('button', { name: 'Email me a deletion code' }).click();
    const code = page.getByLabel('Code from the email');
    const word = page.getByLabel('Type DELETE to confirm');
    await code.fill('000000');
    await word.fill('delete');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    const needed = 'Type the word DELETE, in capital letters, to confirm.';
    await page.getByText(needed).waitFor();
    assert.equal(await errorAt(word), needed);
    await screenshots(page, 'errors-delete-word');
    await word.fill('DELETE');
    assert.equal(await errorAt(word), '');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByText(/That code is wrong or has expired/).waitFor();
    await atBothWidths(page, async (width) => {
      assert.match(await errorAt(code), /^That code is wrong or has expired/, `${width}`);
      assert.equal(
        await page.locator('form[aria-label="Delete the account"] .form-error').innerText(),
        '',
        `${width}: once`,
      );
    });
    await screenshots(page, 'errors-delete-code');
    await code.fill(await outboxCode(server, email, 'email'));
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByRole('heading', { name: 'Your account was deleted' }).waitFor();
    await atBothWidths(page, async (width) => {
      assert.match(
        await page.locator('main').innerText(),
        /personal data is purged 30 days later/,
        `${width}`,
      );
      assert.equal(await page.getByRole('link', { name: 'Back to the start' }).isVisible(), true);
    });
    await screenshots(page, 'errors-account-deleted');
    assert.deepEqual(dialogs, [], 'no alert()');
  });
});
