/**
 * Offers as the screens see them (account-flows.md §3 Recommendation), in the request's language.
 */
import type { Locale } from '../../engine/domain/locales';
import type { Recommendation } from '../../schemas/generated/offers';
import type { OfferRow, OfferTexts } from '../store/offerStore';
import { wordsIn } from '../../engine/domain/language';
import { billingPeriodMonths } from '../../engine/domain/subscriptionTerm';

export function offerTexts(offer: OfferRow, locale: Locale): OfferTexts {
  const texts = offer.offer.texts;
  return wordsIn(texts, locale) ?? { description: offer.id, title: offer.id };
}

/**
 * The offer as the order system answers it for one subscription (§7 recommendations): an upgrade's
 * next payment is what the subscription pays for its billing period once upgraded, so a monthly
 * subscriber sees a month's price and a yearly one a year's.
 */
export function toRecommendation(
  offer: OfferRow,
  locale: Locale,
  subscription: { billingFrequency?: string | null },
): Recommendation {
  const texts = offerTexts(offer, locale);
  const def = offer.offer;
  const recommendation: Recommendation = {
    id: offer.id,
    recommendationId: offer.id,
    description: texts.description,
    pictureUrl: def.pictureUrl,
    openInNewTab: def.openInNewTab,
    paymentProviders: [{ PAYMENT_PROVIDER: offer.paymentProvider }],
  };
  if (def.kind === 'article') {
    recommendation.article = {
      articleText: texts.title,
      offerType: def.offerType ?? 'RN',
      price: offer.price,
      currencyKey: offer.currency,
    };
  } else if (def.kind === 'product') {
    recommendation.product = {
      title: texts.title,
      images: def.pictureUrl ? [{ url: def.pictureUrl }] : [],
      attributes: { shortDesc: texts.detail ?? '' },
      price: offer.price,
      currency: offer.currency,
    };
  } else {
    recommendation.upgradeOption = {
      text: texts.title,
      upgradeTime: def.upgradeTime ?? 'NOW',
      surchargeAmount: offer.price,
      surchargeCurrency: offer.currency,
      nextPaymentAmount:
        Math.round((def.nextPaymentAmount ?? 0) * billingPeriodMonths(subscription) * 100) / 100,
      nextPaymentCurrency: offer.currency,
    };
  }
  return recommendation;
}
