import { useState } from 'react';
import { useTranslation } from '../../core/translation';
import { Calendar } from '../../ui/Calendar';
import { formatDate } from '../../domain/dates';
import type { IssueCalendarMode } from '../../domain/issueCalendar';
import type { CalendarIssue } from './calendarTypes';

/**
 * The calendar or the list of issues (portal-core.md §2): the tenant's mode fixes the view, or
 * with mode "any" a toggle switches between them, starting with the calendar. The calendar marks
 * sale dates with dots from today to one month ahead (§9 "Calendar window").
 */
export function IssueViews({
  issues,
  mode,
  window,
  label,
  monthHeadingLevel = 3,
}: {
  issues: CalendarIssue[];
  mode: IssueCalendarMode;
  window: { dateFrom: string; dateTo: string };
  label: (issue: CalendarIssue) => string;
  /** Directly under the page's h1 (one publication's calendar) the months are h2s, under a section's h2 h3s. */
  monthHeadingLevel?: 2 | 3;
}) {
  const { t, i18n } = useTranslation();
  const [view, setView] = useState<'calendar' | 'list'>(mode === 'list' ? 'list' : 'calendar');
  const shown = mode === 'any' ? view : mode;
  return (
    <div className="issue-views">
      {mode === 'any' && (
        <div className="view-toggle" role="group" aria-label={t('issue-calendar.viewLabel')}>
          {(['calendar', 'list'] as const).map((option) => (
            <button
              key={option}
              type="button"
              className={`button ${shown === option ? '' : 'button-secondary'}`}
              aria-pressed={shown === option}
              onClick={() => setView(option)}
            >
              {t(option === 'calendar' ? 'issue-calendar.calendarView' : 'issue-calendar.listView')}
            </button>
          ))}
        </div>
      )}
      {shown === 'calendar' ? (
        <Calendar
          from={window.dateFrom}
          to={window.dateTo}
          locale={i18n.language}
          headingLevel={monthHeadingLevel}
          events={issues.map((issue) => ({ date: issue.dateOfFirstSale, label: label(issue) }))}
          dayLabel={(date, labels) =>
            t('issue-calendar.dayLabel', { date: formatDate(date, i18n.language), issues: labels.join(', ') })
          }
        />
      ) : (
        <ul className="issue-list">
          {issues.map((issue) => (
            <li
              key={`${issue.subscriptionId ?? ''}-${issue.publication}-${issue.issue}`}
              className="issue-list-item"
            >
              <time dateTime={issue.dateOfFirstSale}>{formatDate(issue.dateOfFirstSale, i18n.language)}</time>
              <span>{label(issue)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
