import { useNavigate } from 'react-router';
import { useTranslation } from '../../core/translation';
import { Dialog } from '../../ui/Dialog';
import type { LinkSubscription } from './useLinkSubscription';

/**
 * The dialogs of the link form (portal-core.md §4): confirming that a subscription found under
 * another e-mail address is linked to this account, and the success that leads to the orders.
 */
export function LinkDialogs({
  link: { result, setResult, sending, submit, linked },
}: {
  link: LinkSubscription;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      {result?.status === 'confirm_email' && (
        <Dialog
          title={t('link-subscription.confirmTitle')}
          onClose={() => setResult(null)}
          actions={
            <>
              <button type="button" className="button button-secondary" onClick={() => setResult(null)}>
                {t('link-subscription.confirmAbort')}
              </button>
              <button
                type="button"
                className="button"
                disabled={sending}
                onClick={() => void submit(undefined, result.confirmToken)}
              >
                {t('link-subscription.confirmYes')}
              </button>
            </>
          }
        >
          <p>{t('link-subscription.confirmText', { maskedEmail: result.maskedEmail })}</p>
        </Dialog>
      )}
      {linked !== undefined && (
        <Dialog
          title={t('link-subscription.successTitle')}
          variant="success"
          onClose={() => navigate('/orders')}
          actions={
            <button type="button" className="button" onClick={() => navigate('/orders')}>
              {t('link-subscription.toOrders')}
            </button>
          }
        >
          <p>
            {linked
              ? t('link-subscription.successText', {
                  title: linked.displayName,
                  orderNumber: linked.orderNumber,
                })
              : t('link-subscription.successTextBp')}
          </p>
        </Dialog>
      )}
    </>
  );
}
