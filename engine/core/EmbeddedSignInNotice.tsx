import { useLocation } from 'react-router';
import { Link } from './links';
import { useTranslation } from './translation';
import { usePortal } from './PortalContext';
import { loginSearchFor } from '../domain/returnTo';
import { ACCOUNT_DELETED_PARAM, LEFT_CLUB_PARAM } from '../domain/loginNotices';

/**
 * portal-core.md §2 "Access rules": "A missing user sends to login unless the portal is embedded."
 * An embedded portal's host page signs its visitors in (it opens the frame with `?p=<token>`, which
 * the access gate still sends through the login page). A visitor who arrives without a session
 * stays on the page asked for and is told so: reload once signed in on the host page, or log in
 * inside the frame, which comes back to this page. After a session timeout (§4) the notice says the
 * session expired; the host page has been told ('sessionTimedOut'). A log-out in the frame loads
 * its page again (engine/app/main.tsx): after deleting the account (account-flows.md §4 "SSO
 * delete") or leaving the club (§4 "Loyalty opt-out") the notice says so, as the login page would.
 */
export function EmbeddedSignInNotice({ timedOut }: { timedOut: boolean }) {
  const { t } = useTranslation();
  const { config } = usePortal();
  const location = useLocation();
  const query = new URLSearchParams(location.search);
  const accountDeleted = query.has(ACCOUNT_DELETED_PARAM);
  const leftClub = query.has(LEFT_CLUB_PARAM);
  // The notice is this page's, not the login's: the sign-in does not say it again.
  query.delete(ACCOUNT_DELETED_PARAM);
  query.delete(LEFT_CLUB_PARAM);
  return (
    <section className="notice-page embedded-sign-in" aria-labelledby="embedded-sign-in-title">
      {timedOut && (
        <div role="alert" className="alert alert-warning">
          {t('shell.sessionExpired')}
        </div>
      )}
      {accountDeleted && (
        <div role="status" className="alert alert-success">
          {t('shell.embeddedAccountDeleted')}
        </div>
      )}
      {leftClub && (
        <div role="status" className="alert alert-success">
          {t('shell.embeddedLeftClub')}
        </div>
      )}
      <h1 id="embedded-sign-in-title">{t('shell.embeddedSignInTitle')}</h1>
      <p>{t('shell.embeddedSignInText', { name: config.tenant.name })}</p>
      <div className="button-row">
        <Link
          className="button"
          to={{
            pathname: '/login',
            search: loginSearchFor(location.pathname, query.toString() ? `?${query}` : ''),
          }}
        >
          {t('shell.embeddedSignInButton')}
        </Link>
      </div>
    </section>
  );
}
