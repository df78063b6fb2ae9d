import type { LinkSubscriptionResult } from '../../../schemas/generated/link-subscription-result';

/**
 * The named outcomes of linking a subscription (portal-core.md §4 "Link-subscription result",
 * §8), each mapped to its message here and nowhere else, as login/loginErrors.ts does for sign-in.
 * `link:confirm_email` has no message: it opens the dialog that says where the link went.
 */
export type LinkOutcome =
  | `link:${Exclude<LinkSubscriptionResult['status'], 'verification_failed'>}`
  | `link:verification_failed:${NonNullable<LinkSubscriptionResult['method']>}`
  /**
   * The message names what the visitor typed: already_linked of a customer number (by bp number,
   * no order number) names the number, already_linked_bp of an order number the subscription.
   */
  | 'link:already_linked_customer'
  | 'link:already_linked_own'
  | 'link:unknown';

const STATUSES: ReadonlySet<string> = new Set<LinkSubscriptionResult['status']>([
  'no_email_on_record',
  'confirm_email',
  'validation_failed',
  'not_found',
  'not_supported',
  'already_linked',
  'already_linked_bp',
  'both_found_bp',
]);
const METHODS: ReadonlySet<string> = new Set(['order_number_name_zip', 'bp_number_zip', 'name', 'zip']);

/** The outcome of a 400 answer's result; a status this engine does not know is `link:unknown`. */
export function linkOutcomeOf(
  result: Pick<LinkSubscriptionResult, 'status' | 'method' | 'orderNumber' | 'bpNumber'>,
): LinkOutcome {
  if (result.status === 'already_linked' && result.bpNumber && !result.orderNumber)
    return 'link:already_linked_customer';
  if (result.status === 'already_linked_bp' && result.orderNumber) return 'link:already_linked_own';
  if (result.status === 'verification_failed')
    return `link:verification_failed:${result.method && METHODS.has(result.method) ? result.method : 'zip'}`;
  return STATUSES.has(result.status) ? (`link:${result.status}` as LinkOutcome) : 'link:unknown';
}

/** The message's text key (placeholders orderNumber, maskedEmail, bpNumber, ssoId). */
export function linkOutcomeKey(outcome: Exclude<LinkOutcome, 'link:confirm_email'>): string {
  return `link-subscription.result.${outcome.slice('link:'.length).replace(':', '.')}`;
}
