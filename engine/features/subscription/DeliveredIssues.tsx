import { useTranslation } from 'react-i18next';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { DeliveredIssue } from '../../../schemas/generated/subscription-page';
import { can, type CapabilityContext } from '../../domain/capabilities';
import { issueDownloadState } from '../../domain/purchaseOrders';
import { HistoryPager } from './HistoryPager';
import { formatDate } from '../../ui/format';
import { Loading } from '../../ui/Loading';
import { DownloadDialogs } from '../orders/DownloadDialogs';
import { useFileDownload } from '../orders/useFileDownload';
import { usePagedList } from './useSubscription';

/** Delivered-issues history (§2): pages of 10; the issue download with its waiting state and dialogs. */
export function DeliveredIssues({ subscription, ctx }: { subscription: Subscription; ctx: CapabilityContext }) {
  const { t, i18n } = useTranslation();
  const { page, setPage, state } = usePagedList<DeliveredIssue>(`/subscriptions/${encodeURIComponent(subscription.id)}/delivered-issues`);
  const downloads = useFileDownload();
  const canDownload = can('issueDownload', subscription, ctx);
  return (
    <div className="paged-list">
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && <p role="alert">{t('subscription.listError')}</p>}
      {state.status === 'ready' && state.items.length === 0 && <p>{t('subscription.noIssues')}</p>}
      {state.items.length > 0 && (
        <ul className="history-list" aria-busy={state.status === 'loading'}>
          {state.items.map((issue) => {
            const download = canDownload ? issueDownloadState(issue.downloadStatus) : 'hidden';
            const waiting = downloads.waiting === `${subscription.id}/${issue.issue}`;
            return (
              <li key={issue.issue} className="history-item">
                <div className="history-main">
                  <span>{issue.description ?? issue.issueNumber ?? issue.issue}</span>
                  <span className="muted">{formatDate(issue.dateOfFirstSale, i18n.language)}</span>
                </div>
                {download !== 'hidden' && (
                  <div className="history-actions">
                    <button
                      type="button"
                      className="link-button"
                      disabled={download === 'disabled' || waiting}
                      onClick={() => void downloads.issue(subscription.id, issue.issue)}
                    >
                      {waiting ? t('orders.downloadWaiting') : download === 'disabled' ? t('orders.downloadExpired') : t('subscription.downloadIssue', { issue: issue.issueNumber ?? issue.issue })}
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <HistoryPager navKey="subscription.issuePager" page={page} totalPages={state.totalPages} onPage={setPage} />
      <DownloadDialogs outcome={downloads.outcome} onClose={downloads.dismiss} />
    </div>
  );
}
