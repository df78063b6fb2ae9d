/**
 * A month grid (Monday first) marking days with events by a dot; the days of the month before
 * `from` and after `to` are dimmed. Dates are YYYY-MM-DD (UTC days). Each marked day carries the
 * events' labels as a tooltip, and for screen readers the text of `dayLabel` (the caller
 * translates it: no user-visible string is written here, CONVENTIONS.md rule 7).
 */
export interface CalendarEvent {
  date: string;
  label: string;
}

function monthsBetween(from: string, to: string): Array<{ year: number; month: number }> {
  const months: Array<{ year: number; month: number }> = [];
  let year = Number(from.slice(0, 4));
  let month = Number(from.slice(5, 7));
  const endKey = Number(to.slice(0, 4)) * 12 + Number(to.slice(5, 7));
  while (year * 12 + month <= endKey) {
    months.push({ year, month });
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return months;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function Calendar({
  from,
  to,
  events,
  locale,
  dayLabel,
  headingLevel = 3,
}: {
  from: string;
  to: string;
  events: CalendarEvent[];
  locale: string;
  /** The months' heading level: one below the section the calendar stands in (no level skipped). */
  headingLevel?: 2 | 3 | 4;
  /** The screen-reader text of a marked day: its date (YYYY-MM-DD) and the labels of its events. */
  dayLabel: (date: string, labels: string[]) => string;
}) {
  const byDay = new Map<string, string[]>();
  for (const event of events) byDay.set(event.date, [...(byDay.get(event.date) ?? []), event.label]);
  const weekdays = Array.from({ length: 7 }, (_, i) =>
    new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, 1 + i)),
    ),
  );
  const MonthHeading = `h${headingLevel}` as const;
  return (
    <div className="calendar">
      {monthsBetween(from, to).map(({ year, month }) => {
        const first = new Date(Date.UTC(year, month - 1, 1));
        const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
        const offset = (first.getUTCDay() + 6) % 7;
        const title = new Intl.DateTimeFormat(locale, {
          month: 'long',
          year: 'numeric',
          timeZone: 'UTC',
        }).format(first);
        return (
          <section key={`${year}-${month}`} className="calendar-month" aria-label={title}>
            <MonthHeading>{title}</MonthHeading>
            <ol className="calendar-grid">
              {weekdays.map((day) => (
                <li key={day} className="calendar-weekday" aria-hidden="true">
                  {day}
                </li>
              ))}
              {Array.from({ length: offset }, (_, i) => (
                <li key={`pad-${i}`} className="calendar-pad" aria-hidden="true" />
              ))}
              {Array.from({ length: days }, (_, i) => {
                const date = `${year}-${pad(month)}-${pad(i + 1)}`;
                const labels = byDay.get(date);
                const outside = date < from || date > to;
                return (
                  <li
                    key={date}
                    className={`calendar-day${outside ? ' calendar-outside' : ''}${labels ? ' calendar-marked' : ''}`}
                    title={labels?.join('\n')}
                    data-date={date}
                  >
                    <span aria-hidden={labels ? 'true' : undefined}>{i + 1}</span>
                    {labels && (
                      <>
                        <span className="calendar-dot" aria-hidden="true" />
                        <span className="visually-hidden">{dayLabel(date, labels)}</span>
                      </>
                    )}
                  </li>
                );
              })}
            </ol>
          </section>
        );
      })}
    </div>
  );
}
