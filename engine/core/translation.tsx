import { useCallback, useContext, useSyncExternalStore, type ReactNode } from 'react';
import { createInstance, type i18n, type InitOptions } from 'i18next';
import { I18nContext, I18nextProvider, useTranslation as useI18nextTranslation } from 'react-i18next';

/**
 * The engine's one wiring of i18next and react-i18next (docs/architecture.md "Data and the server": Texts):
 * every screen imports `useTranslation` from here, so the options below (flat keys, no escaping, the typed
 * `t`) hold for all of them. Flat text keys ("orders.heading", CONVENTIONS.md rule 7) per locale, `{{name}}`
 * placeholders (i18next's own syntax, which the texts.json files use), plural keys chosen by
 * `count` (`key_one`, `key_other`), the fallback locale for a missing key and the key itself when
 * no locale has it.
 */
export type TextTable = Readonly<Record<string, string>>;
export type TextValues = Readonly<Record<string, unknown>>;
export type TranslateFn = (key: string, values?: TextValues) => string;
export type Translator = i18n;

/** The options every i18next instance of the engine shares (the server has its own, server/texts). */
export function translatorOptions(locale: string, fallbackLocale: string | false): InitOptions {
  return {
    lng: locale,
    fallbackLng: fallbackLocale,
    // Keys are flat and contain dots ("orders.heading"); a colon is text, not a namespace.
    keySeparator: false,
    nsSeparator: false,
    // 'de-DE' only, never its language 'de': no table is keyed by a bare language.
    load: 'currentOnly',
    // React escapes what it renders; escaping here would show "&amp;" on screen.
    interpolation: { escapeValue: false },
    // Screens render after the texts are there (engine/app/main.tsx awaits them); no Suspense boundary needed.
    react: { useSuspense: false },
    initAsync: false,
  };
}

/**
 * A translator over the tables at hand. With `load`, a locale's table is fetched before the switch
 * to it (a built page, engine/core/i18n.ts) and the switch fails, keeping the language, when it
 * cannot be loaded: i18next's backend plugins would switch anyway and show keys.
 */
export function createTranslator(options: {
  locale: string;
  fallbackLocale: string | false;
  texts: Readonly<Record<string, TextTable | undefined>>;
  load?: (locale: string) => Promise<TextTable | undefined>;
}): Translator {
  const instance = createInstance();
  void instance.init({
    ...translatorOptions(options.locale, options.fallbackLocale),
    resources: Object.fromEntries(
      Object.entries(options.texts).map(([locale, table]) => [locale, { translation: { ...table } }]),
    ),
  });
  const { load } = options;
  if (load) {
    const change = instance.changeLanguage.bind(instance);
    instance.changeLanguage = async (locale, callback) => {
      if (locale && locale !== instance.language) {
        const table = await load(locale);
        if (table) instance.addResourceBundle(locale, 'translation', table, true, true);
      }
      return change(locale, callback);
    };
  }
  return instance;
}

export function TranslationProvider({
  translator,
  children,
}: {
  translator: Translator;
  children: ReactNode;
}) {
  return <I18nextProvider i18n={translator}>{children}</I18nextProvider>;
}

/**
 * react-i18next's `t` and instance; the component renders again when the language changes, and `t`
 * is a new function per language, so effects and memos that list it follow the language too.
 */
export function useTranslation(): { t: TranslateFn; i18n: Translator } {
  const { t, i18n } = useI18nextTranslation();
  return { t: t as unknown as TranslateFn, i18n };
}

const NO_LANGUAGE_CHANGES = () => () => undefined;

/**
 * The language the screen shows, or undefined outside a translator (a bare test harness). Data the
 * server words in it (product names) is loaded again when it changes: useResource and the
 * shared lists (engine/core/subscriptionsStore.ts, engine/account/ordersData.ts) follow it.
 */
export function useLanguage(): string | undefined {
  const translator = useContext(I18nContext)?.i18n;
  const subscribe = useCallback(
    (listener: () => void) => {
      translator?.on('languageChanged', listener);
      return () => translator?.off('languageChanged', listener);
    },
    [translator],
  );
  return useSyncExternalStore(translator ? subscribe : NO_LANGUAGE_CHANGES, () => translator?.language);
}
