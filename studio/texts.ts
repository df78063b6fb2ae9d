/**
 * The studio's own words, in the operator's language (`portal studio --lang`). The validator's
 * messages stay as `portal validate` writes them (English), so the studio and the terminal agree.
 */
import { FALLBACK_LOCALE } from '../engine/domain/locales';

const TEXTS = {
  'en-GB': {
    title: 'Portal studio',
    tenant: 'Tenant file',
    open: 'Open',
    newTenant: 'New tenant id',
    start: 'Start new tenant',
    problems: '{n} problem(s) — portal validate would fail',
    noProblems: 'No problems: portal validate passes',
    warnings: '{n} warning(s)',
    warningsList: 'Warnings: the file is valid and served, but',
    preview: 'Live portal',
    previewStale: 'The preview shows the last valid version; fix the problems to update it.',
    signedInAs: 'Signed in as',
    signedOut: 'Signed out',
    noDemoData:
      '{tenant} is no demo tenant, so it has no demo subscribers to sign in as: it starts empty. Bring its subscribers in from the order system with `{command} import {tenant} <folder>` or through the operator API (a key from `{command} keys create {tenant} --scope read,write,import`); docs/going-live.md "Going live with your order system". A tenant file with "demo": true gets demo people on the next start.',
    phone: 'Phone, 360 px',
    desktop: 'Desktop, 1280 px (scaled)',
    review: 'Review changes and save',
    diff: 'Changes to {file}',
    noChanges: 'No changes to save.',
    confirm: 'Save with {n} problem(s): portal build and portal start refuse the file until they are fixed',
    save: 'Save',
    cancel: 'Close',
    saved:
      'Saved {file}. A portal that is running serves it once it is rebuilt ({command} build) and restarted.',
    newFile: 'new file',
    loading: 'Loading …',
    groups: 'Settings',
  },
  'de-DE': {
    title: 'Portal-Studio',
    tenant: 'Mandantendatei',
    open: 'Öffnen',
    newTenant: 'ID des neuen Mandanten',
    start: 'Neuen Mandanten anlegen',
    problems: '{n} Problem(e) – portal validate würde scheitern',
    noProblems: 'Keine Probleme: portal validate ist zufrieden',
    warnings: '{n} Warnung(en)',
    warningsList: 'Warnungen: Die Datei ist gültig und wird ausgeliefert, aber',
    preview: 'Portal live',
    previewStale:
      'Die Vorschau zeigt die letzte gültige Fassung; beheben Sie die Probleme, um sie zu aktualisieren.',
    signedInAs: 'Angemeldet als',
    signedOut: 'Abgemeldet',
    noDemoData:
      '{tenant} ist kein Demo-Mandant und hat daher keine Demo-Abonnenten zum Anmelden: Er beginnt leer. Holen Sie seine Abonnenten aus dem Abosystem mit `{command} import {tenant} <Ordner>` oder über die Operator-API (ein Schlüssel von `{command} keys create {tenant} --scope read,write,import`); docs/going-live.md „Going live with your order system“. Eine Mandantendatei mit "demo": true bekommt beim nächsten Start Demo-Personen.',
    phone: 'Telefon, 360 px',
    desktop: 'Desktop, 1280 px (verkleinert)',
    review: 'Änderungen prüfen und speichern',
    diff: 'Änderungen an {file}',
    noChanges: 'Keine Änderungen zu speichern.',
    confirm:
      'Mit {n} Problem(en) speichern: portal build und portal start lehnen die Datei ab, bis sie behoben sind',
    save: 'Speichern',
    cancel: 'Schließen',
    saved:
      '{file} gespeichert. Ein laufendes Portal zeigt die Änderung, sobald es neu gebaut ({command} build) und neu gestartet ist.',
    newFile: 'neue Datei',
    loading: 'Lädt …',
    groups: 'Einstellungen',
  },
} as const;

export type StudioLang = keyof typeof TEXTS;
export type TextKey = keyof (typeof TEXTS)['en-GB'];

/** The languages the studio has words in: a locale gets its own as soon as it has a section above. */
export const STUDIO_LANGS = Object.keys(TEXTS) as StudioLang[];

/**
 * The operator's language of `?lang=`: any language the studio has words in, else the fallback
 * locale (British English, engine/domain/locales.ts) whose words every section copies.
 */
export function studioLang(search: string): StudioLang {
  const lang = new URLSearchParams(search).get('lang') ?? '';
  return Object.hasOwn(TEXTS, lang) ? (lang as StudioLang) : FALLBACK_LOCALE;
}

export function translate(
  lang: StudioLang,
  key: TextKey,
  values: Record<string, string | number> = {},
): string {
  return TEXTS[lang][key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}

export const GROUP_LABELS: Record<StudioLang, Record<string, string>> = {
  'en-GB': {
    brand: 'Brand and links',
    'sign-in': 'Sign-in',
    features: 'Features',
    texts: 'Texts',
    flows: 'Flows',
  },
  'de-DE': {
    brand: 'Marke und Links',
    'sign-in': 'Anmeldung',
    features: 'Funktionen',
    texts: 'Texte',
    flows: 'Abläufe',
  },
};
