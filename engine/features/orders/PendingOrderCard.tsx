import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { ErrorDialog } from './dialogs';
import { useSaveFile } from '../../account/useSaveFile';
import type { PendingOrder } from '../../../schemas/generated/pending-order';
import { usePortal } from '../../core/PortalContext';
import { formatDate } from '../../domain/dates';

/** §2 "Pending order card": source (VHS or other), title, order number, article number, order date, cover, issue number from, download link. */
export function PendingOrderCard({ order }: { order: PendingOrder }) {
  const { t, i18n } = useTranslation();
  const { config } = usePortal();
  const titleId = `pending-order-${order.id}-title`;
  const cover = order.coverImageUrl ?? config.tenant.coverImagePlaceholderUrl;
  const saveFile = useSaveFile();
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  async function save() {
    setSaving(true);
    try {
      // A file (download.isFile) is served by the portal at GET /pending-orders/{id}/file (§7), the url the server lists.
      await saveFile(
        `/pending-orders/${encodeURIComponent(order.id)}/file`,
        `${(order.articleNumber ?? order.id).replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`,
      );
    } catch {
      setFailed(true);
    } finally {
      setSaving(false);
    }
  }
  return (
    <li className="card order-card pending-order-card" aria-labelledby={titleId}>
      {cover && (
        <img
          className="cover"
          src={cover}
          alt={t('account.coverAlt', { title: order.title })}
          width={96}
          height={128}
        />
      )}
      <div className="subscription-card-body">
        <h3 id={titleId}>{order.title}</h3>
        <p className="muted">
          {t(order.source === 'VHS' ? 'orders.pendingSourceVhs' : 'orders.pendingSourceOther')}
        </p>
        <dl className="facts">
          {order.orderNumber && (
            <>
              <dt>{t('account.orderNumber')}</dt>
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
              <dt>{t('account.orderDate')}</dt>
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
            {order.download.isFile ? (
              // Files are served by the portal to their owner only (x-auth-token), so they are fetched, then saved.
              <button
                type="button"
                className="button button-secondary"
                disabled={saving}
                onClick={() => void save()}
              >
                {saving ? t('account.downloadWaiting') : t('orders.pendingDownload')}
              </button>
            ) : (
              <a
                className="button button-secondary"
                href={order.download.url}
                target="_blank"
                rel="noopener noreferrer"
              >
                {t('orders.pendingDownload')}
              </a>
            )}
          </div>
        )}
      </div>
      {failed && <ErrorDialog onClose={() => setFailed(false)} />}
    </li>
  );
}
