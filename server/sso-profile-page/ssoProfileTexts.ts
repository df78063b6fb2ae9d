/**
 * What the SSO profile calls answer and mail, in the subscriber's language (account-flows.md §7:
 * "a text reply, shown as a message when non-empty"; §8 "a non-empty reply text from the server is
 * shown as the message"). Placeholders in {braces}; the texts are
 * server/texts/<locale>/sso-profile-page.json.
 */
import type { Locale } from '../../engine/domain/locales';
import { textsIn } from '../texts/serverTexts';

type Reply = 'passwordChanged' | 'emailChangeRequested' | 'emailChanged' | 'emailChangeUndone';
type Mail = 'confirmNewEmail' | 'emailTaken' | 'emailChangedNotice' | 'accountDeleted';

export const ssoReply = (kind: Reply, locale: Locale, values: Record<string, string> = {}) =>
  textsIn(locale, 'sso-profile-page')(`reply.${kind}`, values);

export function ssoMail(
  kind: Mail,
  locale: Locale,
  values: Record<string, string>,
): { subject: string; text: string } {
  const t = textsIn(locale, 'sso-profile-page');
  return { subject: t(`${kind}.subject`, values), text: t(`${kind}.body`, values) };
}
