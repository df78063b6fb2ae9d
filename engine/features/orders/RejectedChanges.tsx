import type { RejectedChanges as RejectedChangeList } from '../../../schemas/generated/rejected-changes';
import { useTranslation } from '../../core/translation';
import { formatDate } from '../../domain/dates';
import { formatMoney } from '../../domain/money';
import { asSentence } from '../../domain/sentences';
import { Alert } from '../../ui/Alert';

/**
 * Notices of the account's own changes that the publisher's order system rejected, with the
 * reason the subscriber sees: "Your change of address on 3 Nov 2026 was not accepted: …", the
 * reason in the screen's language, and that the account shows the previous details again where the
 * rejection took something back; what was paid online for it, and how far its refund has got
 * (docs/architecture.md "Payments": "Refunds"). The orders page shows them when there are any
 * (rejectedChanges.ts asks); this file loads only then.
 */
export function RejectedChanges({ changes }: { changes: RejectedChangeList }) {
  const { t, i18n } = useTranslation();
  const what = ({ type, orderNumber }: RejectedChangeList[number]) => {
    const key = `orders.rejectedChange.what.${type}`;
    const change = i18n.exists(key) ? t(key) : t('orders.rejectedChange.what.other');
    // Which subscription, where the change was one of a subscription's.
    return orderNumber ? t('orders.rejectedChange.forOrder', { what: change, orderNumber }) : change;
  };
  return (
    <section aria-labelledby="rejected-changes-title" className="rejected-changes">
      <h2 id="rejected-changes-title" className="visually-hidden">
        {t('orders.rejectedChange.heading')}
      </h2>
      {changes.map((change) => (
        <Alert key={change.eventId} variant="warning">
          {t(change.undone ? 'orders.rejectedChange.notice' : 'orders.rejectedChange.noticeNothingUndone', {
            what: what(change),
            date: formatDate(change.changedAt, i18n.language),
            reason: asSentence(change.reason),
          })}
          {change.refund &&
            ` ${t(`orders.rejectedChange.refund.${change.refund.status}`, {
              amount: formatMoney(change.refund.amount, change.refund.currency, i18n.language),
            })}`}
        </Alert>
      ))}
    </section>
  );
}
