/**
 * Complaint rules shared by the complaint screen and the server (account-flows.md §2 "Complaint",
 * §4, §5: "only the first N delivered issues (N = the mix type's complaintIssues) are eligible",
 * §8, §9 complaint reasons and compensation).
 */
export type ComplaintReason = 'damaged' | 'notdelivered' | 'other';
export type CompensationOption = 'download' | 'complimentary_issue' | 'replacement';

/** Complaints one subscription may file within a year; more is the §8 "maximum exceeded" conflict. */
export const COMPLAINTS_PER_YEAR = 3;
/** A replacement copy can still be sent for issues up to this many days after their first sale. */
export const REPLACEMENT_DAYS = 28;
/** §9 "Replacement issue delivery: up to a week". */
export const REPLACEMENT_DELIVERY_DAYS = 7;
/**
 * A complaint's address-changed flag (§3) counts the goods recipient's postal address changes that
 * took effect in this many days up to the issue's sale day: one made then may not have reached its
 * dispatch.
 */
export const ADDRESS_CHANGE_WINDOW_DAYS = 28;

/** The issues a complaint may be about: the first N delivered ones (newest first). */
export function eligibleComplaintIssues<T>(deliveredNewestFirst: readonly T[], complaintIssues: number): T[] {
  return deliveredNewestFirst.slice(0, Math.max(0, complaintIssues));
}

/**
 * The compensation options for an issue (the tenant's list, narrowed): a download needs the issue as
 * a file (the title has an e-paper); a replacement copy only while copies of it are still to be had —
 * the latest delivered issue always (a monthly title's is often older than REPLACEMENT_DAYS), an
 * older one up to REPLACEMENT_DAYS after its first sale.
 */
export function compensationOptionsFor(
  tenantOptions: readonly CompensationOption[],
  issue: { dateOfFirstSale: string | null; latest?: boolean },
  facts: { hasEpaper: boolean; today: string },
): CompensationOption[] {
  const ageDays = issue.dateOfFirstSale
    ? (Date.parse(facts.today) - Date.parse(issue.dateOfFirstSale)) / 86_400_000
    : Infinity;
  return tenantOptions.filter((option) => {
    if (option === 'download') return facts.hasEpaper;
    if (option === 'replacement') return Boolean(issue.latest) || ageDays <= REPLACEMENT_DAYS;
    return true;
  });
}

/**
 * What the complaint page shows first (§8): no delivered issues → the no-issues message with the
 * contact link; the maximum reached → the conflict message; every issue complained about already →
 * no eligible issue, to contact; else the form.
 */
export function complaintStart(state: {
  issues: ReadonlyArray<{ complained: boolean }>;
  maxReached: boolean;
}): 'no_issues' | 'max_reached' | 'no_eligible' | 'form' {
  if (state.issues.length === 0) return 'no_issues';
  if (state.maxReached) return 'max_reached';
  if (state.issues.every((issue) => issue.complained)) return 'no_eligible';
  return 'form';
}

/** §4, §5 "issue, reason and compensation all required": submit stays disabled until all three are chosen. */
export function complaintReady(input: {
  issue?: string | null;
  reason?: string | null;
  option?: string | null;
}): boolean {
  return Boolean(input.issue && input.reason && input.option);
}
