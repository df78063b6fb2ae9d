/**
 * The tenant validator library behind `portal validate`, `portal new`, the build and the server:
 * tenant files in, typed tenants with defaults applied (or every issue at once) out.
 */
export type { ResolvedTenant, TenantIssue, ValidationContext } from './types';
export { validateTenantSource } from './validateTenant';
export { validateThemeSource } from './validateTheme';
export { loadTenantFiles, tenantFilePaths, type LoadTenantOptions } from './loadTenants';
export { knownTextKeys, loadThemePresets, REPO_ROOT } from './sources';
export { crossFieldRules, type RuleContext } from './crossFieldRules';
export { formatIssue, formatIssueWithHint } from './issues';
export { newTenantTemplate } from './template';
export { closestMatch } from './didYouMean';
