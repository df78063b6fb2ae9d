import { STYLE_SHEET_NOT_LOADED } from '../domain/clientErrorKinds';

/**
 * What a lazy import runs before the module itself (Vite's build wraps every `import()` of the
 * engine in `__vitePreload(load, files, importerUrl)`): it asks at once for the files the module
 * imports, so they load beside it instead of one after the other, and waits for its style sheets,
 * so a screen never shows unstyled. It stands in for Vite's own helper (cli/build/engineBuild.ts
 * `modulePreload`), which also serves CSP nonces, browsers without `modulepreload` and an
 * error event of its own, none of which the portal has or listens to: 1.8 KB of minified
 * JavaScript on every page for 0.6 KB of work (docs/testing.md "Speed and size").
 *
 * A style sheet that fails to load fails the import (the screen's error view offers a reload,
 * engine/core/ScreenErrorBoundary.tsx) and is asked for again by the next one; a script file that
 * fails is the module's own import's to report.
 */
let requested: Map<string, Promise<unknown> | undefined> | undefined;

/**
 * The files asked for so far, starting with those the page itself links: its style sheet, which
 * every lazy module with a style sheet names among its files (Vite's build leaves the page's
 * scripts out of those lists already, cli/build/engineBuild.ts), and any file preloaded before.
 */
function requestedFiles(): Map<string, Promise<unknown> | undefined> {
  requested ??= new Map(
    [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"], link[rel="modulepreload"]')].map(
      (link) => [link.href, undefined],
    ),
  );
  return requested;
}

export function __vitePreload<T>(
  load: () => Promise<T>,
  files: readonly string[] | undefined,
  importerUrl: string,
): Promise<T> {
  const styleSheets: Promise<unknown>[] = [];
  const asked = requestedFiles();
  for (const file of files ?? []) {
    const url = new URL(file, importerUrl).href;
    if (!asked.has(url)) asked.set(url, preload(url));
    const loaded = asked.get(url);
    if (loaded) styleSheets.push(loaded);
  }
  return Promise.all(styleSheets).then(load);
}

/** Adds the file's link to the page; for a style sheet, the promise of it being applied. */
function preload(url: string): Promise<unknown> | undefined {
  const link = document.createElement('link');
  const styleSheet = new URL(url).pathname.endsWith('.css');
  link.rel = styleSheet ? 'stylesheet' : 'modulepreload';
  // As the module scripts themselves are asked for, so the browser uses what it preloaded.
  link.crossOrigin = '';
  link.href = url;
  document.head.appendChild(link);
  if (!styleSheet) return undefined;
  return new Promise((resolve, reject) => {
    link.onload = resolve;
    link.onerror = () => {
      requested?.delete(url);
      link.remove();
      reject(new Error(`${STYLE_SHEET_NOT_LOADED} ${url}`));
    };
  });
}
