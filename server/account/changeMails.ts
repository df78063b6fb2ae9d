/**
 * The subscriber's confirmations of account changes, in their language (issue 12: "each change ...
 * sends the subscriber a confirmation e-mail in their language"), and the double opt-in e-mail.
 * Placeholders in {braces}.
 */
import type { Locale } from '../../engine/domain/locales';

export type ChangeMail =
  'holidaySet' | 'holidayCancelled' | 'paymentMethod' | 'complaint' | 'address' | 'optInConfirm';

const TEXTS: Record<Locale, Record<ChangeMail, { subject: string; body: string }>> = {
  'de-DE': {
    holidaySet: {
      subject: 'Ihr Urlaubsservice bei {tenant}',
      body: 'Guten Tag,\n\nfür Ihr Abonnement „{subscription}“ (Auftragsnummer {orderNumber}) haben wir Ihren Urlaubsservice eingetragen: {service} vom {from} bis {to}.\n\nIhr Team von {tenant}\n',
    },
    holidayCancelled: {
      subject: 'Urlaubsservice storniert – {tenant}',
      body: 'Guten Tag,\n\nIhr Urlaubsservice ({service}) für „{subscription}“ (Auftragsnummer {orderNumber}) ist storniert. Die Lieferung läuft wie gewohnt weiter.\n\nIhr Team von {tenant}\n',
    },
    paymentMethod: {
      subject: 'Ihre neue Zahlungsart bei {tenant}',
      body: 'Guten Tag,\n\nfür „{subscription}“ (Auftragsnummer {orderNumber}) zahlen Sie ab {from} per {method}. Bis dahin bleibt Ihre bisherige Zahlungsart bestehen.\n\nIhr Team von {tenant}\n',
    },
    complaint: {
      subject: 'Ihre Reklamation bei {tenant}',
      body: 'Guten Tag,\n\nvielen Dank für Ihre Reklamation zu {issue} von „{subscription}“ (Auftragsnummer {orderNumber}). Als Ausgleich erhalten Sie: {compensation}.\n\nIhr Team von {tenant}\n',
    },
    address: {
      subject: 'Ihre Adressänderung bei {tenant}',
      body: 'Guten Tag,\n\nwir haben Ihre neue Adresse gespeichert; sie gilt {when}:\n\n{address}\n\nDie Änderung kann bis zu 10 Minuten brauchen, bis sie überall sichtbar ist.\n\nIhr Team von {tenant}\n',
    },
    optInConfirm: {
      subject: 'Bitte bestätigen Sie Ihre Einwilligung – {tenant}',
      body: 'Guten Tag,\n\nSie möchten von {tenant} Informationen erhalten über: {types}.\n\nBitte bestätigen Sie das mit diesem Link:\n\n{link}\n\nDer Link ist 7 Tage gültig. Ohne Bestätigung bleibt alles, wie es war.\n',
    },
  },
  'en-GB': {
    holidaySet: {
      subject: 'Your holiday service with {tenant}',
      body: 'Hello,\n\nwe have set up your holiday service for "{subscription}" (order number {orderNumber}): {service} from {from} to {to}.\n\nThe {tenant} team\n',
    },
    holidayCancelled: {
      subject: 'Holiday service cancelled – {tenant}',
      body: 'Hello,\n\nyour holiday service ({service}) for "{subscription}" (order number {orderNumber}) is cancelled. Delivery continues as usual.\n\nThe {tenant} team\n',
    },
    paymentMethod: {
      subject: 'Your new payment method with {tenant}',
      body: 'Hello,\n\nfrom {from} you pay for "{subscription}" (order number {orderNumber}) by {method}. Until then your current payment method stays in place.\n\nThe {tenant} team\n',
    },
    complaint: {
      subject: 'Your complaint to {tenant}',
      body: 'Hello,\n\nthank you for telling us about {issue} of "{subscription}" (order number {orderNumber}). To make up for it you receive: {compensation}.\n\nThe {tenant} team\n',
    },
    address: {
      subject: 'Your change of address with {tenant}',
      body: 'Hello,\n\nwe have saved your new address; it applies {when}:\n\n{address}\n\nIt can take up to 10 minutes until the change shows everywhere.\n\nThe {tenant} team\n',
    },
    optInConfirm: {
      subject: 'Please confirm your consent – {tenant}',
      body: 'Hello,\n\nyou would like to hear from {tenant} about: {types}.\n\nPlease confirm with this link:\n\n{link}\n\nThe link is valid for 7 days. Without confirmation nothing changes.\n',
    },
  },
};

/** Words used inside the mails. */
export const MAIL_WORDS: Record<Locale, Record<string, string>> = {
  'de-DE': {
    redirect: 'Umleitung an Ihre Urlaubsadresse',
    break: 'Lieferpause',
    download: 'digital statt gedruckt',
    sepa: 'SEPA-Lastschrift',
    direct_debit: 'Lastschrift',
    credit_card: 'Kreditkarte',
    paypal: 'PayPal',
    invoice: 'Rechnung',
    download_compensation: 'die Ausgabe als Download',
    complimentary_issue: 'eine zusätzliche Gratisausgabe',
    replacement: 'ein Ersatzexemplar (innerhalb einer Woche)',
    asap: 'ab sofort',
    from: 'ab dem {date}',
    issue: 'Ausgabe {number}',
  },
  'en-GB': {
    redirect: 'delivery to your holiday address',
    break: 'delivery break',
    download: 'digital instead of print',
    sepa: 'SEPA direct debit',
    direct_debit: 'direct debit',
    credit_card: 'credit card',
    paypal: 'PayPal',
    invoice: 'invoice',
    download_compensation: 'the issue as a download',
    complimentary_issue: 'an extra complimentary issue',
    replacement: 'a replacement copy (within a week)',
    asap: 'straight away',
    from: 'from {date}',
    issue: 'issue {number}',
  },
};

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

export function changeMail(
  kind: ChangeMail,
  locale: Locale,
  values: Record<string, string>,
): { subject: string; text: string } {
  const t = (TEXTS[locale] ?? TEXTS['en-GB'])[kind];
  return { subject: fill(t.subject, values), text: fill(t.body, values) };
}

export const mailWord = (locale: Locale, word: string, values: Record<string, string> = {}) =>
  fill((MAIL_WORDS[locale] ?? MAIL_WORDS['en-GB'])[word] ?? word, values);
