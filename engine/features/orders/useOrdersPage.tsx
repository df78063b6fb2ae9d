import { useEffect, useMemo, useState } from 'react';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { usePortal } from '../../core/PortalContext';
import { isMembership } from '../../domain/subscriptionKinds';
import { isHiddenBundleComponent } from '../../domain/capabilityRule';
import { hasEnded, matchesFilter, type SubscriptionFilter } from '../../domain/orderStatus';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { useCapabilityContext } from '../../account/capabilityContext';
import { useNewSubscription, useNewSubscriptionFlag } from '../../account/newSubscription';
import { usePendingOrders, usePurchaseOrders } from '../../account/ordersData';
import { SubscriptionCard } from '../../account/SubscriptionCard';
import { useFileDownload } from '../../account/useFileDownload';
import type { SubscriptionSummary } from '../../account/types';
import { ROUTES } from '../../domain/routeRefs';
import { useMayOpenRoute } from '../../core/featureRoutes';
import { ordersSummary } from './ordersSummary';
import { groupByBundle, matchesTitle, sortByOrderDateDesc } from './orderLists';
import { loadedWhenNeeded } from './loadedWhenShown';
import { useRejectedChanges } from './rejectedChanges';
import { compareIso } from '../../domain/dates';

// The parts above the subscriptions that few accounts have: their code loads when the data has one.
const usePendingOrdersSection = loadedWhenNeeded(
  async () => (await import('./PendingOrdersSection')).PendingOrdersSection,
);
const useRejectedChangesNotices = loadedWhenNeeded(
  async () => (await import('./RejectedChanges')).RejectedChanges,
);

type OrdersData = {
  purchaseOrders: ReturnType<typeof usePurchaseOrders>;
  pendingOrders: ReturnType<typeof usePendingOrders>;
};

/**
 * §2, §4: the 'new' badge points here and stays while the user looks at the list (a reload
 * included); leaving the orders page after the list showed is having seen it.
 */
function useNewSubscriptionSeen(listed: boolean) {
  const { seen, clear } = useNewSubscriptionFlag();
  useEffect(() => {
    if (!listed) return;
    seen();
    return clear;
  }, [listed, seen, clear]);
}

const readyList = <T,>(resource: { state: { status: string; data?: T[] } }): T[] =>
  (resource.state.status === 'ready' && resource.state.data) || [];

/**
 * The page's lists after the search and the filter (§2 "Sections"): pending orders, memberships
 * where the tenant has them, subscriptions (bundles grouped), purchase orders, and the summary.
 */
function useOrdersLists(
  all: SubscriptionSummary[],
  query: string,
  filter: SubscriptionFilter,
  { purchaseOrders, pendingOrders }: OrdersData,
) {
  const { config } = usePortal();
  const ctx = useCapabilityContext();
  const showMemberships = isFeatureOn(config.tenant, 'membership');
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
  const orders = [...readyList(purchaseOrders)]
    .sort((a, b) => compareIso(b.dateOfPurchaseOrderClient, a.dateOfPurchaseOrderClient))
    .filter((o) => matchesTitle(o.distributionArticleDescription, query));
  const pending = readyList(pendingOrders).filter((p) => matchesTitle(p.title, query));
  const nothing = memberships.length + subscriptions.length + orders.length + pending.length === 0;
  return {
    hasInactive,
    summary,
    memberships,
    subscriptions,
    entries: groupByBundle(subscriptions),
    purchaseOrders,
    orders,
    pending,
    nothing,
  };
}

/** A subscription's card; its download is the newest delivered issue that can be downloaded. */
function subscriptionCardOf(
  downloads: ReturnType<typeof useFileDownload>,
  newSubscription: ReturnType<typeof useNewSubscription>,
) {
  return (s: SubscriptionSummary) => (
    <SubscriptionCard
      key={s.id}
      subscription={s}
      onDownload={(subscription) => void downloads.newestIssue(subscription.id)}
      downloading={downloads.waitingFor(s.id)}
      isNew={Boolean(newSubscription?.orderNumber) && newSubscription?.orderNumber === s.orderNumber}
    />
  );
}

/**
 * The orders page's state and calls (portal-core.md §2 "Orders page"): the subscriptions, the
 * search and filter with the lists they leave, the link button's permission, and the downloads.
 */
export function useOrdersPage() {
  const { config } = usePortal();
  // The loads' effects in the page's order: the subscriptions, the purchase and pending orders.
  const { state, reload } = useSubscriptions();
  const data: OrdersData = { purchaseOrders: usePurchaseOrders(), pendingOrders: usePendingOrders() };
  const newSubscription = useNewSubscription();
  const downloads = useFileDownload();
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<SubscriptionFilter>(
    config.tenant.defaultSubscriptionFilter ?? 'active',
  );
  // §2 link button and hint, when the tenant links online and the link screen is open to the session:
  // a "logged in only" session (§4) may not link (POST /subscriptions is refused to it).
  const linkOpen = useMayOpenRoute(ROUTES.linkSubscription);
  const canLink = isFeatureOn(config.tenant, 'manual-registration') && linkOpen;
  const pendingOrders = usePendingOrdersSection(readyList(data.pendingOrders).length > 0);
  // The subscriptions show once the pending orders above them are settled (answered, failed or not
  // asked, their section's code loaded when there are any), so no section arrives above the cards
  // afterwards (a layout shift).
  const listed =
    state.status === 'ready' && data.pendingOrders.state.status !== 'loading' && !pendingOrders.waiting;
  // Rejected changes are asked on every visit and shown above it all when there are any, as before.
  const rejectedChanges = useRejectedChanges();
  const rejected = readyList(rejectedChanges);
  const rejectedNotices = useRejectedChangesNotices(rejected.length > 0);
  useNewSubscriptionSeen(listed);
  const all = state.subscriptions;
  const lists = useOrdersLists(all, query, filter, data);
  const card = subscriptionCardOf(downloads, newSubscription);
  return {
    state,
    PendingOrdersSection: pendingOrders.Part,
    RejectedChanges: rejectedNotices.Part,
    rejected,
    reload,
    all,
    listed,
    query,
    setQuery,
    filter,
    setFilter,
    canLink,
    downloads,
    card,
    ...lists,
  };
}

export type OrdersPageModel = ReturnType<typeof useOrdersPage>;
