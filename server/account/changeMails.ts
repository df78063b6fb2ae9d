/**
 * The subscriber's confirmations of account changes, in their language (each change
 * sends the subscriber a confirmation e-mail), and the double opt-in e-mail.
 * Placeholders in {braces}; the texts are server/texts/<locale>/account.json (`<mail>.subject`,
 * `<mail>.body`, and the words used inside the mails as `word.<word>`).
 */
import type { Locale } from '../../engine/domain/locales';
import { textsIn } from '../texts/serverTexts';

export type ChangeMail =
  | 'holidaySet'
  | 'holidayCancelled'
  | 'paymentMethod'
  | 'complaint'
  | 'address'
  | 'optInConfirm'
  | 'phaseUpgrade';

export function changeMail(
  kind: ChangeMail,
  locale: Locale,
  values: Record<string, string>,
): { subject: string; text: string } {
  const t = textsIn(locale, 'account');
  return { subject: t(`${kind}.subject`, values), text: t(`${kind}.body`, values) };
}

export const mailWord = (locale: Locale, word: string, values: Record<string, string> = {}) =>
  textsIn(locale, 'account')(`word.${word}`, { ...values, defaultValue: word });
