/**
 * A script file of the build that no longer answers: the browser's words for a failed
 * `import()` (Chromium, Firefox, Safari) and a module preload that failed. After a deploy an open
 * tab asks for the files of the build it started with; a reload gets the new ones. A module of its
 * own: every page's boundary (engine/core/ScreenErrorBoundary.tsx) asks it, the error reports
 * (engine/domain/clientErrors.ts) load only after an error.
 */
const STALE_FILE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i;

export function isStaleFileError(error: unknown): boolean {
  return error instanceof Error && STALE_FILE.test(error.message);
}
