import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePortal } from '../../core/PortalContext';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';
import { SubscriptionCard } from './SubscriptionCard';
import type { SubscriptionSummary } from './types';

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; subscriptions: SubscriptionSummary[] };

/** §2 "Orders page": subscriptions sorted by order date, newest first. */
export function sortByOrderDateDesc(subscriptions: SubscriptionSummary[]): SubscriptionSummary[] {
  return [...subscriptions].sort((a, b) => (b.custOrderDate ?? '').localeCompare(a.custOrderDate ?? ''));
}

/** /orders (portal-core.md §2 "Orders page"): the signed-in user's subscriptions as cards. */
export default function OrdersScreen() {
  const { api } = usePortal();
  const { t } = useTranslation();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    api
      .get<SubscriptionSummary[]>('/subscriptions')
      .then((subscriptions) => current && setState({ status: 'ready', subscriptions: sortByOrderDateDesc(subscriptions) }))
      .catch(() => current && setState({ status: 'failed' }));
    return () => {
      current = false;
    };
  }, [attempt]);

  return (
    <section aria-labelledby="orders-title">
      <h1 id="orders-title">{t('orders.heading')}</h1>
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && (
        <Alert variant="error">
          <p>{t('orders.loadingError')}</p>
          <button type="button" className="button button-secondary" onClick={() => setAttempt(attempt + 1)}>
            {t('shell.tryAgain')}
          </button>
        </Alert>
      )}
      {state.status === 'ready' && state.subscriptions.length === 0 && <Alert variant="info">{t('orders.empty')}</Alert>}
      {state.status === 'ready' && state.subscriptions.length > 0 && (
        <>
          <h2>{t('orders.subscriptionsHeading')}</h2>
          <ul className="card-list">
            {state.subscriptions.map((subscription) => (
              <SubscriptionCard key={subscription.id} subscription={subscription} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
