import { useTranslation } from '../core/translation';
import { Link } from '../core/links';
import { statusTone } from '../domain/orderStatus';
import { isBundleSlave } from '../domain/capabilityRule';
import { showsCardDownload, showsCardRenewal } from '../domain/cardCapabilities';
import { usePortal } from '../core/PortalContext';
import { href, ROUTES } from '../domain/routeRefs';
import { useRouteServed } from '../core/featureRoutes';
import { Badge } from '../ui/Badge';
import { formatDate } from '../domain/dates';
import { localized } from '../ui/localized';
import { mixTypeLabel } from './labels';
import { useCapabilityContext, useTenantSettings } from './capabilityContext';
import type { SubscriptionSummary } from './types';

/** The subscription type badge (theme setting showSubscriptionTypeBadge, §2), labelled by the tenant's type labels. */
export function TypeBadge({ subscription }: { subscription: SubscriptionSummary }) {
  const { t, i18n } = useTranslation();
  const model = useTenantSettings().subscriptionModel;
  if (!model?.showSubscriptionTypeBadge || !subscription.typeKey) return null;
  const label =
    localized(model.typeLabels?.[subscription.typeKey], i18n.language) ||
    mixTypeLabel(t, subscription.mixType, subscription.mixTypeDetails.mixTypeDesc);
  return <Badge tone="info">{label}</Badge>;
}

/**
 * A subscription on the orders page (§2 "Subscription card"): Manage leads to the subscription;
 * download only for active subscriptions that support it; the renewal action for active non-bundle
 * renewable subscriptions without auto-renewal. Bundle components are not managed separately.
 */
export function SubscriptionCard({
  subscription,
  onDownload,
  downloading,
  isNew = false,
}: {
  subscription: SubscriptionSummary;
  onDownload?: (subscription: SubscriptionSummary) => void;
  downloading?: boolean;
  /** Just linked and not seen yet (§4 new-subscription flag): the card says 'new' like the menu does. */
  isNew?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { config } = usePortal();
  const ctx = useCapabilityContext();
  const titleId = `subscription-${subscription.id}-title`;
  const cover = subscription.coverImageUrl ?? config.tenant.coverImagePlaceholderUrl;
  const component = isBundleSlave(subscription);
  // The renewal link only when a feature serves the renewal route (the flows come with their features).
  const renewal = useRouteServed(ROUTES.subscriptionRenewal) && showsCardRenewal(subscription, ctx);
  return (
    <li className="card subscription-card" aria-labelledby={titleId}>
      {cover && (
        <img
          className="cover"
          src={cover}
          alt={t('account.coverAlt', { title: subscription.displayName })}
          width={96}
          height={128}
        />
      )}
      <div className="subscription-card-body">
        <h3 id={titleId}>{subscription.displayName}</h3>
        <p className="muted">{subscription.publicationName}</p>
        <div className="badges">
          <Badge tone={statusTone(subscription.orderStatus)}>
            {t(`account.status.${subscription.orderStatus}`)}
          </Badge>
          <TypeBadge subscription={subscription} />
          {isNew && <Badge tone="success">{t('account.newBadge')}</Badge>}
        </div>
        <dl className="facts">
          <dt>{t('account.orderNumber')}</dt>
          <dd>{subscription.orderNumber}</dd>
          {subscription.custOrderDate && (
            <>
              <dt>{t('account.orderDate')}</dt>
              <dd>{formatDate(subscription.custOrderDate, i18n.language)}</dd>
            </>
          )}
          {subscription.validToOnSaleDate && (
            <>
              <dt>{t('account.validTo')}</dt>
              <dd>{formatDate(subscription.validToOnSaleDate, i18n.language)}</dd>
            </>
          )}
        </dl>
        <div className="card-actions">
          {!component && (
            <Link
              className="button"
              to={href(ROUTES.subscription, { id: subscription.id })}
              aria-label={t('account.manageNamed', { title: subscription.displayName })}
            >
              {t('account.manage')}
            </Link>
          )}
          {onDownload && showsCardDownload(subscription, ctx) && (
            <button
              type="button"
              className="button button-secondary"
              onClick={() => onDownload(subscription)}
              disabled={downloading}
            >
              {downloading ? t('account.downloadWaiting') : t('account.downloadLatest')}
            </button>
          )}
          {renewal && (
            <Link
              className="button button-secondary"
              to={href(ROUTES.subscriptionRenewal, { id: subscription.id })}
            >
              {t('account.renew')}
            </Link>
          )}
        </div>
      </div>
    </li>
  );
}
