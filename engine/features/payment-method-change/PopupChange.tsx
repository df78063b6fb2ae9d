import { useEffect } from 'react';
import { useTranslation } from '../../core/translation';
import { PaymentDialogs } from '../../account/offers/PaymentDialogs';
import { isPaymentBusy, usePaymentFlow } from '../../account/offers/usePaymentFlow';
import { usePortal } from '../../core/PortalContext';
import { paymentDetailsApi } from './paymentDetailsApi';

/**
 * A change to card or PayPal (account-flows.md §4 "Card and PayPal go through a popup that reports
 * success by a message or by closing; messages count only from the same origin as the popup URL"):
 * the payment provider's page opens in the offers kit's payment popup, watched exactly as an offer's
 * payment is (engine/account/offers/paymentWatch.ts); its outcome dialogs are the kit's. Success is
 * reported to the page, which shows its own dialog.
 */
export function PopupChange({
  subscriptionId,
  kind,
  update,
  onSuccess,
  onCancel,
}: {
  subscriptionId: string;
  kind: 'credit_card' | 'paypal';
  /** The active method is being updated (a new card), not replaced. */
  update: boolean;
  onSuccess: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { api } = usePortal();
  const flow = usePaymentFlow();
  const busy = isPaymentBusy(flow.state);
  const succeeded = flow.state.step === 'success';

  useEffect(() => {
    if (!succeeded) return;
    flow.reset();
    onSuccess();
  }, [succeeded, flow, onSuccess]);

  async function open() {
    try {
      await flow.accept(() => paymentDetailsApi(api).popup(subscriptionId, kind));
    } catch {
      flow.fail();
    }
  }

  return (
    <section className="bank-form" aria-labelledby="popup-change-title">
      <h3 id="popup-change-title">{t(`payment-method-change.popup.heading.${kind}`)}</h3>
      <p>{t(`payment-method-change.popup.text.${kind}`)}</p>
      <PaymentDialogs flow={flow} registration />
      <div className="form-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void open()}>
          {t(
            update
              ? `payment-method-change.popup.update.${kind}`
              : `payment-method-change.popup.open.${kind}`,
          )}
        </button>
        <button type="button" className="button button-secondary" disabled={busy} onClick={onCancel}>
          {t('payment-method-change.cancel')}
        </button>
      </div>
    </section>
  );
}
