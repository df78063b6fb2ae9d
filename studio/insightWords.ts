/**
 * How the retention insights name and format what they count (docs/operators.md "Retention insights"), for
 * the studio's page and `portal insights` alike: reasons and offers by the order system's words in the
 * reader's language (the code only where it sent none), rates and money for the reader's locale,
 * money always with its currency and per currency when there are several. Studio code (the insights
 * stay out of subscriber bundles: tests/cli/insightsBundle.test.ts), which the CLI imports too.
 */
import type { InsightNames, Money } from '../schemas/generated/retention-insights';
import { wordsIn } from '../engine/domain/language';

/** A cancellation reason's description in `locale`: the segment's publication first, then any that has the code. */
export function reasonName(names: InsightNames, code: string, locale: string, publication?: string): string {
  if (code === '') return '';
  const own = publication ? names.reasons[publication]?.[code] : undefined;
  const words =
    own && wordsIn(own, locale)
      ? own
      : Object.values(names.reasons)
          .map((byCode) => byCode?.[code])
          .find((byLocale) => byLocale && wordsIn(byLocale, locale));
  return wordsIn(words, locale) ?? code;
}

/** An offer's title in `locale`, or its id when the order system has none. */
export function offerName(names: InsightNames, id: string, locale: string): string {
  return wordsIn(names.offers[id], locale) ?? id;
}

/** A rate as a percentage with one decimal ("33.3%", "33,3 %"); "–" without one. */
export function formatRate(rate: number | null | undefined, locale: string): string {
  if (rate === null || rate === undefined) return '–';
  return new Intl.NumberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(rate);
}

/** Money in its currency for the locale ("€1,315.60", "1.315,60 €"), one per currency, "–" without any. */
export function formatMoney(amounts: readonly Money[], locale: string): string {
  if (amounts.length === 0) return '–';
  return amounts
    .map(({ currency, amount }) => {
      try {
        if (currency) return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
      } catch {
        // Not an ISO 4217 code: the amount and the code as given.
      }
      const number = new Intl.NumberFormat(locale, {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      }).format(amount);
      return currency ? `${number} ${currency}` : number;
    })
    .join(' · ');
}
