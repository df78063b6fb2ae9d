/**
 * Linking a subscription to the account (portal-core.md §2 "Link subscription", §4 result
 * statuses, §5 field rules, §8 messages). The form and POST /api/subscriptions share these rules.
 */
import { isBlankText, isValidBpNumber, isValidOrderNumber, ZIP_CODE_MAX_LENGTH } from './fieldRules';
import type { LinkSubscriptionRequest } from '../../schemas/generated/link-subscription-request';

/**
 * §4 "Link-subscription result statuses" (the non-success outcomes arrive as HTTP 400), with
 * no_email_on_record for §4's email_required: a partner without an address on record cannot be
 * proved to be the account's (docs/decisions.md "Where the portal reads the spec differently").
 */
export const LINK_RESULT_STATUSES = [
  'no_email_on_record',
  'confirm_email',
  'validation_failed',
  'verification_failed',
  'not_found',
  'not_supported',
  'already_linked',
  'already_linked_bp',
  'both_found_bp',
] as const;
export type LinkResultStatus = (typeof LINK_RESULT_STATUSES)[number];

/** §8: the wording of verification_failed depends on what did not match. */
export type VerificationMethod = 'order_number_name_zip' | 'bp_number_zip' | 'name' | 'zip';

export interface LinkSettings {
  hasMultipleAvsClients?: boolean;
  linkSubscription?: { askGiftQuestion?: boolean; preferredRole?: 'WE' | 'AG'; allowBpNumber?: boolean };
}

/** The request body (schemas/api/link-subscription-request.schema.json) and which way the form links. */
export type LinkInput = LinkSubscriptionRequest & { byBpNumber: boolean };

/** Which fields the form shows (§5). */
export function linkFields(settings: LinkSettings, byBpNumber: boolean) {
  const config = settings.linkSubscription ?? {};
  const bp = byBpNumber && Boolean(config.allowBpNumber);
  return {
    // "publication required when the tenant has several order-system clients and the user does not link by business-partner number"
    publication: Boolean(settings.hasMultipleAvsClients) && !bp,
    orderNumber: !bp,
    bpNumber: bp,
    // "last name shown only when linking by bp number, or when no preferred-role config and no gift question"
    lastName: bp || (!config.preferredRole && !config.askGiftQuestion),
    zipcode: true,
    // "the gift question (yes = WE, no = AG) is required when enabled and not linking by bp number"
    giftQuestion: Boolean(config.askGiftQuestion) && !bp,
  };
}

export type LinkField = 'publication' | 'orderNumber' | 'bpNumber' | 'lastName' | 'zipcode' | 'preferredRole';
export type LinkFieldError = 'required' | 'invalid_order_number' | 'invalid_bp_number' | 'too_long';

/**
 * Field errors by §5. The input mask accepts 8 to 10 digits for order numbers; order numbers of the
 * order system have exactly 10 (§9), which the server checks on top (`strictOrderNumber`).
 */
export function linkFieldErrors(
  settings: LinkSettings,
  input: LinkInput,
  options: { strictOrderNumber?: boolean } = {},
) {
  const fields = linkFields(settings, input.byBpNumber);
  const errors: Partial<Record<LinkField, LinkFieldError>> = {};
  const blank = isBlankText;
  if (fields.publication && blank(input.publication)) errors.publication = 'required';
  if (fields.orderNumber) {
    if (blank(input.orderNumber)) errors.orderNumber = 'required';
    else if (
      !isValidOrderNumber(input.orderNumber!) ||
      (options.strictOrderNumber && !/^\d{10}$/.test(input.orderNumber!))
    )
      errors.orderNumber = 'invalid_order_number';
  }
  if (fields.bpNumber) {
    if (blank(input.bpNumber)) errors.bpNumber = 'required';
    else if (!isValidBpNumber(input.bpNumber!)) errors.bpNumber = 'invalid_bp_number';
  }
  if (fields.lastName && blank(input.lastName)) errors.lastName = 'required';
  if (blank(input.zipcode)) errors.zipcode = 'required';
  else if (input.zipcode!.trim().length > ZIP_CODE_MAX_LENGTH) errors.zipcode = 'too_long';
  if (fields.giftQuestion && !input.preferredRole) errors.preferredRole = 'required';
  return errors;
}
