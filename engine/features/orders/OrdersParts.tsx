/**
 * The orders page's parts (portal-core.md §2 "Orders page"): the partial session's hint, the
 * toolbar (search, filter, link button), the empty list's text and the subscription sections (the
 * purchase orders are PurchaseOrdersSection's).
 */
import { useTranslation } from '../../core/translation';
import { Link } from '../../core/links';
import { usePortal } from '../../core/PortalContext';
import type { SubscriptionFilter } from '../../domain/orderStatus';
import { href, ROUTES } from '../../domain/routeRefs';
import type { OrdersPageModel } from './useOrdersPage';
import type { BundleGroup } from './orderLists';
import type { SubscriptionSummary } from '../../account/types';

type Model = { page: OrdersPageModel };

/** §4 "logged in only": the list holds the link's one subscription; the rest needs the account. */
export function PartialSessionHint() {
  const { t } = useTranslation();
  const { logout } = usePortal();
  return (
    <p className="muted partial-session-hint">
      {t('shell.partialSessionHint')}{' '}
      <button type="button" className="link-button" onClick={() => void logout()}>
        {t('shell.partialSessionLogIn')}
      </button>
    </p>
  );
}

/** The search on titles, the filter where an inactive subscription exists, and the link button. */
export function OrdersToolbar({ page }: Model) {
  const { t } = useTranslation();
  const { query, setQuery, hasInactive, filter, setFilter, canLink } = page;
  return (
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
        <Link className="button button-secondary link-subscription-button" to={href(ROUTES.linkSubscription)}>
          {t('orders.linkSubscription')}
        </Link>
      )}
    </div>
  );
}

/** Nothing matches the search, or the account has nothing yet. */
export function OrdersEmpty({ page }: Model) {
  const { t } = useTranslation();
  const { query, canLink } = page;
  return (
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
  );
}

/** The subscriptions, bundles as groups (master first) with their link, the rest flat (§2 "Sections"). */
function SubscriptionsSection({ page }: Model) {
  const { t } = useTranslation();
  const { entries, card } = page;
  // Runs of single subscriptions in one list each, a bundle's group where it stands among them.
  const runs: Array<
    { kind: 'group'; group: BundleGroup } | { kind: 'singles'; items: SubscriptionSummary[] }
  > = [];
  for (const entry of entries) {
    const last = runs[runs.length - 1];
    if (entry.kind === 'group') runs.push(entry);
    else if (last?.kind === 'singles') last.items.push(entry.subscription);
    else runs.push({ kind: 'singles', items: [entry.subscription] });
  }
  return (
    <section aria-labelledby="subscriptions-title" className="orders-section">
      <h2 id="subscriptions-title">{t('orders.subscriptionsHeading')}</h2>
      {runs.map((run) =>
        run.kind === 'singles' ? (
          <ul key={`singles-${run.items[0].id}`} className="card-list">
            {run.items.map(card)}
          </ul>
        ) : (
          <BundleGroupSection key={run.group.bundleNumber} group={run.group} card={card} />
        ),
      )}
    </section>
  );
}

function BundleGroupSection({ group, card }: { group: BundleGroup; card: Model['page']['card'] }) {
  const { t } = useTranslation();
  return (
    <section className="bundle-group" aria-labelledby={`bundle-${group.bundleNumber}`}>
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
  );
}

/** Pending orders, memberships and subscriptions, each section where it has cards. */
export function SubscriptionSections({ page }: Model) {
  const { t } = useTranslation();
  const { pending, memberships, subscriptions, card, PendingOrdersSection } = page;
  return (
    <>
      {pending.length > 0 && PendingOrdersSection && <PendingOrdersSection pending={pending} />}
      {memberships.length > 0 && (
        <section aria-labelledby="memberships-section-title" className="orders-section">
          <h2 id="memberships-section-title">{t('orders.membershipsHeading')}</h2>
          <ul className="card-list">{memberships.map(card)}</ul>
        </section>
      )}
      {subscriptions.length > 0 && <SubscriptionsSection page={page} />}
    </>
  );
}
