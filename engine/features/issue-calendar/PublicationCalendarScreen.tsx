import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { usePortal } from '../../core/PortalContext';
import { calendarMode, calendarWindow } from '../../domain/issueCalendar';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';
import { IssueViews } from './IssueViews';
import type { CalendarIssue, CalendarPublication, CalendarTenant } from './calendarTypes';

type State =
  | { status: 'loading' | 'failed' | 'missing' }
  | { status: 'ready'; publication: CalendarPublication; issues: CalendarIssue[] };

/**
 * /issue-calendar/publications/{publication} (portal-core.md §2 "Issue calendar"): back link
 * unless `hideBackToOverview`, the publication's description, then its issues from today to one
 * month ahead. The publications are loaded first (for the client id), then the issues.
 */
export default function PublicationCalendarScreen() {
  const { t } = useTranslation();
  const { api, config } = usePortal();
  const { publication: code = '' } = useParams();
  const location = useLocation();
  const tenant = config.tenant as unknown as CalendarTenant;
  const [state, setState] = useState<State>({ status: 'loading' });
  const window = useMemo(() => calendarWindow(new Date()), []);
  const hideBack = new URLSearchParams(location.search).has('hideBackToOverview');

  useEffect(() => {
    let cancelled = false;
    (async () => {
      const publications = await api.get<CalendarPublication[]>('/issue-calendar/publications');
      const publication = publications.find((p) => p.publication === code);
      if (!publication) return !cancelled && setState({ status: 'missing' });
      const path = `/issue-calendar/publications/${encodeURIComponent(publication.clientId)}/${encodeURIComponent(publication.publication)}/upcoming-issues`;
      const issues = await api.get<CalendarIssue[]>(path);
      if (!cancelled) setState({ status: 'ready', publication, issues });
    })().catch(() => !cancelled && setState({ status: 'failed' }));
    return () => {
      cancelled = true;
    };
  }, [api, code]);

  return (
    <section className="issue-calendar" aria-labelledby="publication-calendar-title">
      {!hideBack && (
        <p>
          <Link to="/issue-calendar" className="back-link">
            {t('issue-calendar.backToOverview')}
          </Link>
        </p>
      )}
      <h1 id="publication-calendar-title">{state.status === 'ready' ? state.publication.description : t('issue-calendar.title')}</h1>
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && <Alert variant="error">{t('issue-calendar.loadingError')}</Alert>}
      {state.status === 'missing' && <Alert variant="warning">{t('issue-calendar.unknownPublication')}</Alert>}
      {state.status === 'ready' && (
        <>
          <p className="muted">{t('issue-calendar.windowHint')}</p>
          {state.issues.length === 0 ? (
            <Alert variant="info">{t('issue-calendar.noIssues')}</Alert>
          ) : (
            <IssueViews
              issues={state.issues}
              mode={calendarMode(tenant)}
              window={window}
              label={(issue) => issue.description ?? issue.issueNumber ?? issue.issue}
            />
          )}
        </>
      )}
    </section>
  );
}
