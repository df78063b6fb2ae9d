import { useTranslation } from 'react-i18next';
import { statusTone } from '../../domain/orderStatus';
import { usePortal } from '../../core/PortalContext';
import { Badge } from '../../ui/Badge';
import { formatDate } from '../../ui/format';
import type { SubscriptionSummary } from './types';

export function SubscriptionCard({ subscription }: { subscription: SubscriptionSummary }) {
  const { t, i18n } = useTranslation();
  const { config } = usePortal();
  const titleId = `subscription-${subscription.id}-title`;
  const cover = subscription.coverImageUrl ?? config.tenant.coverImagePlaceholderUrl;
  return (
    <li className="card subscription-card" aria-labelledby={titleId}>
      {cover && <img className="cover" src={cover} alt={t('orders.coverAlt', { title: subscription.displayName })} width={96} height={128} />}
      <div className="subscription-card-body">
        <h3 id={titleId}>{subscription.displayName}</h3>
        <p className="muted">{subscription.publicationName}</p>
        <Badge tone={statusTone(subscription.orderStatus)}>{t(`orders.status.${subscription.orderStatus}`)}</Badge>
        <dl className="facts">
          <dt>{t('orders.orderNumber')}</dt>
          <dd>{subscription.orderNumber}</dd>
          {subscription.validFromOnSaleDate && (
            <>
              <dt>{t('orders.validFrom')}</dt>
              <dd>{formatDate(subscription.validFromOnSaleDate, i18n.language)}</dd>
            </>
          )}
          {subscription.validToOnSaleDate && (
            <>
              <dt>{t('orders.validTo')}</dt>
              <dd>{formatDate(subscription.validToOnSaleDate, i18n.language)}</dd>
            </>
          )}
        </dl>
      </div>
    </li>
  );
}
