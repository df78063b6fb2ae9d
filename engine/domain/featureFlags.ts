/**
 * The tenant feature flags of portal-core.md §6 ("Tenant feature list"), written kebab-case
 * (CONVENTIONS.md rule 1: one id everywhere — tenant files, folders, text-key prefixes).
 * This is the only list of flags: the tenant schema's enum, the validator's "did you mean",
 * the feature registry and the server's checks all read it (a unit test keeps the schema in step).
 */
export const FEATURE_FLAGS = [
  'cancellation',
  'membership',
  'issue-download',
  'purchase-order-download',
  'address-lines',
  'address-change',
  'manual-registration',
  'holiday-redirect',
  'holiday-break',
  'holiday-download',
  'issue-complaint',
  'issue-history',
  'issue-calendar',
  'payment-history',
  'valid-from',
  'opt-ins',
  'payment-method-change',
  'faq',
  'gift-certificate',
  'invoice-request',
  'invoice-download',
  'contact-form',
  'billing-frequency',
  'renewal',
  'pending-orders',
  'announcement',
  'external-navigation',
  'multi-user-licenses',
  'email-widget',
  'oauth',
  'sso-profile-page',
  'kicker-auth',
  'phase-upgrade',
  'upgrade',
  'e-card',
  'shipping-status',
  'external-subscription-link',
  'loyalty-programme',
] as const;

export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

export function isFeatureFlag(value: string): value is FeatureFlag {
  return (FEATURE_FLAGS as readonly string[]).includes(value);
}
