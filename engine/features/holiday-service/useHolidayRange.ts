import { useState } from 'react';
import type { HolidayIssue, HolidayServiceState } from '../../../schemas/generated/account-changes';
import type { Subscription } from '../../../schemas/generated/subscription';
import { todayIso } from '../../account/changes/today';
import { useResource } from '../../account/resource';
import {
  addDaysIso,
  defaultHolidayRange,
  DEFAULT_HOLIDAY_WEEKS,
  holidayEndLimit,
  holidayRangeErrors,
  holidaySubmitBlock,
  issuesInsideDates,
  type HolidayServiceType,
} from '../../domain/holidayService';
import { issuesWithinTerm, lastDayOfTerm } from '../../domain/subscriptionTerm';
import { holidayApi } from './holidayApi';

export type RangeField = 'dateFrom' | 'dateTo';

/**
 * The type and date range of the holiday setup form (account-flows.md §5 "Holiday": from tomorrow —
 * the server's earliestStart —, at most the type's weeks, a download at most one month; §9 picker
 * default four weeks; never after the subscription's end, engine/domain/subscriptionTerm.ts).
 */
export function useHolidayRange(
  s: Subscription,
  state: HolidayServiceState,
  preselected: HolidayServiceType | undefined,
  draft?: { type: HolidayServiceType; range: { dateFrom: string; dateTo: string } },
) {
  // What was typed before a refusal (HolidayDraft) opens the form again where the type is still offered.
  const kept = draft && state.types.includes(draft.type) ? draft : undefined;
  const [type, setType] = useState<HolidayServiceType>(() =>
    kept ? kept.type : preselected && state.types.includes(preselected) ? preselected : state.types[0],
  );
  const weeksOf = (of: HolidayServiceType) => state.maxWeeks[of];
  // No day after the subscription's last one is offered (the server refuses it too).
  const termEnd = lastDayOfTerm(s);
  const [range, setRange] = useState(() =>
    kept ? kept.range : defaultHolidayRange(type, state.earliestStart, weeksOf(type), termEnd),
  );

  // The server's earliest start is the rule's "tomorrow" (§5, §9).
  const rangeToday = addDaysIso(state.earliestStart, -1);
  const rangeErrors = holidayRangeErrors(
    { type, ...range },
    { today: rangeToday, weeks: weeksOf(type), termEnd },
  );
  const rangeOk = rangeErrors.length === 0;

  function chooseType(next: HolidayServiceType) {
    setType(next);
    // A new type keeps the start and opens with its own default length.
    setRange((current) => ({
      dateFrom: current.dateFrom,
      dateTo: holidayEndLimit(
        next,
        current.dateFrom || state.earliestStart,
        Math.min(DEFAULT_HOLIDAY_WEEKS, weeksOf(next)),
        termEnd,
      ),
    }));
  }

  function chooseDate(field: RangeField, value: string) {
    setRange((current) => {
      const next = { ...current, [field]: value };
      // A start moved past the end (or too far before it) takes the default length again.
      if (
        field === 'dateFrom' &&
        value &&
        next.dateTo &&
        (next.dateTo < value || next.dateTo > holidayEndLimit(type, value, weeksOf(type), termEnd))
      ) {
        next.dateTo = holidayEndLimit(type, value, Math.min(DEFAULT_HOLIDAY_WEEKS, weeksOf(type)), termEnd);
      }
      return next;
    });
  }

  const maxDate = range.dateFrom ? holidayEndLimit(type, range.dateFrom, weeksOf(type), termEnd) : undefined;
  return { type, range, termEnd, rangeErrors, rangeOk, maxDate, chooseType, chooseDate };
}

/**
 * The issues a valid range picks (§4 "Holiday service"): those inside its dates, none after the
 * subscription's end, and what blocks the submit (no issue, or only one already shipped).
 */
export function useHolidayIssues(
  s: Subscription,
  { range, rangeOk, termEnd }: Pick<ReturnType<typeof useHolidayRange>, 'range' | 'rangeOk' | 'termEnd'>,
) {
  const today = todayIso();
  const issuesKey = rangeOk
    ? `${s.id}/holiday-issues?${range.dateFrom}&${range.dateTo}`
    : `${s.id}/holiday-issues`;
  const issues = useResource<HolidayIssue[] | null>(issuesKey, (client) =>
    rangeOk ? holidayApi(client).issues(s.id, range.dateFrom, range.dateTo) : Promise.resolve(null),
  );
  // The issues inside the chosen dates, none after the end: the rule the server picks them by.
  const issueList =
    issues.state.status === 'ready' && issues.state.data
      ? issuesWithinTerm(issuesInsideDates(issues.state.data, range), termEnd)
      : null;
  const block = issueList ? holidaySubmitBlock(issueList, today) : null;
  return { today, issues, issueList, block };
}
