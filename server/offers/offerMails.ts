/**
 * The subscriber's confirmation of an accepted offer, in their language, with what
 * was bought and the amount. Placeholders: {tenant}, {subscription},
 * {orderNumber}, {offer}, {amount}, {change}; the texts are server/texts/<locale>/offers.json.
 */
import { formatDate } from '../../engine/domain/dates';
import type { Locale } from '../../engine/domain/locales';
import type { OfferChange } from '../../engine/domain/lifecycle';
import { textsIn } from '../texts/serverTexts';

export function offerAcceptedMail(
  locale: Locale,
  values: {
    tenant: string;
    subscription: string;
    orderNumber: string;
    offer: string;
    amount: number;
    currency: string;
    paidOnline: boolean;
    /** Taken from the bank account on record (an offer paid by direct debit), not invoiced. */
    debited: boolean;
    change: OfferChange;
  },
): { subject: string; text: string } {
  const t = textsIn(locale, 'offers');
  const amount = new Intl.NumberFormat(locale, { style: 'currency', currency: values.currency }).format(
    values.amount,
  );
  const change = values.change;
  const changeKey = change.kind === 'upgrade' ? (change.later ? 'upgradeLater' : 'upgradeNow') : change.kind;
  const date = change.date ? formatDate(change.date, locale) : '';
  const all = {
    tenant: values.tenant,
    subscription: values.subscription,
    orderNumber: values.orderNumber,
    offer: values.offer,
    amount: t(values.paidOnline ? 'mail.paid' : values.debited ? 'mail.debited' : 'mail.invoice', { amount }),
    change: t(`mail.change.${changeKey}`, { date }),
  };
  return { subject: t('mail.subject', all), text: t('mail.body', all) };
}
