/**
 * E-mails of the opt-in widget, in the visitor's language: the double opt-in confirmation and the
 * voucher code. Placeholders in {braces}. The confirmation goes to an address nobody has proved yet,
 * so it carries nothing the sign-up typed (no name a stranger could use to write to someone).
 */
import type { Locale } from '../../engine/domain/locales';

export type OptInWidgetMail = 'optInWidgetConfirm' | 'optInWidgetVoucher';

const TEXTS: Record<Locale, Record<OptInWidgetMail, { subject: string; body: string }>> = {
  'de-DE': {
    optInWidgetConfirm: {
      subject: 'Bitte bestätigen Sie Ihre Anmeldung – {tenant}',
      body: 'Guten Tag,\n\nbitte bestätigen Sie, dass Sie Angebote von {tenant} per E-Mail erhalten möchten. Nach der Bestätigung erhalten Sie Ihren Gutscheincode:\n\n{link}\n\nDer Link ist 7 Tage gültig. Wenn Sie sich nicht angemeldet haben, ignorieren Sie diese E-Mail einfach.\n',
    },
    optInWidgetVoucher: {
      subject: 'Ihr Gutscheincode von {tenant}',
      body: 'Guten Tag {name},\n\nvielen Dank für Ihre Bestätigung. Ihr Gutscheincode lautet:\n\n{code}\n\nIhr Team von {tenant}\n',
    },
  },
  'en-GB': {
    optInWidgetConfirm: {
      subject: 'Please confirm your sign-up – {tenant}',
      body: 'Hello,\n\nplease confirm that you would like to receive offers from {tenant} by e-mail. Once you confirm, you get your voucher code:\n\n{link}\n\nThe link is valid for 7 days. If you did not sign up, simply ignore this e-mail.\n',
    },
    optInWidgetVoucher: {
      subject: 'Your voucher code from {tenant}',
      body: 'Hello {name},\n\nthank you for confirming. Your voucher code is:\n\n{code}\n\nThe {tenant} team\n',
    },
  },
};

export function optInWidgetMail(
  kind: OptInWidgetMail,
  locale: string,
  values: Record<string, string>,
): { subject: string; text: string } {
  const t = (TEXTS[locale as Locale] ?? TEXTS['en-GB'])[kind];
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_m, key: string) => values[key] ?? '');
  return { subject: fill(t.subject), text: fill(t.body) };
}
