import { useTranslation } from '../../core/translation';
import { keepLocaleCookie, rememberLocale } from '../../core/i18n';
import { languageName, nextLocale } from '../../domain/language';
import { localeData } from '../../domain/locales';
import { usePortal } from '../../core/PortalContext';

/** The locale's flag from its data (engine/domain/locales.ts); a locale without one shows its name only. */
export function Flag({ locale }: { locale: string }) {
  const flag = localeData(locale)?.flag;
  if (!flag) return null;
  return (
    <svg className="flag" viewBox={flag.viewBox} width="20" height="12" aria-hidden="true">
      {flag.shapes.map(({ tag: Shape, props }, index) => (
        <Shape key={index} {...props} />
      ))}
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
        keepLocaleCookie(config.basePath, next);
        void i18n.changeLanguage(next);
      }}
    >
      <Flag locale={next} />
      <span lang={next}>{languageName(next)}</span>
    </button>
  );
}
