import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../core/translation';
import { Link } from 'react-router';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { usePortal } from '../../core/PortalContext';
import { isMembership } from '../../domain/subscriptionKinds';
import { isBundleMaster, isHiddenBundleComponent } from '../../domain/capabilities';
import { hasEnded, matchesFilter, type SubscriptionFilter } from '../../domain/orderStatus';
import { isFeatureOn } from '../../domain/tenantFeatures';
import type { DeliveredIssuesPage } from '../../../schemas/generated/subscription-page';
import { useCapabilityContext } from '../../account/capabilityContext';
import { DownloadDialogs } from './dialogs';
import { useNewSubscription, useNewSubscriptionFlag } from '../../account/newSubscription';
import { usePendingOrders, usePurchaseOrders } from '../../account/ordersData';
import { PendingOrderCard } from './PendingOrderCard';
import { PurchaseOrderCard } from './PurchaseOrderCard';
import { SubscriptionCard } from '../../account/SubscriptionCard';
import { useFileDownload } from '../../account/useFileDownload';
import { storedResource } from '../../account/resource';
import { ResourceView } from '../../account/ResourceView';
import type { SubscriptionSummary } from '../../account/types';
import { OrdersSummaryPanel } from './OrdersSummaryPanel';
import { useSessionScope } from '../../core/authState';
import { isPartialScope } from '../../domain/sessionScope';
import { href, ROUTES } from '../../domain/routeRefs';
import { useMayOpenRoute } from '../../core/featureRoutes';
import { ordersSummary } from './ordersSummary';
import { RejectedChanges } from './RejectedChanges';

/** §2 "Orders page": subscriptions sorted by order date, newest first. */
export function sortByOrderDateDesc(subscriptions: SubscriptionSummary[]): SubscriptionSummary[] {
  return [...subscriptions].sort((a, b) => (b.custOrderDate ?? '').localeCompare(a.custOrderDate ?? ''));
}

/** §2: the search box is a case-insensitive filter on titles. */
export function matchesTitle(title: string, query: string): boolean {
  return title.toLocaleLowerCase().includes(query.trim().toLocaleLowerCase());
}

interface BundleGroup {
  bundleNumber: string;
  members: SubscriptionSummary[];
}

/** Subscriptions grouped by bundle number (master first), the rest flat (§2 "Sections"). */
export function groupByBundle(subscriptions: SubscriptionSummary[]): {
  groups: BundleGroup[];
  flat: SubscriptionSummary[];
} {
  const groups = new Map<string, SubscriptionSummary[]>();
  const flat: SubscriptionSummary[] = [];
  for (const s of subscriptions) {
    if (!s.bundle) flat.push(s);
    else groups.set(s.bundle.bundleNumber, [...(groups.get(s.bundle.bundleNumber) ?? []), s]);
  }
  return {
    groups: [...groups].map(([bundleNumber, members]) => ({
      bundleNumber,
      members: [...members].sort((a, b) => Number(isBundleMaster(b)) - Number(isBundleMaster(a))),
    })),
    flat,
  };
}

