import { ApiError } from '../../core/apiClient';

/**
 * The named outcomes of a refused cancel call (account-flows.md §8 "Cancellation"): the server
 * refuses by the same rule the screen starts with (engine/domain/cancellation.ts cancellationStart).
 *  - cancel:already_cancelled (409): the page shows the already-cancelled notice;
 *  - cancel:externally_managed (403): the refusal naming the order number;
 *  - cancel:not_possible (409 cancellation_not_possible): the publication has no reasons;
 *  - cancel:invalid (400 validation_failed): the form's rules, checked again;
 *  - cancel:failed: anything else, the generic error dialog.
 * The reasons and infos calls refuse with the same codes.
 */
export type CancelFailure =
  | 'cancel:already_cancelled'
  | 'cancel:externally_managed'
  | 'cancel:not_possible'
  | 'cancel:invalid'
  | 'cancel:failed';

export function cancelFailureOf(error: unknown): CancelFailure {
  if (!(error instanceof ApiError)) return 'cancel:failed';
  switch (error.code) {
    case 'already_cancelled':
      return 'cancel:already_cancelled';
    case 'externally_managed':
      return 'cancel:externally_managed';
    case 'cancellation_not_possible':
      return 'cancel:not_possible';
    case 'validation_failed':
      return 'cancel:invalid';
    default:
      return 'cancel:failed';
  }
}

/** The order number a 403 externally_managed names (details.orderNumber). */
export function refusedOrderNumber(error: unknown): string | undefined {
  const details =
    error instanceof ApiError ? (error.details as { orderNumber?: unknown } | undefined) : undefined;
  return typeof details?.orderNumber === 'string' ? details.orderNumber : undefined;
}

/** A refusal the page answers with a notice instead of the generic error (the reasons, infos and cancel calls alike). */
export interface CancelRefusal {
  refusal: Exclude<CancelFailure, 'cancel:invalid' | 'cancel:failed'>;
  orderNumber?: string;
}

/** The error as a refusal with a notice, or rethrown (the generic error). */
export function refusalOrThrow(error: unknown): CancelRefusal {
  const failure = cancelFailureOf(error);
  if (failure === 'cancel:invalid' || failure === 'cancel:failed') throw error;
  return { refusal: failure, orderNumber: refusedOrderNumber(error) };
}

export const isRefusal = (value: unknown): value is CancelRefusal =>
  typeof value === 'object' && value !== null && 'refusal' in value;
