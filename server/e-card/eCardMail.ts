/**
 * The e-card e-mail (account-flows.md §2 "E-card"): the template's image inline (a CID attachment
 * when the tenant ships the file, else the image's https URL), who it is from and to, and the
 * message — in the sender's language, as the card's words are chosen by the sender. User text is
 * escaped in the HTML part. The texts are server/texts/<locale>/e-card.json.
 */
import { textsIn } from '../texts/serverTexts';
import type { OutgoingMail } from '../mail/mailer';
import type { ECardImage } from './eCardImages';

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
  const t = textsIn(input.locale, 'e-card');
  const values = { from: input.card.fromName, to: input.card.toName, tenant: input.tenantName };
  const intro = t('mail.intro', values);
  const footer = t('mail.footer', values);
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
    subject: t('mail.subject', values),
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
