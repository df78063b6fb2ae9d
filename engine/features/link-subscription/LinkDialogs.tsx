import { useNavigate } from 'react-router';
import { useTranslation } from '../../core/translation';
import { Dialog } from '../../ui/Dialog';
import type { LinkSubscription } from './useLinkSubscription';

/**
 * The dialogs of the link form (portal-core.md §4): where the link went that confirms a subscription
 * found under another e-mail address (confirm_email: opening it links the subscription,
 * LinkConfirmScreen), and the success that leads to the orders.
 */
export function LinkDialogs({ link: { result, setResult, linked } }: { link: LinkSubscription }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      {result?.status === 'confirm_email' && (
        <Dialog
          title={t('link-subscription.confirmTitle')}
          onClose={() => setResult(null)}
          actions={
            <button type="button" className="button" onClick={() => setResult(null)}>
              {t('link-subscription.confirmClose')}
            </button>
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
