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
  // A validity of a day or more is said in hours ("24 hours", not "1440 minutes").
  const all = { ...values, hours: Math.round(values.minutes / 60) };
  return { subject: t(`${kind}.subject`, all), text: t(`${kind}.body`, all) };
}
