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

/**
 * The notice to an account that spoke for a customer before another address, the one on record,
 * signed in for it (docs/architecture.md "Sign-in safety"). Placeholders: {tenant}, {masked} (the
 * other address, masked), {bpNumber}, {contact}.
 */
export function partnerAlsoLinkedMail(
  locale: string,
  values: { tenant: string; masked: string; bpNumber: string; contact: string },
) {
  const t = textsIn(locale, 'auth');
  return { subject: t('partnerAlsoLinked.subject', values), text: t('partnerAlsoLinked.body', values) };
}
