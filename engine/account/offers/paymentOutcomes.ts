import type { OutcomeTexts } from '../outcomes';

/**
 * The end states of a payment that get their own dialog (account-flows.md §2 "dialogs success,
 * error, paymentCanceled, paymentError", §8), mapped to their texts here and nowhere else. Success
 * is the flow's own dialog or inline screen (OfferSuccess.tsx); a failure to open or read the
 * payment is the generic error dialog.
 */
export type PaymentOutcome =
  | 'payment:error'
  | 'payment:canceled'
  | 'payment:voided'
  | 'registration:canceled'
  | 'offer:already_accepted'
  | 'offer:already_used'
  | 'offer:already_renewed'
  | 'offer:payment_open'
  | 'offer:format_held'
  | 'offer:mixed_currencies';

export const PAYMENT_OUTCOMES: Record<PaymentOutcome, OutcomeTexts> = {
  'payment:error': {
    titleKey: 'account.payment.errorTitle',
    textKey: 'account.payment.errorText',
    tone: 'error',
  },
  'payment:canceled': {
    titleKey: 'account.payment.canceledTitle',
    textKey: 'account.payment.canceledText',
    tone: 'error',
  },
  // Cancelled by the portal while its page was open: a subscription it paid for was cancelled
  // meanwhile (in another tab, say), which voids the offers waiting for it (docs/architecture.md
  // "The subscription lifecycle"). A hosted provider's page may still take the money in that
  // moment: the refund job gives it back, and the text says so.
  'payment:voided': {
    titleKey: 'account.payment.canceledTitle',
    textKey: 'account.payment.voidedText',
    tone: 'error',
  },
  // A card or PayPal registration given up on the provider's page: nothing is a payment there, and
  // the method in force stays.
  'registration:canceled': {
    titleKey: 'account.payment.registrationCanceledTitle',
    textKey: 'account.payment.registrationCanceledText',
    tone: 'error',
  },
  // The lifecycle refused a second accept (engine/domain/lifecycle.ts, 409 offer_already_accepted),
  // or a retention offer was taken this year already (409 offer_already_used): nothing was charged.
  'offer:already_accepted': {
    titleKey: 'account.offer.alreadyAcceptedTitle',
    textKey: 'account.offer.alreadyAcceptedText',
    tone: 'error',
  },
  'offer:already_used': {
    titleKey: 'account.offer.alreadyUsedTitle',
    textKey: 'account.offer.alreadyUsedText',
    tone: 'error',
  },
  // A renewal runs already (409 already_renewed, engine/domain/lifecycle.ts isRenewed): the list
  // shows no renewal meanwhile, so this is a list gone stale (renewed in another tab or flow).
  'offer:already_renewed': {
    titleKey: 'account.offer.alreadyRenewedTitle',
    textKey: 'account.offer.alreadyRenewedText',
    tone: 'error',
  },
  // Another offer's payment is still open (409 offer_payment_open, engine/domain/lifecycle.ts
  // isOfferPaymentOpen): the list hides every offer meanwhile, so this is a list gone stale (a
  // payment started in another tab); the page's notice of open payments says which and gives it up.
  'offer:payment_open': {
    titleKey: 'account.offer.paymentOpenTitle',
    textKey: 'account.offer.paymentOpenText',
    tone: 'error',
  },
  // An upgrade to the format the subscription has or will have (409 upgrade_format_held): the
  // list leaves such offers out, so this is a list gone stale (another tab upgraded meanwhile).
  'offer:format_held': {
    titleKey: 'account.offer.formatHeldTitle',
    textKey: 'account.offer.formatHeldText',
    tone: 'error',
  },
  // A bulk renewal of offers priced in different currencies (409 mixed_currencies): one payment
  // has one currency, so they are renewed one at a time.
  'offer:mixed_currencies': {
    titleKey: 'account.offer.mixedCurrenciesTitle',
    textKey: 'account.offer.mixedCurrenciesText',
    tone: 'error',
  },
};

/** The refusal of an accept call that has a dialog of its own, by the server's error code; null for any other failure. */
export function refusedOfferOutcome(code: string | undefined): PaymentOutcome | null {
  if (code === 'offer_already_accepted') return 'offer:already_accepted';
  if (code === 'offer_already_used') return 'offer:already_used';
  if (code === 'already_renewed') return 'offer:already_renewed';
  if (code === 'offer_payment_open') return 'offer:payment_open';
  if (code === 'upgrade_format_held') return 'offer:format_held';
  if (code === 'mixed_currencies') return 'offer:mixed_currencies';
  return null;
}
