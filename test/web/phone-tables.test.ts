/**
 * Issue 38, item 6: History and a call's detail on a phone. At 390 px each row of the calls
 * and attempts tables is a card whose cells are lines named by their column: nothing is
 * clipped or wider than the screen, and a date takes at most two lines. At 1280 px they stay
 * tables with their header row. Screenshots: .screenshots/tables-*.png.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { PHONE_TEST_ENV } from '../helpers/phone.js';
import {
  addNumberThroughPage,
  advanceClock,
  apiSend,
  atBothWidths,
  goHash,
  screenshots,
  scriptPhone,
  signInThroughPage,
  webSession,
} from '../helpers/web.js';

const ZONE = 'Europe/Paris';
const E164 = '+12015550172';

/** Layout facts of the tables on the page, measured in the page (a string: the tests have no DOM types). */
const MEASURE = `(() => {
  const tables = [...document.querySelectorAll('#main table')];
  const vw = document.documentElement.clientWidth;
  const lineHeight = (el) => parseFloat(getComputedStyle(el).lineHeight) || 24;
  return {
    scrollWidth: document.documentElement.scrollWidth,
    viewport: vw,
    headersShown: tables.map((t) => getComputedStyle(t.querySelector('thead')).display !== 'none'),
    overflowing: [...document.querySelectorAll('#main td')]
      .filter((td) => getComputedStyle(td).display !== 'none')
      .filter((td) => td.getBoundingClientRect().right > vw + 0.5 || td.scrollWidth > td.clientWidth + 1)
      .map((td) => td.textContent),
    dateLines: [...document.querySelectorAll('#main td[data-label^="When"] a')].map((a) =>
      Math.round(a.getBoundingClientRect().height / lineHeight(a)),
    ),
    labels: [...document.querySelectorAll('#main td:not(:first-child)')]
      .filter((td) => getComputedStyle(td).display !== 'none')
      .map((td) => getComputedStyle(td, '::before').content),
  };
})()`;

interface Measure {
  scrollWidth: number;
  viewport: number;
  headersShown: boolean[];
  overflowing: string[];
  dateLines: number[];
  labels: string[];
}

describe('web app: History and a call on a phone', () => {
  const web = webSession({ env: PHONE_TEST_ENV, timezoneId: ZONE });

  async function check(what: string, minRows: number): Promise<void> {
    const { page } = web;
    await atBothWidths(page, async (width) => {
      await page.waitForTimeout(50);
      const m = await page.evaluate<Measure>(MEASURE);
      assert.ok(m.scrollWidth <= width, `${what} ${width}: page ${m.scrollWidth} px wide`);
      assert.deepEqual(m.overflowing, [], `${what} ${width}: cells clipped or past the edge`);
      assert.ok(m.labels.length >= minRows, `${what} ${width}: ${m.labels.length} cells`);
      if (width < 600) {
        assert.ok(!m.headersShown.some(Boolean), `${what} ${width}: cards, no header row`);
        assert.ok(
          m.labels.every((l) => l !== 'none' && l.length > 2),
          `${what} ${width}: every cell is named by its column: ${m.labels.join(' | ')}`,
        );
        assert.ok(
          m.dateLines.every((n) => n <= 2),
          `${what} ${width}: dates take at most two lines: ${m.dateLines.join(',')}`,
        );
      } else {
        assert.ok(m.headersShown.every(Boolean), `${what} ${width}: tables with their header row`);
      }
    });
  }

  it('History and the call detail: cards at 390 px, tables at 1280 px, nothing clipped', async (t) => {
    if (web.skip) return t.skip(web.skip);
    const { page, server } = web;
    await signInThroughPage(page, server, `tables-${randomUUID()}@example.com`);
    assert.equal((await apiSend(page, 'PATCH', '/me', { home_timezone: ZONE })).status, 200);
    await addNumberThroughPage(page, server, E164);
    await scriptPhone(server, E164, ['no_answer', 'silent', 'confirm'], 20);
    const made = await apiSend(page, 'POST', '/schedules', {
      kind: 'once',
      in_minutes: 5,
      label: 'A rather long label for a phone screen',
      timezone: ZONE,
      retry_policy: {
        offsets_minutes: [5, 10],
        snooze_minutes: 5,
        max_snoozes: 1,
        ring_timeout_seconds: 30,
      },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    await advanceClock(server, 40 * 60);
    const daily = await apiSend(page, 'POST', '/schedules', {
      kind: 'recurring',
      days_of_week: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      local_time: '07:00',
      timezone: ZONE,
      label: 'Weekdays',
    });
    assert.equal(daily.status, 201, JSON.stringify(daily.body));

    await goHash(page, '#/history');
    await page.getByRole('table', { name: 'Attempts' }).locator('tbody tr').nth(2).waitFor();
    await check('History', 10);
    await screenshots(page, 'tables-history');

    await page
      .getByRole('link', { name: /Europe\/Paris/ })
      .first()
      .click();
    await page.getByRole('heading', { level: 2, name: 'Attempts' }).waitFor();
    await page.getByRole('table', { name: 'Attempts' }).locator('tbody tr').first().waitFor();
    await check('Call detail', 4);
    await screenshots(page, 'tables-call');
  });
});
