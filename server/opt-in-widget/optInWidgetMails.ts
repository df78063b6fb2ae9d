/**
 * E-mails of the opt-in widget, in the visitor's language: the double opt-in confirmation and the
 * voucher code. Placeholders in {braces}; the texts are
 * server/texts/<locale>/opt-in-widget.json. The confirmation goes to an address nobody has proved yet,
 * so it carries nothing the sign-up typed (no name a stranger could use to write to someone).
 */
import { textsIn } from '../texts/serverTexts';

export type OptInWidgetMail = 'optInWidgetConfirm' | 'optInWidgetVoucher';

export function optInWidgetMail(
  kind: OptInWidgetMail,
  locale: string,
  values: Record<string, string>,
): { subject: string; text: string } {
  const t = textsIn(locale, 'opt-in-widget');
  return { subject: t(`${kind}.subject`, values), text: t(`${kind}.body`, values) };
}
