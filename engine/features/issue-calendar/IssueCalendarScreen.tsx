import { useMemo, useState } from 'react';
import { Link } from '../../core/links';
import { useTranslation } from '../../core/translation';
import { useAtomValue } from 'jotai';
import { authStateAtom, isLoggedIn } from '../../core/authState';
import { usePortal } from '../../core/PortalContext';
import { useSubscriptions } from '../../core/subscriptionsStore';
import { can } from '../../domain/capabilities';
import {
  calendarMode,
  calendarWindow,
  fuzzyFilter,
  isPublicationInCalendar,
} from '../../domain/issueCalendar';
import { issuesWithinTerm, lastDayOfTerm, windowWithinTerm } from '../../domain/subscriptionTerm';
import { useCapabilityContext } from '../../account/capabilityContext';
import { storedResource, useResource } from '../../account/resource';
import { noEntries, ResourceView } from '../../account/ResourceView';
import { IssueViews } from './IssueViews';
import type { CalendarIssue, CalendarPublication } from './calendarTypes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { compareIso } from '../../domain/dates';

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
  const { config } = usePortal();
  const publications = useResource('/issue-calendar/publications', (api) =>
    api.get<CalendarPublication[]>('/issue-calendar/publications'),
  );
  const [query, setQuery] = useState('');
  const tenant = config.tenant;
  const shownOf = (all: CalendarPublication[]) => fuzzyFilter(all, query, (p) => p.description);

  return (
    <>
      <p>{t('issue-calendar.pickerIntro')}</p>
      <div className="form-field search-field">
        <label htmlFor="issue-calendar-search">{t('issue-calendar.searchLabel')}</label>
        <input
          id="issue-calendar-search"
          type="search"
          value={query}
          placeholder={t('issue-calendar.searchPlaceholder')}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <ResourceView
        resource={publications}
        errorKey="issue-calendar.loadingError"
        emptyKey="issue-calendar.noPublications"
        isEmpty={(all) => noEntries(shownOf(all))}
      >
        {(all) => (
          <ul className="card-list publication-cards">
            {shownOf(all).map((publication) => (
              <li key={publication.publication} className="card publication-card">
                <img
                  className="cover"
                  src={publication.coverImageUrl ?? tenant.coverImagePlaceholderUrl ?? ''}
                  alt=""
                  loading="lazy"
                />
                <div>
                  <h2>
                    <Link to={`/issue-calendar/publications/${encodeURIComponent(publication.publication)}`}>
                      {publication.description}
                    </Link>
                  </h2>
                  {publication.currentIssue && (
                    <p className="muted">
                      {t('issue-calendar.currentIssue', { issue: publication.currentIssue })}
                    </p>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </ResourceView>
    </>
  );
}

const ALL = 'all';

/** Logged in: the upcoming issues of the user's subscriptions, filtered by one or all of them. */
function SubscriptionsCalendar() {
  const { config } = usePortal();
  const { state, reload } = useSubscriptions();
  const tenant = config.tenant;
  const capabilityContext = useCapabilityContext();
  const eligible = useMemo(
    // §6: the issue-calendar capability rule, the one the server checks too.
    () =>
      state.subscriptions.filter(
        (s) => can('issueCalendar', s, capabilityContext) && isPublicationInCalendar(tenant, s.publication),
      ),
    [state.subscriptions, tenant, capabilityContext],
  );
  return (
    <ResourceView
      resource={storedResource(state.status, eligible, reload)}
      errorKey="issue-calendar.loadingError"
      emptyKey="issue-calendar.noSubscriptions"
      isEmpty={noEntries}
    >
      {(subscriptions) => <UpcomingIssues eligible={subscriptions} />}
    </ResourceView>
  );
}

function UpcomingIssues({ eligible }: { eligible: Subscription[] }) {
  const { t } = useTranslation();
  const { config } = usePortal();
  const [selected, setSelected] = useState(ALL);
  const window = useMemo(() => calendarWindow(new Date()), []);
  const chosen = selected === ALL ? eligible : eligible.filter((s) => s.id === selected);
  // A subscription's issues end with its term (subscriptionTerm.ts): one that ends before
  // the window is not asked for, the others' windows stop at their last day, as the server's do.
  const targets = chosen.filter((s) => windowWithinTerm(window, lastDayOfTerm(s)) !== null);
  const queryOf = (s: Subscription) => {
    const own = windowWithinTerm(window, lastDayOfTerm(s))!;
    return `dateFrom=${own.dateFrom}&dateTo=${own.dateTo}&dateType=1`;
  };
  const issues = useResource(
    `${targets.map((s) => `${s.id}:${lastDayOfTerm(s) ?? ''}`).join(',')}?${window.dateFrom}&${window.dateTo}`,
    async (api) => {
      const lists = await Promise.all(
        targets.map(async (s) =>
          issuesWithinTerm(
            await api.get<CalendarIssue[]>(
              `/subscriptions/${encodeURIComponent(s.id)}/upcoming-issues?${queryOf(s)}`,
            ),
            lastDayOfTerm(s),
          ),
        ),
      );
      return lists.flat().sort((a, b) => compareIso(a.dateOfFirstSale, b.dateOfFirstSale));
    },
  );

  // Two subscriptions of one publication bring the same issue: each is told apart by its order number.
  const nameOf = (id: string | undefined) => {
    const s = eligible.find((candidate) => candidate.id === id);
    if (!s) return '';
    return eligible.some((other) => other.id !== s.id && other.displayName === s.displayName)
      ? t('issue-calendar.subscriptionOption', { name: s.displayName, orderNumber: s.orderNumber })
      : s.displayName;
  };
  return (
    <>
      <div className="form-field">
        <label htmlFor="issue-calendar-subscription">{t('issue-calendar.subscriptionFilter')}</label>
        <select
          id="issue-calendar-subscription"
          value={selected}
          onChange={(e) => setSelected(e.target.value)}
        >
          <option value={ALL}>{t('issue-calendar.allSubscriptions')}</option>
          {eligible.map((s) => (
            <option key={s.id} value={s.id}>
              {t('issue-calendar.subscriptionOption', { name: s.displayName, orderNumber: s.orderNumber })}
            </option>
          ))}
        </select>
      </div>
      <ResourceView
        resource={issues}
        errorKey="issue-calendar.loadingError"
        emptyKey="issue-calendar.noIssues"
        isEmpty={noEntries}
      >
        {(list) => (
          <IssueViews
            issues={list}
            mode={calendarMode(config.tenant)}
            window={window}
            label={(issue) =>
              // A paused issue (the server's word, engine/domain/issueCalendar.ts isIssuePaused) stays
              // listed, so a subscriber sees which issue the break leaves out.
              t(issue.paused ? 'issue-calendar.pausedIssueLabel' : 'issue-calendar.issueLabel', {
                name: nameOf(issue.subscriptionId),
                issue: issue.issueNumber ?? issue.issue,
              })
            }
          />
        )}
      </ResourceView>
    </>
  );
}
