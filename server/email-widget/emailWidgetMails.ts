/**
 * The e-mail widget's mail, in the visitor's language: the link to the rewards, sent to the address
 * on record. Placeholders in {braces}.
 */
import type { Locale } from '../../engine/domain/locales';

export type WidgetMail = 'emailWidgetLink';

const TEXTS: Record<Locale, Record<WidgetMail, { subject: string; body: string }>> = {
  'de-DE': {
    emailWidgetLink: {
      subject: 'Ihre Prämien bei {tenant}',
      body: 'Guten Tag,\n\nSie haben Ihre Prämien zu Ihrem Abonnement mit der Auftragsnummer {orderNumber} angefordert. Mit diesem Link sehen Sie sie und können sie herunterladen:\n\n{link}\n\nDer Link ist {hours} Stunden gültig. Wenn Sie nichts angefordert haben, können Sie diese E-Mail ignorieren.\n\nIhr Team von {tenant}\n',
    },
  },
  'en-GB': {
    emailWidgetLink: {
      subject: 'Your rewards from {tenant}',
      body: 'Hello,\n\nyou asked for the rewards of your subscription with order number {orderNumber}. This link shows them and lets you download them:\n\n{link}\n\nThe link is valid for {hours} hours. If you did not ask for it, you can ignore this e-mail.\n\nThe {tenant} team\n',
    },
  },
};

export function widgetMail(
  kind: WidgetMail,
  locale: string,
  values: Record<string, string>,
): { subject: string; text: string } {
  const t = (TEXTS[locale as Locale] ?? TEXTS['en-GB'])[kind];
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_m, key: string) => values[key] ?? '');
  return { subject: fill(t.subject), text: fill(t.body) };
}
