import { useAtomValue } from 'jotai';
import { useTranslation } from '../../core/translation';
import { useLocation } from 'react-router';
import { Link } from '../../core/links';
import { href, ROUTES } from '../../domain/routeRefs';
import { authStateAtom, isLoggedIn } from '../../core/authState';
import { usePortal } from '../../core/PortalContext';
import { LanguageToggle } from './LanguageToggle';
import { useDismissable } from './useDismissable';

/** Header: logo linking to the tenant's target URL; account menu (e-mail, log out) when logged in, a sign-in link when not. */
export function Header() {
  const { config, logout } = usePortal();
  const { t } = useTranslation();
  const auth = useAtomValue(authStateAtom);
  const { tenant } = config;
  const location = useLocation();
  const menuRef = useDismissable<HTMLDetailsElement>();
  const loginPath = href(ROUTES.login);
  // Anonymous visitors (FAQ, contact, calendar) get a way in; the login page itself needs none.
  const showSignIn = !isLoggedIn(auth) && location.pathname !== loginPath;
  // §1: embedded portals show the language selector only when the tenant asks for it.
  const showLanguage = !tenant.embedding.isEmbedded || tenant.embedding.showLangSelector;

  return (
    <header className="portal-header">
      <a
        className="portal-logo"
        href={tenant.logoTargetUrl ?? config.basePath}
        // Embedded, the publisher's site opens as the whole page, not inside the portal's frame.
        target={tenant.embedding.isEmbedded && tenant.logoTargetUrl ? '_top' : undefined}
      >
        {tenant.logoUrl ? <img src={tenant.logoUrl} alt={tenant.name} /> : <span>{tenant.name}</span>}
      </a>
      <div className="portal-header-actions">
        {showLanguage && tenant.locales.length > 1 && <LanguageToggle />}
        {showSignIn && (
          <Link className="button button-secondary header-sign-in" to={loginPath}>
            {t('shell.signIn')}
          </Link>
        )}
        {isLoggedIn(auth) && (
          <details className="account-menu" ref={menuRef}>
            <summary>{t('shell.accountMenu')}</summary>
            <div className="account-menu-panel">
              <p className="account-email">{auth.user!.email}</p>
              <button type="button" className="button button-secondary" onClick={() => void logout()}>
                {t('shell.logout')}
              </button>
            </div>
          </details>
        )}
      </div>
    </header>
  );
}
