import { ApiError } from '../../core/apiClient';

/**
 * The named outcomes of a refused holiday call (account-flows.md §4, §8):
 *  - holiday:active (409 holiday_service_active): another service is planned; the page shows it;
 *  - holiday:not_cancellable (409 not_cancellable): its first issue has gone out meanwhile;
 *  - holiday:not_planned (404 holiday_service_not_planned): cancelled meanwhile (another tab);
 *  - holiday:invalid (400 validation_failed): the fields the server refused;
 *  - holiday:failed: anything else, the error dialog with the contact link.
 */
export type HolidayFailure =
  'holiday:active' | 'holiday:not_cancellable' | 'holiday:not_planned' | 'holiday:invalid' | 'holiday:failed';

export function holidayFailureOf(error: unknown): HolidayFailure {
  if (!(error instanceof ApiError)) return 'holiday:failed';
  switch (error.code) {
    case 'holiday_service_active':
      return 'holiday:active';
    case 'not_cancellable':
      return 'holiday:not_cancellable';
    case 'holiday_service_not_planned':
      return 'holiday:not_planned';
    case 'validation_failed':
      return 'holiday:invalid';
    default:
      return 'holiday:failed';
  }
}
