/**
 * The licence e-mails, in the language of the screen that caused them (account-flows.md §2
 * "Licences"): the invitation with its accept link (the link is the invited person's proof of the
 * address, single use), and the appointment of a new licence manager with its confirm link (the
 * appointed person's proof of the address, single use, 14 days). Placeholders in {braces}; the texts
 * are server/texts/<locale>/multi-user-licenses.json.
 */
import type { Locale } from '../../engine/domain/locales';
import { textsIn } from '../texts/serverTexts';

type LicenseMail = 'invitation' | 'managerAppointment';

export function licenseMail(
  kind: LicenseMail,
  locale: Locale,
  values: Record<string, string>,
): { subject: string; text: string } {
  const t = textsIn(locale, 'multi-user-licenses');
  return { subject: t(`${kind}.subject`, values), text: t(`${kind}.body`, values) };
}
