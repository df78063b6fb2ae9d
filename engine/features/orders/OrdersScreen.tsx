import { useTranslation } from '../../core/translation';
import { DownloadDialogs } from './dialogs';
import { storedResource } from '../../account/resource';
import { ResourceView } from '../../account/ResourceView';
import { OrdersSummaryPanel } from './OrdersSummaryPanel';
import { useSessionScope } from '../../core/authState';
import { isPartialScope } from '../../domain/sessionScope';
import { OrdersEmpty, OrdersToolbar, PartialSessionHint, SubscriptionSections } from './OrdersParts';
import { loadedWhenShown } from './loadedWhenShown';
import { useOrdersPage } from './useOrdersPage';

// Purchase orders are on few accounts (mostly a business's): their section loads when there is one.
const PurchaseOrdersSection = loadedWhenShown(
  async () => (await import('./PurchaseOrdersSection')).PurchaseOrdersSection,
);

/**
 * /orders (portal-core.md §2 "Orders page"). Its state and calls are useOrdersPage's, its lists
 * orderLists', its parts OrdersParts'.
 */
export default function OrdersScreen() {
  const { t } = useTranslation();
  const page = useOrdersPage();
  const { state, reload, all, listed, downloads, RejectedChanges, rejected } = page;
  const scope = useSessionScope();
  return (
    <section aria-labelledby="orders-title" className="orders">
      <h1 id="orders-title">{t('orders.heading')}</h1>
      <p className="muted delay-notice">{t('orders.delayNotice')}</p>
      {isPartialScope(scope) && <PartialSessionHint />}
      {/* Changes the publisher's order system did not accept, with its reason. */}
      {RejectedChanges && <RejectedChanges changes={rejected} />}
      {listed && <OrdersSummaryPanel summary={page.summary} />}
      {/* Until the list first arrives only its loading notice shows: the summary and the toolbar
          appear with it instead of being pushed down by it (a layout shift on phones). */}
      {listed && <OrdersToolbar page={page} />}

      <ResourceView
        fillsPage
        resource={storedResource(
          listed ? 'ready' : state.status === 'ready' ? 'loading' : state.status,
          all,
          reload,
        )}
        errorKey="orders.loadingError"
        isEmpty={() => page.nothing}
        empty={<OrdersEmpty page={page} />}
      >
        {() => <SubscriptionSections page={page} />}
      </ResourceView>
      {/* Purchase orders load apart from the subscriptions; their failure has its own try again. */}
      <ResourceView resource={page.purchaseOrders} errorKey="orders.purchaseOrdersError">
        {() => page.orders.length > 0 && <PurchaseOrdersSection page={page} />}
      </ResourceView>
      {downloads.outcome && <DownloadDialogs outcome={downloads.outcome} onClose={downloads.dismiss} />}
    </section>
  );
}
