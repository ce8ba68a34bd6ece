/**
 * The web app in headless Chromium: a weekly call is paused until a date, resumed, its next
 * call skipped; while it rings, editing and deleting it show the 409 occurrence_in_progress
 * from the problem's detail. Also the plan page with billing served or not (404 tolerated).
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
  goHash,
  clockTo,
  scriptPhone,
  signInThroughPage,
} from '../helpers/web.js';

const ZONE = 'America/New_York';
const E164 = '+12015550178';

describe('web app: pause, skip-next and the 409 while ringing', () => {
  let skip = '';
  let browser: Browser | undefined;
  let page: Page;
  let server: TestServer;

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
      locale: 'en-US',
      viewport: { width: 1280, height: 800 },
    });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    page.on('dialog', (d) => void d.accept());
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  const schedule = async () => (await apiFromPage(page, '/schedules')).items[0];

  it('pauses, resumes, skips the next call, and shows 409 while the call rings', async (t) => {
    if (skip) return t.skip(skip);
    await signInThroughPage(page, server, `web-${randomUUID()}@example.com`);
    await page.getByRole('button', { name: `Use ${ZONE} (this browser's zone)` }).click();
    await page.locator('li[data-step="timezone"]').getByText('Done').waitFor();
    await addNumberThroughPage(page, server, E164);

    await page.getByRole('link', { name: 'Calls' }).click();
    await page.getByRole('link', { name: 'New call' }).click();
    await page.getByLabel('Every week').check();
    for (const day of ['Sat', 'Sun']) await page.getByLabel(day, { exact: true }).check();
    await page.getByLabel('Label', { exact: true }).fill('Every day');
    await page.locator('#preview-sentence').filter({ hasText: /07:00/ }).waitFor();
    await page.getByRole('button', { name: 'Set the call' }).click();
    const card = page.locator('article[data-schedule]').filter({ hasText: 'Every day' });
    await card.waitFor();
    const first = (await schedule()).next_occurrence;

    // Pause until the first call's date: the next call moves to the day after.
    await card.getByText('Pause for a while').click();
    await card.getByLabel('Pause until (inclusive)').fill(first.local.date);
    await card.getByRole('button', { name: 'Pause', exact: true }).click();
    await card.getByText(new RegExp(`^Paused until \\w{3} ${first.local.date}$`)).waitFor();
    const paused = await schedule();
    assert.equal(paused.paused_until, first.local.date);
    assert.ok(paused.next_occurrence.local.date > first.local.date);

    await card.getByRole('button', { name: 'Resume' }).click();
    await card.getByText('Paused until').waitFor({ state: 'detached' });
    assert.equal((await schedule()).next_occurrence.local.date, first.local.date);

    await card.getByRole('button', { name: 'Skip next' }).click();
    await card.locator(`.skipped-date[data-date="${first.local.date}"]`).waitFor();
    const next = (await schedule()).next_occurrence;
    assert.ok(next.local.date > first.local.date);

    // The call rings (for 60 s): changing or deleting it gives 409 occurrence_in_progress.
    await scriptPhone(server, E164, ['confirm'], 60);
    await clockTo(server, new Date(Date.parse(next.scheduled_at) + 2_000).toISOString());
    await goHash(page, '#/history');
    await page.getByRole('heading', { name: 'History' }).waitFor();
    await page.getByRole('link', { name: 'Calls' }).click();
    await card.getByText('Ringing').waitFor();
    await card.getByRole('button', { name: 'Delete' }).click();
    await card
      .locator('.form-error[data-code="occurrence_in_progress"]')
      .filter({ hasText: 'ringing right now' })
      .waitFor();

    await card.getByRole('link', { name: 'Edit' }).click();
    await page
      .locator('.preview.error[data-code="occurrence_in_progress"]')
      .filter({ hasText: 'ringing right now' })
      .waitFor();
    await page.getByLabel('Label', { exact: true }).fill('Changed');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const alert = page
      .locator('[role=alert][data-code="occurrence_in_progress"]')
      .filter({ hasText: 'ringing right now' });
    await alert.waitFor();
    assert.match(await alert.innerText(), /ring/i);
    assert.equal((await schedule()).label, 'Every day');
  });

  it('offers to move a call set in another zone to the browser’s zone (travel prompt), and places a test call', async (t) => {
    if (skip) return t.skip(skip);
    await goHash(page, '#/calls/new');
    await page.getByRole('heading', { name: 'New wake-up call' }).waitFor();
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await zone.fill('Tokyo');
    await page.getByRole('option').filter({ hasText: 'Asia/Tokyo' }).first().click();
    assert.equal(await zone.inputValue(), 'Asia/Tokyo');
    await page.getByLabel('Label', { exact: true }).fill('Trip');
    await page
      .locator('#preview-sentence')
      .filter({ hasText: /Asia\/Tokyo/ })
      .waitFor();
    await page.getByRole('button', { name: 'Set the call' }).click();
    await page.locator('article[data-schedule]').filter({ hasText: 'Trip' }).waitFor();

    await page.getByRole('link', { name: 'Home' }).click();
    const prompt = page.getByRole('region', { name: 'Travel' });
    await prompt.getByText(/This browser is in America\/New_York/).waitFor();
    await prompt.getByRole('button', { name: 'Move the call' }).click();
    await page.getByText('Call moved.').waitFor();
    const trip = (await apiFromPage(page, '/schedules')).items.find((x: any) => x.label === 'Trip');
    assert.equal(trip.timezone, ZONE);
    assert.equal(trip.local_time, '07:00');

    // A test call from the Numbers page, followed live until it ends.
    await scriptPhone(server, E164, ['confirm'], 1);
    await page.getByRole('link', { name: 'Numbers' }).click();
    await page
      .locator(`article[data-number="${E164}"]`)
      .getByRole('button', { name: 'Test call' })
      .click();
    await page.getByRole('heading', { name: 'Test call' }).waitFor();
    const now = ((await (await fetch(`${server.url}/dev/clock`)).json()) as { now: string }).now;
    await clockTo(server, new Date(Date.parse(now) + 30_000).toISOString());
    await page.locator('#attempt-status[data-status="confirmed"]').waitFor({ timeout: 6_000 });
  });

  it('shows plan and usage; plans and checkout when billing is served, else says it is not offered', async (t) => {
    if (skip) return t.skip(skip);
    await goHash(page, '#/account');
    await page.getByRole('heading', { name: 'Plan and usage' }).waitFor();
    await page.getByText(/calls used this period/).waitFor();
    const plans = await page.evaluate(async () => (await fetch('/api/v1/billing/plans')).status);
    if (plans === 404) {
      console.log(
        'billing is not served by this build (GET /billing/plans answers 404): checkout step skipped',
      );
      await page.locator('#plans-unavailable').waitFor();
      return;
    }
    await page
      .getByRole('list', { name: 'Plans' })
      .or(page.locator('#plans-unavailable'))
      .first()
      .waitFor();
  });
});
