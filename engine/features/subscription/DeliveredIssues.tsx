import { useTranslation } from '../../core/translation';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { DeliveredIssue } from '../../../schemas/generated/subscription-page';
import { can, type CapabilityContext } from '../../domain/capabilities';
import { issueDownloadState } from '../../domain/purchaseOrders';
import { HistoryPager } from './HistoryPager';
import { formatDate, utcDay } from '../../domain/dates';
import { issueLabel } from '../../account/labels';
import { dataOf } from '../../account/resource';
import { noEntries, ResourceView } from '../../account/ResourceView';
import { DownloadDialogs } from '../../account/DownloadDialogs';
import { useFileDownload } from '../../account/useFileDownload';
import { usePagedList } from './useSubscription';

/** Delivered-issues history (§2): pages of 10; the issue download with its waiting state and dialogs. */
export function DeliveredIssues({
  subscription,
  ctx,
}: {
  subscription: Subscription;
  ctx: CapabilityContext;
}) {
  const { t, i18n } = useTranslation();
  const { page, setPage, resource } = usePagedList<DeliveredIssue>(
    `/subscriptions/${encodeURIComponent(subscription.id)}/delivered-issues`,
  );
  const loading = resource.state.status === 'loading';
  const downloads = useFileDownload();
  const canDownload = can('issueDownload', subscription, ctx);
  const today = utcDay(new Date());
  return (
    <div className="paged-list">
      <ResourceView
        resource={resource}
        errorKey="subscription.listError"
        emptyKey="subscription.noIssues"
        isEmpty={(data) => noEntries(data.items)}
        keepWhileLoading
      >
        {(data) => (
          <ul className="history-list" aria-busy={loading}>
            {data.items.map((issue) => {
              const download = canDownload ? issueDownloadState(issue.downloadStatus) : 'hidden';
              const waiting = downloads.waiting === `${subscription.id}/${issue.issue}`;
              return (
                <li key={issue.issue} className="history-item">
                  <div className="history-main">
                    <span>{issueLabel(t, issue)}</span>
                    <span className="muted">
                      {/* A replacement after a complaint is listed when it is sent, before it arrives. */}
                      {issue.dateOfFirstSale && issue.dateOfFirstSale > today
                        ? t('subscription.arrivesBy', {
                            date: formatDate(issue.dateOfFirstSale, i18n.language),
                          })
                        : formatDate(issue.dateOfFirstSale, i18n.language)}
                    </span>
                  </div>
                  {download !== 'hidden' && (
                    <div className="history-actions">
                      <button
                        type="button"
                        className="link-button"
                        disabled={download === 'disabled' || waiting}
                        onClick={() => void downloads.issue(subscription.id, issue.issue)}
                      >
                        {waiting
                          ? t('account.downloadWaiting')
                          : download === 'disabled'
                            ? t('account.downloadExpired')
                            : t('subscription.downloadIssue', { issue: issue.issueNumber ?? issue.issue })}
                      </button>
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </ResourceView>
      <HistoryPager
        navKey="subscription.issuePager"
        page={page}
        totalPages={dataOf(resource.state)?.totalPages ?? 1}
        onPage={setPage}
      />
      <DownloadDialogs outcome={downloads.outcome} onClose={downloads.dismiss} />
    </div>
  );
}
