/**
 * The page `portal dev` answers instead of a tenant's portal while its tenant file is invalid
 * (like Vite's error overlay): every problem with `file:line:col /pointer`, the message and
 * the fix in the validator's words. No inline script (the page keeps the portal's CSP): `portal dev`
 * passes it through Vite, whose client script reloads it when the file changes; without scripts a
 * meta refresh does.
 */
import type { TenantIssue } from '../../tenant/types';

export type OverlayProblem = TenantIssue;

const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Marks the page so tests and tools can tell the overlay from a portal. */
export const OVERLAY_MARKER = 'portal-problem-overlay';

export function problemOverlayPage(file: string, problems: readonly OverlayProblem[]): string {
  const errors = problems.filter((problem) => problem.severity !== 'warning');
  const title = `${file}: ${errors.length} ${errors.length === 1 ? 'problem' : 'problems'}`;
  const items = errors
    .map((problem) => {
      const location = `${problem.file}:${problem.line}:${problem.column}`;
      const pointer = problem.pointer ? ` <span class="pointer">${escape(problem.pointer)}</span>` : '';
      const hint = problem.hint ? `<p class="hint">${escape(problem.hint)}</p>` : '';
      return `<li><p class="where"><code>${escape(location)}</code>${pointer}</p><p class="message">${escape(problem.message)}</p>${hint}</li>`;
    })
    .join('\n');
  // Operator screen, not a subscriber's: fixed dark colours like Vite's overlay, not the tenant theme.
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<noscript><meta http-equiv="refresh" content="2"></noscript>
<title>${escape(title)}</title>
<style>
  body { margin: 0; background: #181818; color: #e8e8e8; font: 15px/1.5 system-ui, sans-serif; }
  main { max-width: 72rem; margin: 0 auto; padding: 2rem 1rem; }
  h1 { color: #ff8a80; font-size: 1.3rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
  ol { padding: 0; list-style: none; }
  li { border-left: 4px solid #ff5555; background: #232323; padding: .75rem 1rem; margin: 0 0 1rem; }
  p { margin: 0; overflow-wrap: anywhere; }
  code, .pointer, .message, .hint { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
  code { color: #9cdcfe; }
  .pointer { color: #ffd479; }
  .message { margin-top: .25rem; }
  .hint { color: #b5e8a0; margin-top: .25rem; white-space: pre-wrap; }
  .note { color: #bdbdbd; }
</style>
</head>
<body>
<main id="${OVERLAY_MARKER}">
<h1>${escape(title)}</h1>
<p class="note">The tenant file is invalid, so this portal is not shown. Fix the file and save: this page reloads by itself. The API keeps serving the last valid version.</p>
<ol>
${items}
</ol>
</main>
</body>
</html>`;
}
