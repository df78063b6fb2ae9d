import type { ErrorSchema } from '@rjsf/utils';
import type { TenantIssue } from '../tenant/types';

/** One problem as the studio's validate endpoint answers it: `tenant/`'s TenantIssue, in its words. */
export type StudioIssue = TenantIssue;

/** `/texts/de-DE/shell.title` → ["texts", "de-DE", "shell.title"] (RFC 6901: ~1 is "/", ~0 is "~"). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .replace(/^\//, '')
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The words shown at the field: the validator's message, and its fix when it has one. */
export function issueText(issue: Pick<StudioIssue, 'message' | 'hint'>): string {
  return issue.hint ? `${issue.message} — ${issue.hint}` : issue.message;
}

/**
 * The validator's issues as rjsf `extraErrors`, so every problem `portal validate` would
 * report shows at its field: each issue's JSON pointer becomes the path in the error schema, so
 * `/theme/tokens/colors/primary` lands under the primary colour's input. Only issues whose first
 * segment is one of `rootKeys` (the settings of the tab on screen) are kept; an issue about the
 * whole file (empty pointer) goes to the form's root.
 */
export function issuesToErrorSchema(
  issues: readonly StudioIssue[],
  rootKeys?: ReadonlySet<string>,
): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const issue of issues) {
    if (issue.severity === 'warning') continue;
    const segments = pointerSegments(issue.pointer);
    if (rootKeys && segments.length > 0 && !rootKeys.has(segments[0])) continue;
    let node = root;
    for (const segment of segments) {
      node[segment] ??= {};
      node = node[segment] as Record<string, unknown>;
    }
    const errors = (node.__errors as string[] | undefined) ?? [];
    errors.push(issueText(issue));
    node.__errors = errors;
  }
  return root as ErrorSchema;
}
