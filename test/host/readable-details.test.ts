/**
 * Issue 38, items 4 and 10: a problem's detail is a sentence a person can read. No detail
 * quotes a regular expression (every pattern of the schema has words: schema/pattern-words.ts),
 * and no detail names its field twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadOpenApi } from '../../schema/load.js';
import { hasPatternWords } from '../../schema/pattern-words.js';
import { setup, type Fixture } from './schedules-fixture.js';

/** Every `pattern` in the document, wherever it sits. */
function patterns(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) patterns(n, out);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) {
      if (k === 'pattern' && typeof v === 'string') out.add(v);
      else patterns(v, out);
    }
  return out;
}

const REGEX_TEXT = /\^|\\d|\$\.|must match|\[[^\]]*\]/;

describe('readable problem details', () => {
  let f: Fixture;
  before(async () => {
    f = await setup();
  });
  after(async () => {
    await f.server.close();
  });

  it('every pattern of the schema has words', () => {
    const missing = [...patterns(loadOpenApi())].filter((p) => !hasPatternWords(p));
    assert.deepEqual(missing, []);
  });

  it('an invalid number says what a valid one looks like, not a pattern', async () => {
    const r = await f.api('POST', '/phone-numbers', { e164: '0612345678' });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'invalid_phone_number');
    assert.equal(r.body.field, 'e164');
    assert.doesNotMatch(r.body.detail, REGEX_TEXT, r.body.detail);
    assert.match(
      r.body.detail,
      /^e164 must be a phone number in international form: \+ and the country code/,
    );
  });

  it('a time in the wrong form and a code of letters say what is expected', async () => {
    const t = await f.api('POST', '/schedules/preview', {
      kind: 'once',
      local_date: '2027-03-11',
      local_time: '7 am',
    });
    assert.equal(t.body.code, 'invalid_time');
    assert.equal(
      t.body.detail,
      'local_time must be a 24-hour time from 00:00 to 23:59, written HH:MM.',
    );
    const c = await f.api('POST', '/auth/email/verify', {
      email: 'someone@example.com',
      code: 'abcdef',
      client: 'app',
    });
    assert.equal(c.body.code, 'verification_code_invalid');
    assert.doesNotMatch(c.body.detail, REGEX_TEXT, c.body.detail);
  });

  it('end_date before start_date names its field once', async () => {
    const body = {
      kind: 'recurring',
      days_of_week: ['mon'],
      local_time: '07:00',
      start_date: '2027-04-01',
      end_date: '2027-03-20',
    };
    const r = await f.api('POST', '/schedules', body);
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'validation_error');
    assert.equal(r.body.detail, 'end_date must not be before start_date.');
    assert.deepEqual(r.body.errors, [
      { field: 'end_date', in: 'body', code: 'invalid', message: 'must not be before start_date' },
    ]);
  });
});
