/**
 * What every page needs of the client error reports (engine/domain/clientErrors.ts has the rest,
 * loaded with the first error): the sample rate, the kinds, and the rule that tells a script file
 * of an older build from other failures. Small on purpose: it is in every page's entry file.
 */

/** portal-core.md §9 "Error-reporting sample rate": each error is reported with this probability. */
export const ERROR_REPORT_SAMPLE_RATE = 0.25;

/** What failed: a screen while rendering, a script file that did not load, a listener, a promise. */
export const CLIENT_ERROR_KINDS = ['render', 'chunk', 'error', 'rejection'] as const;
export type ClientErrorKind = (typeof CLIENT_ERROR_KINDS)[number];

/** What the engine's preload helper (engine/app/modulePreload.ts) says when a lazy screen's style sheet did not load. */
export const STYLE_SHEET_NOT_LOADED = 'A style sheet did not load:';

/**
 * A file of the build that did not load: the browser's words for a failed `import()` (Chromium,
 * Firefox, Safari), a module preload that failed, and a lazy screen's style sheet. After a deploy
 * an open tab asks for the files of the build it started with; offline, any file fails the same
 * way. A reload helps in both cases.
 */
const STALE_FILE = new RegExp(
  `Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|${STYLE_SHEET_NOT_LOADED}|Failed to load module script`,
  'i',
);

export function isStaleFileError(error: unknown): boolean {
  return error instanceof Error && STALE_FILE.test(error.message);
}
