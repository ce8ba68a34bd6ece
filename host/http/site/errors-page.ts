/**
 * GET /docs/errors: every error code with its status and meaning, one anchor per code, so
 * that a problem's `type` (`{site}/docs/errors#<code>`) lands on its entry.
 * @module
 */
import { catalogue } from '../problem.js';
import type { Routes } from '../registrar.js';
import { escapeHtml } from './html.js';

/** Renders the page (exported for tests). */
export function renderErrorsPage(): string {
  const rows = [...catalogue().values()]
    .map(
      (e) =>
        `<tr id="${escapeHtml(e.code)}"><td><a href="#${escapeHtml(e.code)}"><code>${escapeHtml(e.code)}</code></a></td>` +
        `<td>${e.status}</td><td>${escapeHtml(e.title)}</td><td>${escapeHtml(e.description)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error codes: Wake-Up Call API</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .4rem .6rem; border-bottom: 1px solid #ddd; }
tr:target { background: #fff6d5; }
code { font-size: 14px; }
</style>
</head>
<body>
<h1>Error codes</h1>
<p>Every error of the <a href="/docs">Wake-Up Call API</a> is an <code>application/problem+json</code> body
(RFC 9457) whose <code>code</code> is one of the codes below; its <code>type</code> links here.
Branch on <code>code</code>, never on <code>title</code> or <code>detail</code>.
A <code>validation_error</code> lists each problem in <code>errors</code>:
<code>{field, in, code, message}</code>, where <code>field</code> is the dotted path of the value
(<code>retry_policy.offsets_minutes.0</code>), <code>in</code> is body, query, path or header, and
<code>code</code> a short word such as required, type, enum, format, pattern, minimum, maximum,
min_length, max_length, min_items, max_items, unknown_field or invalid.</p>
<table>
<thead><tr><th>Code</th><th>Status</th><th>Title</th><th>Meaning</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`;
}

/** Registers the page. */
export function register(routes: Routes): void {
  const html = renderErrorsPage();
  routes.page('GET', '/docs/errors', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  });
}
