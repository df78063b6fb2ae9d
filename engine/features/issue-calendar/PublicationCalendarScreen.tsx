import { useMemo } from 'react';
import { useLocation, useParams } from 'react-router';
import { Link } from '../../core/links';
import { useTranslation } from '../../core/translation';
import { usePortal } from '../../core/PortalContext';
import { calendarMode, calendarWindow } from '../../domain/issueCalendar';
import { Alert } from '../../ui/Alert';
import { useResource } from '../../account/resource';
import { ResourceView } from '../../account/ResourceView';
import { IssueViews } from './IssueViews';
import { issueLabel } from '../../account/labels';
import type { CalendarIssue, CalendarPublication } from './calendarTypes';

/** The publication with its issues, or null when no publication has the route's code. */
type Calendar = { publication: CalendarPublication; issues: CalendarIssue[] } | null;

/**
 * /issue-calendar/publications/{publication} (portal-core.md §2 "Issue calendar"): back link
 * unless `hideBackToOverview`, the publication's description, then its issues from today to one
 * month ahead. The publications are loaded first (for the client id), then the issues.
 */
export default function PublicationCalendarScreen() {
  const { t } = useTranslation();
  const { config } = usePortal();
  const { publication: code = '' } = useParams();
  const location = useLocation();
  const window = useMemo(() => calendarWindow(new Date()), []);
  // portal-core.md §1: the back link is hidden by the tenant setting or the query parameter.
  const hideBack =
    config.tenant.embedding.hideBackToOverview ||
    new URLSearchParams(location.search).has('hideBackToOverview');

  const calendar = useResource<Calendar>(code, async (api) => {
    const publications = await api.get<CalendarPublication[]>('/issue-calendar/publications');
    const publication = publications.find((p) => p.publication === code);
    if (!publication) return null;
    const path = `/issue-calendar/publications/${encodeURIComponent(publication.clientId)}/${encodeURIComponent(publication.publication)}/upcoming-issues`;
    return { publication, issues: await api.get<CalendarIssue[]>(path) };
  });
  const ready = calendar.state.status === 'ready' ? calendar.state.data : null;

  return (
    <section className="issue-calendar" aria-labelledby="publication-calendar-title">
      {!hideBack && (
        <p>
          <Link to="/issue-calendar" className="back-link">
            {t('issue-calendar.backToOverview')}
          </Link>
        </p>
      )}
      <h1 id="publication-calendar-title">
        {ready ? ready.publication.description : t('issue-calendar.title')}
      </h1>
      <ResourceView
        resource={calendar}
        errorKey="issue-calendar.loadingError"
        emptyKey="issue-calendar.unknownPublication"
        isEmpty={(data) => data === null}
      >
        {(data) => (
          <>
            <p className="muted">{t('issue-calendar.windowHint')}</p>
            {data!.issues.length === 0 ? (
              <Alert variant="info">{t('issue-calendar.noIssues')}</Alert>
            ) : (
              <IssueViews
                issues={data!.issues}
                mode={calendarMode(config.tenant)}
                window={window}
                label={(issue) => issueLabel(t, issue)}
                monthHeadingLevel={2}
              />
            )}
          </>
        )}
      </ResourceView>
    </section>
  );
}
