import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../helpers/server.js';

type Server = Awaited<ReturnType<typeof startTestServer>>;

describe('public phone documents: GET /countries and GET /contact-card.vcf', () => {
  let server: Server;
  before(async () => {
    server = await startTestServer({ env: { WAKEUP_CALLER_IDS: '+12025550100,+442079460999' } });
  });
  after(() => server.close());

  it('GET /countries lists tiers A and B, with ETag and Cache-Control, no credentials needed', async () => {
    const r = await fetch(`${server.api}/countries`);
    assert.equal(r.status, 200);
    const etag = r.headers.get('etag');
    assert.match(etag ?? '', /^"[^"]+"$/);
    assert.match(r.headers.get('cache-control') ?? '', /public, max-age=\d+/);
    const body = (await r.json()) as {
      items: Array<{ country_code: string; name: string; calling_code: string; tier: string }>;
    };
    const byCode = new Map(body.items.map((c) => [c.country_code, c]));
    for (const code of ['US', 'CA', 'GB']) assert.equal(byCode.get(code)?.tier, 'A', code);
    assert.deepEqual(byCode.get('GB'), {
      country_code: 'GB',
      name: 'United Kingdom',
      calling_code: '+44',
      tier: 'A',
    });
    assert.ok(body.items.some((c) => c.tier === 'B'));
    assert.ok(!byCode.has('CN'));
    const tiers = body.items.map((c) => c.tier).join('');
    assert.match(tiers, /^A+B+$/, 'tier A first');
  });

  it('GET /countries answers 304 to a matching If-None-Match (strong, weak or in a list) and 200 otherwise', async () => {
    const etag = (await fetch(`${server.api}/countries`)).headers.get('etag')!;
    for (const inm of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const r = await fetch(`${server.api}/countries`, { headers: { 'If-None-Match': inm } });
      assert.equal(r.status, 304, inm);
      assert.equal(r.headers.get('etag'), etag);
      assert.equal(await r.text(), '');
    }
    assert.equal(
      (await fetch(`${server.api}/countries`, { headers: { 'If-None-Match': '"other"' } })).status,
      200,
    );
  });

  it('GET /contact-card.vcf is a vCard with every configured caller id, cacheable, 304 on a match', async () => {
    const r = await fetch(`${server.api}/contact-card.vcf`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/vcard/);
    assert.match(r.headers.get('cache-control') ?? '', /public/);
    const text = await r.text();
    assert.match(text, /^BEGIN:VCARD\r\nVERSION:3\.0\r\n/);
    assert.match(text, /\r\nFN:Wake-Up Call\r\n/);
    assert.match(text, /\r\nTEL;TYPE=VOICE,WORK:\+12025550100\r\n/);
    assert.match(text, /\r\nTEL;TYPE=VOICE,WORK:\+442079460999\r\n/);
    assert.match(text, /\r\nEND:VCARD\r\n$/);
    for (const line of text.split('\r\n'))
      assert.ok(Buffer.byteLength(line) <= 75, `folded: ${line}`);
    const etag = r.headers.get('etag')!;
    assert.equal(
      (await fetch(`${server.api}/contact-card.vcf`, { headers: { 'If-None-Match': etag } }))
        .status,
      304,
    );
  });
});
