/**
 * Issue 38, item 8: what users of such an app expect. "Skip next" can be undone, on the card
 * and in the edit form, which lists the skipped dates; the calls are listed soonest to ring
 * first; the edit form's on/off box says what it turns on; a long name without spaces wraps
 * inside its card; typing your own wake-up number as a contact is warned about. At 390 px and
 * 1280 px. Screenshots: .screenshots/expect-*.png.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import {
  addNumberThroughPage,
  apiFromPage,
  apiSend,
  atBothWidths,
  goHash,
  noSidewaysScroll as noScroll,
  screenshots,
  signInThroughPage,
  webSession,
} from '../helpers/web.js';

const ZONE = 'Europe/Paris';
const E164 = '+12015550174';
const LONG = 'Wakeupwakeupwakeupwakeupwakeupwakeupwakeupwakeupwakeup';

describe('web app: what users expect', () => {
  const web = webSession({ env: PHONE_TEST_ENV, timezoneId: ZONE, acceptDialogs: true });

  const noSidewaysScroll = (width: number, what: string) => noScroll(web.page, width, what);

  it('lists calls soonest first; a skip is undone on the card and in the edit form; a long label wraps', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page, server } = web;
    await signInThroughPage(page, server, `expect-${randomUUID()}@example.com`);
    assert.equal((await apiSend(page, 'PATCH', '/me', { home_timezone: ZONE })).status, 200);
    await addNumberThroughPage(page, server, E164);
    const every = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
    // Made latest-first, so that the list's order is not the order they were made in.
    for (const [label, time] of [
      ['Late', '23:30'],
      [LONG, '09:00'],
    ] as const) {
      const r = await apiSend(page, 'POST', '/schedules', {
        kind: 'recurring',
        days_of_week: every,
        local_time: time,
        timezone: ZONE,
        label,
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const soon = await apiSend(page, 'POST', '/schedules', {
      kind: 'once',
      in_minutes: 30,
      timezone: ZONE,
      label: 'Soon',
    });
    assert.equal(soon.status, 201);

    await goHash(page, '#/calls');
    const cards = page
      .getByRole('list', { name: 'Active calls' })
      .locator('article[data-schedule]');
    await cards.nth(2).waitFor();
    const schedules = (await apiFromPage(page, '/schedules')).items as Array<{
      label: string;
      next_occurrence: { scheduled_at: string };
    }>;
    const expected = [...schedules]
      .sort(
        (a, b) =>
          Date.parse(a.next_occurrence.scheduled_at) - Date.parse(b.next_occurrence.scheduled_at),
      )
      .map((s) => s.label);
    assert.deepEqual(await cards.locator('h2').allInnerTexts(), expected, 'soonest to ring first');
    assert.equal(expected[0], 'Soon');

    const card = cards.filter({ hasText: 'Late' });
    const first = (schedules.find((s) => s.label === 'Late') as any).next_occurrence.local
      .date as string;
    await card.getByRole('button', { name: 'Skip next' }).click();
    const skipped = card.getByRole('group', { name: 'Skipped dates' });
    await skipped.locator(`[data-date="${first}"]`).waitFor();
    await atBothWidths(page, async (width) => {
      assert.ok(
        await skipped.getByRole('button', { name: /^Undo skipping/ }).isVisible(),
        `${width}: Undo beside the date`,
      );
      const long = cards.filter({ hasText: LONG }).first();
      const [box, title] = await Promise.all([
        long.boundingBox(),
        long.locator('h2').boundingBox(),
      ]);
      assert.ok(
        box && title && title.x + title.width <= box.x + box.width + 0.5,
        `${width}: the long label stays in its card`,
      );
      await noSidewaysScroll(width, 'calls');
    });
    await screenshots(page, 'expect-calls-skipped');

    // Undo on the card: the date is no longer skipped and the call rings on it again.
    await skipped.getByRole('button', { name: /^Undo skipping/ }).click();
    await skipped.waitFor({ state: 'detached' });
    const late = () =>
      apiFromPage(page, '/schedules').then((l) =>
        l.items.find((s: { label: string }) => s.label === 'Late'),
      );
    assert.deepEqual((await late()).skip_dates, []);
    assert.equal((await late()).next_occurrence.local.date, first);

    // Skipped again, then un-ticked in the edit form.
    await cards.filter({ hasText: 'Late' }).getByRole('button', { name: 'Skip next' }).click();
    await cards.filter({ hasText: 'Late' }).getByRole('group', { name: 'Skipped dates' }).waitFor();
    await cards.filter({ hasText: 'Late' }).getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit “Late”' }).waitFor();
    const dates = page.getByRole('group', { name: 'Skipped dates' });
    await dates.waitFor();
    const box = dates.getByRole('checkbox');
    assert.equal(await box.count(), 1);
    assert.equal(await box.isChecked(), true);
    const on = page.getByLabel(/^This call is on/);
    await atBothWidths(page, async (width) => {
      assert.ok(await on.isVisible(), `${width}: the on box says what it turns on`);
      await noSidewaysScroll(width, 'edit');
    });
    await screenshots(page, 'expect-edit-skipped');
    await box.uncheck();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wake-up calls' }).waitFor();
    assert.deepEqual((await late()).skip_dates, []);
    assert.equal((await late()).next_occurrence.local.date, first);
  });

  it('warns when your own wake-up number is typed as a contact', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page } = web;
    await goHash(page, '#/contacts');
    await page.getByRole('heading', { name: 'Add a contact' }).waitFor();
    const number = page.getByLabel('Their mobile number, with country code');
    const warning = page.locator('#own-number');
    await number.fill('+1 201 555 0174');
    await warning.waitFor();
    await atBothWidths(page, async (width) => {
      assert.match(
        await warning.innerText(),
        /\+12015550174 is your own number \(Bedside\): the wake-up calls ring it/,
        `${width}`,
      );
      await noSidewaysScroll(width, 'contacts');
    });
    await screenshots(page, 'expect-own-number');
    await number.fill('+12015550199');
    await warning.waitFor({ state: 'hidden' });
  });

  it('takes a number in national form with a country picker, and says what it will call', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page } = web;
    await goHash(page, '#/numbers');
    await page.getByRole('heading', { name: 'Add a number' }).waitFor();
    const country = page.getByLabel('Country', { exact: true });
    // en-GB: the United Kingdom is chosen first.
    assert.equal(await country.inputValue(), 'GB');
    await country.selectOption('US');
    const number = page.getByLabel('Phone number', { exact: true });
    await number.fill('(201) 555-0175');
    const reading = page.locator('#number-reading');
    await reading.filter({ hasText: 'We will call +12015550175.' }).waitFor();
    await atBothWidths(page, async (width) => {
      assert.ok(await reading.isVisible(), `${width}`);
      await noSidewaysScroll(width, 'numbers');
    });
    await screenshots(page, 'expect-national-number');
    await page.getByRole('button', { name: 'Add and send code' }).click();
    await page.locator('article[data-number="+12015550175"]').waitFor();

    // A number typed with + is taken as it is, whatever the country.
    await number.fill('+1 201 555 0176');
    assert.equal(await reading.innerText(), '');
    await page.getByRole('button', { name: 'Add and send code' }).click();
    await page.locator('article[data-number="+12015550176"]').waitFor();
  });

  it('shows one date format and one zone name across the pages', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page } = web;
    assert.equal(
      (await apiSend(page, 'POST', '/api-keys', { name: 'script', scopes: ['read'] })).status,
      201,
    );
    const OTHER_FORMATS =
      /\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}\b|\d{1,2}\/\d{1,2}\/\d{4}/;
    for (const [hash, heading, expected] of [
      ['#/numbers', 'Phone numbers', /verified until \w{3} \d{4}-\d\d-\d\d \d\d:\d\d/],
      ['#/calls', 'Wake-up calls', /Next: \w{3} \d{4}-\d\d-\d\d \d\d:\d\d Europe\/Paris/],
      ['#/account', 'Account', /created \w{3} \d{4}-\d\d-\d\d \d\d:\d\d/],
    ] as const) {
      await goHash(page, hash);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await page.waitForTimeout(200);
      const text = await page.locator('#main').innerText();
      const bar = await page.locator('#devbar').innerText();
      assert.match(text, expected, `${hash}: the app's date format`);
      assert.doesNotMatch(text + bar, OTHER_FORMATS, `${hash}: no other date format`);
      assert.doesNotMatch(text, /Central European Time/, `${hash}: one zone name (the IANA name)`);
      await screenshots(page, `expect-dates-${hash.slice(2)}`);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('shows and reads the time fields on the 12-hour clock when the account asks for it', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page } = web;
    assert.equal((await apiSend(page, 'PATCH', '/me', { time_format: '12h' })).status, 200);
    await goHash(page, '#/calls/new');
    await page.getByRole('heading', { level: 1, name: 'New wake-up call' }).waitFor();
    await page.getByRole('radio', { name: 'On a date' }).check();
    const time = page.getByLabel('Time', { exact: true }).first();
    await atBothWidths(page, async (width) => {
      assert.equal(
        await time.inputValue(),
        '7:00 AM',
        `${width}: the default on the 12-hour clock`,
      );
      assert.ok(
        await page.getByText('For example 7:00 AM or 6:30 PM.').first().isVisible(),
        `${width}: the hint`,
      );
      await noSidewaysScroll(width, 'new call');
    });
    await time.fill('6:30 pm');
    await page.getByLabel('Label', { exact: true }).fill('Evening');
    // The server's preview sentence is on the account's clock too.
    await page
      .locator('#preview-sentence')
      .filter({ hasText: 'at 6:30 PM (Europe/Paris)' })
      .waitFor();
    await screenshots(page, 'expect-time-12h');
    await page.getByRole('button', { name: 'Set the call' }).click();
    await page.getByRole('heading', { level: 1, name: 'Wake-up calls' }).waitFor();
    const evening = (await apiFromPage(page, '/schedules')).items.find(
      (x: { label: string }) => x.label === 'Evening',
    );
    assert.equal(evening.local_time, '18:30');
    assert.equal((await apiSend(page, 'PATCH', '/me', { time_format: '24h' })).status, 200);
  });
});
