import { ApiError } from '../../core/apiClient';

/** The link result a 400 of POST /login/contact-form (or POST /contact) carries (portal-core.md §7). */
export interface LinkResult {
  status: string;
  maskedEmail?: string;
  method?: string;
}

export function linkResultOf(error: unknown): LinkResult | undefined {
  if (!(error instanceof ApiError) || error.status !== 400) return undefined;
  const details = error.details as Partial<LinkResult> | undefined;
  return details &&
    typeof details === 'object' &&
    !Array.isArray(details) &&
    typeof details.status === 'string'
    ? (details as LinkResult)
    : undefined;
}

/**
 * The contact errors of portal-core.md §8 by link result: bp-already-linked, bp-both-found,
 * subscription-already-linked (masked e-mail), validation-failed, subscription-not-found,
 * subscription-not-supported, invalid-zipcode, invalid-name, invalid-name-and-zipcode,
 * invalid-bpnumber-and-zipcode, email-required and unknown-error; plus the linked-page login's
 * confirm_email (a sign-in link went to the masked address on record) and no_email_on_record
 * (nothing to send it to): order number and zip code prove no identity.
 */
export function contactErrorKey(result: LinkResult | undefined): string {
  switch (result?.status) {
    case 'already_linked_bp':
      return 'contact.errorBpAlreadyLinked';
    case 'both_found_bp':
      return 'contact.errorBpBothFound';
    case 'already_linked':
      return 'contact.errorSubscriptionAlreadyLinked';
    case 'validation_failed':
      return 'contact.errorValidationFailed';
    case 'not_found':
      return 'contact.errorSubscriptionNotFound';
    case 'not_supported':
      return 'contact.errorSubscriptionNotSupported';
    case 'email_required':
      return 'contact.errorEmailRequired';
    case 'confirm_email':
      return 'contact.signInLinkSent';
    case 'no_email_on_record':
      return 'contact.errorNoEmailOnRecord';
    case 'verification_failed':
      switch (result.method) {
        case 'name':
          return 'contact.errorInvalidName';
        case 'order_number_name_zip':
          return 'contact.errorInvalidNameAndZipcode';
        case 'bp_number_zip':
          return 'contact.errorInvalidBpNumberAndZipcode';
        default:
          return 'contact.errorInvalidZipcode';
      }
    default:
      return 'contact.errorUnknown';
  }
}

/** Field problems of a 400 validation_failed, by JSON pointer. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed' || !Array.isArray(error.details))
    return {};
  const out: Record<string, string> = {};
  for (const detail of error.details as Array<{ field?: string; code?: string }>) {
    if (detail.field && !out[detail.field]) out[detail.field] = detail.code ?? 'invalid';
  }
  return out;
}
