import { useTranslation } from '../../core/translation';
import { rememberLocale } from '../../core/i18n';
import { languageName, nextLocale } from '../../domain/language';
import { usePortal } from '../../core/PortalContext';

/** Flags as inline SVG: emoji flags do not render on Windows or on Linux without an emoji font. */
function Flag({ locale }: { locale: string }) {
  if (locale === 'de-DE') {
    return (
      <svg className="flag" viewBox="0 0 5 3" width="20" height="12" aria-hidden="true">
        <rect width="5" height="1" y="0" fill="#000" />
        <rect width="5" height="1" y="1" fill="#D00" />
        <rect width="5" height="1" y="2" fill="#FFCE00" />
      </svg>
    );
  }
  return (
    <svg className="flag" viewBox="0 0 60 30" width="20" height="12" aria-hidden="true">
      <rect width="60" height="30" fill="#012169" />
      <path d="M0,0 L60,30 M60,0 L0,30" stroke="#fff" strokeWidth="6" />
      <path d="M0,0 L60,30 M60,0 L0,30" stroke="#C8102E" strokeWidth="2" />
      <path d="M30,0 V30 M0,15 H60" stroke="#fff" strokeWidth="10" />
      <path d="M30,0 V30 M0,15 H60" stroke="#C8102E" strokeWidth="6" />
    </svg>
  );
}

/**
 * The flag button of portal-core.md §1: switches to the tenant's next locale (of two, the other one).
 * It shows the flag and name of the language it switches to; the accessible name says what it does.
 */
export function LanguageToggle() {
  const { t, i18n } = useTranslation();
  const { config } = usePortal();
  const next = nextLocale(config.tenant.locales, i18n.language);
  return (
    <button
      type="button"
      className="language-toggle"
      aria-label={t('shell.switchLanguage')}
      onClick={() => {
        rememberLocale(config.tenant.id, next);
        void i18n.changeLanguage(next);
      }}
    >
      <Flag locale={next} />
      <span lang={next}>{languageName(next)}</span>
    </button>
  );
}
