import type { ThemePreset } from '../schemas/generated/theme';
import { contrastFailures, formatContrastRatio } from '../engine/domain/theme';
import { contrastHint } from './contrastHint';
import { byPosition, issueAt, issueAtOffset } from './issues';
import { parseJson } from './jsonSource';
import { validateAgainstSchema } from './schemaErrors';
import type { TenantIssue } from './types';

/** Validates a theme preset file: schema, then the WCAG AA contrast of its text colours. */
export function validateThemeSource(
  file: string,
  source: string,
): { preset?: ThemePreset; issues: TenantIssue[] } {
  const parsed = parseJson(source);
  if (!parsed.ok) return { issues: parsed.problems.map((p) => issueAtOffset(file, parsed.lineStarts, p)) };
  const issues = parsed.problems.map((p) => issueAtOffset(file, parsed.source.lineStarts, p));
  const data = structuredClone(parsed.source.value);
  const schemaProblems = validateAgainstSchema('theme', data);
  issues.push(...schemaProblems.map((p) => issueAt(file, parsed.source, p)));
  if (schemaProblems.length === 0) {
    for (const failure of contrastFailures(data as ThemePreset)) {
      issues.push(
        issueAt(file, parsed.source, {
          pointer: `/colors/${failure.foreground}`,
          at: 'value',
          message:
            `insufficient contrast between ${failure.foreground} (${failure.foregroundColor}) and ${failure.background} ` +
            `(${failure.backgroundColor}): ${formatContrastRatio(failure.ratio)}, WCAG AA needs at least ${failure.minimum}:1`,
          hint: contrastHint(failure),
        }),
      );
    }
  }
  issues.sort(byPosition);
  return issues.length === 0 ? { preset: data as ThemePreset, issues } : { issues };
}
