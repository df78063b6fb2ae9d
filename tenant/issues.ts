import { offsetOf, positionAt, type JsonSource, type SourceProblem } from './jsonSource';
import type { Problem } from './schemaErrors';
import type { TenantIssue } from './types';

/** Locates a schema or rule problem in the source. */
export function issueAt(file: string, source: JsonSource, problem: Problem): TenantIssue {
  const { line, column } = positionAt(source.lineStarts, offsetOf(source, problem.pointer, problem.at));
  return withHint({ file, line, column, pointer: problem.pointer, message: problem.message }, problem.hint);
}

/** Locates a problem found while reading the text (syntax errors, duplicate keys). */
export function issueAtOffset(file: string, lineStarts: number[], problem: SourceProblem): TenantIssue {
  const { line, column } = positionAt(lineStarts, problem.offset);
  return withHint({ file, line, column, pointer: problem.pointer, message: problem.message }, problem.hint);
}

/** An issue about a file as a whole (unreadable, missing). */
export function fileIssue(file: string, message: string, hint?: string): TenantIssue {
  return withHint({ file, line: 1, column: 1, pointer: '', message }, hint);
}

function withHint(issue: TenantIssue, hint: string | undefined): TenantIssue {
  return hint ? { ...issue, hint } : issue;
}

export function byPosition(a: TenantIssue, b: TenantIssue): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;
}

/**
 * `tenants/acme.json:12:5 /features/2 unknown feature "cancelation". Did you mean "cancellation"?`
 * (`file:line:col pointer message`; the pointer is left out for syntax errors and whole-file
 * problems). One argument only, so `issues.map(formatIssue)` works.
 */
export function formatIssue(issue: TenantIssue): string {
  const location = `${issue.file}:${issue.line}:${issue.column}`;
  const message = issue.severity === 'warning' ? `warning: ${issue.message}` : issue.message;
  return issue.pointer ? `${location} ${issue.pointer} ${message}` : `${location} ${message}`;
}

/** formatIssue plus the fix on an indented second line, when there is one. */
export function formatIssueWithHint(issue: TenantIssue): string {
  return issue.hint ? `${formatIssue(issue)}\n    ${issue.hint}` : formatIssue(issue);
}
