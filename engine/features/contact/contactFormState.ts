import type { ContactActivity } from '../../../schemas/generated/tenant';
import type { TranslateFn } from '../../core/translation';
import {
  CONTACT_LIMITS,
  isCompanySalutation,
  type ContactInput,
  type ContactSubject,
} from '../../domain/contactRules';
import { textLength } from '../../domain/fieldRules';
import type { ContactTenant } from './ContactScreen';

/** What the contact form's fields hold (portal-core.md §5 "Contact form"). */
export interface ContactValues {
  subscriptionId: string;
  salutation: string;
  company: string;
  firstName: string;
  lastName: string;
  email: string;
  publication: string;
  orderNumber: string;
  relatedTo: string;
  message: string;
}

/** A field's error code (by JSON pointer, the server's too) in words, the length rule with its numbers. */
export function contactErrorText(
  t: TranslateFn,
  values: ContactValues,
  code: string | undefined,
  field: string,
): string | undefined {
  if (!code) return undefined;
  if (code === 'required') return t('contact.required');
  if (code === 'one_line') return t('shell.oneLine');
  if (code === 'too_long' && field in CONTACT_LIMITS)
    return t('shell.tooLong', {
      max: CONTACT_LIMITS[field as keyof typeof CONTACT_LIMITS],
      count: lengthOf(values, field),
    });
  if (code === 'file_too_large') return t('contact.fileTooLarge');
  if (code === 'file_type') return t('contact.fileType');
  if (code === 'not_allowed') return t('contact.notAllowed');
  if (field === '/orderNumber') return t('contact.invalidOrderNumber');
  if (field === '/contactDetails/email') return t('contact.invalidEmail');
  return t('contact.invalid');
}

function lengthOf(values: ContactValues, field: string): number {
  if (field === '/message') return textLength(values.message);
  return textLength(
    values[field.slice('/contactDetails/'.length) as 'firstName' | 'lastName' | 'company' | 'email'] ?? '',
  );
}

/**
 * The body of POST /contact (without the file): signed in, the subscription the form shows (where
 * the activity needs one, or where the form was opened for one); else the person's details, the
 * publication, the subject and the order number, or that it is missing where the activity allows
 * it.
 */
export function contactInput(
  values: ContactValues,
  {
    activity,
    tenant,
    locale,
    loggedIn,
    sendsSubscription,
    messageShown,
    showMessageInput,
    optIn,
    missingOrderNumber,
  }: {
    activity: ContactActivity;
    tenant: ContactTenant;
    locale: string;
    loggedIn: boolean;
    /** The subscription the form shows is sent (useContactForm sendsSubscription). */
    sendsSubscription: boolean;
    messageShown: boolean;
    showMessageInput: boolean;
    /** The opt-in's answer, where the form shows it. */
    optIn: boolean | undefined;
    missingOrderNumber: boolean;
  },
): ContactInput & { locale: string } {
  const base: ContactInput & { locale: string } = {
    activity: activity.activity,
    locale,
    ...(messageShown ? { message: values.message } : {}),
    ...(showMessageInput ? { showMessageInput: true } : {}),
    ...(optIn !== undefined ? { optIn } : {}),
  };
  if (loggedIn)
    return {
      ...base,
      ...(sendsSubscription && values.subscriptionId ? { subscriptionId: values.subscriptionId } : {}),
    };
  const details = {
    salutation: values.salutation,
    firstName: values.firstName,
    lastName: values.lastName,
    email: values.email,
  };
  return {
    ...base,
    contactDetails: isCompanySalutation(tenant, values.salutation)
      ? { ...details, company: values.company }
      : details,
    ...(values.publication ? { publication: values.publication } : {}),
    ...(values.relatedTo ? { relatedTo: values.relatedTo as ContactSubject } : {}),
    ...(missingOrderNumber && activity.allowMissingOrderNumber
      ? { missingOrderNumber: true }
      : { orderNumber: values.orderNumber }),
  };
}
