import type { Locale } from '../../engine/domain/locales';

/**
 * The e-mail customer service receives for a contact message (portal-core.md §2 "Contact": messages
 * go to the tenant's contact address). Written in the tenant's default language, since it is read
 * by the publisher's staff; field values are the sender's as given.
 */
const LABELS: Record<Locale, Record<string, string>> = {
  'de-DE': {
    subject: 'Kontaktformular {tenant}: {activity}',
    intro: 'Über das Kundenportal ist eine neue Nachricht eingegangen.',
    activity: 'Anliegen',
    account: 'Angemeldet als',
    subscription: 'Abo',
    publication: 'Publikation',
    orderNumber: 'Auftragsnummer',
    noOrderNumber: 'keine Auftragsnummer vorhanden',
    relatedTo: 'Betrifft',
    salutation: 'Anrede',
    name: 'Name',
    company: 'Firma',
    email: 'E-Mail',
    optIn: 'Werbeeinwilligung',
    yes: 'ja',
    no: 'nein',
    attachment: 'Anhang',
    message: 'Nachricht',
    reference: 'Vorgang',
    'relatedTo.subscription': 'Abonnement',
    'relatedTo.purchase-order': 'Einzelbestellung',
    'relatedTo.unspecified': 'Sonstiges',
  },
  'en-GB': {
    subject: 'Contact form {tenant}: {activity}',
    intro: 'A new message has arrived through the customer portal.',
    activity: 'Topic',
    account: 'Logged in as',
    subscription: 'Subscription',
    publication: 'Publication',
    orderNumber: 'Order number',
    noOrderNumber: 'no order number',
    relatedTo: 'Related to',
    salutation: 'Salutation',
    name: 'Name',
    company: 'Company',
    email: 'E-mail',
    optIn: 'Marketing opt-in',
    yes: 'yes',
    no: 'no',
    attachment: 'Attachment',
    message: 'Message',
    reference: 'Reference',
    'relatedTo.subscription': 'Subscription',
    'relatedTo.purchase-order': 'Single purchase',
    'relatedTo.unspecified': 'Other',
  },
};

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
}

export function contactMail(input: ContactMailInput): { subject: string; text: string } {
  const l = LABELS[input.locale === 'en-GB' ? 'en-GB' : 'de-DE'];
  const lines: string[] = [l.intro, ''];
  const add = (label: string, value: string | undefined) => {
    if (value) lines.push(`${label}: ${value}`);
  };
  add(l.reference, input.reference);
  add(l.activity, input.activityName);
  add(l.account, input.accountEmail);
  if (input.subscription)
    add(l.subscription, `${input.subscription.displayName} (${input.subscription.orderNumber})`);
  add(l.publication, input.publication);
  add(l.orderNumber, input.missingOrderNumber ? l.noOrderNumber : input.orderNumber);
  add(l.relatedTo, input.relatedTo && (l[`relatedTo.${input.relatedTo}`] ?? input.relatedTo));
  const d = input.contactDetails;
  add(l.salutation, d.salutation);
  add(l.name, [d.firstName, d.lastName].filter(Boolean).join(' ') || undefined);
  add(l.company, d.company);
  add(l.email, d.email);
  if (input.optIn !== undefined) add(l.optIn, input.optIn ? l.yes : l.no);
  add(l.attachment, input.attachment);
  if (input.message) lines.push('', `${l.message}:`, input.message);
  const subject = l.subject.replace('{tenant}', input.tenantName).replace('{activity}', input.activityName);
  return { subject, text: `${lines.join('\n')}\n` };
}
