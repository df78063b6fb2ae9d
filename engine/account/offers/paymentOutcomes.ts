import type { OutcomeTexts } from '../outcomes';

/**
 * The end states of a payment that get their own dialog (account-flows.md §2 "dialogs success,
 * error, paymentCanceled, paymentError", §8), mapped to their texts here and nowhere else. Success
 * is the flow's own dialog or inline screen (OfferSuccess.tsx); a failure to open or read the
 * payment is the generic error dialog.
 */
export type PaymentOutcome = 'payment:error' | 'payment:canceled';

export const PAYMENT_OUTCOMES: Record<PaymentOutcome, OutcomeTexts> = {
  'payment:error': { titleKey: 'account.payment.errorTitle', textKey: 'account.payment.errorText', tone: 'error' },
  'payment:canceled': { titleKey: 'account.payment.canceledTitle', textKey: 'account.payment.canceledText', tone: 'error' },
};
