import { useTranslation } from 'react-i18next';
import type { PendingOrder } from '../../../schemas/generated/pending-order';
import { usePortal } from '../../core/PortalContext';
import { formatDate } from '../../ui/format';

/** §2 "Pending order card": source (VHS or other), title, order number, article number, order date, cover, issue number from, download link. */
export function PendingOrderCard({ order }: { order: PendingOrder }) {
  const { t, i18n } = useTranslation();
  const { config } = usePortal();
  const titleId = `pending-order-${order.id}-title`;
  const cover = order.coverImageUrl ?? config.tenant.coverImagePlaceholderUrl;
  return (
    <li className="card order-card pending-order-card" aria-labelledby={titleId}>
      {cover && <img className="cover" src={cover} alt={t('orders.coverAlt', { title: order.title })} width={96} height={128} />}
      <div className="subscription-card-body">
        <h3 id={titleId}>{order.title}</h3>
        <p className="muted">{t(order.source === 'VHS' ? 'orders.pendingSourceVhs' : 'orders.pendingSourceOther')}</p>
        <dl className="facts">
          {order.orderNumber && (
            <>
              <dt>{t('orders.orderNumber')}</dt>
              <dd>{order.orderNumber}</dd>
            </>
          )}
          {order.articleNumber && (
            <>
              <dt>{t('orders.articleNumber')}</dt>
              <dd>{order.articleNumber}</dd>
            </>
          )}
          {order.orderDate && (
            <>
              <dt>{t('orders.orderDate')}</dt>
              <dd>{formatDate(order.orderDate, i18n.language)}</dd>
            </>
          )}
          {order.issueNumberFrom && (
            <>
              <dt>{t('orders.issueNumberFrom')}</dt>
              <dd>{order.issueNumberFrom}</dd>
            </>
          )}
        </dl>
        {order.download && (
          <div className="card-actions">
            <a className="button button-secondary" href={order.download.url} {...(order.download.isFile ? { download: '' } : { target: '_blank', rel: 'noopener noreferrer' })}>
              {t('orders.pendingDownload')}
            </a>
          </div>
        )}
      </div>
    </li>
  );
}
