/**
 * The purchase order card's parts (portal-core.md §2 "Purchase order card"): its facts with the
 * shipping status, its buttons, and the business partner's address dialog.
 */
import { placeLines } from '../../domain/addressFormat';
import { useTranslation } from '../../core/translation';
import type { PurchaseOrder } from '../../../schemas/generated/purchase-order';
import { usePortal } from '../../core/PortalContext';
import { canRequestPurchaseOrderInvoice, type purchaseOrderDownload } from '../../domain/purchaseOrders';
import { providersOf, shippingStatus } from '../../domain/shipping';
import { formatDate } from '../../domain/dates';
import { useTenantSettings } from '../../account/capabilityContext';
import { Dialog } from './dialogs';

/** Shipped or pending, with the provider and its tracking link, and the delivery date when known. */
function ShippingFacts({ order }: { order: PurchaseOrder }) {
  const { t, i18n } = useTranslation();
  const settings = useTenantSettings();
  const shipping = shippingStatus(order.packageInfo, providersOf(settings));
  // The tenant's provider name wins; otherwise the translated name of the §9 provider code.
  const providerName =
    shipping.providerName ??
    (shipping.providerCode ? t(`orders.shippingProvider.${shipping.providerCode}`) : null);
  return (
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
  );
}

/** Purchase date, order number, quantity over 1, invoice number, and the shipping where the tenant shows it. */
export function PurchaseOrderFacts({ order, showShipping }: { order: PurchaseOrder; showShipping: boolean }) {
  const { t, i18n } = useTranslation();
  return (
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
      {showShipping && <ShippingFacts order={order} />}
    </dl>
  );
}

/**
 * Download for found (expired: disabled), the address, and request invoice for the ordering party.
 * Each button is described by its order's title (`describedBy`): every card has the same three.
 */
export function PurchaseOrderActions({
  order,
  describedBy,
  download,
  downloading,
  onDownload,
  onAddress,
  onRequest,
}: {
  order: PurchaseOrder;
  describedBy: string;
  download: ReturnType<typeof purchaseOrderDownload>;
  downloading: boolean;
  onDownload: (order: PurchaseOrder) => void;
  onAddress: () => void;
  onRequest: () => void;
}) {
  const { t } = useTranslation();
  const { config } = usePortal();
  return (
    <div className="card-actions">
      {download !== 'hidden' && (
        <button
          type="button"
          className="button button-secondary"
          disabled={download === 'disabled' || downloading}
          aria-describedby={describedBy}
          onClick={() => onDownload(order)}
        >
          {downloading
            ? t('account.downloadWaiting')
            : download === 'disabled'
              ? t('account.downloadExpired')
              : t('orders.download')}
        </button>
      )}
      <button
        type="button"
        className="button button-secondary"
        aria-describedby={describedBy}
        onClick={onAddress}
      >
        {t('orders.addressButton')}
      </button>
      {canRequestPurchaseOrderInvoice(config.tenant, order) && (
        <button
          type="button"
          className="button button-secondary"
          aria-describedby={describedBy}
          onClick={onRequest}
        >
          {t('orders.requestInvoice')}
        </button>
      )}
    </div>
  );
}

/** §2 dialog "business partner address": the address the order belongs to, with the user's role on it. */
export function PartnerAddressDialog({ order, onClose }: { order: PurchaseOrder; onClose: () => void }) {
  const { t } = useTranslation();
  const partner = order.businessPartner;
  return (
    <Dialog
      title={t('orders.addressTitle')}
      onClose={onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('shell.close')}
        </button>
      }
    >
      <address className="address">
        {[
          partner.company1 ?? [partner.firstName, partner.lastName1].filter(Boolean).join(' '),
          ...placeLines(partner),
        ].map((line, index) => (
          <span key={index} className="address-line">
            {line}
          </span>
        ))}
      </address>
      <p className="muted">{t(`orders.role.${order.role}`)}</p>
    </Dialog>
  );
}
