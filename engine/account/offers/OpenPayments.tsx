import { useEffect, useState } from 'react';
import type { OpenPayment } from '../../../schemas/generated/offers';
import { usePortal } from '../../core/PortalContext';
import { useTranslation } from '../../core/translation';
import { Alert } from '../../ui/Alert';
import { formatMoney } from '../../domain/money';
import { formatDateTime } from '../../domain/dates';
import { dataOf, useResource } from '../resource';
import { offersApi } from './offersApi';

/**
 * The offer payments of the subscriptions (one, or the bulk renewal's) that still wait for their
 * page (account-flows.md §4 "processing"), for a page loaded again after a reload or in another
 * tab: their offer is not offered meanwhile, and this says why, with the way to give the payment
 * up (its page then stops working and the offer is offered again). A bulk renewal's payment,
 * open for several of them, is named once. Hidden while this page's own payment runs.
 */
export function OpenPayments({
  subscriptionIds,
  hidden,
  round,
  onGivenUp,
  onShown,
}: {
  subscriptionIds: readonly string[];
  /** This page's own payment is running: its dialogs speak for it. */
  hidden: boolean;
  /** Changes when this page's own payment moves on (the payment flow's step): the list is asked again. */
  round: string;
  onGivenUp: () => void;
  /** Whether it shows a payment: the page then leaves the missing offer to it. */
  onShown?: (shown: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = usePortal();
  const open = useResource(`${subscriptionIds.join(',')}/pending-payments?${round}`, async (client) => {
    const lists = await Promise.all(subscriptionIds.map((id) => offersApi(client).openPayments(id)));
    return [...new Map(lists.flat().map((payment) => [payment.id, payment])).values()];
  });
  const [givingUp, setGivingUp] = useState<string>();
  const [failed, setFailed] = useState(false);
  const payments = dataOf(open.state) ?? [];
  const shown = !hidden && payments.length > 0;
  useEffect(() => onShown?.(shown), [onShown, shown]);
  if (!shown) return null;

  async function giveUp(payment: OpenPayment) {
    setGivingUp(payment.id);
    setFailed(false);
    try {
      await offersApi(api).abandonPayment({ id: payment.id, subscriptionId: payment.subscriptionId });
      open.reload();
      onGivenUp();
    } catch {
      setFailed(true);
    } finally {
      setGivingUp(undefined);
    }
  }

  return (
    <>
      {payments.map((payment) => (
        <Alert key={payment.id} variant="info">
          <p>
            {t(
              // One payment of a bulk renewal holds the offers of several subscriptions: it names them,
              // since its amount is theirs together, not this subscription's alone.
              payment.orderNumbers.length > 1
                ? 'account.flow.openPaymentOfSeveral'
                : 'account.flow.openPayment',
              {
                amount: formatMoney(payment.amount, payment.currency, i18n.language),
                time: formatDateTime(payment.createdAt, i18n.language),
                orderNumbers: payment.orderNumbers.join(', '),
              },
            )}
          </p>
          {failed && <p>{t('account.flow.openPaymentFailed')}</p>}
          <button
            type="button"
            className="button button-secondary"
            disabled={givingUp !== undefined}
            onClick={() => void giveUp(payment)}
          >
            {t('account.flow.giveUpPayment')}
          </button>
        </Alert>
      ))}
    </>
  );
}
