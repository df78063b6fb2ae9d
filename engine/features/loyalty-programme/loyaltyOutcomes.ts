/**
 * Named outcomes of a claim (account-flows.md §4 "Reward claim", §8 loyalty errors) → text keys:
 * the same names as engine/domain/loyalty.ts `claimRefusal` and the server's error codes.
 */
import { ApiError } from '../../domain/apiError';
import type { ClaimRefusal } from '../../domain/loyalty';

export type ClaimOutcome = ClaimRefusal | 'claim_failed';

export const CLAIM_OUTCOME_TEXT: Record<ClaimOutcome, string> = {
  not_opted_in: 'loyalty-programme.error.notOptedIn',
  not_available: 'loyalty-programme.error.notAvailable',
  already_used: 'loyalty-programme.error.alreadyUsed',
  not_claimable: 'loyalty-programme.error.notClaimable',
  claim_failed: 'loyalty-programme.error.claimFailed',
};

const BY_SERVER_CODE: Record<string, ClaimOutcome> = {
  loyalty_not_opted_in: 'not_opted_in',
  loyalty_reward_not_available: 'not_available',
  loyalty_reward_used: 'already_used',
  loyalty_reward_not_claimable: 'not_claimable',
  loyalty_claim_failed: 'claim_failed',
};

/** A refused claim's outcome; anything unexpected is "claim failed". */
export function claimOutcomeOf(error: unknown): ClaimOutcome {
  return (error instanceof ApiError && BY_SERVER_CODE[error.code]) || 'claim_failed';
}
