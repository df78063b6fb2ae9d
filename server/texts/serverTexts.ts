/**
 * Every word the server writes — mails, PDFs, the pages it serves, the replies of its calls — read
 * through one i18next instance (docs/architecture.md "Data and the server": Texts) from
 * `server/texts/<locale>/<area>.json`, where the area is the slice's folder name (`auth`, `documents`,
 * `sso-profile-page`, …).
 *
 * One folder per locale rather than a file per slice and locale: a translator gets one folder, a
 * new locale is one folder of JSON (generated from en-GB for a pseudo-locale) plus its line in the
 * locale list (engine/domain/locales.ts), and a missing area shows up as one missing file. The
 * engine keeps its texts with each feature because the build ships them per feature set; the
 * server loads all of its texts at start.
 *
 * Keys are flat ("magicLink.subject"), as in the engine's texts.json; placeholders are single
 * braces ({tenant}), the syntax these texts were written in; a missing key falls back to British
 * English (FALLBACK_LOCALE).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInstance } from 'i18next';
import { FALLBACK_LOCALE } from '../../engine/domain/locales';

export const SERVER_TEXTS_DIR = path.dirname(fileURLToPath(import.meta.url));

/** The areas with texts: each one file per locale. */
export type TextArea =
  | 'account'
  | 'auth'
  | 'cancellation'
  | 'contact'
  | 'data-export'
  | 'documents'
  | 'e-card'
  | 'email-widget'
  | 'issue-complaint'
  | 'link-subscription'
  | 'multi-user-licenses'
  | 'offers'
  | 'opt-in-widget'
  | 'payments'
  | 'sso-profile-page'
  | 'subscription';

export type TextValues = Readonly<Record<string, string | number>>;
/** A text by key in one locale and area, its placeholders filled (a missing value leaves nothing). */
export type ServerT = (key: string, values?: TextValues) => string;

/** One locale's tables by area, from a folder of `<area>.json` files. */
export function readLocaleTexts(dir: string): Record<string, Record<string, string>> {
  if (!existsSync(dir)) return {};
  return Object.fromEntries(
    readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [path.basename(file, '.json'), JSON.parse(readFileSync(path.join(dir, file), 'utf8'))]),
  );
}

function readAllTexts(): Record<string, Record<string, Record<string, string>>> {
  return Object.fromEntries(
    readdirSync(SERVER_TEXTS_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => [entry.name, readLocaleTexts(path.join(SERVER_TEXTS_DIR, entry.name))]),
  );
}

export const serverTexts = createInstance();
void serverTexts.init({
  resources: readAllTexts(),
  lng: FALLBACK_LOCALE,
  fallbackLng: FALLBACK_LOCALE,
  // 'de-DE' only, never its language 'de': no folder is named by a bare language.
  load: 'currentOnly',
  keySeparator: false,
  nsSeparator: false,
  defaultNS: false,
  interpolation: {
    prefix: '{',
    suffix: '}',
    // Mails are plain text; the pages and the PDFs escape what they print themselves.
    escapeValue: false,
  },
  // The hand-written fill of these texts left nothing for a value not given; so does this.
  missingInterpolationHandler: () => '',
  initAsync: false,
});

/** The texts of one area in one locale: what a mail, a PDF or a page is written with. */
export function textsIn(locale: string, area: TextArea): ServerT {
  const t = serverTexts.getFixedT(locale, area);
  return (key, values) => t(key, values ?? {}) as string;
}
