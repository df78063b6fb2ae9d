import { Link } from './links';
import { useTranslation } from './translation';
import { usePortal } from './PortalContext';
import { useSessionScope } from './authState';
import { href, ROUTES } from '../domain/routeRefs';

/**
 * What a "logged in only" session (portal-core.md §4: signed in through an anonymous flow's link,
 * for one subscription) sees on a screen of the whole account or of another subscription, instead
 * of the calls the server would refuse (engine/domain/sessionScope.ts): a way back to its own
 * subscription, and a way to log in with the account.
 */
export function PartialSessionNotice() {
  const { t } = useTranslation();
  const { logout } = usePortal();
  const scope = useSessionScope();
  const own =
    scope.kind === 'subscription' && scope.subscriptionId
      ? href(ROUTES.subscription, { id: scope.subscriptionId })
      : href(ROUTES.orders);
  return (
    <section className="notice-page" aria-labelledby="partial-session-title">
      <h1 id="partial-session-title">{t('shell.partialSessionTitle')}</h1>
      <p>{t('shell.partialSessionText')}</p>
      <div className="button-row">
        <Link className="button" to={own}>
          {t('shell.partialSessionToSubscription')}
        </Link>
        <button type="button" className="button button-secondary" onClick={() => void logout()}>
          {t('shell.partialSessionLogIn')}
        </button>
      </div>
    </section>
  );
}
