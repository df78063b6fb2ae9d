import { ApiError } from '../../core/apiClient';

/**
 * The named outcomes of a refused complaint (account-flows.md §8 "Complaint: conflict (a complaint
 * already exists or the maximum is exceeded)… Complaint failure opens an error dialog"):
 *  - complaint:exists (409 complaint_exists): this issue has a complaint already;
 *  - complaint:limit (409 complaint_limit_reached): no further complaints for this subscription;
 *  - complaint:failed: anything else, the error dialog.
 */
export type ComplaintFailure = 'complaint:exists' | 'complaint:limit' | 'complaint:failed';

export function complaintFailureOf(error: unknown): ComplaintFailure {
  if (!(error instanceof ApiError)) return 'complaint:failed';
  if (error.code === 'complaint_exists') return 'complaint:exists';
  if (error.code === 'complaint_limit_reached') return 'complaint:limit';
  return 'complaint:failed';
}
