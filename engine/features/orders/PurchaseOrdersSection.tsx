import { useTranslation } from '../../core/translation';
import { PurchaseOrderCard } from './PurchaseOrderCard';
import type { OrdersPageModel } from './useOrdersPage';

/**
 * The purchase orders (portal-core.md §2 "Orders page": single purchases), newest first, each with
 * its download. The section, its cards and what they show (shipping, the partner's address) load
 * as one when the account has a purchase order (OrdersScreen.tsx): most accounts have none, and the
 * section comes whole, below the subscriptions, as it did when its list arrived.
 */
export function PurchaseOrdersSection({ page }: { page: OrdersPageModel }) {
  const { t } = useTranslation();
  const { orders, downloads } = page;
  return (
    <section aria-labelledby="purchase-orders-title" className="orders-section">
      <h2 id="purchase-orders-title">{t('orders.purchaseOrdersHeading')}</h2>
      <ul className="card-list">
        {orders.map((o) => (
          <PurchaseOrderCard
            key={o.id}
            order={o}
            downloading={downloads.waiting === o.id}
            onDownload={(order) => void downloads.purchaseOrder(order.id, order.distributionArticleNumber)}
          />
        ))}
      </ul>
    </section>
  );
}
