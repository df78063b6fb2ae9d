/**
 * The e-card e-mail (account-flows.md §2 "E-card"): the template's image inline (a CID attachment
 * when the tenant ships the file, else the image's https URL), who it is from and to, and the
 * message — in the sender's language, as the card's words are chosen by the sender. User text is
 * escaped in the HTML part.
 */
import type { Locale } from '../../engine/domain/locales';
import type { OutgoingMail } from '../mail/mailer';
import type { ECardImage } from './eCardImages';

const TEXTS: Record<Locale, { subject: string; intro: string; footer: string }> = {
  'de-DE': {
    subject: '{from} hat Ihnen eine E-Card geschickt',
    intro: 'Liebe(r) {to},\n\n{from} hat Ihnen über {tenant} eine E-Card geschickt:',
    footer:
      'Diese E-Card wurde über das Kundenportal von {tenant} versendet. Ihre Adresse wird nur für diese Karte verwendet.',
  },
  'en-GB': {
    subject: '{from} has sent you an e-card',
    intro: 'Dear {to},\n\n{from} has sent you an e-card through {tenant}:',
    footer:
      'This e-card was sent through the customer portal of {tenant}. Your address is used for this card only.',
  },
};

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (_m, key: string) => values[key] ?? '');
const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

export const ECARD_IMAGE_CID = 'e-card-image@portal';

export function eCardMail(input: {
  tenantId: string;
  tenantName: string;
  from: string;
  mailFrom: string;
  locale: string;
  card: { fromName: string; toName: string; toEmail: string; message: string };
  image: ECardImage | undefined;
  imageUrl: string | undefined;
}): OutgoingMail {
  const t = TEXTS[input.locale as Locale] ?? TEXTS['en-GB'];
  const values = { from: input.card.fromName, to: input.card.toName, tenant: input.tenantName };
  const intro = fill(t.intro, values);
  const footer = fill(t.footer, values);
  const src = input.image ? `cid:${ECARD_IMAGE_CID}` : input.imageUrl;
  const paragraphs = (text: string) =>
    text
      .split(/\n{2,}/)
      .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
      .join('');
  const html =
    `<!doctype html><html lang="${input.locale}"><body style="margin:0;padding:24px;background:#f4f4f4;font-family:Arial,sans-serif;color:#1a1a1a">` +
    `<div style="max-width:600px;margin:0 auto;background:#ffffff;padding:24px;border-radius:8px">` +
    paragraphs(intro) +
    (src
      ? `<p><img src="${escapeHtml(src)}" alt="" width="552" style="max-width:100%;height:auto;border-radius:6px"></p>`
      : '') +
    `<blockquote style="margin:16px 0;padding:12px 16px;border-left:4px solid #999;font-size:16px">${paragraphs(input.card.message)}</blockquote>` +
    `<p>${escapeHtml(input.card.fromName)}</p>` +
    `<p style="font-size:12px;color:#555">${escapeHtml(footer)}</p></div></body></html>`;
  return {
    tenantId: input.tenantId,
    to: input.card.toEmail,
    from: input.mailFrom,
    subject: fill(t.subject, values),
    text: `${intro}\n\n${input.card.message}\n\n${input.card.fromName}\n\n--\n${footer}\n`,
    html,
    attachments: input.image
      ? [
          {
            filename: input.image.file,
            contentType: input.image.contentType,
            content: input.image.content,
            cid: ECARD_IMAGE_CID,
          },
        ]
      : undefined,
  };
}
