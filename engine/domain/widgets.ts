/**
 * Rules of the anonymous widgets shared by their screens and the server: the e-mail widget
 * (account-flows.md §2 "Email widget", §3 "Email widget form", §5 "Email widget: email, order number,
 * zip (max 10) required") and the opt-in widget (§2 "Opt-in widget", §3 payload, §5 "salutation,
 * first and last name (max 35), email and consent required", §8 "Opt-in widget disabled").
 */
import { isPlausibleEmail, isValidCustomerNumber, ZIP_CODE_MAX_LENGTH, textLength } from './fieldRules';
import { isFeatureOn, type FeatureSwitches } from './tenantFeatures';

export type WidgetProblem = 'required' | 'too_long' | 'invalid';

// --- e-mail widget ---------------------------------------------------------------------------------

export interface EmailWidgetDraft {
  email: string;
  orderNumber: string;
  zipcode: string;
}

export function emailWidgetProblems(
  draft: EmailWidgetDraft,
): Partial<Record<keyof EmailWidgetDraft, WidgetProblem>> {
  const problems: Partial<Record<keyof EmailWidgetDraft, WidgetProblem>> = {};
  const email = draft.email.trim();
  if (!email) problems.email = 'required';
  else if (!isPlausibleEmail(email)) problems.email = 'invalid';
  const orderNumber = draft.orderNumber.trim();
  // portal-core.md §5: "Customer or order number on the contact form and e-mail widget flows: 8 to 10 digits".
  if (!orderNumber) problems.orderNumber = 'required';
  else if (!isValidCustomerNumber(orderNumber)) problems.orderNumber = 'invalid';
  const zip = draft.zipcode.trim();
  if (!zip) problems.zipcode = 'required';
  else if (zip.length > ZIP_CODE_MAX_LENGTH) problems.zipcode = 'too_long';
  return problems;
}

/** §2: the opt-in checkbox shows when the tenant supports opt-ins. */
export const emailWidgetShowsOptIn = (tenant: FeatureSwitches) => isFeatureOn(tenant, 'opt-ins');

/** How long the e-mail widget's link shows the result (and serves the reward downloads). */
export const EMAIL_WIDGET_LINK_HOURS = 48;

// --- opt-in widget ---------------------------------------------------------------------------------

/** §5, §9: names in the opt-in widget form, at most 35 characters. */
export const OPT_IN_WIDGET_NAME_MAX_LENGTH = 35;
/** How long the opt-in widget's confirmation link works. */
export const OPT_IN_WIDGET_LINK_DAYS = 7;

export interface OptInWidgetProviderLike {
  code: string;
  voucherCodeKey?: string;
}

export interface OptInWidgetSettings extends FeatureSwitches {
  optIns?: { widget?: { providers?: readonly OptInWidgetProviderLike[] } };
}

/**
 * The provider the widget is opened for (query `provider`), or null: the widget is off (no `opt-ins`
 * flag, no providers) or the provider is unknown — §8 "Opt-in widget disabled: message with
 * fallback email and phone" for both.
 */
export function optInWidgetProvider<P extends OptInWidgetProviderLike>(
  tenant: FeatureSwitches & { optIns?: { widget?: { providers?: readonly P[] } } },
  code: string | null | undefined,
): P | null {
  if (!isFeatureOn(tenant, 'opt-ins') || !code) return null;
  return tenant.optIns?.widget?.providers?.find((p) => p.code === code) ?? null;
}

export interface OptInWidgetDraft {
  salutationCode: string;
  firstName: string;
  lastName1: string;
  email: string;
  optIn: boolean;
}

export function optInWidgetProblems(
  draft: OptInWidgetDraft,
): Partial<Record<keyof OptInWidgetDraft, WidgetProblem>> {
  const problems: Partial<Record<keyof OptInWidgetDraft, WidgetProblem>> = {};
  if (!draft.salutationCode.trim()) problems.salutationCode = 'required';
  for (const field of ['firstName', 'lastName1'] as const) {
    const value = draft[field].trim();
    if (!value) problems[field] = 'required';
    else if (textLength(value) > OPT_IN_WIDGET_NAME_MAX_LENGTH) problems[field] = 'too_long';
  }
  const email = draft.email.trim();
  if (!email) problems.email = 'required';
  else if (!isPlausibleEmail(email)) problems.email = 'invalid';
  if (!draft.optIn) problems.optIn = 'required';
  return problems;
}
