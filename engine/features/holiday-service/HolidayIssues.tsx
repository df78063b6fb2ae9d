import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import type { HolidayIssue } from '../../../schemas/generated/account-changes';
import type { Resource } from '../../account/resource';
import { isHolidayIssueShipped } from '../../domain/holidayService';
import { Alert } from '../../ui/Alert';
import { Badge } from '../../ui/Badge';
import { ErrorDialog } from '../../ui/ErrorDialog';
import { formatDate } from '../../domain/dates';
import { Loading } from '../../ui/Loading';

/**
 * The issues the date range picks (§2 "a setup form with a date range picking issues"): each with
 * its sale date; one already dispatched is marked, it cannot be considered any more (§8). The
 * submit block of §4 shows as a warning. A failed load opens the error dialog with the contact
 * link (§8), then leaves "try again" in place.
 */
export function HolidayIssues({
  resource,
  issues: picked,
  block,
  today,
}: {
  resource: Resource<HolidayIssue[] | null>;
  /** The loaded issues the dates pick (inside them, none after the subscription's end). */
  issues: HolidayIssue[] | null;
  block: 'no_issues' | 'already_shipped' | null;
  today: string;
}) {
  const { t, i18n } = useTranslation();
  const [dialogClosed, setDialogClosed] = useState(false);
  const { state } = resource;
  if (state.status === 'loading') return <Loading />;
  if (state.status === 'failed') {
    return dialogClosed ? (
      <Alert variant="error">
        <p>{t('holiday-service.issues.loadError')}</p>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => {
            setDialogClosed(false);
            resource.reload();
          }}
        >
          {t('shell.tryAgain')}
        </button>
      </Alert>
    ) : (
      <ErrorDialog message={t('holiday-service.issues.loadError')} onClose={() => setDialogClosed(true)} />
    );
  }
  const issues = picked ?? [];
  const someShipped = issues.some((issue) => isHolidayIssueShipped(issue, today));
  return (
    <section className="holiday-issues" aria-labelledby="holiday-issues-title" data-testid="holiday-issues">
      <h3 id="holiday-issues-title">{t('holiday-service.issues.heading')}</h3>
      {issues.length > 0 && (
        <ul className="plain-list issue-rows">
          {issues.map((issue) => (
            <li key={issue.issue} className="issue-row">
              <span>
                {issue.issueNumber
                  ? t('holiday-service.issues.issue', { issueNumber: issue.issueNumber })
                  : issue.issue}
              </span>
              <span className="muted">
                {t('holiday-service.issues.onSale', {
                  date: formatDate(issue.dateOfFirstSale, i18n.language),
                })}
              </span>
              {isHolidayIssueShipped(issue, today) && (
                <Badge tone="warning">{t('holiday-service.issues.shipped')}</Badge>
              )}
            </li>
          ))}
        </ul>
      )}
      {block && (
        <Alert variant="warning">
          <p>{t(`holiday-service.issues.block.${block}`)}</p>
        </Alert>
      )}
      {!block && someShipped && <p className="field-note muted">{t('holiday-service.issues.shippedHint')}</p>}
    </section>
  );
}
