/**
 * The licence e-mails, in the language of the screen that caused them (account-flows.md §2
 * "Licences"): the invitation with its accept link (the link is the invited person's proof of the
 * address, single use), and the appointment of a new licence manager with its confirm link (the
 * appointed person's proof of the address, single use, 14 days). Placeholders in {braces}.
 */
import type { Locale } from '../../engine/domain/locales';

type LicenseMail = 'invitation' | 'managerAppointment';

const TEXTS: Record<Locale, Record<LicenseMail, { subject: string; body: string }>> = {
  'de-DE': {
    invitation: {
      subject: 'Ihre Einladung zur Lizenz „{publication}“ – {tenant}',
      body:
        'Guten Tag {name},\n\nSie wurden eingeladen, „{publication}“ (Auftragsnummer {orderNumber}) im Kundenportal von {tenant} mitzunutzen.\n\n' +
        'Bitte nehmen Sie die Lizenz mit diesem Link an:\n\n{link}\n\nDer Link gilt einmal. Wenn Sie keine Einladung erwartet haben, ignorieren Sie diese E-Mail einfach.\n\nIhr Team von {tenant}\n',
    },
    managerAppointment: {
      subject: 'Bitte bestätigen: Lizenzverwaltung für „{publication}“ – {tenant}',
      body:
        'Guten Tag {name},\n\nSie wurden als Lizenzverwalter von „{publication}“ (Auftragsnummer {orderNumber}) im Kundenportal von {tenant} eingetragen.\n\n' +
        'Bitte bestätigen Sie das mit diesem Link. Erst dann verwalten Sie die Lizenzen:\n\n{link}\n\n' +
        'Der Link gilt einmal und {days} Tage. Wenn Sie das nicht erwartet haben, ignorieren Sie diese E-Mail einfach; dann ändert sich nichts.\n\nIhr Team von {tenant}\n',
    },
  },
  'en-GB': {
    invitation: {
      subject: 'Your invitation to the licence "{publication}" – {tenant}',
      body:
        'Hello {name},\n\nyou have been invited to share "{publication}" (order number {orderNumber}) in the customer portal of {tenant}.\n\n' +
        'Please accept the licence with this link:\n\n{link}\n\nThe link works once. If you did not expect an invitation, simply ignore this e-mail.\n\nThe {tenant} team\n',
    },
    managerAppointment: {
      subject: 'Please confirm: managing the licences of "{publication}" – {tenant}',
      body:
        'Hello {name},\n\nyou have been named licence manager of "{publication}" (order number {orderNumber}) in the customer portal of {tenant}.\n\n' +
        'Please confirm with this link. Only then will you manage the licences:\n\n{link}\n\n' +
        'The link works once and for {days} days. If you did not expect this, simply ignore this e-mail and nothing changes.\n\nThe {tenant} team\n',
    },
  },
};

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

export function licenseMail(
  kind: LicenseMail,
  locale: Locale,
  values: Record<string, string>,
): { subject: string; text: string } {
  const t = (TEXTS[locale] ?? TEXTS['en-GB'])[kind];
  return { subject: fill(t.subject, values), text: fill(t.body, values) };
}
