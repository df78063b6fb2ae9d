/**
 * What the SSO profile calls answer and mail, in the subscriber's language (account-flows.md §7:
 * "a text reply, shown as a message when non-empty"; §8 "a non-empty reply text from the server is
 * shown as the message"). Placeholders in {braces}.
 */
import type { Locale } from '../../engine/domain/locales';

type Reply = 'passwordChanged' | 'emailChangeRequested' | 'emailChanged';
type Mail = 'confirmNewEmail' | 'emailTaken' | 'emailChangedNotice' | 'accountDeleted';

const REPLIES: Record<Locale, Record<Reply, string>> = {
  'de-DE': {
    passwordChanged: 'Ihr Passwort wurde geändert. Auf Ihren anderen Geräten sind Sie abgemeldet.',
    emailChangeRequested:
      'Wir haben einen Bestätigungslink an {email} geschickt. Ihre neue E-Mail-Adresse gilt, sobald Sie den Link geöffnet haben.',
    emailChanged: 'Ihre E-Mail-Adresse ist jetzt {email}.',
  },
  'en-GB': {
    passwordChanged: 'Your password has been changed. You are signed out on your other devices.',
    emailChangeRequested:
      'We have sent a confirmation link to {email}. Your new e-mail address counts once you have opened the link.',
    emailChanged: 'Your e-mail address is now {email}.',
  },
};

const MAILS: Record<Locale, Record<Mail, { subject: string; body: string }>> = {
  'de-DE': {
    confirmNewEmail: {
      subject: 'Bitte bestätigen Sie Ihre neue E-Mail-Adresse – {tenant}',
      body: 'Guten Tag,\n\nSie möchten sich bei {tenant} künftig mit dieser Adresse anmelden. Bitte bestätigen Sie das mit diesem Link:\n\n{link}\n\nDer Link ist 24 Stunden gültig. Ohne Bestätigung bleibt Ihre bisherige Adresse bestehen.\n',
    },
    emailTaken: {
      subject: 'Ihre E-Mail-Adresse bei {tenant}',
      body: 'Guten Tag,\n\njemand wollte diese Adresse als Anmeldeadresse eines Kontos bei {tenant} eintragen. Mit dieser Adresse gibt es dort bereits ein Konto; es wurde nichts geändert.\n\nWaren Sie das nicht, können Sie diese E-Mail ignorieren.\n',
    },
    emailChangedNotice: {
      subject: 'Ihre Anmeldeadresse bei {tenant} wurde geändert',
      body: 'Guten Tag,\n\nIhr Konto bei {tenant} meldet sich ab sofort mit einer neuen E-Mail-Adresse an ({masked}). An diese Adresse schicken wir keine Anmeldelinks mehr.\n\nWaren Sie das nicht, wenden Sie sich bitte umgehend an unseren Kundenservice.\n',
    },
    accountDeleted: {
      subject: 'Ihr Konto bei {tenant} wurde gelöscht',
      body: 'Guten Tag,\n\nwie gewünscht haben wir Ihr Kundenkonto bei {tenant} gelöscht und Sie auf allen Geräten abgemeldet. Ihre Abonnements laufen unverändert weiter.\n',
    },
  },
  'en-GB': {
    confirmNewEmail: {
      subject: 'Please confirm your new e-mail address – {tenant}',
      body: 'Hello,\n\nyou would like to sign in to {tenant} with this address from now on. Please confirm with this link:\n\n{link}\n\nThe link works for 24 hours. Without confirmation your current address stays.\n',
    },
    emailTaken: {
      subject: 'Your e-mail address at {tenant}',
      body: 'Hello,\n\nsomeone asked to make this address the sign-in address of an account at {tenant}. There is an account with this address already, so nothing was changed.\n\nIf this was not you, you can ignore this e-mail.\n',
    },
    emailChangedNotice: {
      subject: 'Your sign-in address at {tenant} has changed',
      body: 'Hello,\n\nyour account at {tenant} now signs in with a new e-mail address ({masked}). We no longer send sign-in links to this address.\n\nIf this was not you, please contact customer service straight away.\n',
    },
    accountDeleted: {
      subject: 'Your account at {tenant} has been deleted',
      body: 'Hello,\n\nas you asked, we have deleted your customer account at {tenant} and signed you out on every device. Your subscriptions continue unchanged.\n',
    },
  },
};

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

export const ssoReply = (kind: Reply, locale: Locale, values: Record<string, string> = {}) =>
  fill((REPLIES[locale] ?? REPLIES['en-GB'])[kind], values);

export function ssoMail(
  kind: Mail,
  locale: Locale,
  values: Record<string, string>,
): { subject: string; text: string } {
  const t = (MAILS[locale] ?? MAILS['en-GB'])[kind];
  return { subject: fill(t.subject, values), text: fill(t.body, values) };
}
