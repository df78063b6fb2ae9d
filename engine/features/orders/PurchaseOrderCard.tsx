import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import type { PurchaseOrder } from '../../../schemas/generated/purchase-order';
import { usePortal } from '../../core/PortalContext';
import { INVOICE_STATUS_NAMES, invoiceStatusTone, purchaseOrderDownload } from '../../domain/purchaseOrders';
import { isFeatureOn } from '../../domain/tenantFeatures';
import { Badge } from '../../ui/Badge';
import { InvoiceRequestDialog } from './dialogs';
import { PartnerAddressDialog, PurchaseOrderActions, PurchaseOrderFacts } from './PurchaseOrderParts';

/**
 * A purchase order (single purchase) on the orders page (§2 "Purchase order card"): cover,
 * description, purchase date, quantity over 1, invoice status badge (open red, paid green, overpaid
 * orange), invoice number, shipping status with the provider's tracking link, download for found
 * (expired: disabled), request invoice for the ordering party. Its facts, buttons and address dialog
 * are PurchaseOrderParts'.
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
  const { t } = useTranslation();
  const { config, api } = usePortal();
  const [requesting, setRequesting] = useState(false);
  const [addressOpen, setAddressOpen] = useState(false);
  const titleId = `purchase-order-${order.id}-title`;
  const cover = order.coverImageUrl ?? config.tenant.coverImagePlaceholderUrl;
  const download = purchaseOrderDownload(config.tenant, order.downloadStatus);
  const showShipping = isFeatureOn(config.tenant, 'shipping-status');
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
        <PurchaseOrderFacts order={order} showShipping={showShipping} />
        <PurchaseOrderActions
          order={order}
          describedBy={titleId}
          download={download}
          downloading={downloading}
          onDownload={onDownload}
          onAddress={() => setAddressOpen(true)}
          onRequest={() => setRequesting(true)}
        />
      </div>
      {addressOpen && <PartnerAddressDialog order={order} onClose={() => setAddressOpen(false)} />}
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
