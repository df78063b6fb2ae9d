/**
 * The tenant package, shared by the CLI, the server and the studio: tenant files in,
 * typed tenants with defaults applied (or every issue at once) out, behind `portal validate`,
 * `portal new`, the build, the server and the studio. It imports only engine/domain and schemas/
 * (eslint.config.js); what it knows of the features comes from the generated feature catalog.
 * The tenant page (tenant/page/: sanitized HTML, texts, the rendered index.html) is imported by
 * its own path, not from here: it loads jsdom, which validating a file never needs.
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
