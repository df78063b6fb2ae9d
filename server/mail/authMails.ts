import type { Locale } from '../../engine/domain/locales';

/**
 * The sign-in e-mails in the reader's language. Placeholders: {tenant}, {link}, {minutes}.
 * Kept beside the mailer because only the server sends them (the engine's texts are for screens).
 */
export type AuthMail =
  'magicLink' | 'confirmRegistration' | 'accountExists' | 'resetPassword' | 'partnerSignIn';

const TEXTS: Record<Locale, Record<AuthMail, { subject: string; body: string }>> = {
  'de-DE': {
    magicLink: {
      subject: 'Ihr Anmeldelink für {tenant}',
      body: 'Guten Tag,\n\nmit diesem Link melden Sie sich im Kundenportal von {tenant} an:\n\n{link}\n\nDer Link ist {minutes} Minuten gültig und funktioniert nur einmal. Wenn Sie ihn nicht angefordert haben, können Sie diese E-Mail ignorieren.\n',
    },
    confirmRegistration: {
      subject: 'Bitte bestätigen Sie Ihr Konto bei {tenant}',
      body: 'Guten Tag,\n\nbitte bestätigen Sie Ihre E-Mail-Adresse, um Ihr Konto im Kundenportal von {tenant} anzulegen:\n\n{link}\n\nDer Link ist {minutes} Minuten gültig. Wenn Sie sich nicht registriert haben, können Sie diese E-Mail ignorieren.\n',
    },
    accountExists: {
      subject: 'Ihr Konto bei {tenant}',
      body: 'Guten Tag,\n\njemand wollte mit Ihrer E-Mail-Adresse ein Konto im Kundenportal von {tenant} anlegen. Sie haben dort bereits ein Konto. Melden Sie sich hier an oder setzen Sie Ihr Passwort zurück:\n\n{link}\n\nWenn Sie das nicht waren, können Sie diese E-Mail ignorieren.\n',
    },
    resetPassword: {
      subject: 'Passwort zurücksetzen bei {tenant}',
      body: 'Guten Tag,\n\nmit diesem Link legen Sie ein neues Passwort für das Kundenportal von {tenant} fest:\n\n{link}\n\nDer Link ist {minutes} Minuten gültig und funktioniert nur einmal. Wenn Sie das nicht angefordert haben, bleibt Ihr Passwort unverändert.\n',
    },
    partnerSignIn: {
      subject: 'Anmeldung zu Ihrem Abonnement bei {tenant}',
      body: 'Guten Tag,\n\nim Kundenportal von {tenant} wurde mit der Auftragsnummer Ihres Abonnements eine Anmeldung angefragt. Diese E-Mail-Adresse ist bei uns für das Abonnement hinterlegt. Mit diesem Link melden Sie sich an:\n\n{link}\n\nDer Link ist {minutes} Minuten gültig und funktioniert nur einmal. Wenn Sie das nicht waren, können Sie diese E-Mail ignorieren; ohne den Link meldet sich niemand an.\n',
    },
  },
  'en-GB': {
    magicLink: {
      subject: 'Your login link for {tenant}',
      body: 'Hello,\n\nuse this link to log in to the customer portal of {tenant}:\n\n{link}\n\nThe link is valid for {minutes} minutes and works once. If you did not ask for it, you can ignore this e-mail.\n',
    },
    confirmRegistration: {
      subject: 'Please confirm your {tenant} account',
      body: 'Hello,\n\nplease confirm your e-mail address to create your account on the customer portal of {tenant}:\n\n{link}\n\nThe link is valid for {minutes} minutes. If you did not register, you can ignore this e-mail.\n',
    },
    accountExists: {
      subject: 'Your {tenant} account',
      body: 'Hello,\n\nsomeone tried to create an account on the customer portal of {tenant} with your e-mail address. You already have one. Log in or reset your password here:\n\n{link}\n\nIf this was not you, you can ignore this e-mail.\n',
    },
    resetPassword: {
      subject: 'Reset your {tenant} password',
      body: 'Hello,\n\nuse this link to set a new password for the customer portal of {tenant}:\n\n{link}\n\nThe link is valid for {minutes} minutes and works once. If you did not ask for it, your password stays as it is.\n',
    },
    partnerSignIn: {
      subject: 'Log in to your {tenant} subscription',
      body: 'Hello,\n\nsomeone asked to log in to the customer portal of {tenant} with the order number of your subscription. This e-mail address is the one we hold for that subscription. Use this link to log in:\n\n{link}\n\nThe link is valid for {minutes} minutes and works once. If this was not you, you can ignore this e-mail; nobody logs in without the link.\n',
    },
  },
};

export function authMail(
  kind: AuthMail,
  locale: string,
  values: { tenant: string; link: string; minutes: number },
) {
  const texts = TEXTS[locale === 'de-DE' ? 'de-DE' : 'en-GB'][kind];
  const fill = (template: string) =>
    template.replace(/\{(tenant|link|minutes)\}/g, (_, key: keyof typeof values) => String(values[key]));
  return { subject: fill(texts.subject), text: fill(texts.body) };
}
