import { chooseLocale, type TenantLanguages } from '../../engine/domain/language';
import type { Locale } from '../../engine/domain/locales';

/**
 * The built page preloads the texts of the tenant's default language (tenant/page/renderTenantHtml.ts),
 * so they download beside the scripts; the page then fetches the texts of the language it shows
 * (engine/core/i18n.ts). A page opened in the other language (a `?lang`, or the visitor's choice,
 * which the page keeps in the LOCALE_COOKIE beside its local storage) would download both files
 * and leave the preloaded one unused, which the browser warns of in the console. The page is made
 * per request anyway (its base path), so it preloads the file of the language the page will show,
 * chosen by the same rule the page uses (engine/domain/language.ts `chooseLocale`).
 */
export interface TextPreload {
  /** The href the built page preloads, and the one of each offered locale. */
  preloaded: string;
  files: Partial<Record<Locale, string>>;
}

const CONFIG_SCRIPT = /<script type="application\/json" id="portal-config">([\s\S]*?)<\/script>/;
const PRELOAD_LINK = /<link rel="preload" href="([^"]*)" as="fetch"/;

/** What a built page preloads and could preload instead; undefined for a page without text files. */
export function textPreloadOf(html: string): TextPreload | undefined {
  const preloaded = PRELOAD_LINK.exec(html)?.[1];
  const config = CONFIG_SCRIPT.exec(html)?.[1];
  if (!preloaded || !config) return undefined;
  try {
    const files = (JSON.parse(config) as { textFiles?: Partial<Record<Locale, string>> }).textFiles;
    return files ? { preloaded, files } : undefined;
  } catch {
    return undefined;
  }
}

/** The page with the preload of the language it will show (the first of `wishes` the tenant offers). */
export function preloadShownTexts(
  html: string,
  preload: TextPreload | undefined,
  tenant: TenantLanguages,
  wishes: ReadonlyArray<string | undefined>,
): string {
  if (!preload) return html;
  const shown = preload.files[chooseLocale(tenant, wishes)];
  if (!shown || shown === preload.preloaded || !/^[\w./-]+$/.test(shown)) return html;
  return html.replace(
    `<link rel="preload" href="${preload.preloaded}" as="fetch"`,
    `<link rel="preload" href="${shown}" as="fetch"`,
  );
}
