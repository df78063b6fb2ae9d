import { basename } from 'node:path';
import { crossFieldRules, tenantThemeTokens, webhookSecretWarnings } from './crossFieldRules';
import { eInvoiceProblems } from './eInvoiceRules';
import { byPosition, issueAt, issueAtOffset } from './issues';
import { parseJson } from './jsonSource';
import { validateAgainstSchema, type Problem } from './schemaErrors';
import { knownTextKeys, loadThemePresets } from './sources';
import { translationWarnings } from './translationWarnings';
import { paymentSecretWarnings } from './paymentProviderRules';
import { privacyWarnings } from './privacyRules';
import { pageAddressWarnings } from './pageAddressWarnings';
import { unusedSettingsWarnings } from './unusedSettingsWarnings';
import type { ResolvedTenant, TenantIssue, ValidationContext } from './types';

/**
 * A rule problem is left out when the schema already reported the same setting or one that
 * contains it (an unknown feature is not also "a blacklist of a feature that is off").
 */
function alreadyReported(rule: Problem, schemaProblems: Problem[]): boolean {
  return schemaProblems.some(
    (s) => s.pointer === rule.pointer || (s.pointer !== '' && rule.pointer.startsWith(`${s.pointer}/`)),
  );
}

/**
 * Validates the text of one tenant file: JSON syntax (with line and column), the schema (every
 * error at once, defaults applied to a copy), then the cross-field rules. `tenant` is set only
 * when there is no issue. Text keys and theme presets are read from the repository unless given.
 */
export function validateTenantSource(
  file: string,
  source: string,
  ctx: ValidationContext = {},
): { tenant?: ResolvedTenant; issues: TenantIssue[]; warnings: TenantIssue[] } {
  const parsed = parseJson(source);
  if (!parsed.ok)
    return { issues: parsed.problems.map((p) => issueAtOffset(file, parsed.lineStarts, p)), warnings: [] };
  const issues = parsed.problems.map((p) => issueAtOffset(file, parsed.source.lineStarts, p));

  const data = structuredClone(parsed.source.value);
  const schemaProblems = validateAgainstSchema('tenant', data);
  const themePresets = ctx.themePresets ?? loadThemePresets();
  const ruleProblems = crossFieldRules(data as Record<string, unknown>, {
    fileId: basename(file).replace(/\.json$/i, ''),
    knownTextKeys: ctx.knownTextKeys ?? knownTextKeys(),
    themePresets,
  }).filter((rule) => !alreadyReported(rule, schemaProblems));
  // What the invoice section lacks for an e-invoice; an error only where the tenant
  // switches the XRechnung download on, else a warning (its invoices stay plain PDFs).
  const eInvoice = eInvoiceProblems(data);
  ruleProblems.push(...eInvoice.errors.filter((rule) => !alreadyReported(rule, schemaProblems)));

  for (const problem of [...schemaProblems, ...ruleProblems])
    issues.push(issueAt(file, parsed.source, problem));
  issues.sort(byPosition);
  // Warnings never stop a tenant from loading (a text missing in an offered locale; a
  // webhook secret variable missing or malformed where this runs; no privacy section for the data
  // export's README, docs/subscribers.md "Download my data"; a setting that shows nothing).
  const value = parsed.source.value;
  // A file that is no object has nothing to warn about: its one problem is that.
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const warnings = (
    isObject
      ? [
          ...translationWarnings(value as Record<string, unknown>),
          ...eInvoice.warnings,
          ...webhookSecretWarnings(value as Record<string, unknown>, ctx.env ?? process.env),
          ...paymentSecretWarnings(value as Record<string, unknown>, ctx.env ?? process.env),
          ...privacyWarnings(value as Record<string, unknown>),
          ...unusedSettingsWarnings(value as Record<string, unknown>),
          ...pageAddressWarnings(value as Record<string, unknown>),
        ]
      : []
  )
    .filter((warning) => !alreadyReported(warning, schemaProblems))
    .map((warning) => ({ ...issueAt(file, parsed.source, warning), severity: 'warning' as const }))
    .sort(byPosition);
  if (issues.length > 0) return { issues, warnings };

  const themeTokens = tenantThemeTokens(data as Record<string, unknown>, themePresets)!;
  return { tenant: { ...(data as Omit<ResolvedTenant, 'themeTokens'>), themeTokens }, issues, warnings };
}
