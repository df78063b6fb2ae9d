import { textsIn } from '../texts/serverTexts';

/**
 * The e-mail customer service receives for a contact message (portal-core.md §2 "Contact": messages
 * go to the tenant's contact address). Written in the tenant's default language, since it is read
 * by the publisher's staff; field values are the sender's as given, codes named (the salutation's
 * title, the publication's description), and the sender's language where it is another. The labels are
 * server/texts/<locale>/contact.json.
 */
export interface ContactMailInput {
  tenantName: string;
  locale: string;
  reference: string;
  activityName: string;
  accountEmail?: string;
  subscription?: { id: string; orderNumber: string; displayName: string };
  publication?: string;
  orderNumber?: string;
  missingOrderNumber: boolean;
  relatedTo?: string;
  contactDetails: Record<string, string | undefined>;
  optIn?: boolean;
  attachment?: string;
  message?: string;
  /** The language the sender wrote in: customer service answers in it. */
  senderLocale?: string;
}

export function contactMail(input: ContactMailInput): { subject: string; text: string } {
  const text = textsIn(input.locale, 'contact');
  const l = (label: string) => text(`mail.${label}`);
  const lines: string[] = [l('intro'), ''];
  const add = (label: string, value: string | undefined) => {
    if (value) lines.push(`${label}: ${value}`);
  };
  add(l('reference'), input.reference);
  add(l('activity'), input.activityName);
  add(l('account'), input.accountEmail);
  if (input.subscription)
    add(l('subscription'), `${input.subscription.displayName} (${input.subscription.orderNumber})`);
  add(l('publication'), input.publication);
  add(l('orderNumber'), input.missingOrderNumber ? l('noOrderNumber') : input.orderNumber);
  add(
    l('relatedTo'),
    input.relatedTo && text(`mail.relatedTo.${input.relatedTo}`, { defaultValue: input.relatedTo }),
  );
  const d = input.contactDetails;
  add(l('salutation'), d.salutation);
  add(l('name'), [d.firstName, d.lastName].filter(Boolean).join(' ') || undefined);
  add(l('company'), d.company);
  add(l('email'), d.email);
  // The sender's language by its name in the mail's ("Englisch"), where it differs from the mail's.
  if (input.senderLocale && input.senderLocale !== input.locale)
    add(
      l('language'),
      new Intl.DisplayNames([input.locale], { type: 'language' }).of(input.senderLocale.split('-')[0]),
    );
  if (input.optIn !== undefined) add(l('optIn'), input.optIn ? l('yes') : l('no'));
  add(l('attachment'), input.attachment);
  if (input.message) lines.push('', `${l('message')}:`, input.message);
  const subject = text('mail.subject', { tenant: input.tenantName, activity: input.activityName });
  return { subject, text: `${lines.join('\n')}\n` };
}

/**
 * The receipt a signed-in sender gets at the account's own address, in the sender's language: the
 * topic, the subscription, the reference and what was written, so a request (a cancellation's
 * withdrawal, a complaint) leaves the subscriber a record of it. An anonymous sender gets none: a
 * typed address would let anyone have the portal mail any text to anyone.
 */
export function contactReceiptMail(input: {
  tenantName: string;
  locale: string;
  reference: string;
  activityName: string;
  subscription?: { orderNumber: string; displayName: string };
  message?: string;
}): { subject: string; text: string } {
  const text = textsIn(input.locale, 'contact');
  const about = input.subscription
    ? text('receipt.about', {
        activity: input.activityName,
        subscription: input.subscription.displayName,
        orderNumber: input.subscription.orderNumber,
      })
    : input.activityName;
  return {
    subject: text('receipt.subject', { tenant: input.tenantName }),
    text: text('receipt.body', {
      tenant: input.tenantName,
      about,
      reference: input.reference,
      message: input.message ? `\n${text('receipt.message')}\n${input.message}\n` : '',
    }),
  };
}
