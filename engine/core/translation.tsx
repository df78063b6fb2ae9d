import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';

/**
 * The portal's translator: flat text keys ("orders.heading", CONVENTIONS.md rule 7) per locale,
 * `{{name}}` placeholders, plural keys chosen by `count` the way i18next does (`key_one`,
 * `key_other`, by the locale's Intl.PluralRules), the fallback locale for a missing key and the key
 * itself when no locale has it. That is all the engine asks of i18next and react-i18next, which cost 16 KB of
 * gzipped JavaScript on every screen (README "Speed and size"); this is under 1 KB.
 */
export type TextTable = Readonly<Record<string, string>>;
export type TextValues = Readonly<Record<string, unknown>>;
export type TranslateFn = (key: string, values?: TextValues) => string;

export interface Translator {
  /** The current locale, for example "de-DE". */
  readonly language: string;
  t: TranslateFn;
  changeLanguage(locale: string): Promise<void>;
  /** Called after every change of language; returns the unsubscribe function. */
  onLanguageChanged(listener: (locale: string) => void): () => void;
}

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

export function interpolate(text: string, values?: TextValues): string {
  if (!values) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    values[name] == null ? whole : String(values[name]),
  );
}

export function createTranslator(options: {
  locale: string;
  fallbackLocale: string;
  texts: Readonly<Record<string, TextTable | undefined>>;
  /** Makes a locale's texts present before the switch to it (a built page fetches its text file, engine/core/i18n.ts). */
  load?: (locale: string) => Promise<void>;
}): Translator {
  const listeners = new Set<(locale: string) => void>();
  const fallback = options.texts[options.fallbackLocale] ?? {};
  const translateIn = (locale: string): TranslateFn => {
    const table = options.texts[locale] ?? {};
    const plurals = new Intl.PluralRules(locale);
    const lookup = (key: string) => table[key] ?? fallback[key];
    return (key, values) => {
      const count = values?.count;
      const plural =
        typeof count === 'number'
          ? (lookup(`${key}_${plurals.select(count)}`) ?? lookup(`${key}_other`))
          : undefined;
      return interpolate(plural ?? lookup(key) ?? key, values);
    };
  };
  let language = options.locale;
  let t = translateIn(language);
  return {
    get language() {
      return language;
    },
    t: (key, values) => t(key, values),
    async changeLanguage(locale) {
      if (locale === language) return;
      await options.load?.(locale);
      language = locale;
      t = translateIn(locale);
      listeners.forEach((listener) => listener(locale));
    },
    onLanguageChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const TranslationContext = createContext<Translator | null>(null);

export function TranslationProvider({
  translator,
  children,
}: {
  translator: Translator;
  children: ReactNode;
}) {
  return <TranslationContext.Provider value={translator}>{children}</TranslationContext.Provider>;
}

/**
 * `t` and the translator; the component renders again when the language changes. `t` is a new
 * function per language, so effects and memos that list it follow the language too.
 */
export function useTranslation(): { t: TranslateFn; i18n: Translator } {
  // Every screen renders under the provider of engine/main.tsx (and of the test harnesses).
  const translator = useContext(TranslationContext)!;
  const language = useSyncExternalStore(translator.onLanguageChanged, () => translator.language);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new `t` per language is the point
  const t = useMemo<TranslateFn>(() => (key, values) => translator.t(key, values), [translator, language]);
  return { t, i18n: translator };
}

const NO_LANGUAGE_CHANGES = () => () => undefined;

/**
 * The language the screen shows, or undefined outside a translator (a bare test harness). Data the
 * server words in it (product names, issue 22) is loaded again when it changes: useResource and the
 * shared lists (engine/core/subscriptionsStore.ts, engine/account/ordersData.ts) follow it.
 */
export function useLanguage(): string | undefined {
  const translator = useContext(TranslationContext);
  return useSyncExternalStore(
    translator ? translator.onLanguageChanged : NO_LANGUAGE_CHANGES,
    () => translator?.language,
  );
}
