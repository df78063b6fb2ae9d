import { ApiError } from '../../core/apiClient';

/**
 * The named outcomes of a refused cancel call (account-flows.md §8 "Cancellation"): the server
 * refuses by the same rule the screen starts with (engine/domain/cancellation.ts cancellationStart).
 *  - cancel:already_cancelled (409): the page shows the already-cancelled notice;
 *  - cancel:externally_managed (403): the refusal naming the order number;
 *  - cancel:invalid (400 validation_failed): the form's rules, checked again;
 *  - cancel:failed: anything else, the generic error dialog.
 */
export type CancelFailure = 'cancel:already_cancelled' | 'cancel:externally_managed' | 'cancel:invalid' | 'cancel:failed';

export function cancelFailureOf(error: unknown): CancelFailure {
  if (!(error instanceof ApiError)) return 'cancel:failed';
  switch (error.code) {
    case 'already_cancelled':
      return 'cancel:already_cancelled';
    case 'externally_managed':
      return 'cancel:externally_managed';
    case 'validation_failed':
      return 'cancel:invalid';
    default:
      return 'cancel:failed';
  }
}
