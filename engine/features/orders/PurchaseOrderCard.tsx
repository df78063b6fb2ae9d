import { streetLine, townLines } from '../../domain/addressFormat';
import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import type { PurchaseOrder } from '../../../schemas/generated/purchase-order';
import { usePortal } from '../../core/PortalContext';
import {
  INVOICE_STATUS_NAMES,
  canRequestPurchaseOrderInvoice,
  invoiceStatusTone,
  purchaseOrderDownload,
} from '../../domain/purchaseOrders';
import { providersOf, shippingStatus } from '../../domain/shipping';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { Badge } from '../../ui/Badge';
import { formatDate } from '../../domain/dates';
import { useTenantSettings } from '../../account/capabilityContext';
import { Dialog, InvoiceRequestDialog } from './dialogs';

/**
 * A purchase order (single purchase) on the orders page (§2 "Purchase order card"): cover,
 * description, purchase date, quantity over 1, invoice status badge (open red, paid green, overpaid
 * orange), invoice number, shipping status with the provider's tracking link, download for found
 * (expired: disabled), request invoice for the ordering party.
 */
export function PurchaseOrderCard({
  order,
  onDownload,
  downloading,
}: {
  order: PurchaseOrder;
  onDownload: (order: PurchaseOrder) => void;
  downloading: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { config, api } = usePortal();
  const settings = useTenantSettings();
  const [requesting, setRequesting] = useState(false);
  const [addressOpen, setAddressOpen] = useState(false);
  const partner = order.businessPartner;
  const titleId = `purchase-order-${order.id}-title`;
  const cover = order.coverImageUrl ?? config.tenant.coverImagePlaceholderUrl;
  const download = purchaseOrderDownload(config.tenant, order.downloadStatus);
  const showShipping = isFeatureOn(config.tenant, 'shipping-status');
  const shipping = shippingStatus(order.packageInfo, providersOf(settings));
  // The tenant's provider name wins; otherwise the translated name of the §9 provider code.
  const providerName =
    shipping.providerName ??
    (shipping.providerCode ? t(`orders.shippingProvider.${shipping.providerCode}`) : null);
  const invoiceStatus = INVOICE_STATUS_NAMES[order.invoiceStatus];

  return (
    <li className="card order-card purchase-order-card" aria-labelledby={titleId}>
      {cover && (
        <img
          className="cover"
          src={cover}
          alt={t('account.coverAlt', { title: order.distributionArticleDescription })}
          width={96}
          height={128}
        />
      )}
      <div className="subscription-card-body">
        <h3 id={titleId}>{order.distributionArticleDescription}</h3>
        <div className="badges">
          <Badge tone={invoiceStatusTone(order.invoiceStatus)}>
            {t(`orders.poInvoiceStatus.${invoiceStatus}`)}
          </Badge>
        </div>
        <dl className="facts">
          <dt>{t('orders.purchaseDate')}</dt>
          <dd>{formatDate(order.dateOfPurchaseOrderClient, i18n.language)}</dd>
          <dt>{t('account.orderNumber')}</dt>
          <dd>{order.purchaseOrderNumber}</dd>
          {order.quantity > 1 && (
            <>
              <dt>{t('orders.quantity')}</dt>
              <dd>{order.quantity}</dd>
            </>
          )}
          {order.invoiceNumber && (
            <>
              <dt>{t('orders.invoiceNumber')}</dt>
              <dd>{order.invoiceNumber}</dd>
            </>
          )}
          {showShipping && (
            <>
              <dt>{t('orders.shipping')}</dt>
              <dd>
                {shipping.state === 'pending' ? (
                  t('orders.shippingPending')
                ) : (
                  <>
                    {t('orders.shippingShipped')}
                    {providerName && <> · {providerName}</>}
                    {shipping.trackingUrl && (
                      <>
                        {' · '}
                        <a href={shipping.trackingUrl} target="_blank" rel="noopener noreferrer">
                          {t('orders.tracking', { number: shipping.consignmentNumber })}
                        </a>
                      </>
                    )}
                  </>
                )}
              </dd>
              {shipping.deliveryDate && (
                <>
                  <dt>{t('orders.deliveryDate')}</dt>
                  <dd>{formatDate(shipping.deliveryDate, i18n.language)}</dd>
                </>
              )}
            </>
          )}
        </dl>
        <div className="card-actions">
          {download !== 'hidden' && (
            <button
              type="button"
              className="button button-secondary"
              disabled={download === 'disabled' || downloading}
              onClick={() => onDownload(order)}
            >
              {downloading
                ? t('account.downloadWaiting')
                : download === 'disabled'
                  ? t('account.downloadExpired')
                  : t('orders.download')}
            </button>
          )}
          <button type="button" className="button button-secondary" onClick={() => setAddressOpen(true)}>
            {t('orders.addressButton')}
          </button>
          {canRequestPurchaseOrderInvoice(config.tenant, order) && (
            <button type="button" className="button button-secondary" onClick={() => setRequesting(true)}>
              {t('orders.requestInvoice')}
            </button>
          )}
        </div>
      </div>
      {addressOpen && (
        // §2 dialog "business partner address": the address the order belongs to, with the user's role on it.
        <Dialog
          title={t('orders.addressTitle')}
          onClose={() => setAddressOpen(false)}
          actions={
            <button type="button" className="button" onClick={() => setAddressOpen(false)}>
              {t('shell.close')}
            </button>
          }
        >
          <address className="address">
            {[
              partner.company1 ?? [partner.firstName, partner.lastName1].filter(Boolean).join(' '),
              streetLine(partner),
              ...townLines(partner),
            ].map((line, index) => (
              <span key={index} className="address-line">
                {line}
              </span>
            ))}
          </address>
          <p className="muted">{t(`orders.role.${order.role}`)}</p>
        </Dialog>
      )}
      {requesting && order.invoiceNumber && (
        <InvoiceRequestDialog
          invoiceNumber={order.invoiceNumber}
          onClose={() => setRequesting(false)}
          send={() =>
            api.post<{ status: string }>(
              `/purchase-orders/${encodeURIComponent(order.id)}/invoices/request?invoiceNumber=${encodeURIComponent(order.invoiceNumber!)}`,
            )
          }
        />
      )}
    </li>
  );
}
