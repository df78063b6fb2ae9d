import { use } from 'react';
import { useTranslation } from '../../core/translation';
import { useSubscriptionActionsLoad } from '../../core/featureRoutes';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Link } from '../../core/links';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { can, isBundleMaster, visibleBundleComponents } from '../../domain/capabilities';
import { statusTone } from '../../domain/orderStatus';
import { Badge } from '../../ui/Badge';
import { Dialog } from '../../ui/Dialog';
import { Loading } from '../../ui/Loading';
import { useCapabilityContext, useTenantSettings } from '../../account/capabilityContext';
import { SubscriptionCard, TypeBadge } from '../../account/SubscriptionCard';
import { ActionButtons } from './ActionButtons';
import { DeliveredIssues } from './DeliveredIssues';
import { DetailsBlock } from './DetailsBlock';
import { OrderAttributes } from './OrderAttributes';
import { PaymentHistory } from './PaymentHistory';
import { useSubscription } from './useSubscription';

/** /subscriptions/{id} (portal-core.md §2 "Subscription detail"). */
export default function SubscriptionScreen() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const settings = useTenantSettings();
  const ctx = useCapabilityContext();
  const { state, replace } = useSubscription(id);
  const list = useSubscriptions();
  // The buttons' modules load beside the subscription's request, not after it.
  const actionsLoad = useSubscriptionActionsLoad();
  // §1: the back link is hidden by the tenant setting or the query parameter hideBackToOverview.
  const hideBack =
    settings.embedding.hideBackToOverview || new URLSearchParams(location.search).has('hideBackToOverview');

  // The resource's states, except that §8 wants a failure as a dialog back to /orders, not the
  // ResourceView's try-again alert: "subscription load failure opens a dialog returning to /orders".
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'failed') {
    return (
      <Dialog
        title={t(state.notFound ? 'subscription.notFoundTitle' : 'subscription.loadErrorTitle')}
        variant="error"
        onClose={() => navigate('/orders')}
        actions={
          <button type="button" className="button" onClick={() => navigate('/orders')}>
            {t('subscription.backToOrders')}
          </button>
        }
      >
        <p>{t(state.notFound ? 'subscription.notFound' : 'subscription.loadError')}</p>
      </Dialog>
    );
  }
  const s = state.data;
  // Nearly always there by now; else the screen waits for them as it waits for its own chunk.
  const actions = use(actionsLoad);
  const components = isBundleMaster(s) ? visibleBundleComponents(s, list.state.subscriptions, ctx) : [];

  return (
    <article className="subscription-page" aria-labelledby="subscription-title">
      {!hideBack && (
        <Link className="back-link" to="/orders">
          ‹ {t('subscription.backToOrders')}
        </Link>
      )}
      <header className="subscription-header">
        {s.coverImageUrl && <img className="cover" src={s.coverImageUrl} alt="" width={96} height={128} />}
        <div>
          <h1 id="subscription-title">{s.displayName}</h1>
          <div className="badges">
            <Badge tone={statusTone(s.orderStatus)}>{t(`account.status.${s.orderStatus}`)}</Badge>
            <TypeBadge subscription={s} />
          </div>
        </div>
      </header>
      <DetailsBlock subscription={s} ctx={ctx} />
      <OrderAttributes subscription={s} ctx={ctx} onSaved={replace} />
      <ActionButtons actions={actions} subscription={s} ctx={ctx} onChanged={replace} />
      {components.length > 0 && (
        <details className="collapsible">
          <summary>
            <h2>{t('subscription.bundledHeading', { count: components.length })}</h2>
          </summary>
          <ul className="card-list">
            {components.map((c) => (
              <SubscriptionCard key={c.id} subscription={c} />
            ))}
          </ul>
        </details>
      )}
      {can('issueHistory', s, ctx) && (
        <details className="collapsible">
          <summary>
            <h2>{t('subscription.issuesHeading')}</h2>
          </summary>
          <DeliveredIssues subscription={s} ctx={ctx} />
        </details>
      )}
      {can('paymentHistory', s, ctx) && (
        <details className="collapsible">
          <summary>
            <h2>{t('subscription.paymentsHeading')}</h2>
          </summary>
          <PaymentHistory subscription={s} ctx={ctx} />
        </details>
      )}
    </article>
  );
}
