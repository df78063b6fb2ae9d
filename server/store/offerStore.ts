/**
 * SQL of the cancellation and offer flows (migration 008): cancellation reasons, offers, the
 * acceptances a payment pays for, payments and voucher codes. What changes a subscription (its
 * status, end, cancellation, accepted offers) is written by server/store/subscriptionStore.ts
 * saveLifecycle, from the lifecycle model of engine/domain/lifecycle.ts, and nowhere here.
 */
import type { Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type { PaymentProvider, UpgradeTime } from '../../engine/domain/offers';
import type { AcceptanceSource, OfferEffect } from '../../engine/domain/lifecycle';

export interface CancellationReasonRow {
  code: string;
  descriptions: Partial<Record<Locale, string>>;
}

export async function listCancellationReasons(
  db: Queryable,
  tenantId: string,
  publication: string,
): Promise<CancellationReasonRow[]> {
  return db.query<CancellationReasonRow>(
    `select code, descriptions from cancellation_reasons where tenant_id = $1 and publication = $2 order by position, code`,
    [tenantId, publication],
  );
}

/** The texts of an offer in one language. */
export interface OfferTexts {
  description: string;
  /** articleText, product title or upgrade text. */
  title: string;
  /** The product's short description. */
  detail?: string;
}

/** What the offers table's `offer` column holds (account-flows.md §3 Recommendation). */
export interface OfferDefinition {
  kind: 'article' | 'product' | 'upgradeOption';
  texts: Partial<Record<Locale, OfferTexts>>;
  pictureUrl: string | null;
  openInNewTab: boolean;
  /** article: §9 offer type (BD, BU bundles; DD, RN). */
  offerType?: string;
  /** upgradeOption: when the upgrade takes effect. */
  upgradeTime?: UpgradeTime;
  /**
   * upgradeOption: what the upgraded subscription costs a month; a subscription's offer names it for
   * its billing period (server/offers/recommendations.ts).
   */
  nextPaymentAmount?: number;
  /** Shown after a successful payment (§3 pending payment crossSellingOffer). */
  crossSelling?: { titles: Partial<Record<Locale, string>>; imageUrl: string; url: string };
}

/** What accepting an offer does to the subscription: the lifecycle's effects (engine/domain/lifecycle.ts). */
export type { OfferEffect, AcceptanceSource } from '../../engine/domain/lifecycle';

export interface OfferRow {
  id: string;
  publication: string;
  category: string;
  reasons: string[] | null;
  price: number;
  currency: string;
  paymentProvider: PaymentProvider;
  offer: OfferDefinition;
  effect: OfferEffect;
  voucherPool: string | null;
}

const OFFER_COLUMNS = `id, publication, category, reasons, price::float8 as price, currency, payment_provider as "paymentProvider", offer, effect, voucher_pool as "voucherPool"`;

export async function listOffers(
  db: Queryable,
  tenantId: string,
  publication: string,
  category: string,
): Promise<OfferRow[]> {
  return db.query<OfferRow>(
    `select ${OFFER_COLUMNS} from offers where tenant_id = $1 and publication = $2 and category = $3 order by position, id`,
    [tenantId, publication, category],
  );
}

export async function findOffer(db: Queryable, tenantId: string, id: string): Promise<OfferRow | null> {
  const rows = await db.query<OfferRow>(
    `select ${OFFER_COLUMNS} from offers where tenant_id = $1 and id = $2`,
    [tenantId, id],
  );
  return rows[0] ?? null;
}

export interface AcceptanceRow {
  id: string;
  subscriptionId: string;
  offerId: string;
  userId: string;
  source: AcceptanceSource;
  upgradeTime: UpgradeTime | null;
  cancelReason: string | null;
  status: 'pending' | 'applied' | 'failed';
  paymentId: string | null;
  /** Its share of its payment (migration 042): the offer's price when paid online, else 0. */
  paidAmount: number | null;
}

const ACCEPTANCE_COLUMNS = `id, subscription_id as "subscriptionId", offer_id as "offerId", user_id as "userId", source,
  upgrade_time as "upgradeTime", cancel_reason as "cancelReason", status, payment_id as "paymentId",
  paid_amount::float8 as "paidAmount"`;

export async function acceptancesOfPayment(
  db: Queryable,
  tenantId: string,
  paymentId: string,
): Promise<AcceptanceRow[]> {
  return db.query<AcceptanceRow>(
    `select ${ACCEPTANCE_COLUMNS} from offer_acceptances where tenant_id = $1 and payment_id = $2 order by created_at, id`,
    [tenantId, paymentId],
  );
}

/** Hands out one free voucher code of the pool, once: concurrent payments skip each other's locked rows. */
export async function claimVoucherCode(
  db: Queryable,
  tenantId: string,
  pool: string,
  paymentId: string,
): Promise<string | null> {
  const rows = await db.query<{ code: string }>(
    `update voucher_codes set payment_id = $3, assigned_at = now()
      where (tenant_id, pool, code) = (
        select tenant_id, pool, code from voucher_codes
         where tenant_id = $1 and pool = $2 and payment_id is null
         order by code limit 1 for update skip locked)
      returning code`,
    [tenantId, pool, paymentId],
  );
  return rows[0]?.code ?? null;
}
