import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAtomValue } from 'jotai';
import { authStateAtom, isLoggedIn } from '../../core/authState';
import { usePortal } from '../../core/PortalContext';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { can } from '../../domain/capabilities';
import { calendarMode, calendarWindow, fuzzyFilter, isPublicationInCalendar } from '../../domain/issueCalendar';
import { Alert } from '../../ui/Alert';
import { Loading } from '../../ui/Loading';
import { useCapabilityContext } from '../orders/capabilityContext';
import { IssueViews } from './IssueViews';
import type { CalendarIssue, CalendarPublication, CalendarTenant } from './calendarTypes';

/** /issue-calendar (portal-core.md §2 "Issue calendar"): the picker for visitors, the calendar for users. */
export default function IssueCalendarScreen() {
  const { t } = useTranslation();
  const auth = useAtomValue(authStateAtom);
  return (
    <section className="issue-calendar" aria-labelledby="issue-calendar-title">
      <h1 id="issue-calendar-title">{t('issue-calendar.title')}</h1>
      {isLoggedIn(auth) ? <SubscriptionsCalendar /> : <PublicationPicker />}
    </section>
  );
}

/** Anonymous: publications as cards with cover, description and current issue; fuzzy search on the description. */
function PublicationPicker() {
  const { t } = useTranslation();
  const { api, config } = usePortal();
  const [state, setState] = useState<{ status: 'loading' | 'failed' } | { status: 'ready'; publications: CalendarPublication[] }>({ status: 'loading' });
  const [query, setQuery] = useState('');
  const [attempt, setAttempt] = useState(0);
  const tenant = config.tenant as unknown as CalendarTenant;

  useEffect(() => {
    let cancelled = false;
    setState({ status: 'loading' });
    api
      .get<CalendarPublication[]>('/issue-calendar/publications')
      .then((publications) => !cancelled && setState({ status: 'ready', publications }))
      .catch(() => !cancelled && setState({ status: 'failed' }));
    return () => {
      cancelled = true;
    };
  }, [api, attempt]);

  const shown = useMemo(
    () => (state.status === 'ready' ? fuzzyFilter(state.publications, query, (p) => p.description) : []),
    [state, query],
  );

  return (
    <>
      <p>{t('issue-calendar.pickerIntro')}</p>
      <div className="form-field search-field">
        <label htmlFor="issue-calendar-search">{t('issue-calendar.searchLabel')}</label>
        <input id="issue-calendar-search" type="search" value={query} placeholder={t('issue-calendar.searchPlaceholder')} onChange={(e) => setQuery(e.target.value)} />
      </div>
      {state.status === 'loading' && <Loading />}
      {state.status === 'failed' && (
        <Alert variant="error">
          <p>{t('issue-calendar.loadingError')}</p>
          <button type="button" className="button button-secondary" onClick={() => setAttempt(attempt + 1)}>
            {t('shell.tryAgain')}
          </button>
        </Alert>
      )}
      {state.status === 'ready' && shown.length === 0 && <Alert variant="info">{t('issue-calendar.noPublications')}</Alert>}
      {shown.length > 0 && (
        <ul className="card-list publication-cards">
          {shown.map((publication) => (
            <li key={publication.publication} className="card publication-card">
              <img className="cover" src={publication.coverImageUrl ?? tenant.coverImagePlaceholderUrl ?? ''} alt="" loading="lazy" />
              <div>
                <h2>
                  <Link to={`/issue-calendar/publications/${encodeURIComponent(publication.publication)}`}>{publication.description}</Link>
                </h2>
                {publication.currentIssue && <p className="muted">{t('issue-calendar.currentIssue', { issue: publication.currentIssue })}</p>}
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const ALL = 'all';

/** Logged in: the upcoming issues of the user's subscriptions, filtered by one or all of them. */
function SubscriptionsCalendar() {
  const { t } = useTranslation();
  const { api, config } = usePortal();
  const { state } = useSubscriptions();
  const tenant = config.tenant as unknown as CalendarTenant;
  const capabilityContext = useCapabilityContext();
  const [selected, setSelected] = useState(ALL);
  const [issues, setIssues] = useState<{ status: 'loading' | 'failed' } | { status: 'ready'; issues: CalendarIssue[] }>({ status: 'loading' });
  const window = useMemo(() => calendarWindow(new Date()), []);
  const eligible = useMemo(
    // §6: the issue-calendar capability rule, the one the server checks too.
    () => state.subscriptions.filter((s) => can('issueCalendar', s, capabilityContext) && isPublicationInCalendar(tenant, s.publication)),
    [state.subscriptions, tenant, capabilityContext],
  );

  useEffect(() => {
    if (state.status !== 'ready' || eligible.length === 0) return;
    let cancelled = false;
    setIssues({ status: 'loading' });
    const targets = selected === ALL ? eligible : eligible.filter((s) => s.id === selected);
    const query = `dateFrom=${window.dateFrom}&dateTo=${window.dateTo}&dateType=1`;
    Promise.all(targets.map((s) => api.get<CalendarIssue[]>(`/subscriptions/${encodeURIComponent(s.id)}/upcoming-issues?${query}`)))
      .then((lists) => {
        if (cancelled) return;
        const merged = lists.flat().sort((a, b) => a.dateOfFirstSale.localeCompare(b.dateOfFirstSale));
        setIssues({ status: 'ready', issues: merged });
      })
      .catch(() => !cancelled && setIssues({ status: 'failed' }));
    return () => {
      cancelled = true;
    };
  }, [api, state.status, eligible, selected, window]);

  if (state.status === 'idle' || state.status === 'loading') return <Loading />;
  if (state.status === 'failed') return <Alert variant="error">{t('issue-calendar.loadingError')}</Alert>;
  if (eligible.length === 0) return <Alert variant="info">{t('issue-calendar.noSubscriptions')}</Alert>;

  const nameOf = (id: string | undefined) => eligible.find((s) => s.id === id)?.displayName ?? '';
  return (
    <>
      <div className="form-field">
        <label htmlFor="issue-calendar-subscription">{t('issue-calendar.subscriptionFilter')}</label>
        <select id="issue-calendar-subscription" value={selected} onChange={(e) => setSelected(e.target.value)}>
          <option value={ALL}>{t('issue-calendar.allSubscriptions')}</option>
          {eligible.map((s) => (
            <option key={s.id} value={s.id}>
              {t('issue-calendar.subscriptionOption', { name: s.displayName, orderNumber: s.orderNumber })}
            </option>
          ))}
        </select>
      </div>
      {issues.status === 'loading' && <Loading />}
      {issues.status === 'failed' && <Alert variant="error">{t('issue-calendar.loadingError')}</Alert>}
      {issues.status === 'ready' && issues.issues.length === 0 && <Alert variant="info">{t('issue-calendar.noIssues')}</Alert>}
      {issues.status === 'ready' && issues.issues.length > 0 && (
        <IssueViews
          issues={issues.issues}
          mode={calendarMode(tenant)}
          window={window}
          label={(issue) => t('issue-calendar.issueLabel', { name: nameOf(issue.subscriptionId), issue: issue.issueNumber ?? issue.issue })}
        />
      )}
    </>
  );
}
