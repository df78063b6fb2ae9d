import { useTranslation } from '../../core/translation';
import type { PendingOrder } from '../../../schemas/generated/pending-order';
import { PendingOrderCard } from './PendingOrderCard';

/**
 * §2 "Sections": the pending orders, the list's first section. Few accounts have any, so its code
 * loads when the account's list has one (useOrdersPage).
 */
export function PendingOrdersSection({ pending }: { pending: readonly PendingOrder[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="pending-title" className="orders-section">
      <h2 id="pending-title">{t('orders.pendingHeading')}</h2>
      <ul className="card-list">
        {pending.map((p) => (
          <PendingOrderCard key={p.id} order={p} />
        ))}
      </ul>
    </section>
  );
}
