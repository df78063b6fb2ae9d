import { useTranslation } from 'react-i18next';
import { otherLocale, rememberLocale } from '../i18n';

const FLAGS: Record<string, string> = { 'de-DE': '🇩🇪', 'en-GB': '🇬🇧' };

/** The flag button of portal-core.md §1: toggles de-DE and en-GB. It shows the flag of the language it switches to. */
export function LanguageToggle() {
  const { t, i18n } = useTranslation();
  const next = otherLocale(i18n.language);
  return (
    <button
      type="button"
      className="language-toggle"
      lang={next}
      onClick={() => {
        rememberLocale(next);
        void i18n.changeLanguage(next);
        document.documentElement.lang = next;
      }}
    >
      <span aria-hidden="true">{FLAGS[next]}</span> {t('shell.switchLanguage')}
    </button>
  );
}
