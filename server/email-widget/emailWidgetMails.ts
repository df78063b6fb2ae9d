/**
 * The e-mail widget's mail, in the visitor's language: the link to the rewards, sent to the address
 * on record. Placeholders in {braces}; the texts are
 * server/texts/<locale>/email-widget.json.
 */
import { textsIn } from '../texts/serverTexts';

export type WidgetMail = 'emailWidgetLink';

export function widgetMail(
  kind: WidgetMail,
  locale: string,
  values: Record<string, string>,
): { subject: string; text: string } {
  const t = textsIn(locale, 'email-widget');
  return { subject: t(`${kind}.subject`, values), text: t(`${kind}.body`, values) };
}
