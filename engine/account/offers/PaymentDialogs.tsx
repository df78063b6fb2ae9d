import { useEffect, useId, useRef } from 'react';
import { useTranslation } from '../../core/translation';
import { ContactLink } from '../../core/ContactLink';
import { Alert } from '../../ui/Alert';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { OutcomeDialog } from '../DownloadDialogs';
import { PAYMENT_OUTCOMES } from './paymentOutcomes';
import type { PaymentFlow } from './usePaymentFlow';

/**
 * The payment states every offer flow shows the same way (account-flows.md §2, §4, §8): a notice
 * while the payment window is open, the processing overlay, and the paymentError, paymentCanceled
 * and generic error dialogs. Success is left to the flow (OfferSuccess.tsx). A registration of a
 * card or PayPal as the payment method (`registration`), which charges nothing, fails with the
 * generic dialog (§8 "Payment details: update failure opens the generic dialog"): the payment
 * error's text speaks of an amount taken and refunded; given up, it says the method in force stays.
 */
export function PaymentDialogs({
  flow,
  registration = false,
}: {
  flow: PaymentFlow;
  registration?: boolean;
}) {
  const { t } = useTranslation();
  const { state } = flow;
  switch (state.step) {
    case 'waiting':
      return (
        <Alert variant="info">
          <p>{t('account.payment.waiting')}</p>
        </Alert>
      );
    case 'processing':
      return <ProcessingOverlay tooLong={state.tooLong} onClose={flow.stop} />;
    case 'error':
      if (registration) return <ErrorDialog onClose={flow.reset} />;
      return <OutcomeDialog texts={PAYMENT_OUTCOMES['payment:error']} onClose={flow.reset} />;
    case 'canceled':
      return (
        <OutcomeDialog
          texts={
            PAYMENT_OUTCOMES[
              registration
                ? 'registration:canceled'
                : state.because === 'subscription_cancelled'
                  ? 'payment:voided'
                  : 'payment:canceled'
            ]
          }
          onClose={flow.reset}
        />
      );
    case 'refused':
      return <OutcomeDialog texts={PAYMENT_OUTCOMES[state.outcome]} onClose={flow.reset} />;
    case 'failed':
      return <ErrorDialog onClose={flow.reset} />;
    default:
      return null;
  }
}

/**
 * §2 "A processing overlay with a 'taking too long' close link": modal and busy while the payment
 * is polled; after two minutes (§9) it suggests closing it and contacting customer service.
 * Closing it (Escape, the button or the contact link) stops polling.
 */
export function ProcessingOverlay({ tooLong, onClose }: { tooLong: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal?.();
    return () => dialog?.close?.();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog payment-overlay"
      aria-labelledby={titleId}
      aria-busy="true"
      data-testid="payment-processing"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>{t('account.payment.processingTitle')}</h2>
      <div className="payment-spinner" aria-hidden="true" />
      <p role="status">{t('account.payment.processingText')}</p>
      {tooLong && (
        <p>
          {t('account.payment.tooLong')}{' '}
          <ContactLink onClick={onClose}>{t('account.payment.tooLongContact')}</ContactLink>
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          {t('account.payment.stopWaiting')}
        </button>
      </div>
    </dialog>
  );
}
