/**
 * The locales a portal speaks (portal-core.md §8): the schema's list, one place for the engine, the
 * server and the CLI.
 */
export type Locale = 'de-DE' | 'en-GB';
export const LOCALES: readonly Locale[] = ['de-DE', 'en-GB'];
/** The language of last resort when neither the visitor nor the tenant names one. */
export const FALLBACK_LOCALE: Locale = 'en-GB';
