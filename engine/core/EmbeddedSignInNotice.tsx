import { useLocation } from 'react-router';
import { Link } from './links';
import { useTranslation } from './translation';
import { usePortal } from './PortalContext';
import { loginSearchFor } from '../domain/returnTo';

/**
 * portal-core.md §2 "Access rules": "A missing user sends to login unless the portal is embedded."
 * An embedded portal's host page signs its visitors in (it opens the frame with `?p=<token>`, which
 * the access gate still sends through the login page). A visitor who arrives without a session
 * stays on the page asked for and is told so: reload once signed in on the host page, or log in
 * inside the frame, which comes back to this page. After a session timeout (§4) the notice says the
 * session expired; the host page has been told ('sessionTimedOut').
 */
export function EmbeddedSignInNotice({ timedOut }: { timedOut: boolean }) {
  const { t } = useTranslation();
  const { config } = usePortal();
  const location = useLocation();
  return (
    <section className="notice-page embedded-sign-in" aria-labelledby="embedded-sign-in-title">
      {timedOut && (
        <div role="alert" className="alert alert-warning">
          {t('shell.sessionExpired')}
        </div>
      )}
      <h1 id="embedded-sign-in-title">{t('shell.embeddedSignInTitle')}</h1>
      <p>{t('shell.embeddedSignInText', { name: config.tenant.name })}</p>
      <div className="button-row">
        <Link
          className="button"
          to={{ pathname: '/login', search: loginSearchFor(location.pathname, location.search) }}
        >
          {t('shell.embeddedSignInButton')}
        </Link>
      </div>
    </section>
  );
}
