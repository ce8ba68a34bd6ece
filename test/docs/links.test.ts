/**
 * Every relative link of every Markdown file in the repository resolves: `[text](path)`,
 * `[text](path#heading)`, `[text](#heading)` and `<img src="path">`, outside code blocks and
 * inline code. A path must exist (file or folder); a heading must be one of the target
 * file's headings, slugged as GitHub does (lower case, punctuation dropped, spaces to
 * hyphens, `-1`, `-2` for repeats). Links to other sites are not fetched.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIP = new Set(['node_modules', '.git', 'dist', 'data', '.bench', '.screenshots']);

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (
      SKIP.has(entry.name) ||
      (dir === ROOT && entry.name.startsWith('.') && entry.name !== '.ci')
    )
      continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) markdownFiles(path, out);
    else if (entry.name.endsWith('.md')) out.push(path);
  }
  return out;
}

/** The text with fenced code blocks and inline code blanked (their links are examples, not links). */
export function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchors for the headings of a Markdown text. */
export function headingSlugs(text: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  // Headings written in backticks keep their text: slug the raw heading lines too.
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) {
    slugs.add(
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return slugs;
}

/** The relative link targets of a Markdown text. */
export function relativeLinks(text: string): string[] {
  const body = prose(text);
  const links = [
    ...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
    ...body.matchAll(/\bsrc="([^"]+)"/g),
  ].map((m) => m[1]!);
  return links.filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l));
}

describe('relative links in the Markdown files', () => {
  const files = markdownFiles(ROOT);

  it('finds the Markdown files, the README and docs/ among them', () => {
    const names = files.map((f) => relative(ROOT, f));
    assert.ok(names.includes('README.md') && names.includes('docs/README.md'), names.join(', '));
  });

  it('slugs headings as GitHub does', () => {
    const slugs = headingSlugs(
      '# A first call with curl (dev mode, virtual clock)\n## Node and the database\n## Node and the database\n',
    );
    assert.deepEqual([...slugs].slice(0, 3), [
      'a-first-call-with-curl-dev-mode-virtual-clock',
      'node-and-the-database',
      'node-and-the-database-1',
    ]);
  });

  it('would catch a broken link and a missing heading', () => {
    assert.deepEqual(
      relativeLinks('[a](missing.md) `[b](in-code.md)` [c](https://example.com) [d](#here)'),
      ['missing.md', '#here'],
    );
    assert.equal(headingSlugs('# Elsewhere').has('here'), false);
  });

  for (const file of files) {
    const name = relative(ROOT, file);
    it(name, () => {
      const text = readFileSync(file, 'utf8');
      const broken: string[] = [];
      for (const link of relativeLinks(text)) {
        const [path = '', fragment] = link.split('#', 2);
        const target = path === '' ? file : join(dirname(file), decodeURIComponent(path));
        if (!existsSync(target)) {
          broken.push(`${link}: no such file`);
          continue;
        }
        if (fragment && target.endsWith('.md') && statSync(target).isFile()) {
          const slugs = headingSlugs(readFileSync(target, 'utf8'));
          if (!slugs.has(decodeURIComponent(fragment).toLowerCase()))
            broken.push(`${link}: no heading #${fragment} in ${relative(ROOT, target)}`);
        }
      }
      assert.deepEqual(broken, [], `broken links in ${name}`);
    });
  }
});
