import type { Locale } from '../../schemas/generated/tenant';

/** One element of a flag drawn as inline SVG (an SVG element name and its React props). */
export interface FlagShape {
  tag: 'rect' | 'path';
  props: Readonly<Record<string, string | number>>;
}

/**
 * A day in the locale's medium style (portal-core.md §9 "Date formats"), as Intl writes it with
 * `dateStyle: 'medium'`: `D` the day, `DD` the day in two digits, `MM` the month in two digits,
 * `MMM` its name from `months` (January first), `YYYY` the year (engine/domain/dates.ts formatDate).
 */
export interface DayPattern {
  pattern: string;
  months?: readonly string[];
}

/**
 * What a locale brings besides its texts: the data the code would otherwise decide with a locale
 * ternary, so a locale is one entry here and never falls into another's data.
 */
export interface LocaleData {
  /**
   * The language named in itself ("Deutsch", "English"), as the flag button shows it (portal-core.md
   * §1). Data rather than `Intl.DisplayNames`: that loads the browser's table of language names on
   * its first use, 75 to 200 ms of a phone's main thread on every page with the button.
   */
  name: string;
  /**
   * The flag on the language button (portal-core.md §1), as inline SVG: emoji flags do not render
   * on Windows or on Linux without an emoji font.
   */
  flag: { viewBox: string; shapes: readonly FlagShape[] };
  /**
   * The publisher's delivery area for a tenant whose default locale it is: the countries a
   * delivery address (role WE) may be in (account-flows.md §5 "Country list limited to those
   * supported for the subscription and role").
   */
  deliveryCountries: readonly string[];
  /** How a day is written: 01.02.2027 (de-DE), 1 Feb 2027 (en-GB). */
  day: DayPattern;
}

/**
 * The locales a portal speaks (portal-core.md §8): the schema's list (schemas/tenant.schema.json
 * `definitions.locale`, generated into `Locale`), one place for the engine, the server and the CLI,
 * with each locale's data. The table's type makes the compiler check the list against the schema
 * both ways, so a locale added to the schema is refused here until it is listed with its data; its
 * texts are JSON files (docs/operators.md "Languages: one at a time").
 */
export type { Locale };
export const LOCALE_TABLE: Readonly<Record<Locale, LocaleData>> = {
  'de-DE': {
    name: 'Deutsch',
    flag: {
      viewBox: '0 0 5 3',
      shapes: [
        { tag: 'rect', props: { width: 5, height: 1, y: 0, fill: '#000' } },
        { tag: 'rect', props: { width: 5, height: 1, y: 1, fill: '#D00' } },
        { tag: 'rect', props: { width: 5, height: 1, y: 2, fill: '#FFCE00' } },
      ],
    },
    deliveryCountries: ['DE', 'AT', 'CH', 'LU', 'NL', 'BE', 'DK', 'FR', 'IT', 'PL'],
    day: { pattern: 'DD.MM.YYYY' },
  },
  'en-GB': {
    name: 'English',
    flag: {
      viewBox: '0 0 60 30',
      shapes: [
        { tag: 'rect', props: { width: 60, height: 30, fill: '#012169' } },
        { tag: 'path', props: { d: 'M0,0 L60,30 M60,0 L0,30', stroke: '#fff', strokeWidth: 6 } },
        { tag: 'path', props: { d: 'M0,0 L60,30 M60,0 L0,30', stroke: '#C8102E', strokeWidth: 2 } },
        { tag: 'path', props: { d: 'M30,0 V30 M0,15 H60', stroke: '#fff', strokeWidth: 10 } },
        { tag: 'path', props: { d: 'M30,0 V30 M0,15 H60', stroke: '#C8102E', strokeWidth: 6 } },
      ],
    },
    deliveryCountries: ['GB', 'IE'],
    day: {
      pattern: 'D MMM YYYY',
      months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'],
    },
  },
};
export const LOCALES = Object.keys(LOCALE_TABLE) as readonly Locale[];
/** The language of last resort when neither the visitor nor the tenant names one. */
export const FALLBACK_LOCALE: Locale = 'en-GB';

/**
 * The locale whose text stands in for a key missing in the locale shown: British English when the
 * tenant offers it, else the tenant's own default locale, never a language the tenant does not
 * offer. The portal looks texts up by it (engine/core/i18n.ts) and the tenant page fills each
 * locale's text file by it (tenant/page/tenantTexts.ts).
 */
export function fallbackLocaleOf(tenant: { locales: readonly string[]; defaultLocale: string }): string {
  return tenant.locales.includes(FALLBACK_LOCALE) ? FALLBACK_LOCALE : tenant.defaultLocale;
}

/**
 * The data of a locale (LOCALE_TABLE), or undefined for a string that is no locale of the list:
 * the caller decides what stands in (nothing, or the fallback locale's), never another locale's by
 * accident.
 */
export function localeData(locale: string, table: Readonly<Record<string, LocaleData>> = LOCALE_TABLE) {
  return Object.hasOwn(table, locale) ? table[locale] : undefined;
}
