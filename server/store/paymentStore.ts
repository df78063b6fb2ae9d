/**
 * SQL of what a payment really pays for (issue 21 "Payment popup"): the offers accepted with it
 * and the subscriptions they are for. The payment page names these, never the free text stored
 * with the payment at its creation (that text can name another subscription, in another language:
 * see server/payments/paymentSummary.ts).
 */
import type { Queryable } from '../db/database';
import type { OfferRow } from './offerStore';

export interface PaidOffer {
  subscriptionId: string;
  orderNumber: string;
  offer: OfferRow;
}

/** The offers a payment pays for, one per accepted offer (a bulk renewal has several), in the order they were accepted. */
export async function offersPaidBy(db: Queryable, tenantId: string, paymentId: string): Promise<PaidOffer[]> {
  const rows = await db.query<{ subscriptionId: string; orderNumber: string; offer: OfferRow }>(
    `select a.subscription_id as "subscriptionId", s.order_number::text as "orderNumber",
            jsonb_build_object('id', o.id, 'publication', o.publication, 'category', o.category, 'reasons', o.reasons,
                               'price', o.price::float8, 'currency', o.currency, 'paymentProvider', o.payment_provider,
                               'offer', o.offer, 'effect', o.effect, 'voucherPool', o.voucher_pool) as offer
       from offer_acceptances a
       join subscriptions s on s.tenant_id = a.tenant_id and s.id = a.subscription_id
       join offers o on o.tenant_id = a.tenant_id and o.id = a.offer_id
      where a.tenant_id = $1 and a.payment_id = $2
      order by a.created_at, a.id`,
    [tenantId, paymentId],
  );
  return rows;
}

/** The order number of a subscription of the tenant (a payment-method change names it), or null. */
export async function orderNumberOf(
  db: Queryable,
  tenantId: string,
  subscriptionId: string,
): Promise<string | null> {
  const rows = await db.query<{ orderNumber: string }>(
    `select order_number::text as "orderNumber" from subscriptions where tenant_id = $1 and id = $2`,
    [tenantId, subscriptionId],
  );
  return rows[0]?.orderNumber ?? null;
}
