/**
 * What an accepted offer does to the subscription (issue 11: "applies the renewal or upgrade in the
 * same transaction"). Called inside the transaction that records the acceptance — at once for
 * offers paid by invoice or direct debit, when the payment succeeds for the others.
 */
import type { Queryable } from '../db/database';
import type { Locale } from '../../engine/core/portalConfig';
import type { Subscription } from '../../schemas/generated/subscription';
import type { UpgradeTime } from '../../engine/domain/offers';
import { updateSubscription, type OfferRow } from '../store/offerStore';

const MIX_TYPE_NAMES: Record<Locale, Record<string, string>> = {
  'de-DE': { PR: 'Print', DE: 'E-Paper', ON: 'Digital', KO: 'Print + Digital' },
  'en-GB': { PR: 'Print', DE: 'E-paper', ON: 'Digital', KO: 'Print + digital' },
};

const addMonths = (day: string, months: number) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
};

const untilText = (locale: Locale, day: string) =>
  (locale === 'de-DE' ? 'bis ' : 'until ') + new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

/** What the change was, for the event and the confirmation e-mail. */
export interface AppliedChange {
  kind: 'extend' | 'upgrade' | 'retain';
  /** extend: the new end; upgrade NEXT_CYCLE: the day it takes effect; retain: the end of the discount. */
  date: string | null;
  mixType?: string;
  /** upgrade: takes effect at the next cycle rather than now. */
  later?: boolean;
}

export async function applyOffer(
  tx: Queryable,
  input: { tenantId: string; tenantLocale: Locale; subscription: Subscription; offer: OfferRow; upgradeTime: UpgradeTime | null; today: string },
): Promise<AppliedChange> {
  const { subscription: s, offer, today } = input;
  const effect = offer.effect;
  switch (effect.kind) {
    case 'extend': {
      // A renewal runs on from the current end (or from today when that has passed).
      const from = s.validToOnSaleDate && s.validToOnSaleDate > today ? s.validToOnSaleDate : today;
      const validTo = addMonths(from, effect.months);
      await updateSubscription(tx, input.tenantId, s.id, {
        validTo,
        details: {
          renewal: {
            ...(s.renewal ?? { autoRenewal: false, orderCurrency: offer.currency, offerClassification: null, renewalBundleComponent: null, maxCycleOfferOfferDescription: null }),
            expiryDesc: untilText(input.tenantLocale, validTo),
            expiryIssueNr: null,
          },
          lastRenewal: { offerId: offer.id, on: today, until: validTo },
        },
      });
      return { kind: 'extend', date: validTo };
    }
    case 'upgrade': {
      if (input.upgradeTime === 'NEXT_CYCLE') {
        const from = s.renewal?.autoRenewalNextPaymentDate ?? addMonths(today, 1);
        const mixTypeDesc = MIX_TYPE_NAMES[input.tenantLocale][effect.mixType] ?? effect.mixType;
        await updateSubscription(tx, input.tenantId, s.id, { details: { plannedUpgrade: { offerId: offer.id, mixType: effect.mixType, mixTypeDesc, from } } });
        return { kind: 'upgrade', date: from, mixType: effect.mixType, later: true };
      }
      const name = MIX_TYPE_NAMES[input.tenantLocale][effect.mixType] ?? effect.mixType;
      await updateSubscription(tx, input.tenantId, s.id, {
        mixType: effect.mixType,
        details: {
          typeKey: effect.typeKey,
          displayName: `${s.publicationName} – ${name}`,
          mixTypeDetails: {
            ...s.mixTypeDetails,
            mixTypeDesc: name,
            mediumType: effect.mixType === 'PR' ? null : effect.mixType,
            pdfDownload: effect.mixType === 'DE' || effect.mixType === 'KO',
            complaintIssues: effect.mixType === 'PR' || effect.mixType === 'KO' ? 3 : 0,
          },
          isCombiSubscription: effect.mixType === 'KO',
          isTimebased: effect.mixType === 'ON',
          plannedUpgrade: null,
        },
      });
      return { kind: 'upgrade', date: today, mixType: effect.mixType };
    }
    case 'retain': {
      const until = addMonths(today, effect.months);
      await updateSubscription(tx, input.tenantId, s.id, { details: { retentionOffer: { offerId: offer.id, discountPercent: effect.discountPercent, until } } });
      return { kind: 'retain', date: until };
    }
  }
}
