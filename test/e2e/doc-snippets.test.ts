/**
 * The code blocks of the README, docs/getting-started.md, the guides (docs/guides/) and the
 * engine pages (docs/engine/) run as written. An HTML comment on the line before a block says
 * how; a block without one runs on its own:
 *
 * - no marker, ```ts: written to a file at the repository root (where `wakeup/engine` resolves
 *   to engine/index.ts) and run with tsx; it must exit 0.
 * - no marker, ```sh: run with bash -euo pipefail from the repository root; it must exit 0.
 * - `<!-- snippet: server -->`, ```sh: needs a running dev server on the virtual clock. This
 *   test starts one (startTestServer(), with WAKEUP_WEBHOOK_ALLOW_PRIVATE=1 and
 *   WAKEUP_WEBHOOK_ALLOW_HTTP=1, which the webhook guide asks for) and runs the page's server
 *   blocks in one bash session against it, `http://127.0.0.1:8080` replaced by its address.
 *   The guides continue the getting-started walk-through (its variables: BASE, AUTH, PHONE_ID),
 *   so the getting-started page and the guides run in one session, in CHAIN's order; the README
 *   runs in a session of its own, on a server of its own.
 * - `<!-- snippet: receiver -->`, ```ts: a webhook receiver that runs until stopped. This test
 *   starts it with a known secret, sends it one request signed with that secret and one signed
 *   with another, and expects it to print `verified` for the first only.
 * - `<!-- snippet: skip (why) -->`: not run (starting the server, the suite itself, operator
 *   commands on a real database, a list of calls that is not a program). The reason is required.
 *
 * Every block of those pages is in exactly one of these sets (the test fails on a block of an
 * unknown language or marker), and a server session's output must not show an internal error or
 * an `undefined` read from an answer. It is slow (a server, a bash session, tsx per block), so it
 * runs in `npm run test:all`.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

interface Block {
  page: string;
  line: number;
  lang: string;
  marker: string | null;
  code: string;
}

/** The fenced blocks of a page with the `<!-- snippet: ... -->` marker on the line before each. */
export function blocks(page: string): Block[] {
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(```+)([a-z]*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '```', lang = ''] = open;
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() !== fence) j++;
    const marker = /<!--\s*snippet:\s*(.+?)\s*-->/.exec(lines[i - 1] ?? '')?.[1] ?? null;
    const code = lines
      .slice(i + 1, j)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
      .join('\n');
    out.push({ page, line: i + 1, lang, marker, code });
    i = j;
  }
  return out;
}

const CHAIN = [
  'docs/getting-started.md',
  'docs/guides/stop-start.md',
  'docs/guides/contacts.md',
  'docs/guides/api-keys.md',
  'docs/guides/webhooks.md',
];
const PAGES = [
  'README.md',
  ...CHAIN,
  ...readdirSync(join(ROOT, 'docs/guides'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/guides/${f}`)
    .filter((p) => !CHAIN.includes(p)),
  ...readdirSync(join(ROOT, 'docs/engine'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/engine/${f}`),
];
const all = PAGES.flatMap(blocks);
const runnable = (b: Block) => b.marker === null && (b.lang === 'ts' || b.lang === 'sh');
const where = (b: Block) => `${b.page}:${b.line}`;

async function tsx(code: string, name: string): Promise<string> {
  const file = join(ROOT, `.snippet-${process.pid}-${name}.mts`);
  writeFileSync(file, code);
  try {
    return (await run(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, timeout: 60_000 }))
      .stdout;
  } finally {
    rmSync(file, { force: true });
  }
}

