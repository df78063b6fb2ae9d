import { useTranslation } from 'react-i18next';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';
import { SubscriptionCard } from './SubscriptionCard';
import type { SubscriptionSummary } from './types';

/** §2 "Orders page": subscriptions sorted by order date, newest first. */
export function sortByOrderDateDesc(subscriptions: SubscriptionSummary[]): SubscriptionSummary[] {
  return [...subscriptions].sort((a, b) => (b.custOrderDate ?? '').localeCompare(a.custOrderDate ?? ''));
}

/** /orders (portal-core.md §2 "Orders page"): the signed-in user's subscriptions as cards. */
export default function OrdersScreen() {
  const { t } = useTranslation();
  const { state, reload } = useSubscriptions();
  const subscriptions = sortByOrderDateDesc(state.subscriptions);

  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title">{t('orders.heading')}</h1>
      {(state.status === 'loading' || state.status === 'idle') && <Loading />}
      {state.status === 'failed' && (
        <Alert variant="error">
          <p>{t('orders.loadingError')}</p>
          <button type="button" className="button button-secondary" onClick={reload}>
            {t('shell.tryAgain')}
          </button>
        </Alert>
      )}
      {state.status === 'ready' && subscriptions.length === 0 && <Alert variant="info">{t('orders.empty')}</Alert>}
      {state.status === 'ready' && subscriptions.length > 0 && (
        <>
          <h2>{t('orders.subscriptionsHeading')}</h2>
          <ul className="card-list">
            {subscriptions.map((subscription) => (
              <SubscriptionCard key={subscription.id} subscription={subscription} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
