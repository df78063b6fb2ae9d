import { Link } from '../../core/links';
import { useTranslation } from '../../core/translation';
import { href, ROUTES } from '../../domain/routeRefs';
import { issueLabel } from '../../account/labels';
import { formatDate } from '../../domain/dates';
import type { OrdersSummary } from './ordersSummary';

/** The top of the orders page: the next issue, the next renewal or end, and what needs doing. */
export function OrdersSummaryPanel({ summary }: { summary: OrdersSummary }) {
  const { t, i18n } = useTranslation();
  const date = (value: string) => <span className="nowrap">{formatDate(value, i18n.language)}</span>;
  const name = (s: OrdersSummary['attention'][number]['subscription']) =>
    summary.sharedNames.has(s.displayName)
      ? t('orders.summary.nameWithNumber', { name: s.displayName, orderNumber: s.orderNumber })
      : s.displayName;
  if (!summary.nextIssue && !summary.nextEnd && summary.attention.length === 0) return null;
  return (
    <section className="orders-summary card" aria-labelledby="orders-summary-title">
      <h2 id="orders-summary-title" className="visually-hidden">
        {t('orders.summary.heading')}
      </h2>
      <dl className="orders-summary-facts">
        {summary.nextIssue && (
          <div>
            <dt>{t('orders.summary.nextIssue')}</dt>
            <dd>
              {date(summary.nextIssue.issue.dateOfFirstSale!)} · {name(summary.nextIssue.subscription)},{' '}
              {issueLabel(t, summary.nextIssue.issue)}
            </dd>
          </div>
        )}
        {summary.nextEnd && (
          <div>
            <dt>{t('orders.summary.nextEnd')}</dt>
            <dd>
              {date(summary.nextEnd.date)} · {name(summary.nextEnd.subscription)}
            </dd>
          </div>
        )}
      </dl>
      {summary.attention.length > 0 && (
        <>
          <h3 className="orders-summary-attention-title">{t('orders.summary.attention')}</h3>
          <ul className="orders-summary-attention">
            {summary.attention.map((item) => (
              <li key={`${item.kind}-${item.subscription.id}`}>
                {t(`orders.summary.${item.kind}`, {
                  title: name(item.subscription),
                  date: formatDate(item.date, i18n.language),
                })}{' '}
                {item.kind === 'renew' ? (
                  <Link to={href(ROUTES.subscriptionRenewal, { id: item.subscription.id })}>
                    {t('orders.summary.renewNow')}
                  </Link>
                ) : (
                  <Link to={href(ROUTES.subscription, { id: item.subscription.id })}>
                    {t('orders.summary.details')}
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
