import type { Locale } from '../../engine/core/portalConfig';

/** The magic-link e-mail in the reader's language (portal-core.md §2 "Login": "a login link is sent"). */
const TEXTS: Record<Locale, { subject: string; body: string }> = {
  'de-DE': {
    subject: 'Ihr Anmeldelink für {tenant}',
    body: 'Guten Tag,\n\nmit diesem Link melden Sie sich im Kundenportal von {tenant} an:\n\n{link}\n\nDer Link ist {minutes} Minuten gültig und funktioniert nur einmal. Wenn Sie ihn nicht angefordert haben, können Sie diese E-Mail ignorieren.\n',
  },
  'en-GB': {
    subject: 'Your login link for {tenant}',
    body: 'Hello,\n\nuse this link to log in to the {tenant} customer portal:\n\n{link}\n\nThe link is valid for {minutes} minutes and works once. If you did not ask for it, you can ignore this e-mail.\n',
  },
};

export function magicLinkMail(locale: string, values: { tenant: string; link: string; minutes: number }) {
  const texts = TEXTS[locale === 'de-DE' ? 'de-DE' : 'en-GB'];
  const fill = (template: string) =>
    template.replace(/\{(tenant|link|minutes)\}/g, (_, key: keyof typeof values) => String(values[key]));
  return { subject: fill(texts.subject), text: fill(texts.body) };
}
