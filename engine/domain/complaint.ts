/**
 * Issue complaint rules shared by the complaint screen and the server (account-flows.md §3
 * "Complaint", §4 "Complaint", §5 "Complaint", §8 "Complaint", §9 reasons and compensation).
 */
export const COMPLAINT_REASONS = ['damaged', 'notdelivered', 'other'] as const;
export type ComplaintReason = (typeof COMPLAINT_REASONS)[number];
export const COMPENSATION_OPTIONS = ['download', 'complimentary_issue', 'replacement'] as const;
export type CompensationOption = (typeof COMPENSATION_OPTIONS)[number];

/** §9 "Replacement issue delivery: up to a week". */
export const REPLACEMENT_DAYS = 7;

/** §5 "only the first N delivered issues (N = the mix type's complaintIssues) are eligible"; newest first. */
export function eligibleComplaintIssues<T extends { dateOfFirstSale?: string | null }>(delivered: readonly T[], complaintIssues: number): T[] {
  const newestFirst = [...delivered].sort((a, b) => (b.dateOfFirstSale ?? '').localeCompare(a.dateOfFirstSale ?? ''));
  return newestFirst.slice(0, Math.max(0, complaintIssues));
}

/**
 * What the complaint page shows first (§8): no delivered issues → the no-issues message with the
 * contact link; the maximum reached → the conflict message; every issue complained about already →
 * no eligible issue, to contact; else the form.
 */
export function complaintStart(state: { issues: ReadonlyArray<{ complained: boolean }>; maxReached: boolean }): 'no_issues' | 'max_reached' | 'no_eligible' | 'form' {
  if (state.issues.length === 0) return 'no_issues';
  if (state.maxReached) return 'max_reached';
  if (state.issues.every((issue) => issue.complained)) return 'no_eligible';
  return 'form';
}

/** §4, §5 "issue, reason and compensation all required": submit stays disabled until all three are chosen. */
export function complaintReady(input: { issue?: string | null; reason?: string | null; option?: string | null }): boolean {
  return Boolean(input.issue && input.reason && input.option);
}
