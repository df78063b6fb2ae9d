import { formatDate, utcDay } from '../../../engine/domain/dates';
import { formatMoney } from '../../../engine/domain/money';
import { asSentence } from '../../../engine/domain/sentences';
import { textsIn } from '../../texts/serverTexts';
import type { RejectionRefund } from '../../store/paymentRefundStore';

/**
 * The subscriber's e-mail about a rejected change, in `locale`: which change (named by
 * its event type, `changeRejected.what.<type>`, else a plain "your change", with the subscription's
 * order number where it was one of a subscription's), its day and the
 * order system's reason; that the account shows the previous details again only where the
 * rejection took something back (`undone`); and that what was paid online for it goes back, where
 * the rejection made a refund due (docs/architecture.md "Payments": "Refunds"). Texts in
 * server/texts/<locale>/account.json.
 */
export function changeRejectedMail(
  locale: string,
  values: {
    tenant: string;
    eventType: string;
    changedAt: string;
    reason: string;
    undone: boolean;
    refund?: RejectionRefund | null;
    /** The order number of the subscription the change concerned, as its event names it. */
    orderNumber?: string | null;
  },
): { subject: string; text: string } {
  const t = textsIn(locale, 'account');
  const specific = t(`changeRejected.what.${values.eventType}`);
  const change =
    specific && specific !== `changeRejected.what.${values.eventType}`
      ? specific
      : t('changeRejected.what.other');
  // Which subscription, where the change was one of a subscription's (as the orders page's notice).
  const what = values.orderNumber
    ? t('changeRejected.forOrder', { what: change, orderNumber: values.orderNumber })
    : change;
  const filled = {
    tenant: values.tenant,
    what,
    date: formatDate(utcDay(new Date(values.changedAt)), locale),
    reason: asSentence(values.reason),
    refund: values.refund
      ? `${t('changeRejected.refund', { amount: formatMoney(values.refund.amount, values.refund.currency, locale) })}\n\n`
      : '',
  };
  return {
    subject: t('changeRejected.subject', filled),
    text: t(values.undone ? 'changeRejected.body' : 'changeRejected.bodyNothingUndone', filled),
  };
}