async function serverSession(server: TestServer, scripts: Block[]): Promise<string> {
  const script = ['set -euo pipefail', ...scripts.map((b) => `# ${where(b)}\n${b.code}`)]
    .join('\n')
    .replaceAll('http://127.0.0.1:8080', server.url);
  try {
    const { stdout } = await run('bash', ['-c', script], {
      cwd: ROOT,
      timeout: 120_000,
      maxBuffer: 16 << 20,
    });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${scripts.map(where).join(', ')} failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}\n${e.message}`,
    );
  }
}

function assertClean(out: string): void {
  assert.doesNotMatch(out, /internal_error/, out);
  assert.doesNotMatch(out, /^undefined$/m, `a field read from an answer was missing:\n${out}`);
}

describe('documented snippets run as written', () => {
  it('every block of the pages is runnable, run against a server, a receiver, or skipped with a reason', () => {
    assert.ok(all.length > 10, `${all.length} blocks`);
    for (const b of all) {
      if (b.lang === 'mermaid' || b.lang === 'markdown' || b.lang === '') continue;
      const ok =
        runnable(b) ||
        (b.marker === 'server' && b.lang === 'sh') ||
        (b.marker === 'receiver' && b.lang === 'ts') ||
        /^skip \(.+\)$/.test(b.marker ?? '');
      assert.ok(ok, `${where(b)}: a ${b.lang} block with marker ${b.marker ?? '(none)'}`);
    }
    assert.ok(
      blocks('README.md').some((b) => b.marker === 'server'),
      'the README has its first call',
    );
  });

  for (const b of all.filter(runnable)) {
    it(`${where(b)} (${b.lang}) runs`, { timeout: 90_000 }, async () => {
      if (b.lang === 'ts') await tsx(b.code, `${b.page.replace(/\W/g, '_')}-${b.line}`);
      else await run('bash', ['-euo', 'pipefail', '-c', b.code], { cwd: ROOT, timeout: 60_000 });
    });
  }

  describe('against a running dev server', () => {
    let servers: TestServer[] = [];
    const env = { WAKEUP_WEBHOOK_ALLOW_PRIVATE: '1', WAKEUP_WEBHOOK_ALLOW_HTTP: '1' };
    before(async () => {
      servers = [await startTestServer({ env }), await startTestServer({ env })];
    });
    after(async () => {
      for (const s of servers) await s.close();
    });

    it("the README's first call ends confirmed", { timeout: 120_000 }, async () => {
      const out = await serverSession(
        servers[0]!,
        blocks('README.md').filter((b) => b.marker === 'server'),
      );
      assertClean(out);
      assert.equal(out.trim().split('\n').at(-1), 'confirmed', out);
    });

    it(
      'getting-started, then STOP/START, contacts, API keys and webhooks, in one session',
      { timeout: 120_000 },
      async () => {
        const chain = CHAIN.flatMap(blocks).filter((b) => b.marker === 'server');
        assert.equal(
          new Set(chain.map((b) => b.page)).size,
          CHAIN.length,
          'every page of the chain has server blocks',
        );
        const out = await serverSession(servers[1]!, chain);
        assertClean(out);
        assert.match(out, /"answered_by": "person"/, 'the first call was answered by a person');
        assert.match(out, /"blocked":true/, 'STOP blocked the number');
        assert.match(out, /number_blocked/, 'and verification was refused while blocked');
        assert.match(out, /^agreed$/m, 'the contact agreed');
        assert.match(out, /did not confirm/, 'and was told');
        assert.match(out, /"secret":"whsec_/, 'the webhook secret was rotated');
      },
    );
  });

  it(
    'the webhook receiver verifies a signed request and refuses a forged one',
    { timeout: 90_000 },
    async () => {
      const [receiver] = all.filter((b) => b.marker === 'receiver');
      assert.ok(receiver, 'docs/guides/webhooks.md has the receiver');
      const key = Buffer.from('doc-snippets test secret, 32 by.');
      const secret = `whsec_${key.toString('base64')}`;
      const file = join(ROOT, `.snippet-${process.pid}-receiver.mts`);
      writeFileSync(file, receiver.code);
      const child = spawn(process.execPath, ['--import', 'tsx', file], {
        cwd: ROOT,
        env: { ...process.env, WHSEC: secret },
      });
      let printed = '';
      child.stdout.on('data', (c: Buffer) => (printed += c.toString()));
      try {
        const send = async (signingKey: Buffer) => {
          const id = `msg_${signingKey.length}${Date.now()}`;
          const ts = Math.floor(Date.now() / 1000).toString();
          const body = JSON.stringify({
            type: 'occurrence.confirmed',
            timestamp: new Date().toISOString(),
            data: {},
          });
          const sig = createHmac('sha256', signingKey)
            .update(`${id}.${ts}.${body}`)
            .digest('base64');
          const headers = {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': ts,
            'webhook-signature': `v1,${sig}`,
          };
          for (let i = 0; ; i++) {
            try {
              return (await fetch('http://127.0.0.1:8123/', { method: 'POST', headers, body }))
                .status;
            } catch (err) {
              if (i > 100) throw err;
              await new Promise((r) => setTimeout(r, 200));
            }
          }
        };
        assert.equal(await send(key), 204);
        assert.equal(await send(Buffer.from('another secret, also 32 bytes...')), 400);
        assert.equal(printed.trim(), 'verified occurrence.confirmed');
      } finally {
        child.kill();
        rmSync(file, { force: true });
      }
    },
  );
});
