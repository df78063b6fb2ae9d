/**
 * Cancellation rules shared by the cancellation screens and the server (account-flows.md §4
 * "Cancellation", §5, §8; portal-core.md §4 order status AK, §6 capability "cancellation").
 */
import type { Subscription } from '../../schemas/generated/subscription';
import { isExternallyManaged } from './capabilities';
import { isPlausibleEmail, isValidOrderNumber, ZIP_CODE_MAX_LENGTH, textLength } from './fieldRules';

/** §5, §9: cancellation feedback max 255 characters; the free-text reason has the same limit. */
export const CANCELLATION_FEEDBACK_MAX_LENGTH = 255;
/** §9 "Default categories": retention offers of a cancellation are category CANCEL. */
export const CANCEL_CATEGORY = 'CANCEL';

/**
 * What the cancellation screen shows before any form (§4, §8): the success notice for a
 * subscription already cancelled (AK) or inactive (I), the refusal naming the order number for an
 * externally managed one (WBZA), otherwise the form. The server refuses a cancel call by the same
 * function: 409 already_cancelled, 403 externally_managed.
 */
export type CancellationStart = 'already_cancelled' | 'externally_managed' | 'form';

export function cancellationStart(
  s: Pick<Subscription, 'orderStatus' | 'salesDocumentType'>,
): CancellationStart {
  if (s.orderStatus === 'AK' || s.orderStatus === 'I') return 'already_cancelled';
  if (isExternallyManaged(s)) return 'externally_managed';
  return 'form';
}

/** §4: "the type reported is exceptional (else regular)" — exceptional when not cancellable regularly. */
export type CancellationType = 'regular' | 'exceptional';
export const cancellationType = (cancellableRegularly: boolean): CancellationType =>
  cancellableRegularly ? 'regular' : 'exceptional';

export interface CancelFormInput {
  reason: string;
  /** The chosen date (an issue of the cancellation infos); required when cancellable regularly. */
  issue: { issueNumber: string | null; dateOfFirstSale: string | null } | null;
  /** The free-text reason; required when not cancellable regularly. */
  reasonText?: string;
  feedback?: string;
}

export type CancelFormError = {
  field: 'reason' | 'issue' | 'reasonText' | 'feedback';
  code: 'required' | 'too_long';
};

/** §5: "reason required; date required when cancellable; free text required when not cancellable; feedback max 255". */
export function cancelFormErrors(input: CancelFormInput, cancellableRegularly: boolean): CancelFormError[] {
  const errors: CancelFormError[] = [];
  if (!input.reason.trim()) errors.push({ field: 'reason', code: 'required' });
  if (cancellableRegularly && !input.issue) errors.push({ field: 'issue', code: 'required' });
  if (!cancellableRegularly && !input.reasonText?.trim())
    errors.push({ field: 'reasonText', code: 'required' });
  if (textLength(input.reasonText ?? '') > CANCELLATION_FEEDBACK_MAX_LENGTH)
    errors.push({ field: 'reasonText', code: 'too_long' });
  if (textLength(input.feedback ?? '') > CANCELLATION_FEEDBACK_MAX_LENGTH)
    errors.push({ field: 'feedback', code: 'too_long' });
  return errors;
}

/**
 * Whether a subscription can be cancelled regularly on `today` (ISO day): not before the end of its
 * minimum term (the subscription's `minimumTermEnd`). Otherwise only an extraordinary termination
 * with a reason in words is possible (§4).
 */
export function isCancellableRegularly(minimumTermEnd: string | null | undefined, today: string): boolean {
  return !minimumTermEnd || minimumTermEnd <= today;
}

/** How dates are offered (§9 "Cancellation date style"). */
export type CancellationDateStyle = 'date' | 'issue_number' | 'issue_number_date';

/**
 * How one date of the cancellation infos reads in the tenant's date style (§4 "Date display style
 * from tenant: date, issue_number or issue_number_date"): a null issue number is "the earliest
 * possible date" (§3), with its day where the infos give one; a style whose part is missing falls back to the part there is. The screen
 * turns the kind into its text and formats the date.
 */
export type CancellationDateLabel =
  | { kind: 'earliest'; date?: string }
  | { kind: 'date'; date: string }
  | { kind: 'issue'; issueNumber: string }
  | { kind: 'issue_date'; issueNumber: string; date: string };

export function cancellationDateLabel(
  issue: { issueNumber: string | null; dateOfFirstSale: string | null },
  style: CancellationDateStyle,
): CancellationDateLabel {
  const { issueNumber, dateOfFirstSale: date } = issue;
  // The earliest possible date (§3), named where the infos know it (a renewed term's end).
  if (issueNumber === null) return date ? { kind: 'earliest', date } : { kind: 'earliest' };
  if (style === 'date') return date ? { kind: 'date', date } : { kind: 'issue', issueNumber };
  if (style === 'issue_number_date' && date) return { kind: 'issue_date', issueNumber, date };
  return { kind: 'issue', issueNumber };
}

/**
 * §4: "If not cancellable regularly ... the date is fixed to the earliest possible date": the issue
 * without a number when the infos list one, else their first date. Cancellable: the first date is
 * preselected. Null when there is no date at all.
 */
export function preselectedCancellationIssue<I extends { issueNumber: string | null }>(
  issues: readonly I[],
  cancellableRegularly: boolean,
): I | null {
  if (!cancellableRegularly) return issues.find((issue) => issue.issueNumber === null) ?? issues[0] ?? null;
  return issues[0] ?? null;
}

/** §4: "If a default cancel reason is configured it is preselected" — only when the subscription offers that reason. */
export function preselectedCancelReason(
  reasons: ReadonlyArray<{ cancelReason: string }>,
  configured: string | undefined,
): string {
  return configured && reasons.some((reason) => reason.cancelReason === configured) ? configured : '';
}

/** The anonymous check of §2 "Cancellation screen" (POST /login/cancellation). */
export interface CancellationCheckInput {
  email: string;
  orderNumber: string;
  zipcode: string;
}

export type CancellationCheckError = {
  field: keyof CancellationCheckInput;
  code: 'required' | 'invalid' | 'too_long';
};

/** §5: "Cancellation: email, order number, zip required (zip max 10)"; the e-mail must look like one, the order number 8 to 10 digits. */
export function cancellationCheckErrors(input: CancellationCheckInput): CancellationCheckError[] {
  const errors: CancellationCheckError[] = [];
  const email = input.email.trim();
  const orderNumber = input.orderNumber.trim();
  const zipcode = input.zipcode.trim();
  if (!email) errors.push({ field: 'email', code: 'required' });
  else if (!isPlausibleEmail(email)) errors.push({ field: 'email', code: 'invalid' });
  if (!orderNumber) errors.push({ field: 'orderNumber', code: 'required' });
  else if (!isValidOrderNumber(orderNumber)) errors.push({ field: 'orderNumber', code: 'invalid' });
  if (!zipcode) errors.push({ field: 'zipcode', code: 'required' });
  else if (zipcode.length > ZIP_CODE_MAX_LENGTH) errors.push({ field: 'zipcode', code: 'too_long' });
  return errors;
}
