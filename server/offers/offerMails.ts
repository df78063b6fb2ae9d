/**
 * The subscriber's confirmation of an accepted offer, in their language, with what
 * was bought and the amount. Placeholders: {tenant}, {subscription},
 * {orderNumber}, {offer}, {amount}, {change}; the texts are server/texts/<locale>/offers.json.
 */
import { formatMoney } from '../../engine/domain/money';
import { formatDate } from '../../engine/domain/dates';
import type { Locale } from '../../engine/domain/locales';
import type { AcceptanceSource, OfferChange } from '../../engine/domain/lifecycle';
import { textsIn } from '../texts/serverTexts';

export type OfferBilling = 'paid' | 'debited' | 'charged_card' | 'charged_paypal' | 'invoice';

/**
 * How an accepted offer's amount is paid, as its mail says it. Paid online, it is paid; an offer by
 * direct debit is debited. Otherwise a retention or upgrade offer changes the running subscription,
 * whose payments go on as before: its amount is collected the way the subscription pays (a direct
 * debit is debited, a card or PayPal charged), and invoiced only where the subscription is. A
 * renewal by invoice is invoiced, as its offer said when the subscriber chose it.
 */
export function offerBilling(input: {
  paidOnline: boolean;
  source: AcceptanceSource;
  offerProvider: string;
  subscriptionPays: string | undefined;
}): OfferBilling {
  if (input.paidOnline) return 'paid';
  const pays =
    input.offerProvider === 'DIRECT_DEBIT'
      ? 'direct_debit'
      : input.source === 'cancellation' || input.source === 'upgrade'
        ? input.subscriptionPays
        : 'invoice';
  if (pays === 'direct_debit' || pays === 'sepa') return 'debited';
  if (pays === 'credit_card') return 'charged_card';
  if (pays === 'paypal') return 'charged_paypal';
  return 'invoice';
}

export function offerAcceptedMail(
  locale: Locale,
  values: {
    tenant: string;
    subscription: string;
    orderNumber: string;
    offer: string;
    amount: number;
    currency: string;
    /** How the amount is paid: online at once, debited from a bank account, charged to the card or the PayPal account on record, or invoiced. */
    billing: OfferBilling;
    change: OfferChange;
  },
): { subject: string; text: string } {
  const t = textsIn(locale, 'offers');
  const amount = formatMoney(values.amount, values.currency, locale);
  const change = values.change;
  // A renewal in another format (a bundle) says from when it is that format too.
  const changeKey =
    change.kind === 'upgrade'
      ? change.later
        ? 'upgradeLater'
        : 'upgradeNow'
      : change.kind === 'extend' && change.mixType
        ? change.later
          ? 'extendFormatLater'
          : 'extendFormatNow'
        : change.kind;
  const date = change.date ? formatDate(change.date, locale) : '';
  const all = {
    tenant: values.tenant,
    subscription: values.subscription,
    orderNumber: values.orderNumber,
    offer: values.offer,
    // An offer at no cost (an upgrade from the next period) is neither invoiced nor charged.
    amount: t(values.amount === 0 ? 'mail.free' : `mail.${values.billing}`, { amount }),
    change: t(`mail.change.${changeKey}`, {
      date,
      from: change.formatFrom ? formatDate(change.formatFrom, locale) : '',
      format: change.mixType
        ? textsIn(locale, 'subscription')(`mixType.${change.mixType}`, { defaultValue: change.mixType })
        : '',
    }),
  };
  return { subject: t('mail.subject', all), text: t('mail.body', all) };
}
