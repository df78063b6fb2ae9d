/**
 * Named outcomes of sending an e-card (Ghost Portal's `signin:failed`), each with its text key; the
 * server's field problems (engine/domain/eCard.ts) map to field messages.
 */
import { ApiError } from '../../domain/apiError';
import type { ECardField, ECardProblem } from '../../domain/eCard';

export type ECardOutcome =
  'e-card:sent' | 'e-card:scheduled' | 'e-card:limit' | 'e-card:invalid' | 'e-card:failed';

export const OUTCOME_TEXT: Record<ECardOutcome, string> = {
  'e-card:sent': 'e-card.sent',
  'e-card:scheduled': 'e-card.scheduled',
  'e-card:limit': 'e-card.limitReached',
  'e-card:invalid': 'e-card.checkFields',
  'e-card:failed': 'shell.genericError',
};

export const PROBLEM_TEXT: Record<ECardProblem, string> = {
  required: 'e-card.error.required',
  too_long: 'e-card.error.tooLong',
  invalid: 'e-card.error.invalid',
  too_early: 'e-card.error.tooEarly',
  too_late: 'e-card.error.tooLate',
};

/** The outcome of a failed send and, for validation, the server's field problems. */
export function failureOf(error: unknown): {
  outcome: ECardOutcome;
  fields?: Partial<Record<ECardField, ECardProblem>>;
} {
  if (error instanceof ApiError && error.code === 'e_card_limit_reached') return { outcome: 'e-card:limit' };
  if (error instanceof ApiError && error.code === 'validation_failed') {
    const fields = (error.details as { fields?: Partial<Record<ECardField, ECardProblem>> } | undefined)
      ?.fields;
    return { outcome: 'e-card:invalid', fields };
  }
  return { outcome: 'e-card:failed' };
}
