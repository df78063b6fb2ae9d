import type { CancelAnswer, CancellationInfos } from '../../../schemas/generated/offers';
import type { CancelFormError } from '../../domain/cancellation';

/**
 * What the cancellation form holds between renders (account-flows.md §2 "Cancellation screen", §4
 * "Cancellation"), as one reducer with named steps instead of a dozen independent states that could
 * contradict each other (a success dialog over a "sending" button, an error over a confirmation).
 *
 *   editing ──submit──▶ confirming ──send──▶ sending ──▶ cancelled
 *      │  ▲                 │                   │
 *      │  └──── close ──────┘      refused ◀────┤ (back to editing with a notice)
 *      │                                        └──▶ failed (the error dialog)
 *      └─ (no confirmation asked) ──send──▶ sending
 *   editing ──take offer──▶ confirmingOffer ──▶ the payment flow (usePaymentFlow)
 */
export type CancellationStep =
  | { name: 'editing' }
  | { name: 'confirming' }
  /** `fromDialog`: the confirmation dialog stays open, its buttons disabled, while the call runs. */
  | { name: 'sending'; fromDialog: boolean }
  | { name: 'cancelled'; answer: CancelAnswer }
  | { name: 'confirmingOffer' }
  | { name: 'failed' };

/** A notice the server's refusal leaves above the form's buttons. */
export type CancellationNotice = 'invalid' | 'notPossible';

export interface CancellationFormState {
  /** The chosen cancellation reason's code ('' while none). */
  reason: string;
  /** The chosen date belongs to the infos it was chosen from; new infos start at their preselection. */
  issueChoice: { infos: CancellationInfos; index: number } | null;
  /** The reason in words, asked when the subscription cannot be cancelled regularly (§5). */
  reasonText: string;
  feedback: string;
  /** "No, thank you" to the retention offers: the form shows instead. */
  offersRejected: boolean;
  offerId: string;
  /** The first problem of each field, found by engine/domain/cancellation.ts cancelFormErrors. */
  errors: Partial<Record<CancelFormError['field'], CancelFormError['code']>>;
  notice: CancellationNotice | null;
  step: CancellationStep;
}

export type CancellationFormAction =
  | { type: 'chooseReason'; reason: string }
  | { type: 'chooseIssue'; infos: CancellationInfos; index: number }
  | { type: 'typeReasonText'; text: string }
  | { type: 'typeFeedback'; text: string }
  | { type: 'chooseOffer'; offerId: string }
  | { type: 'rejectOffers' }
  | { type: 'showOffers' }
  /** The form was checked: with no problem, a confirmation is asked when the tenant wants one. */
  | { type: 'checked'; problems: readonly CancelFormError[]; askConfirmation: boolean }
  | { type: 'send' }
  | { type: 'cancelled'; answer: CancelAnswer }
  | { type: 'refused'; notice: CancellationNotice }
  | { type: 'failed' }
  | { type: 'takeOffer' }
  | { type: 'close' };

export const initialCancellationForm = (reason: string): CancellationFormState => ({
  reason,
  issueChoice: null,
  reasonText: '',
  feedback: '',
  offersRejected: false,
  offerId: '',
  errors: {},
  notice: null,
  step: { name: 'editing' },
});

export function cancellationFormReducer(
  state: CancellationFormState,
  action: CancellationFormAction,
): CancellationFormState {
  switch (action.type) {
    case 'chooseReason':
      // A new reason brings new infos and offers: what was chosen for the old one goes.
      return { ...state, reason: action.reason, offersRejected: false, offerId: '', errors: {} };
    case 'chooseIssue':
      return { ...state, issueChoice: { infos: action.infos, index: action.index } };
    case 'typeReasonText':
      return { ...state, reasonText: action.text };
    case 'typeFeedback':
      return { ...state, feedback: action.text };
    case 'chooseOffer':
      return { ...state, offerId: action.offerId };
    case 'rejectOffers':
      return { ...state, offersRejected: true };
    case 'showOffers':
      return { ...state, offersRejected: false };
    case 'checked': {
      const errors: CancellationFormState['errors'] = {};
      for (const problem of action.problems) errors[problem.field] ??= problem.code;
      if (action.problems.length > 0 || !action.askConfirmation) return { ...state, errors };
      return { ...state, errors, step: { name: 'confirming' } };
    }
    case 'send':
      return {
        ...state,
        notice: null,
        step: { name: 'sending', fromDialog: state.step.name === 'confirming' },
      };
    case 'cancelled':
      return { ...state, step: { name: 'cancelled', answer: action.answer } };
    case 'refused':
      return { ...state, notice: action.notice, step: { name: 'editing' } };
    case 'failed':
      return { ...state, step: { name: 'failed' } };
    case 'takeOffer':
      return { ...state, step: { name: 'confirmingOffer' } };
    case 'close':
      return { ...state, step: { name: 'editing' } };
  }
}
