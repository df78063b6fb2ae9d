/**
 * The subscriber's confirmation of an accepted offer, in their language (issue 11: "renewal and
 * upgrade with what was bought and the amount"). Placeholders: {tenant}, {subscription},
 * {orderNumber}, {offer}, {amount}, {change}.
 */
import { formatDay } from '../../engine/domain/dates';
import type { Locale } from '../../engine/domain/locales';
import type { OfferChange } from '../../engine/domain/lifecycle';

const TEXTS: Record<
  Locale,
  { subject: string; body: string; paid: string; invoice: string; change: Record<string, string> }
> = {
  'de-DE': {
    subject: 'Ihre Bestellung bei {tenant}: {offer}',
    body: 'Guten Tag,\n\nvielen Dank! Wir haben Ihre Bestellung für Ihr Abonnement „{subscription}“ (Auftragsnummer {orderNumber}) erhalten:\n\n{offer}\n{amount}\n\n{change}\n\nIhr Team von {tenant}\n',
    paid: 'Betrag: {amount} (bezahlt)',
    invoice: 'Betrag: {amount} (Sie erhalten eine Rechnung bzw. wir buchen ihn ab)',
    change: {
      extend: 'Ihr Abonnement läuft jetzt bis {date}.',
      upgradeNow: 'Ihr Abonnement ist ab sofort umgestellt.',
      upgradeLater: 'Ihr Abonnement wird zum {date} umgestellt.',
      retain: 'Das Angebot gilt bis {date}. Ihr Abonnement läuft weiter.',
    },
  },
  'en-GB': {
    subject: 'Your order with {tenant}: {offer}',
    body: 'Hello,\n\nthank you! We have received your order for your subscription "{subscription}" (order number {orderNumber}):\n\n{offer}\n{amount}\n\n{change}\n\nThe {tenant} team\n',
    paid: 'Amount: {amount} (paid)',
    invoice: 'Amount: {amount} (invoiced or debited)',
    change: {
      extend: 'Your subscription now runs until {date}.',
      upgradeNow: 'Your subscription has been changed with immediate effect.',
      upgradeLater: 'Your subscription will be changed on {date}.',
      retain: 'The offer applies until {date}. Your subscription continues.',
    },
  },
};

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

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
    change: OfferChange;
  },
): { subject: string; text: string } {
  const t = TEXTS[locale] ?? TEXTS['en-GB'];
  const amount = new Intl.NumberFormat(locale, { style: 'currency', currency: values.currency }).format(
    values.amount,
  );
  const change = values.change;
  const changeKey = change.kind === 'upgrade' ? (change.later ? 'upgradeLater' : 'upgradeNow') : change.kind;
  const date = change.date ? formatDay(locale, change.date) : '';
  const all = {
    tenant: values.tenant,
    subscription: values.subscription,
    orderNumber: values.orderNumber,
    offer: values.offer,
    amount: fill(values.paidOnline ? t.paid : t.invoice, { amount }),
    change: fill(t.change[changeKey], { date }),
  };
  return { subject: fill(t.subject, all), text: fill(t.body, all) };
}
