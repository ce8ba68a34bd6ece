/**
 * The web app's files over plain HTTP (no browser needed): GET / is the app with a strict
 * Content-Security-Policy, every script and stylesheet it loads is served by this host
 * (no CDN), every ES module import resolves, and ETags answer 304.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';

describe('web app assets', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it('GET / serves the app with a strict CSP and a link to the API reference', async () => {
    const r = await fetch(`${server.url}/`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /text\/html/);
    const csp = r.headers.get('content-security-policy')!;
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    const html = await r.text();
    assert.match(html, /href="\/docs"/);
    assert.doesNotMatch(html, /<script>(?!<)/, 'no inline script');
  });

  it('every local script, stylesheet and module import is served; nothing comes from elsewhere', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const queue = [...html.matchAll(/(?:src|href)="([^"#]+)"/g)]
      .map((m) => m[1]!)
      .filter((u) => u.startsWith('/ui/'));
    assert.ok(queue.includes('/ui/js/main.js') && queue.includes('/ui/app.css'));
    assert.doesNotMatch(html, /(?:src|href)="https?:/);
    const seen = new Set<string>();
    while (queue.length) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const r = await fetch(server.url + url);
      assert.equal(r.status, 200, url);
      if (!url.endsWith('.js')) continue;
      assert.match(r.headers.get('content-type')!, /javascript/);
      const src = await r.text();
      assert.doesNotMatch(
        src,
        /from ['"]https?:|import\(['"]https?:/,
        `${url} imports nothing remote`,
      );
      for (const m of src.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g))
        queue.push(new URL(m[1]!, `http://x${url}`).pathname);
    }
    assert.ok(seen.size >= 10, `${seen.size} files`);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const r = await fetch(`${server.url}/ui/js/api.js`);
    const etag = r.headers.get('etag')!;
    assert.ok(etag);
    assert.equal(
      (await fetch(`${server.url}/ui/js/api.js`, { headers: { 'if-none-match': etag } })).status,
      304,
    );
    assert.equal((await fetch(`${server.url}/ui/js/nope.js`)).status, 404);
  });
});
