import { useTranslation } from '../../core/translation';
import { Link } from '../../core/links';
import { useRouteServed } from '../../core/featureRoutes';
import { FallbackContact } from '../../core/FallbackContact';
import { href, ROUTES } from '../../domain/routeRefs';
import { useAtomValue } from 'jotai';
import { authStateAtom } from '../../core/authState';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { isMembership } from '../../domain/subscriptionKinds';
import { storedResource } from '../../account/resource';
import { noEntries, ResourceView } from '../../account/ResourceView';
import { SubscriptionCard } from '../../account/SubscriptionCard';

/**
 * /memberships (portal-core.md §2 "Memberships page"): the user's membership subscriptions plus the
 * user-profiles block. The spec's profiles are static samples; here the block shows the account's
 * own profile (real data, no invented people) and the add entry, which leads to the contact form
 * until co-user profiles (§6: up to 5 co-users) have their own flow.
 */
export default function MembershipsScreen() {
  const { t } = useTranslation();
  const contactServed = useRouteServed(ROUTES.contact);
  const { state, reload } = useSubscriptions();
  const memberships = state.subscriptions.filter(isMembership);
  const user = useAtomValue(authStateAtom).user;

  return (
    <section aria-labelledby="memberships-title">
      <h1 id="memberships-title">{t('memberships.heading')}</h1>
      <ResourceView
        resource={storedResource(state.status, memberships, reload)}
        errorKey="memberships.loadingError"
        emptyKey="memberships.empty"
        isEmpty={noEntries}
      >
        {(list) => (
          <ul className="card-list">
            {list.map((subscription) => (
              <SubscriptionCard key={subscription.id} subscription={subscription} />
            ))}
          </ul>
        )}
      </ResourceView>
      <section className="user-profiles" aria-labelledby="profiles-title">
        <h2 id="profiles-title">{t('memberships.profilesHeading')}</h2>
        <ul className="card-list">
          {user && (
            <li className="card profile-card">
              <span className="profile-avatar" aria-hidden="true">
                {user.email.slice(0, 1).toUpperCase()}
              </span>
              <span>
                <strong>{t('memberships.profileOwner')}</strong>
                <br />
                <span className="muted">{user.email}</span>
              </span>
            </li>
          )}
          <li className="card profile-card profile-add">
            {contactServed ? (
              <Link to={href(ROUTES.contact)}>{t('memberships.addProfile')}</Link>
            ) : (
              <strong>{t('memberships.addProfile')}</strong>
            )}
            <p className="muted">{t('memberships.addProfileHint')}</p>
            {/* Without a contact form (portal-core.md §8), the way to write is the fallback contact. */}
            {!contactServed && <FallbackContact />}
          </li>
        </ul>
      </section>
    </section>
  );
}