/** /orders (portal-core.md §2 "Orders page"). */
export default function OrdersScreen() {
  const { t } = useTranslation();
  const { config, api, logout } = usePortal();
  const ctx = useCapabilityContext();
  const { state, reload } = useSubscriptions();
  const purchaseOrders = usePurchaseOrders();
  const pendingOrders = usePendingOrders();
  const newSubscription = useNewSubscription();
  const { seen: seenNewSubscription, clear: clearNewSubscription } = useNewSubscriptionFlag();
  const downloads = useFileDownload();
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<SubscriptionFilter>(
    config.tenant.defaultSubscriptionFilter ?? 'active',
  );
  const tenant = config.tenant;
  const scope = useSessionScope();
  // §2 link button and hint, when the tenant links online and the link screen is open to the session:
  // a "logged in only" session (§4) may not link (POST /subscriptions is refused to it).
  const linkOpen = useMayOpenRoute(ROUTES.linkSubscription);
  const canLink = isFeatureOn(tenant, 'manual-registration') && linkOpen;

  // §2, §4: the 'new' badge points here and stays while the user looks at the list (a reload
  // included); leaving the orders page after the list showed is having seen it.
  const listed = state.status === 'ready';
  useEffect(() => {
    if (!listed) return;
    seenNewSubscription();
    return clearNewSubscription;
  }, [listed, seenNewSubscription, clearNewSubscription]);

  const all = state.subscriptions;
  const showMemberships = isFeatureOn(tenant, 'membership');
  // §2: the filter shows only if at least one inactive subscription exists.
  const hasInactive = all.some((s) => hasEnded(s.orderStatus));
  const effectiveFilter: SubscriptionFilter = hasInactive ? filter : 'all';

  const visible = useMemo(
    () =>
      sortByOrderDateDesc(all)
        .filter((s) => !isHiddenBundleComponent(s, all, ctx))
        .filter((s) => matchesTitle(s.displayName, query) || matchesTitle(s.publicationName, query))
        .filter((s) => matchesFilter(s.orderStatus, effectiveFilter)),
    [all, ctx, query, effectiveFilter],
  );
  const summary = useMemo(() => ordersSummary(all, ctx, new Date().toISOString().slice(0, 10)), [all, ctx]);
  const memberships = showMemberships ? visible.filter(isMembership) : [];
  const subscriptions = showMemberships ? visible.filter((s) => !isMembership(s)) : visible;
  const { groups, flat } = groupByBundle(subscriptions);
  const orders = [...(purchaseOrders.state.status === 'ready' ? purchaseOrders.state.data : [])]
    .sort((a, b) => b.dateOfPurchaseOrderClient.localeCompare(a.dateOfPurchaseOrderClient))
    .filter((o) => matchesTitle(o.distributionArticleDescription, query));
  const pending = (pendingOrders.state.status === 'ready' ? pendingOrders.state.data : []).filter((p) =>
    matchesTitle(p.title, query),
  );
  const nothing = memberships.length + subscriptions.length + orders.length + pending.length === 0;

  // The card's download is the newest delivered issue that can be downloaded.
  const downloadNewest = (subscription: SubscriptionSummary) =>
    void (async () => {
      try {
        const page = await api.get<DeliveredIssuesPage>(
          `/subscriptions/${encodeURIComponent(subscription.id)}/delivered-issues?page=0`,
        );
        const newest = page.items.find((i) => i.downloadStatus === 'found');
        if (newest) await downloads.issue(subscription.id, newest.issue);
        else downloads.fail();
      } catch {
        downloads.fail();
      }
    })();

  const card = (s: SubscriptionSummary) => (
    <SubscriptionCard
      key={s.id}
      subscription={s}
      onDownload={downloadNewest}
      downloading={downloads.waiting?.startsWith(`${s.id}/`) ?? false}
      isNew={Boolean(newSubscription?.orderNumber) && newSubscription?.orderNumber === s.orderNumber}
    />
  );

  return (
    <section aria-labelledby="orders-title" className="orders">
      <h1 id="orders-title">{t('orders.heading')}</h1>
      <p className="muted delay-notice">{t('orders.delayNotice')}</p>
      {/* §4 "logged in only": the list holds the link's one subscription; the rest needs the account. */}
      {isPartialScope(scope) && (
        <p className="muted partial-session-hint">
          {t('shell.partialSessionHint')}{' '}
          <button type="button" className="link-button" onClick={() => void logout()}>
            {t('shell.partialSessionLogIn')}
          </button>
        </p>
      )}
      {/* Changes the publisher's order system did not accept, with its reason. */}
      <RejectedChanges />
      {listed && <OrdersSummaryPanel summary={summary} />}
      {/* Until the list first arrives only its loading notice shows: the summary and the toolbar
          appear with it instead of being pushed down by it (a layout shift on phones). */}
      {(listed || all.length > 0) && (
        <div className="orders-toolbar">
          <div className="form-field search-field">
            <label htmlFor="orders-search">{t('orders.search')}</label>
            <input
              id="orders-search"
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder={t('orders.searchPlaceholder')}
            />
          </div>
          {hasInactive && (
            <div className="form-field">
              <label htmlFor="orders-filter">{t('orders.filter')}</label>
              <select
                id="orders-filter"
                value={filter}
                onChange={(e) => setFilter(e.target.value as SubscriptionFilter)}
              >
                <option value="active">{t('orders.filterActive')}</option>
                <option value="inactive">{t('orders.filterInactive')}</option>
                <option value="all">{t('orders.filterAll')}</option>
              </select>
            </div>
          )}
          {canLink && (
            <Link
              className="button button-secondary link-subscription-button"
              to={href(ROUTES.linkSubscription)}
            >
              {t('orders.linkSubscription')}
            </Link>
          )}
        </div>
      )}

      <ResourceView
        fillsPage
        resource={storedResource(state.status, all, reload)}
        errorKey="orders.loadingError"
        isEmpty={() => nothing}
        empty={
          <>
            <p>{query ? t('orders.noMatch') : t('orders.empty')}</p>
            {/* §2 "link-subscription hint": an empty account is pointed at linking its subscription. */}
            {!query && canLink && (
              <p>
                {t('orders.linkHint')}{' '}
                <Link to={href(ROUTES.linkSubscription)}>{t('orders.linkSubscription')}</Link>
              </p>
            )}
          </>
        }
      >
        {() => (
          <>
            {pending.length > 0 && (
              <section aria-labelledby="pending-title" className="orders-section">
                <h2 id="pending-title">{t('orders.pendingHeading')}</h2>
                <ul className="card-list">
                  {pending.map((p) => (
                    <PendingOrderCard key={p.id} order={p} />
                  ))}
                </ul>
              </section>
            )}
            {memberships.length > 0 && (
              <section aria-labelledby="memberships-section-title" className="orders-section">
                <h2 id="memberships-section-title">{t('orders.membershipsHeading')}</h2>
                <ul className="card-list">{memberships.map(card)}</ul>
              </section>
            )}
            {subscriptions.length > 0 && (
              <section aria-labelledby="subscriptions-title" className="orders-section">
                <h2 id="subscriptions-title">{t('orders.subscriptionsHeading')}</h2>
                {groups.map((group) => (
                  <section
                    key={group.bundleNumber}
                    className="bundle-group"
                    aria-labelledby={`bundle-${group.bundleNumber}`}
                  >
                    <div className="bundle-group-header">
                      <h3 id={`bundle-${group.bundleNumber}`}>
                        {t('orders.bundleHeading', { title: group.members[0].displayName })}
                      </h3>
                      <Link to={`/bundle-group/${encodeURIComponent(group.bundleNumber)}`}>
                        {t('orders.toBundleGroup')}
                      </Link>
                    </div>
                    <ul className="card-list">{group.members.map(card)}</ul>
                  </section>
                ))}
                {flat.length > 0 && <ul className="card-list">{flat.map(card)}</ul>}
              </section>
            )}
          </>
        )}
      </ResourceView>
      {/* Purchase orders load apart from the subscriptions; their failure has its own try again. */}
      <ResourceView resource={purchaseOrders} errorKey="orders.purchaseOrdersError">
        {() => (
          <>
            {orders.length > 0 && (
              <section aria-labelledby="purchase-orders-title" className="orders-section">
                <h2 id="purchase-orders-title">{t('orders.purchaseOrdersHeading')}</h2>
                <ul className="card-list">
                  {orders.map((o) => (
                    <PurchaseOrderCard
                      key={o.id}
                      order={o}
                      downloading={downloads.waiting === o.id}
                      onDownload={(order) =>
                        void downloads.purchaseOrder(order.id, order.distributionArticleNumber)
                      }
                    />
                  ))}
                </ul>
              </section>
            )}
          </>
        )}
      </ResourceView>
      {downloads.outcome && <DownloadDialogs outcome={downloads.outcome} onClose={downloads.dismiss} />}
    </section>
  );
}
