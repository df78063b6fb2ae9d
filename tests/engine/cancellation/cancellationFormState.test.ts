/**
 * The cancellation form's steps (engine/features/cancellation/cancellationFormState.ts): one state,
 * so a dialog, a notice and the buttons can never contradict each other.
 */
import { describe, expect, it } from 'vitest';
import {
  cancellationFormReducer as reduce,
  initialCancellationForm,
  type CancellationFormAction,
} from '../../../engine/features/cancellation/cancellationFormState';
import type { CancelAnswer, CancellationInfos } from '../../../schemas/generated/offers';

const run = (...actions: CancellationFormAction[]) =>
  actions.reduce(reduce, initialCancellationForm('PREIS'));
const answer = { cancellationDate: '2027-01-31' } as unknown as CancelAnswer;

describe('cancellation form steps', () => {
  it('starts editing with the preselected reason', () => {
    expect(run()).toMatchObject({ reason: 'PREIS', step: { name: 'editing' }, errors: {}, notice: null });
  });

  it('keeps the first problem of each field and stays editing', () => {
    const state = run({
      type: 'checked',
      askConfirmation: true,
      problems: [
        { field: 'reasonText', code: 'required' },
        { field: 'reasonText', code: 'too_long' },
        { field: 'issue', code: 'required' },
      ],
    });
    expect(state.errors).toEqual({ reasonText: 'required', issue: 'required' });
    expect(state.step).toEqual({ name: 'editing' });
  });

  it('asks for confirmation, keeps the dialog open while sending, and ends cancelled', () => {
    const confirming = run({ type: 'checked', problems: [], askConfirmation: true });
    expect(confirming.step).toEqual({ name: 'confirming' });
    const sending = reduce(confirming, { type: 'send' });
    expect(sending.step).toEqual({ name: 'sending', fromDialog: true });
    expect(reduce(sending, { type: 'cancelled', answer }).step).toEqual({ name: 'cancelled', answer });
  });

  it('sends straight away when the tenant asks no confirmation', () => {
    const checked = run({ type: 'checked', problems: [], askConfirmation: false });
    expect(checked.step).toEqual({ name: 'editing' });
    expect(reduce(checked, { type: 'send' }).step).toEqual({ name: 'sending', fromDialog: false });
  });

  it('goes back to the form with the refusal as a notice, cleared by the next send', () => {
    const refused = run({ type: 'send' }, { type: 'refused', notice: 'invalid' });
    expect(refused).toMatchObject({ step: { name: 'editing' }, notice: 'invalid' });
    expect(reduce(refused, { type: 'send' }).notice).toBeNull();
  });

  it('forgets the offers choice and the errors when the reason changes, but not what was typed', () => {
    const infos = { issues: [], recommendations: [], cancellable: true } as unknown as CancellationInfos;
    const state = run(
      { type: 'typeFeedback', text: 'Zu teuer' },
      { type: 'chooseIssue', infos, index: 1 },
      { type: 'chooseOffer', offerId: 'o1' },
      { type: 'rejectOffers' },
      { type: 'checked', problems: [{ field: 'reason', code: 'required' }], askConfirmation: false },
      { type: 'chooseReason', reason: 'UMZUG' },
    );
    expect(state).toMatchObject({
      reason: 'UMZUG',
      feedback: 'Zu teuer',
      offerId: '',
      offersRejected: false,
      errors: {},
      issueChoice: { infos, index: 1 },
    });
  });

  it('confirms an offer in a dialog that closes back to the form', () => {
    const confirming = run({ type: 'takeOffer' });
    expect(confirming.step).toEqual({ name: 'confirmingOffer' });
    expect(reduce(confirming, { type: 'close' }).step).toEqual({ name: 'editing' });
  });
});
