import { textsIn } from '../texts/serverTexts';

/**
 * The sign-in e-mails in the reader's language (server/texts/<locale>/auth.json). Placeholders:
 * {tenant}, {link}, {minutes}.
 */
export type AuthMail =
  'magicLink' | 'confirmRegistration' | 'accountExists' | 'resetPassword' | 'partnerSignIn';

export function authMail(
  kind: AuthMail,
  locale: string,
  values: { tenant: string; link: string; minutes: number },
) {
  const t = textsIn(locale, 'auth');
  return { subject: t(`${kind}.subject`, values), text: t(`${kind}.body`, values) };
}
