import { useTranslation } from 'react-i18next';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { isMembership } from '../../domain/subscriptionKinds';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';
import { SubscriptionCard } from '../orders/SubscriptionCard';

/** /memberships (portal-core.md §2 "Memberships page"): the user's membership subscriptions. */
export default function MembershipsScreen() {
  const { t } = useTranslation();
  const { state, reload } = useSubscriptions();
  const memberships = state.subscriptions.filter(isMembership);

  return (
    <section aria-labelledby="memberships-title">
      <h1 id="memberships-title">{t('memberships.heading')}</h1>
      {(state.status === 'loading' || state.status === 'idle') && <Loading />}
      {state.status === 'failed' && (
        <Alert variant="error">
          <p>{t('memberships.loadingError')}</p>
          <button type="button" className="button button-secondary" onClick={reload}>
            {t('shell.tryAgain')}
          </button>
        </Alert>
      )}
      {state.status === 'ready' && memberships.length === 0 && <Alert variant="info">{t('memberships.empty')}</Alert>}
      {memberships.length > 0 && (
        <ul className="card-list">
          {memberships.map((subscription) => (
            <SubscriptionCard key={subscription.id} subscription={subscription} />
          ))}
        </ul>
      )}
    </section>
  );
}
