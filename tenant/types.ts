import type { TenantWithDefaults } from '../schemas/generated/tenant';
import type { ThemePreset } from '../schemas/generated/theme';
import type { ThemeTokens } from '../engine/domain/theme';

/**
 * One problem in a tenant (or theme) file, located for people and tools: `line` and `column` are
 * 1-based and point at the offending key or value; `pointer` is the JSON pointer of the setting
 * (empty for the whole document or a syntax error); `message` says what is wrong, `hint` how to fix it.
 */
export interface TenantIssue {
  file: string;
  line: number;
  column: number;
  pointer: string;
  message: string;
  hint?: string;
  /** Set on warnings: the file is valid and loads, but something deserves a look (a missing translation). */
  severity?: 'warning';
}

/**
 * A valid tenant as the engine, the build and the server use it: every schema default applied
 * (see TenantWithDefaults) and the theme preset resolved with the tenant's token overrides.
 */
export type ResolvedTenant = TenantWithDefaults & { themeTokens: ThemeTokens };

/** What validation needs besides the file: by default read from the repository (and the environment). */
export interface ValidationContext {
  /** Every base text key (engine/core/texts.json and engine/features/*\/texts.json). */
  knownTextKeys?: Set<string>;
  /** Theme presets by name (themes/<name>.json). */
  themePresets?: Record<string, ThemePreset>;
  /** Where the webhook secrets a tenant names (secretEnv) are looked up for warnings; process.env by default. */
  env?: Readonly<Record<string, string | undefined>>;
}
