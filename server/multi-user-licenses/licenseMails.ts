/**
 * The licence e-mails, in the language of the screen that caused them (account-flows.md §2
 * "Licences"): the invitation with its accept link (the link is the invited person's proof of the
 * address, single use), and the notice to a new licence manager. Placeholders in {braces}.
 */
import type { Locale } from '../../engine/core/portalConfig';

type LicenseMail = 'invitation' | 'managerAppointed';

const TEXTS: Record<Locale, Record<LicenseMail, { subject: string; body: string }>> = {
  'de-DE': {
    invitation: {
      subject: 'Ihre Einladung zur Lizenz „{publication}“ – {tenant}',
      body:
        'Guten Tag {name},\n\nSie wurden eingeladen, „{publication}“ (Auftragsnummer {orderNumber}) im Kundenportal von {tenant} mitzunutzen.\n\n' +
        'Bitte nehmen Sie die Lizenz mit diesem Link an:\n\n{link}\n\nDer Link gilt einmal. Wenn Sie keine Einladung erwartet haben, ignorieren Sie diese E-Mail einfach.\n\nIhr Team von {tenant}\n',
    },
    managerAppointed: {
      subject: 'Sie verwalten jetzt die Lizenzen von „{publication}“ – {tenant}',
      body:
        'Guten Tag {name},\n\nSie sind jetzt Lizenzverwalter von „{publication}“ (Auftragsnummer {orderNumber}) im Kundenportal von {tenant}.\n\n' +
        'Melden Sie sich mit dieser E-Mail-Adresse an, um die Lizenzen zu verwalten:\n\n{link}\n\nIhr Team von {tenant}\n',
    },
  },
  'en-GB': {
    invitation: {
      subject: 'Your invitation to the licence "{publication}" – {tenant}',
      body:
        'Hello {name},\n\nyou have been invited to share "{publication}" (order number {orderNumber}) in the customer portal of {tenant}.\n\n' +
        'Please accept the licence with this link:\n\n{link}\n\nThe link works once. If you did not expect an invitation, simply ignore this e-mail.\n\nThe {tenant} team\n',
    },
    managerAppointed: {
      subject: 'You now manage the licences of "{publication}" – {tenant}',
      body:
        'Hello {name},\n\nyou are now the licence manager of "{publication}" (order number {orderNumber}) in the customer portal of {tenant}.\n\n' +
        'Sign in with this e-mail address to manage the licences:\n\n{link}\n\nThe {tenant} team\n',
    },
  },
};

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

export function licenseMail(kind: LicenseMail, locale: Locale, values: Record<string, string>): { subject: string; text: string } {
  const t = (TEXTS[locale] ?? TEXTS['en-GB'])[kind];
  return { subject: fill(t.subject, values), text: fill(t.body, values) };
}
