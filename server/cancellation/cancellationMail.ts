/**
 * The subscriber's confirmation of a cancellation, in their language, with its date (issue 11).
 * Placeholders: {tenant}, {subscription}, {orderNumber}, {date}, {issue}.
 */
import type { Locale } from '../../engine/domain/locales';
import { formatDay } from '../../engine/domain/dates';

const TEXTS: Record<
  Locale,
  { subject: string; body: string; issue: string; exceptional: string; revocation: string }
> = {
  'de-DE': {
    subject: 'Bestätigung Ihrer Kündigung bei {tenant}',
    body: 'Guten Tag,\n\nwir haben Ihre Kündigung des Abonnements „{subscription}“ (Auftragsnummer {orderNumber}) erhalten. Sie wird wirksam zum {date}{issue}.\n{exceptional}\nDie Kündigung wird innerhalb von 24 Stunden verarbeitet.{revocation}\n\nIhr Team von {tenant}\n',
    issue: ' (Ausgabe {issue})',
    exceptional:
      '\nSie haben eine außerordentliche Kündigung angefragt; wir prüfen Ihre Begründung und melden uns, falls wir Fragen haben.\n',
    revocation:
      '\nSie haben es sich anders überlegt? Über das Kundenportal können Sie die Kündigung widerrufen.',
  },
  'en-GB': {
    subject: 'Your cancellation with {tenant}',
    body: 'Hello,\n\nwe have received your cancellation of the subscription "{subscription}" (order number {orderNumber}). It takes effect on {date}{issue}.\n{exceptional}\nThe cancellation is processed within 24 hours.{revocation}\n\nThe {tenant} team\n',
    issue: ' (issue {issue})',
    exceptional:
      '\nYou asked for an extraordinary termination; we will review your reason and contact you if we have questions.\n',
    revocation: '\nChanged your mind? You can revoke the cancellation in the customer portal.',
  },
};

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

export function cancellationMail(
  locale: Locale,
  values: {
    tenant: string;
    subscription: string;
    orderNumber: string;
    effectiveDate: string;
    issueNumber: string | null;
    exceptional: boolean;
    revocable: boolean;
  },
): { subject: string; text: string } {
  const t = TEXTS[locale] ?? TEXTS['en-GB'];
  const all = {
    tenant: values.tenant,
    subscription: values.subscription,
    orderNumber: values.orderNumber,
    date: formatDay(locale, values.effectiveDate),
    issue: values.issueNumber ? fill(t.issue, { issue: values.issueNumber }) : '',
    exceptional: values.exceptional ? t.exceptional : '',
    revocation: values.revocable ? t.revocation : '',
  };
  return { subject: fill(t.subject, all), text: fill(t.body, all) };
}
